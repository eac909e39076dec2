import * as z from 'zod/mini';
import { email, language, optionalText, requiredText } from '../schemas/fields';
import type { Fields, ResourceSpec } from './resource-spec';

const lower = (s: string) => s.toLowerCase();

/**
 * Agents are the help-desk staff that tickets are assigned to and replies come from.
 * The seed does not show the agent object; this is the smallest shape integrators need.
 */
const API_FIELDS = ['id', 'name', 'email', 'phoneNumber', 'language', 'signature'] as const;

const fields = {
  name: requiredText(200),
  email,
  phoneNumber: optionalText(50),
  language,
  signature: optionalText(10_000),
};

export const agents: ResourceSpec = {
  kind: 'AGENT',
  label: 'Agent',
  pathPrefix: 'agent',
  listKey: 'agent',
  insertSchema: z.extend(z.partial(z.object(fields)), { name: fields.name, email: fields.email }),
  updateSchema: z.partial(z.object(fields)),
  search: {
    email: { slot: 's1', field: 'email', normalize: lower },
    name: { slot: 's2', field: 'name' },
  },
  unique: [
    {
      field: 'email',
      normalize: lower,
      code: 'duplicate-email',
      message: 'Another agent of this account already has this e-mail address.',
    },
  ],
  references: [],
  store: (input, current) => (current === undefined ? { language: 'en', ...input } : { ...input }),
  toApi: (item) => {
    const out: Fields = {};
    for (const name of API_FIELDS) out[name] = item[name] ?? null;
    return out;
  },
};
