import { agents } from '../shared/domain/agents';
import { deleteHandler } from '../shared/http/record-handlers';

export const handler = deleteHandler('agentDelete', agents);
