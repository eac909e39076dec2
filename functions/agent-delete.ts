import { agents } from '../shared/domain/agents';
import { deleteHandler } from '../shared/http/record-write-handlers';

export const handler = deleteHandler('agentDelete', agents);
