import type { CustomerRecord } from '../store/entities/records';
import type { DocumentRecord, NoteRecord, ReplyRecord, TicketRecord } from '../store/entities/ticket';

/**
 * What an erasure (domain/customer-erasure.ts) leaves of the text it keeps (docs/decisions.md,
 * "Erasure"): what the customer wrote (a ticket's description, their replies) is replaced whole;
 * every other text of their tickets (subjects, agents' replies, notes, file names, custom fields,
 * history values) keeps its words, each of the customer's identifiers in it (e-mail, name,
 * numbers, addresses, account name) replaced, wherever it stands between non-letters.
 */
export const ERASED = '[erased]';

/** Shorter identifiers (a two-letter name) would erase parts of unrelated words: not searched for. */
const MIN_IDENTIFIER = 3;

const IDENTIFYING: readonly (keyof CustomerRecord)[] = [
  'email',
  'name',
  'phoneNumber',
  'mobileNumber',
  'faxNumber',
  'address',
  'skypeAddress',
  'msnAddress',
  'gtalkAddress',
  'twitterAccountUrl',
  'facebookAccountUrl',
  'linkedinAccountUrl',
  'googleAccountUrl',
  'youtubeAccountUrl',
  'website',
];

/** The customer's identifiers found in other text, longest first (a name inside an e-mail goes with it). */
export const identifiersOf = (customer: Partial<CustomerRecord>): string[] => {
  const values = IDENTIFYING.map((field) => customer[field]);
  values.push(customer.account?.username ?? null);
  const found = values
    .filter((v): v is string => typeof v === 'string')
    .map((v) => v.trim())
    .filter((v) => v.length >= MIN_IDENTIFIER);
  return [...new Set(found)].sort((a, b) => b.length - a.length);
};

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One text with every identifier replaced (case-insensitively, not inside a longer word). */
export type Redact = (text: string) => string;

export const redactorOf = (identifiers: readonly string[]): Redact => {
  if (identifiers.length === 0) return (text) => text;
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{N}])(?:${identifiers.map(literal).join('|')})(?![\\p{L}\\p{N}])`,
    'giu',
  );
  return (text) => text.replace(pattern, ERASED);
};

/** Every string inside a value (objects and arrays walked), redacted. */
export const redactDeep = <T>(value: T, redact: Redact): T => {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, redact)])) as T;
  return value;
};

/** The text fields of a ticket an anonymising erasure changes: its description (theirs), the rest redacted. */
export const anonymisedTicket = (t: Partial<TicketRecord>, redact: Redact): Partial<TicketRecord> => ({
  ...(t.description !== undefined ? { description: ERASED } : {}),
  ...(typeof t.subject === 'string' ? { subject: redact(t.subject) } : {}),
  ...(typeof t.memo === 'string' ? { memo: redact(t.memo) } : {}),
  ...(t.customFields ? { customFields: redactDeep(t.customFields, redact) } : {}),
});

/** A reply from the customer (no agent wrote it) says nothing any more; an agent's is redacted. */
export const anonymisedReply = (r: ReplyRecord, redact: Redact): Pick<ReplyRecord, 'text'> => ({
  text: r.replyFromOperator ? redact(r.text) : ERASED,
});

export const anonymisedNote = (n: NoteRecord, redact: Redact): Pick<NoteRecord, 'note'> => ({
  note: redact(n.note),
});

export const anonymisedDocument = (
  d: DocumentRecord,
  redact: Redact,
): Pick<DocumentRecord, 'documentName'> => ({ documentName: redact(d.documentName) });

/** Which of these are the customer's own: what they wrote (a ticket's documents, those of their replies). */
export const customersDocuments = (documents: DocumentRecord[], replies: ReplyRecord[]): DocumentRecord[] => {
  const theirs = new Set(replies.filter((r) => !r.replyFromOperator).map((r) => r.id));
  return documents.filter((d) => d.replyId === null || d.replyId === undefined || theirs.has(d.replyId));
};
