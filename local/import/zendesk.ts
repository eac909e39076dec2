import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DOCUMENT_LIMITS } from '../../shared/schemas/documents';
import type { ImportLineInput } from '../../shared/schemas/import';
import { type SOURCES, TICKET_LIMITS } from '../../shared/schemas/ticket';
import type { Conversion } from './conversion';
import { fileRecords, type Json, readRecords, subdirFiles } from './export-files';

/**
 * `helpdesk import convert zendesk <dir>`: a Zendesk export as import lines (docs/import.md).
 *
 * Reads, from `<dir>`: `users*` (the Users API's pages or the JSON export; end-users become
 * customers, agents and admins agents), `organizations*` (a customer's `company`), `groups*`
 * (ticket groups), `tickets*` (the incremental or list export, or the JSON export whose tickets
 * carry their `comments`), and comments as `comments/<ticket id>.json` (the List Comments API's
 * pages) or `ticket_comments*` (comments carrying their `ticket_id`). Attachments are read from
 * `attachments/<attachment id>/<file name>` or `attachments/<file name>` when they are there.
 *
 * A ticket's first comment is its description; later public comments are replies (an agent's
 * with `replyFromOperator`), private ones notes. Statuses: new and open are `opened`, pending
 * and hold `on hold`, solved `solved`, closed `closed`; priorities urgent and high are 1, the
 * rest 0. A ticket keeps its Zendesk id as its number (`<id>/<year created>`) and as `externalId1`
 * unless it has an `external_id` (its key in another system), which `externalId1` then keeps;
 * a closed ticket's `closedDate` is its last update (the export has no close date).
 */
const str = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
const idOf = (value: unknown): string | undefined =>
  typeof value === 'number' || (typeof value === 'string' && value !== '') ? String(value) : undefined;
const msOf = (value: unknown): number | undefined => {
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? ms : undefined;
};

const STATUSES: Record<string, string> = {
  new: 'opened',
  open: 'opened',
  pending: 'on hold',
  hold: 'on hold',
  solved: 'solved',
  closed: 'closed',
};
const CHANNELS: Record<string, (typeof SOURCES)[number]> = {
  web: 'web',
  email: 'email',
  api: 'api',
  chat: 'chat',
  native_messaging: 'chat',
  voice: 'phone',
  twitter: 'twitter',
  facebook: 'facebook',
};
const LANGUAGES = ['en', 'it', 'es', 'fr'];

/** Text cut to `max` characters, saying so (a warning, and a mark at the cut). */
const cut = (text: string, max: number, what: string, warnings: string[]): string => {
  if (text.length <= max) return text;
  warnings.push(`${what}: ${text.length} characters, cut to ${max}`);
  const mark = ' […]';
  return text.slice(0, max - mark.length) + mark;
};

