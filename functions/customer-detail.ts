import { detailHandler } from '../shared/http/record-handlers';
import { customers } from '../shared/resources/customer';

export const handler = detailHandler('customerDetail', customers);
