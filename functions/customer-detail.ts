import { detailHandler } from '../shared/http/record-detail-handler';
import { customerView } from '../shared/http/views/records';
import { customerEntity } from '../shared/store/entities/records';

export const handler = detailHandler('customerDetail', customerEntity, customerView);
