import { updateHandler } from '../shared/http/record-handlers';
import { agents } from '../shared/resources/agent';

export const handler = updateHandler('agentUpdate', agents);
