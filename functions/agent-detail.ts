import { detailHandler } from '../shared/http/record-detail-handler';
import { agentView } from '../shared/http/views/records';
import { agentEntity } from '../shared/store/entities/records';

export const handler = detailHandler('agentDetail', agentEntity, agentView);
