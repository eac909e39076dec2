import type * as z from 'zod/mini';
import { onFirstUse } from '../schemas/fields';
import { type Status, type TicketInput, ticketFieldSchemas } from '../schemas/ticket';
import type { TicketRecord } from '../store/entities/ticket';

/**
 * The rules of a ticket, pure and testable without a store: defaults, numbering, the closed
 * date, who must reply next, and how a body becomes stored fields.
 */

/** Fields a new ticket gets when the body leaves them out, beyond "null when nullable, [] when a list". */
const EXPLICIT_DEFAULTS = {
  priority: 0,
  status: 'opened',
  source: 'web',
  toReply: true,
  toReplyCustomer: false,
} as const;

type Def = { type: string; in?: z.ZodMiniType };
/** The kind of a schema, looking through pipes at what they take in (tags: a list, then deduplicated). */
const kindOf = (schema: z.ZodMiniType): string => {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  return def.type === 'pipe' && def.in ? kindOf(def.in) : def.type;
};

/**
 * Defaults derived from the ticket schema: every nullable field starts null, every list empty,
 * the rest as EXPLICIT_DEFAULTS says. Required fields (subject, description, openedBy) and the
 * body-only lists (replies, attachedDocuments) have none.
 */
export const ticketDefaults = onFirstUse(
  (): Partial<TicketRecord> =>
    Object.fromEntries(
      Object.entries(ticketFieldSchemas()).flatMap(([name, schema]): [string, unknown][] => {
        if (name in EXPLICIT_DEFAULTS)
          return [[name, EXPLICIT_DEFAULTS[name as keyof typeof EXPLICIT_DEFAULTS]]];
        if (name === 'replies' || name === 'attachedDocuments') return [];
        const kind = kindOf(schema);
        if (kind === 'nullable') return [[name, null]];
        if (kind === 'array') return [[name, []]];
        return [];
      }),
    ),
);

/** `<sequence>/<year>`: per tenant and UTC year, from 1. */
export const ticketNumber = (sequence: number, now: number): string => `${sequence}/${numberingYear(now)}`;
export const numberingYear = (now: number): number => new Date(now).getUTCFullYear();

/** `closedDate` follows the status: set when it becomes closed, cleared when it is reopened. */
export const closedDateAfter = (
  before: { status: Status; closedDate: number | null } | undefined,
  status: Status | undefined,
  now: number,
): number | null => {
  if (!before) return status === 'closed' ? now : null;
  if (status === undefined || status === before.status) return before.closedDate ?? null;
  return status === 'closed' ? now : null;
};

/** An agent's reply hands the turn to the customer, a customer's reply to the agents. */
export const replyTurn = (fromAgent: boolean) => ({ toReply: !fromAgent, toReplyCustomer: fromAgent });

type StoredFields = Omit<Partial<TicketRecord>, 'id'>;

/** Body references `{id}` become plain ids; `cc` keeps each agent once; files and replies are not fields. */
export const storedFields = (input: TicketInput): StoredFields => {
  const {
    replies: _r,
    attachedDocuments: _d,
    openedBy,
    assignedTo,
    cc,
    type,
    area,
    group,
    ...scalars
  } = input;
  const fields: StoredFields = { ...scalars };
  if (openedBy !== undefined) fields.openedBy = openedBy.id;
  if (cc !== undefined) fields.cc = [...new Set(cc.map((ref) => ref.id))];
  for (const [name, ref] of Object.entries({ assignedTo, type, area, group })) {
    if (ref !== undefined) (fields as Record<string, unknown>)[name] = ref === null ? null : ref.id;
  }
  return fields;
};

/** A new ticket from its body: defaults, number, dates and the count of the replies it carries. */
export const newTicket = (input: TicketInput, id: string, number: string, now: number): TicketRecord => {
  const fields = { ...ticketDefaults(), ...storedFields(input) } as TicketRecord;
  return {
    ...fields,
    id,
    number,
    insertDate: now,
    managedDate: now,
    numberOfReplies: input.replies?.length ?? 0,
    closedDate: closedDateAfter(undefined, fields.status, now),
  };
};

/** A merge update: only the fields sent change; `managedDate` always moves; replies sent are added. */
export const updatedTicket = (before: TicketRecord, patch: TicketInput, now: number): TicketRecord => ({
  ...before,
  ...storedFields(patch),
  managedDate: now,
  closedDate: closedDateAfter(before, patch.status, now),
  numberOfReplies: before.numberOfReplies + (patch.replies?.length ?? 0),
});
