import { customers } from '../shared/domain/customers';
import { deleteHandler } from '../shared/http/record-write-handlers';

export const handler = deleteHandler('customerDelete', customers);
