import type { LookupField } from '../../schemas/lookups';
import type { AgentView, CustomerView, DeliveryView, LookupViews, WebhookView } from '../../schemas/views';
import type { DeliveryAttempt } from '../../store/deliveries';
import type { AgentRecord, CustomerRecord, StoredLookup, WebhookRecord } from '../../store/entities/records';
import type { Item } from '../../store/entity';
import type { EntityKind } from '../../store/keys';

/**
 * Records as the API returns them: every field present (null when empty), nothing the store
 * keeps for itself. One view per resource, typed by its response schema (shared/schemas/views.ts);
 * tickets expand their references with these.
 */
export type View = Record<string, unknown>;

/** How a record resource shows one record (its detail, and each record of its pages). */
export type RecordShape<T> = (record: T, baseUrl: string) => View;

/** The named fields of a record; an absent optional one reads as null. */
type Picked<T, K extends keyof T> = {
  [P in K]-?: undefined extends T[P] ? Exclude<T[P], undefined> | null : T[P];
};
const pick = <T extends object, K extends keyof T>(record: T, fields: readonly K[]): Picked<T, K> => {
  const view: Item = {};
  for (const name of fields) view[name as string] = (record as Item)[name as string] ?? null;
  return view as Picked<T, K>;
};

/**
 * Every field of the seed's Customer table, in the seed's order: the detail shape. The photo reads
 * back as its URL; the password never reads back. The views that tickets expand are object
 * literals, not objects filled from a list of names (which V8 turns into a dictionary past a dozen
 * keys: slower to build, docs/performance.md "Issue 27, eleventh pass"). The compiler holds each
 * to its schema's fields; test/unit/views.test.ts holds this one to the seed's order.
 */
export const customerView = (c: CustomerRecord, baseUrl: string): CustomerView => ({
  id: c.id ?? null,
  name: c.name ?? null,
  birthDate: c.birthDate ?? null,
  email: c.email ?? null,
  phoneNumber: c.phoneNumber ?? null,
  faxNumber: c.faxNumber ?? null,
  mobileNumber: c.mobileNumber ?? null,
  address: c.address ?? null,
  city: c.city ?? null,
  province: c.province ?? null,
  state: c.state ?? null,
  postalNumber: c.postalNumber ?? null,
  skypeAddress: c.skypeAddress ?? null,
  msnAddress: c.msnAddress ?? null,
  gtalkAddress: c.gtalkAddress ?? null,
  twitterAccountUrl: c.twitterAccountUrl ?? null,
  facebookAccountUrl: c.facebookAccountUrl ?? null,
  linkedinAccountUrl: c.linkedinAccountUrl ?? null,
  googleAccountUrl: c.googleAccountUrl ?? null,
  youtubeAccountUrl: c.youtubeAccountUrl ?? null,
  registrationChannel: c.registrationChannel ?? null,
  topClient: c.topClient ?? null,
  profilePhotoUrl: `${baseUrl}/customer/photo/${c.id}`,
  profilePhotoBlob: null,
  signature: c.signature ?? null,
  memo: c.memo ?? null,
  website: c.website ?? null,
  company: c.company ?? null,
  language: c.language ?? null,
  account: c.account ? { username: c.account.username ?? null } : null,
  insertByAgentId: c.insertByAgentId ?? null,
  customFields: c.customFields ?? null,
});

/** The seed does not show the agent object; this is the smallest shape integrators need. */
export const agentView = (a: AgentRecord): AgentView => ({
  id: a.id ?? null,
  name: a.name ?? null,
  email: a.email ?? null,
  phoneNumber: a.phoneNumber ?? null,
  language: a.language ?? null,
  signature: a.signature ?? null,
});

/**
 * `{ id, <name field>, labels: { en, it, es, fr } }`: one literal per name field (an object made
 * with a computed key is slower to build).
 */
const LOOKUP_VIEWS: { [F in LookupField]: (l: StoredLookup) => LookupViews[F] } = {
  type: (l) => ({ id: l.id, type: l.type as string, labels: l.labels }),
  area: (l) => ({ id: l.id, area: l.area as string, labels: l.labels }),
  group: (l) => ({ id: l.id, group: l.group as string, labels: l.labels }),
};
export const lookupView = <F extends LookupField>(field: F) => LOOKUP_VIEWS[field];

/** A webhook subscription: never its secret. */
const WEBHOOK_FIELDS = [
  'id',
  'url',
  'types',
  'enabled',
  'description',
  'createdAt',
  'disabledReason',
] as const;
export const webhookView = (w: WebhookRecord): WebhookView => pick(w, WEBHOOK_FIELDS);

/** A delivery attempt as stored, without its keys and TTL (store/deliveries.ts). */
export const deliveryView = (a: DeliveryAttempt): DeliveryView => ({
  eventId: a.eventId,
  eventType: a.eventType as DeliveryView['eventType'],
  attempt: a.attempt,
  at: a.at,
  ok: a.ok,
  status: a.status ?? null,
  error: a.error ?? null,
  response: a.response ?? null,
  ms: a.ms,
});

/** The view of a stored record of any kind (tickets expand their references with it). */
export const RECORD_VIEWS: {
  CUSTOMER: (c: CustomerRecord, baseUrl: string) => CustomerView;
  AGENT: (a: AgentRecord, baseUrl: string) => AgentView;
  TICKET_TYPE: (l: StoredLookup, baseUrl: string) => LookupViews['type'];
  TICKET_AREA: (l: StoredLookup, baseUrl: string) => LookupViews['area'];
  TICKET_GROUP: (l: StoredLookup, baseUrl: string) => LookupViews['group'];
} = {
  CUSTOMER: customerView,
  AGENT: agentView,
  TICKET_TYPE: lookupView('type'),
  TICKET_AREA: lookupView('area'),
  TICKET_GROUP: lookupView('group'),
} satisfies Record<Exclude<EntityKind, 'TICKET' | 'WEBHOOK'>, unknown>;
