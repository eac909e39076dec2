import { customers } from '../shared/domain/customers';
import { updateHandler } from '../shared/http/record-write-handlers';

export const handler = updateHandler('customerUpdate', customers);
