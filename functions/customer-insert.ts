import { insertHandler } from '../shared/http/record-handlers';
import { customersWithPhoto } from '../shared/resources/customer-with-photo';

export const handler = insertHandler('customerInsert', customersWithPhoto);
