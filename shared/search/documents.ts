import type { CustomerRecord, Stored } from '../store/entities/records';
import type { DocumentRecord, NoteRecord, ReplyRecord, TicketRecord } from '../store/entities/ticket';

/**
 * What the index keeps of a ticket and of a customer (docs/search.md): the fields the query
 * language filters by, and the text it matches, as plain strings. Pure: the indexer
 * (search/indexer.ts) reads the records, these shape them, search/index-writes.ts stores them.
 */

/** PostgreSQL's text search configuration for a customer's language (search/schema.ts). */
const CONFIGS: Record<string, string> = { en: 'english', it: 'italian', es: 'spanish', fr: 'french' };
export const configOf = (language: string | null | undefined): string =>
  (language && CONFIGS[language]) || 'simple';

/** Every configuration a row may have: a query is read in each (search/compile.ts). */
export const SEARCH_CONFIGS = ['simple', ...Object.values(CONFIGS)] as const;

/**
 * The most characters of one text field the index keeps: a tsvector holds at most 1 MB and 16 383
 * word positions, and a longer text would fail its row (and stop the stream). A conversation
 * longer than this is matched on its first REPLY_CHARS characters (docs/search.md, "Limits").
 */
export const FIELD_CHARS = 100_000;
export const REPLY_CHARS = 300_000;

/** The marks search/highlights.ts puts around a match: private-use characters, removed from the text first. */
export const MARK_START = '\uE000';
export const MARK_END = '\uE001';

/** Text PostgreSQL can hold and the snippets can mark: no NUL, no mark characters; at most `max` characters. */
export const indexable = (text: string | null | undefined, max = FIELD_CHARS): string | null => {
  if (!text) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what PostgreSQL's text refuses
  const clean = text.replace(/[\u0000\uE000\uE001]/g, ' ');
  return clean.length > max ? clean.slice(0, max) : clean;
};

/** An address, its domain, and its parts as words (`jane.doe@example.com` → `example.com jane doe example com`). */
const emailWords = (email: string | null | undefined): string =>
  email
    ? `${email} ${email.slice(email.lastIndexOf('@') + 1)} ${email.replace(/[^\p{L}\p{N}]+/gu, ' ')}`
    : '';

export interface TicketDocument {
  id: string;
  version: number;
  status: string;
  priority: number;
  tags: string[];
  openedBy: string | null;
  assignedTo: string | null;
  type: string | null;
  area: string | null;
  group: string | null;
  createdAt: number;
  updatedAt: number;
  hasAttachment: boolean;
  subject: string | null;
  description: string | null;
  replies: string | null;
  notes: string | null;
  documents: string | null;
}

/** A ticket's conversation: its own, or with those of the tickets merged into it. */
export interface Conversation {
  replies: ReplyRecord[];
  notes: NoteRecord[];
  documents: DocumentRecord[];
}

const joined = (texts: string[], max: number) => indexable(texts.filter(Boolean).join('\n'), max);

export const ticketDocument = (
  ticket: TicketRecord & { version: number },
  c: Conversation,
): TicketDocument => ({
  id: ticket.id,
  version: ticket.version,
  status: ticket.status,
  priority: Number(ticket.priority),
  tags: [...new Set(ticket.tags ?? [])],
  openedBy: ticket.openedBy ?? null,
  assignedTo: ticket.assignedTo ?? null,
  type: ticket.type ?? null,
  area: ticket.area ?? null,
  group: ticket.group ?? null,
  createdAt: ticket.insertDate,
  updatedAt: ticket.managedDate,
  hasAttachment: c.documents.length > 0,
  subject: indexable(ticket.subject),
  description: indexable(ticket.description),
  // Oldest first: the beginning of a conversation is what a cap keeps.
  replies: joined(
    [...c.replies].sort((a, b) => a.replyDate - b.replyDate).map((r) => r.text),
    REPLY_CHARS,
  ),
  notes: joined(
    [...c.notes].sort((a, b) => a.date - b.date).map((n) => n.note),
    FIELD_CHARS,
  ),
  documents: joined(
    c.documents.map((d) => d.documentName),
    FIELD_CHARS,
  ),
});

export interface CustomerDocument {
  id: string;
  version: number;
  config: string;
  name: string | null;
  email: string | null;
  /** The other words a customer is found by: company, phones, address, memo… */
  details: string | null;
  createdAt: number;
  updatedAt: number;
  /** What a ticket of theirs is also found by: name and address. */
  ticketText: string | null;
}

const DETAILS = [
  'company',
  'phoneNumber',
  'mobileNumber',
  'faxNumber',
  'address',
  'city',
  'province',
  'postalNumber',
  'website',
  'memo',
] as const satisfies readonly (keyof CustomerRecord)[];

export const customerDocument = (c: Stored<CustomerRecord>): CustomerDocument => ({
  id: c.id,
  version: c.version,
  config: configOf(c.language),
  name: indexable(c.name),
  email: indexable(emailWords(c.email)),
  details: joined(
    DETAILS.map((field) => String(c[field] ?? '')),
    FIELD_CHARS,
  ),
  createdAt: c.createdAt,
  updatedAt: c.updatedAt ?? c.createdAt,
  ticketText: indexable(`${c.name ?? ''} ${emailWords(c.email)}`.trim()),
});
