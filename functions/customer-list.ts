import { listHandler } from '../shared/http/record-handlers';
import { customers } from '../shared/resources/customer';

export const handler = listHandler('customerList', customers);
