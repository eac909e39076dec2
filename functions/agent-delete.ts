import { deleteHandler } from '../shared/http/record-handlers';
import { agents } from '../shared/resources/agent';

export const handler = deleteHandler('agentDelete', agents);
