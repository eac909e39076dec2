import { insertHandler } from '../shared/http/record-handlers';
import { customers } from '../shared/resources/customer';

export const handler = insertHandler('customerInsert', customers);
