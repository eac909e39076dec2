import { listHandler } from '../shared/http/record-list-handler';
import { customerView } from '../shared/http/views/records';
import { customerEntity } from '../shared/store/entities/records';

export const handler = listHandler('customerList', customerEntity, 'customer', customerView);