export const convertZendesk = (dir: string): Conversion => {
  const warnings: string[] = [];
  const lines: ImportLineInput[] = [];
  const organizations = new Map(
    readRecords(dir, 'organizations').map((o) => [idOf(o.id), str(o.name)] as const),
  );

  const agents = new Set<string>();
  for (const user of latestById(readRecords(dir, 'users'))) {
    const id = idOf(user.id);
    if (!id) continue;
    const name = str(user.name)?.trim() || str(user.email) || `Zendesk user ${id}`;
    let email = str(user.email)?.trim();
    if (!email) {
      // Our customers and agents need an address; `.invalid` can never be anyone's (RFC 2606).
      email = `zendesk-user-${id}@example.invalid`;
      warnings.push(`user ${id}: no e-mail address, given ${email}`);
    }
    const phone = str(user.phone);
    const locale = str(user.locale)?.slice(0, 2).toLowerCase();
    const language = locale && LANGUAGES.includes(locale) ? locale : undefined;
    // What agents and customers both have.
    const person = {
      externalId: id,
      name: cut(name, 200, `user ${id} name`, warnings),
      email,
      ...(phone ? { phoneNumber: cut(phone, 50, `user ${id} phone`, warnings) } : {}),
      ...(language ? { language: language as 'en' } : {}),
    };
    if (user.role === 'agent' || user.role === 'admin') {
      agents.add(id);
      lines.push({ kind: 'agent', ...person });
    } else {
      const company = organizations.get(idOf(user.organization_id));
      const notes = str(user.notes) || str(user.details);
      lines.push({
        kind: 'customer',
        ...person,
        ...(company ? { company: cut(company, 200, `user ${id} company`, warnings) } : {}),
        ...(notes ? { memo: cut(notes, 10_000, `user ${id} notes`, warnings) } : {}),
      });
    }
  }

  for (const group of readRecords(dir, 'groups')) {
    const id = idOf(group.id);
    const name = str(group.name)?.trim();
    if (id && name)
      lines.push({ kind: 'ticketGroup', externalId: id, group: cut(name, 100, `group ${id}`, warnings) });
  }

  const comments = commentsByTicket(dir);
  const types = new Set<string>();
  const ticketLines: ImportLineInput[] = [];
  for (const ticket of latestById(readRecords(dir, 'tickets'))) {
    const id = idOf(ticket.id);
    const created = msOf(ticket.created_at);
    const requester = idOf(ticket.requester_id);
    if (!id || created === undefined || !requester) {
      warnings.push(`ticket ${id ?? '(no id)'}: no id, creation date or requester: left out`);
      continue;
    }
    const updated = msOf(ticket.updated_at) ?? created;
    const embedded = Array.isArray(ticket.comments) ? (ticket.comments as Json[]) : [];
    // A comment both embedded and in a comments file is one comment.
    const thread = [
      ...new Map([...embedded, ...(comments.get(id) ?? [])].map((c) => [idOf(c.id) ?? c, c])).values(),
    ].sort((a, b) => (msOf(a.created_at) ?? 0) - (msOf(b.created_at) ?? 0));
    const [first, ...rest] = thread;
    const status = STATUSES[str(ticket.status) ?? ''] ?? 'opened';
    const type = str(ticket.type);
    if (type) types.add(type);
    const assignee = idOf(ticket.assignee_id);
    const group = idOf(ticket.group_id);
    const channel = CHANNELS[str((ticket.via as Json | undefined)?.channel) ?? ''];
    const tags = (Array.isArray(ticket.tags) ? ticket.tags : []).map(String).filter((t) => t.trim() !== '');
    if (tags.length > TICKET_LIMITS.tags)
      warnings.push(`ticket ${id}: ${tags.length} tags, the first ${TICKET_LIMITS.tags} kept`);
    const cc = (Array.isArray(ticket.collaborator_ids) ? ticket.collaborator_ids : [])
      .map(idOf)
      .filter((c): c is string => c !== undefined && agents.has(c))
      .slice(0, TICKET_LIMITS.cc);
    const description =
      str(ticket.description)?.trim() || textOf(first)?.trim() || str(ticket.subject) || '(no description)';
    const firstIsDescription = first !== undefined && textOf(first)?.trim() === description;
    const replies = [];
    const notes = [];
    for (const comment of firstIsDescription ? rest : thread) {
      const text = textOf(comment)?.trim();
      const date = msOf(comment.created_at) ?? updated;
      const author = idOf(comment.author_id);
      const what = `ticket ${id} comment ${idOf(comment.id) ?? '?'}`;
      if (!text) {
        warnings.push(`${what}: empty, left out`);
        continue;
      }
      const byAgent = author !== undefined && agents.has(author);
      if (comment.public === false) {
        notes.push({
          note: cut(text, TICKET_LIMITS.note, what, warnings),
          date,
          ...(byAgent ? { insertBy: { externalId: author } } : {}),
        });
      } else {
        const documents = attachmentsOf(dir, comment, what, warnings);
        replies.push({
          text: cut(text, TICKET_LIMITS.replyText, what, warnings),
          replyDate: date,
          replyFromOperator: byAgent ? { externalId: author } : null,
          ...(documents.length ? { attachedDocuments: documents } : {}),
        });
      }
    }
    const documents = firstIsDescription
      ? attachmentsOf(dir, first, `ticket ${id} description`, warnings)
      : [];
    const customFields = (Array.isArray(ticket.custom_fields) ? (ticket.custom_fields as Json[]) : [])
      .filter((f) => f.value !== null && f.value !== undefined && f.value !== '')
      .slice(0, TICKET_LIMITS.customFields)
      .map((f) => ({
        name: `zendesk field ${idOf(f.id) ?? '?'}`,
        value: Array.isArray(f.value) ? f.value.join(', ') : (f.value as string | number | boolean),
      }));
    ticketLines.push({
      kind: 'ticket',
      externalId: id,
      // The ticket's key in the account's other systems (Zendesk's external_id), else its Zendesk id.
      externalId1: cut(
        str(ticket.external_id) || id,
        TICKET_LIMITS.externalId,
        `ticket ${id} external_id`,
        warnings,
      ),
      number: `${id}/${new Date(created).getUTCFullYear()}`,
      subject: cut(
        str(ticket.subject)?.trim() || '(no subject)',
        TICKET_LIMITS.subject,
        `ticket ${id} subject`,
        warnings,
      ),
      description: cut(description, TICKET_LIMITS.description, `ticket ${id} description`, warnings),
      status,
      priority: ['urgent', 'high'].includes(str(ticket.priority) ?? '') ? 1 : 0,
      ...(channel ? { source: channel } : {}),
      insertDate: created,
      managedDate: updated,
      closedDate: status === 'closed' ? updated : null,
      openedBy: { externalId: requester },
      ...(assignee ? { assignedTo: { externalId: assignee } } : {}),
      ...(group ? { group: { externalId: group } } : {}),
      ...(type ? { type: { externalId: type } } : {}),
      ...(cc.length ? { cc: cc.map((c) => ({ externalId: c })) } : {}),
      ...(tags.length ? { tags: tags.slice(0, TICKET_LIMITS.tags) } : {}),
      ...(customFields.length ? { customFields } : {}),
      ...(replies.length ? { replies } : {}),
      ...(notes.length ? { notes } : {}),
      ...(documents.length ? { attachedDocuments: documents } : {}),
    });
  }
  // Zendesk's four types are every new account's ticket types too (an import links lookups by name).
  for (const type of [...types].sort()) lines.push({ kind: 'ticketType', externalId: type, type });
  lines.push(...ticketLines);
  return { lines, warnings };
};

