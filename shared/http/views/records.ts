import type { AgentRecord, CustomerRecord, StoredLookup } from '../../store/entities/records';
import type { Item } from '../../store/entity';
import type { EntityKind } from '../../store/keys';

/**
 * Records as the API returns them: every field present (null when empty), nothing the store
 * keeps for itself. One view per resource; tickets expand their references with these.
 */
export type View = Record<string, unknown>;

const pick = (record: object, fields: readonly string[]): View =>
  Object.fromEntries(fields.map((name) => [name, (record as Item)[name] ?? null]));

/** Every field of the seed's Customer table, in the seed's order: the detail shape. */
const CUSTOMER_FIELDS = [
  'id',
  'name',
  'birthDate',
  'email',
  'phoneNumber',
  'faxNumber',
  'mobileNumber',
  'address',
  'city',
  'province',
  'state',
  'postalNumber',
  'skypeAddress',
  'msnAddress',
  'gtalkAddress',
  'twitterAccountUrl',
  'facebookAccountUrl',
  'linkedinAccountUrl',
  'googleAccountUrl',
  'youtubeAccountUrl',
  'registrationChannel',
  'topClient',
  'profilePhotoUrl',
  'profilePhotoBlob',
  'signature',
  'memo',
  'website',
  'company',
  'language',
  'account',
  'insertByAgentId',
  'customFields',
] as const;

/** The photo reads back as its URL; the password never reads back. */
export const customerView = (c: CustomerRecord, baseUrl: string): View => ({
  ...pick(c, CUSTOMER_FIELDS),
  profilePhotoUrl: `${baseUrl}/customer/photo/${c.id}`,
  profilePhotoBlob: null,
  account: c.account ? { username: c.account.username ?? null } : null,
});

/** The seed does not show the agent object; this is the smallest shape integrators need. */
const AGENT_FIELDS = ['id', 'name', 'email', 'phoneNumber', 'language', 'signature'] as const;
export const agentView = (a: AgentRecord): View => pick(a, AGENT_FIELDS);

/** `{ id, <name field>, labels: { en, it, es, fr } }`. */
export const lookupView =
  (field: 'type' | 'area' | 'group') =>
  (l: StoredLookup): View => ({ id: l.id, [field]: l[field], labels: l.labels });

/** The view of a stored record of any kind (tickets expand their references with it). */
export const RECORD_VIEWS: Record<Exclude<EntityKind, 'TICKET'>, (item: never, baseUrl: string) => View> = {
  CUSTOMER: customerView,
  AGENT: agentView,
  TICKET_TYPE: lookupView('type'),
  TICKET_AREA: lookupView('area'),
  TICKET_GROUP: lookupView('group'),
};
