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
export const customerView = (c: CustomerRecord, baseUrl: string): CustomerView => ({
  ...pick(c as CustomerRecord & Pick<CustomerView, 'profilePhotoUrl' | 'profilePhotoBlob'>, CUSTOMER_FIELDS),
  profilePhotoUrl: `${baseUrl}/customer/photo/${c.id}`,
  profilePhotoBlob: null,
  account: c.account ? { username: c.account.username ?? null } : null,
});

/** The seed does not show the agent object; this is the smallest shape integrators need. */
const AGENT_FIELDS = ['id', 'name', 'email', 'phoneNumber', 'language', 'signature'] as const;
export const agentView = (a: AgentRecord): AgentView => pick(a, AGENT_FIELDS);

/** `{ id, <name field>, labels: { en, it, es, fr } }`. */
export const lookupView =
  <F extends LookupField>(field: F) =>
  (l: StoredLookup): LookupViews[F] =>
    ({ id: l.id, [field]: l[field], labels: l.labels }) as LookupViews[F];

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