/**
 * Each record once, as it was last: incremental exports repeat a record at each of its updates
 * (the one updated last wins; on a tie, the one read last).
 */
const latestById = (records: Json[]): Json[] => {
  const latest = new Map<string, Json>();
  for (const record of records) {
    const id = idOf(record.id);
    if (id === undefined) continue;
    const seen = latest.get(id);
    if (!seen || (msOf(record.updated_at) ?? 0) >= (msOf(seen.updated_at) ?? 0)) latest.set(id, record);
  }
  return [...latest.values()];
};

/** A comment's text: the plain body, else the body. */
const textOf = (comment: Json | undefined): string | undefined =>
  comment ? (str(comment.plain_body) ?? str(comment.body)) : undefined;

/** Comments from `comments/<ticket id>.json` and from `ticket_comments*` (each with its `ticket_id`). */
const commentsByTicket = (dir: string): Map<string, Json[]> => {
  const byTicket = new Map<string, Json[]>();
  const add = (ticket: string | undefined, comment: Json) => {
    if (!ticket) return;
    const list = byTicket.get(ticket);
    if (list) list.push(comment);
    else byTicket.set(ticket, [comment]);
  };
  for (const [ticket, file] of subdirFiles(dir, 'comments'))
    for (const comment of fileRecords(file, 'comments')) add(ticket, comment);
  for (const comment of readRecords(dir, 'ticket_comments', 'comments'))
    add(idOf(comment.ticket_id), comment);
  return byTicket;
};

/** A comment's attachments found under `attachments/`, inline; the others named in warnings. */
const attachmentsOf = (dir: string, comment: Json, what: string, warnings: string[]) => {
  const documents = [];
  for (const a of Array.isArray(comment.attachments) ? (comment.attachments as Json[]) : []) {
    const name = str(a.file_name);
    if (!name) continue;
    const id = idOf(a.id) ?? '';
    const file = [join(dir, 'attachments', id, name), join(dir, 'attachments', name)].find(
      (f) => existsSync(f) && statSync(f).isFile(),
    );
    if (!file) {
      warnings.push(
        `${what}: attachment ${name} not in attachments/ (${str(a.content_url) ?? 'no address'})`,
      );
      continue;
    }
    if (statSync(file).size > DOCUMENT_LIMITS.inlineBytes) {
      warnings.push(`${what}: attachment ${name} is over ${DOCUMENT_LIMITS.inlineBytes} bytes, left out`);
      continue;
    }
    documents.push({
      documentName: name.slice(0, 255),
      documentType: str(a.content_type) || 'application/octet-stream',
      documentBase64: readFileSync(file).toString('base64'),
    });
  }
  return documents;
};
