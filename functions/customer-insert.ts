import { customers } from '../shared/domain/customers';
import { insertHandler } from '../shared/http/record-write-handlers';

export const handler = insertHandler('customerInsert', customers);
