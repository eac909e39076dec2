import * as z from 'zod/mini';
import { documentList } from './documents';
import {
  type LANGUAGES,
  looseTimestamp,
  onFirstUse,
  optionalText,
  reference,
  requiredText,
  text,
} from './fields';

/** Limits of a ticket, documented in docs/decisions.md. */
export const TICKET_LIMITS = {
  subject: 500,
  description: 64_000,
  replyText: 32_000,
  note: 10_000,
  tags: 20,
  tagLength: 100,
  cc: 10,
  /** Replies in one insert or update body (each is an item in the same transaction). */
  repliesPerWrite: 20,
  customFields: 50,
  /** `externalId1`: the key of the ticket in an integrator's own system. */
  externalId: 255,
  /** Tickets one merge request names (`PUT /ticket/merge/{id}`). */
  mergeSources: 10,
} as const;

export const STATUSES = ['opened', 'on hold', 'solved', 'closed'] as const;
export type Status = (typeof STATUSES)[number];

export const SOURCES = [
  'web',
  'email',
  'phone',
  'chat',
  'api',
  'twitter',
  'facebook',
  'linkedin',
  'googleplus',
  'youtube',
] as const;

/** `onhold` is accepted as input for `on hold`, as Deskero clients send both. */
export const parseStatus = (value: string): Status | undefined => {
  const normalized = value.trim().toLowerCase() === 'onhold' ? 'on hold' : value.trim().toLowerCase();
  return (STATUSES as readonly string[]).includes(normalized) ? (normalized as Status) : undefined;
};

/** Status and source travel by name: `{"status": "closed"}` or plain `"closed"`. */
const named = <T extends string>(
  field: string,
  values: readonly T[],
  parse: (s: string) => T | undefined,
  note = '',
) =>
  z.pipe(
    z
      .union([z.string(), z.object({ [field]: z.string() })])
      .check(
        z.describe(
          `One of ${values.join(', ')}${note}, case-insensitive: "${values[0]}" or {"${field}": "${values[0]}"}.`,
        ),
      ),
    z.transform((v: string | Record<string, string>, ctx) => {
      const parsed = parse((typeof v === 'string' ? v : v[field]) ?? '');
      if (!parsed)
        ctx.issues.push({ code: 'custom', message: `must be one of ${values.join(', ')}`, input: v });
      return parsed as T;
    }),
  );

const status = () => named('status', STATUSES, parseStatus, ' (`onhold` reads as `on hold`)');
const source = () =>
  named('source', SOURCES, (s) =>
    (SOURCES as readonly string[]).includes(s.trim().toLowerCase())
      ? (s.trim().toLowerCase() as (typeof SOURCES)[number])
      : undefined,
  );

const tag = () =>
  z.pipe(
    z.pipe(
      z
        .union([z.string(), z.object({ tag: z.string() })])
        .check(z.describe('A tag, as a string or {"tag": …}; 1 to 100 characters once trimmed.')),
      z.transform((v: string | { tag: string }) => (typeof v === 'string' ? v : v.tag).trim()),
    ),
    z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(TICKET_LIMITS.tagLength)),
  );

/** Tags arrive as strings or tag objects; stored as distinct strings in the order given. */
const tags = () =>
  z.pipe(
    z.array(tag()).check(z.maxLength(TICKET_LIMITS.tags, `at most ${TICKET_LIMITS.tags} tags`)),
    z.transform((list: string[]) => [...new Set(list)]),
  );

const customField = () =>
  z.object({
    name: requiredText(100),
    value: z.union([text(2000), z.number(), z.boolean(), z.null()]),
  });

export const replyInput = z.lazy(() =>
  z.object({
    text: requiredText(TICKET_LIMITS.replyText),
    replyDate: z.optional(looseTimestamp),
    replyFromOperator: z.optional(z.nullable(reference)),
    attachedDocuments: z.optional(documentList),
  }),
);
export type ReplyInput = z.output<typeof replyInput>;

const max = (n: number, message?: string) => z.maxLength(n, message ?? `at most ${n}`);

