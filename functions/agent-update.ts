import { agents } from '../shared/domain/agents';
import { updateHandler } from '../shared/http/record-write-handlers';

export const handler = updateHandler('agentUpdate', agents);
