import { agents } from '../shared/domain/agents';
import { updateHandler } from '../shared/http/record-handlers';

export const handler = updateHandler('agentUpdate', agents);
