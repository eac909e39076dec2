import { updateHandler } from '../shared/http/record-handlers';
import { customers } from '../shared/resources/customer';

export const handler = updateHandler('customerUpdate', customers);
