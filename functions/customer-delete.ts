import { deleteHandler } from '../shared/http/record-handlers';
import { customersWithPhoto } from '../shared/resources/customer-with-photo';

export const handler = deleteHandler('customerDelete', customersWithPhoto);
