import * as z from 'zod/mini';
import { agentInsertObject } from './agent';
import { customerInsertObject } from './customer';
import { documentList } from './documents';
import { labels, requiredText, timestamp } from './fields';
import type { LookupField } from './lookups';
import { TICKET_LIMITS, ticketFieldSchemas } from './ticket';

/**
 * One line of an import file (docs/import.md): NDJSON, one record of the help desk being left
 * per line, with its history. Every line names its kind and its id in the source system
 * (`externalId`), which is what a re-import recognises it by and what other lines refer to it
 * by (`{"externalId": …}` where the API takes `{"id": …}`). A record's fields are those of its
 * API insert body; a ticket also carries what the API sets itself (its dates, its number) and its
 * conversation with the dates it had.
 */
export const IMPORT_KINDS = [
  'agent',
  'customer',
  'ticketType',
  'ticketArea',
  'ticketGroup',
  'ticket',
] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** A record's id in the source system: unique per kind in an account. */
export const externalId = requiredText(255);
/** A reference to another line (or an earlier import's) by its source id. */
export const sourceRef = z.object({ externalId });

/** A ticket number as the API shapes it, `<number>/<year>`. */
const TICKET_NUMBER = /^[1-9]\d{0,15}\/\d{4}$/;

const line = <K extends ImportKind, S extends z.ZodMiniObject>(kind: K, record: S) =>
  z.extend(record, { kind: z.literal(kind), externalId });

/** A ticket type, area or group: its name under its own field, as the lookup's insert body has it. */
const lookupLine = <K extends ImportKind, F extends LookupField>(kind: K, field: F) =>
  z.extend(z.object({ kind: z.literal(kind), externalId, labels: z.optional(labels) }), {
    [field]: requiredText(100),
  } as { [P in F]: ReturnType<typeof requiredText> });

const ticketLine = () => {
  const f = ticketFieldSchemas();
  const {
    openedBy: _openedBy,
    assignedTo: _assignedTo,
    type: _type,
    area: _area,
    group: _group,
    cc: _cc,
    replies: _replies,
    attachedDocuments: _documents,
    subject,
    description,
    ...rest
  } = f;
  return z.extend(z.partial(z.object(rest)), {
    kind: z.literal('ticket'),
    externalId,
    subject,
    description,
    number: z.optional(
      z.string().check(z.regex(TICKET_NUMBER, 'must be <number>/<year>, as the API numbers tickets')),
    ),
    insertDate: timestamp,
    managedDate: z.optional(timestamp),
    closedDate: z.optional(z.nullable(timestamp)),
    openedBy: sourceRef,
    assignedTo: z.optional(z.nullable(sourceRef)),
    type: z.optional(z.nullable(sourceRef)),
    area: z.optional(z.nullable(sourceRef)),
    group: z.optional(z.nullable(sourceRef)),
    cc: z.optional(z.array(sourceRef).check(z.maxLength(TICKET_LIMITS.cc))),
    // A whole conversation: not bound by one API request's 20 replies.
    replies: z.optional(
      z.array(
        z.strictObject({
          text: requiredText(TICKET_LIMITS.replyText),
          replyDate: timestamp,
          /** The agent who wrote it; absent or null: the ticket's customer. */
          replyFromOperator: z.optional(z.nullable(sourceRef)),
          attachedDocuments: z.optional(documentList),
        }),
      ),
    ),
    notes: z.optional(
      z.array(
        z.strictObject({
          note: requiredText(TICKET_LIMITS.note),
          date: timestamp,
          insertBy: z.optional(z.nullable(sourceRef)),
        }),
      ),
    ),
    attachedDocuments: z.optional(documentList),
  });
};

/** Any line of an import file, by its `kind`. */
export const importLine = z.lazy(() =>
  z.discriminatedUnion('kind', [
    line('agent', agentInsertObject()),
    line('customer', customerInsertObject()),
    lookupLine('ticketType', 'type'),
    lookupLine('ticketArea', 'area'),
    lookupLine('ticketGroup', 'group'),
    ticketLine(),
  ]),
);
export type ImportLine = z.output<typeof importLine>;
export type ImportLineInput = z.input<typeof importLine>;
