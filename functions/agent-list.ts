import { listHandler } from '../shared/http/record-handlers';
import { agents } from '../shared/resources/agent';

export const handler = listHandler('agentList', agents);
