import { agents } from '../shared/domain/agents';
import { insertHandler } from '../shared/http/record-handlers';

export const handler = insertHandler('agentInsert', agents);
