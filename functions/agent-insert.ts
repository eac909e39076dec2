import { agents } from '../shared/domain/agents';
import { insertHandler } from '../shared/http/record-write-handlers';

export const handler = insertHandler('agentInsert', agents);
