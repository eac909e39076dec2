import { insertHandler } from '../shared/http/record-handlers';
import { agents } from '../shared/resources/agent';

export const handler = insertHandler('agentInsert', agents);
