import * as z from 'zod/mini';
import { email, language, optionalText, requiredText } from './fields';

/**
 * Agents are the help-desk staff that tickets are assigned to and replies come from.
 * The seed does not show the agent object; this is the smallest shape integrators need.
 */
const fields = () => ({
  name: requiredText(200),
  email,
  phoneNumber: optionalText(50),
  language,
  signature: optionalText(10_000),
});

export const agentUpdate = z.lazy(() => z.partial(z.object(fields())));
/** The insert body as an object schema (an import line extends it: schemas/import.ts). */
export const agentInsertObject = () => {
  const f = fields();
  return z.extend(z.partial(z.object(f)), { name: f.name, email: f.email });
};
export const agentInsert = z.lazy(agentInsertObject);
export type AgentInput = z.output<typeof agentUpdate>;
