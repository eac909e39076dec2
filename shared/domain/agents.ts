import type { AgentInput } from '../schemas/agent';
import { type AgentRecord, agentEntity } from '../store/entities/records';
import type { RecordResource } from './records';

/** Agents: new ones default to language `en`. */
export const agents: RecordResource<AgentRecord, AgentInput> = {
  entity: agentEntity,
  prepare: (input, current) => (current === undefined ? { language: 'en', ...input } : { ...input }),
};
