import { deleteHandler } from '../shared/http/record-handlers';
import { customers } from '../shared/resources/customer';

export const handler = deleteHandler('customerDelete', customers);
