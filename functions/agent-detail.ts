import { detailHandler } from '../shared/http/record-handlers';
import { agents } from '../shared/resources/agent';

export const handler = detailHandler('agentDetail', agents);
