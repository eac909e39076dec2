import { listHandler } from '../shared/http/record-list-handler';
import { agentView } from '../shared/http/views/records';
import { agentEntity } from '../shared/store/entities/records';

export const handler = listHandler('agentList', agentEntity, 'agent', agentView);