const ticketFields = onFirstUse(() =>
  z.object({
    subject: requiredText(TICKET_LIMITS.subject),
    description: requiredText(TICKET_LIMITS.description),
    openedBy: reference,
    type: z.nullable(reference),
    area: z.nullable(reference),
    group: z.nullable(reference),
    assignedTo: z.nullable(reference),
    cc: z.array(reference).check(max(TICKET_LIMITS.cc, `at most ${TICKET_LIMITS.cc} agents in cc`)),
    priority: z.union([z.literal(0), z.literal(1)], 'must be 0 or 1'),
    status: status(),
    source: source(),
    tags: tags(),
    memo: optionalText(10_000),
    customFields: z.array(customField()).check(max(TICKET_LIMITS.customFields)),
    tweetId: optionalText(100),
    tweetType: z.nullable(z.enum(['mention', 'direct message'])),
    facebookId: optionalText(100),
    facebookType: z.nullable(z.enum(['post', 'private message'])),
    linkedinId: optionalText(100),
    linkedinType: optionalText(100),
    googlePlusId: optionalText(100),
    googlePlusType: optionalText(100),
    youtubeId: optionalText(100),
    youtubeType: optionalText(100),
    messageUniqueId: optionalText(1000),
    customPortalId: optionalText(100),
    // Not a seed field: Deskero records carry it; integrators search by it (exact match).
    externalId1: optionalText(TICKET_LIMITS.externalId),
    toReply: z.boolean(),
    toReplyCustomer: z.boolean(),
    replies: z
      .array(replyInput)
      .check(max(TICKET_LIMITS.repliesPerWrite, `at most ${TICKET_LIMITS.repliesPerWrite} replies`)),
    attachedDocuments: documentList,
  }),
);

/** Every field a ticket body may carry, by name (domain/ticket-rules.ts derives defaults from them). */
export const ticketFieldSchemas = () => ticketFields().shape;

export const ticketUpdate = z.lazy(() => z.partial(ticketFields()));
export const ticketInsert = z.lazy(() => {
  const { subject, description, openedBy } = ticketFields().shape;
  return z.extend(z.partial(ticketFields()), { subject, description, openedBy });
});
export type TicketInput = z.output<typeof ticketUpdate>;

export const noteInput = z.lazy(() =>
  z.object({
    note: requiredText(TICKET_LIMITS.note),
    insertBy: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(64)))),
    assignedTo: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(64)))),
    date: z.optional(looseTimestamp),
    remindMe: z.optional(z.nullable(looseTimestamp)),
  }),
);
export type NoteInput = z.output<typeof noteInput>;

/** `PUT /ticket/merge/{id}`: the tickets merged into it, 1 to 10 ids, each once. */
export const mergeInput = z.lazy(() =>
  z.strictObject({
    sources: z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(
      z.minLength(1, 'name at least one ticket'),
      z.maxLength(TICKET_LIMITS.mergeSources, `at most ${TICKET_LIMITS.mergeSources} tickets at once`),
      z.refine((ids) => new Set(ids).size === ids.length, 'name each ticket once'),
    ),
  }),
);

/** Labels of the fixed vocabularies, returned inside status and source objects. */
type Labels = Record<(typeof LANGUAGES)[number], string>;
export const STATUS_LABELS: Record<Status, Labels> = {
  opened: { en: 'Opened', it: 'Aperto', es: 'Abierto', fr: 'Ouvert' },
  'on hold': { en: 'On hold', it: 'In attesa', es: 'En espera', fr: 'En attente' },
  solved: { en: 'Solved', it: 'Risolto', es: 'Resuelto', fr: 'Résolu' },
  closed: { en: 'Closed', it: 'Chiuso', es: 'Cerrado', fr: 'Fermé' },
};

export const SOURCE_LABELS: Record<(typeof SOURCES)[number], Labels> = {
  web: { en: 'Web', it: 'Web', es: 'Web', fr: 'Web' },
  email: { en: 'E-mail', it: 'E-mail', es: 'Correo electrónico', fr: 'E-mail' },
  phone: { en: 'Phone', it: 'Telefono', es: 'Teléfono', fr: 'Téléphone' },
  chat: { en: 'Chat', it: 'Chat', es: 'Chat', fr: 'Chat' },
  api: { en: 'API', it: 'API', es: 'API', fr: 'API' },
  twitter: { en: 'Twitter', it: 'Twitter', es: 'Twitter', fr: 'Twitter' },
  facebook: { en: 'Facebook', it: 'Facebook', es: 'Facebook', fr: 'Facebook' },
  linkedin: { en: 'LinkedIn', it: 'LinkedIn', es: 'LinkedIn', fr: 'LinkedIn' },
  googleplus: { en: 'Google+', it: 'Google+', es: 'Google+', fr: 'Google+' },
  youtube: { en: 'YouTube', it: 'YouTube', es: 'YouTube', fr: 'YouTube' },
};
