import type { Fields } from '../resources/resource-spec';
import { countDelta } from './counters';
import { type EntityKind, keys } from './keys';
import { referenceOp } from './records';
import { LIST_INDEX, SEARCH_INDEXES, type SearchSlot } from './table-schema';
import type { WriteOp } from './transact';

/**
 * How a stored ticket is indexed and counted. Each exact-match search has its own index slot
 * and counter; `tags` are separate items in the ticket's collection (a ticket has many);
 * `managedDate` is a range over the s8 slot ordered by last change.
 */
export const TICKET_SEARCH: Record<string, { slot: SearchSlot; value: (t: Fields) => unknown }> = {
  status: { slot: 's1', value: (t) => t.status },
  priority: { slot: 's2', value: (t) => (typeof t.priority === 'number' ? String(t.priority) : undefined) },
  'openedBy._id': { slot: 's3', value: (t) => t.openedBy },
  'assignedTo._id': { slot: 's4', value: (t) => t.assignedTo },
  'type._id': { slot: 's5', value: (t) => t.type },
  'area._id': { slot: 's6', value: (t) => t.area },
  'group._id': { slot: 's7', value: (t) => t.group },
};
export const MANAGED_SLOT: SearchSlot = 's8';
export const TICKET_SEARCH_PARAMS = [...Object.keys(TICKET_SEARCH), 'tags', 'managedDate'];

const searchValue = (param: string, t: Fields): string | undefined => {
  const value = TICKET_SEARCH[param]?.value(t);
  return typeof value === 'string' && value !== '' ? value : undefined;
};

export const ticketCountName = (param: string, value: string): string => `TICKET#${param}=${value}`;

/** Index attributes of the ticket item: the list, every exact-match slot and the managed slot. */
export const ticketIndexAttributes = (tenantId: string, t: Fields): Fields => {
  const id = t.id as string;
  const order = keys.byCreation(t.insertDate as number, id);
  const attributes: Fields = {
    [LIST_INDEX.partition]: keys.list(tenantId, 'TICKET'),
    [LIST_INDEX.sort]: order,
    [SEARCH_INDEXES[MANAGED_SLOT].partition]: keys.managed(tenantId),
    [SEARCH_INDEXES[MANAGED_SLOT].sort]: keys.byManaged(t.managedDate as number, id),
  };
  for (const [param, { slot }] of Object.entries(TICKET_SEARCH)) {
    const value = searchValue(param, t);
    if (value === undefined) continue;
    attributes[SEARCH_INDEXES[slot].partition] = keys.search(tenantId, 'TICKET', param, value);
    attributes[SEARCH_INDEXES[slot].sort] = order;
  }
  return attributes;
};

const tagsOf = (t: Fields | undefined): string[] => (t?.tags as string[] | undefined) ?? [];

/** Moves the total and every per-search counter from `before` to `after` (either may be absent). */
export const ticketCounterMoves = (tenantId: string, after?: Fields, before?: Fields): WriteOp[] => {
  const ops: WriteOp[] = [];
  if (!before) ops.push(countDelta(tenantId, 'TICKET', 1));
  if (!after) ops.push(countDelta(tenantId, 'TICKET', -1));
  for (const param of Object.keys(TICKET_SEARCH)) {
    const now = after && searchValue(param, after);
    const old = before && searchValue(param, before);
    if (now === old) continue;
    if (old !== undefined) ops.push(countDelta(tenantId, ticketCountName(param, old), -1));
    if (now !== undefined) ops.push(countDelta(tenantId, ticketCountName(param, now), 1));
  }
  const oldTags = new Set(tagsOf(before));
  const newTags = new Set(tagsOf(after));
  for (const tag of oldTags)
    if (!newTags.has(tag)) ops.push(countDelta(tenantId, ticketCountName('tags', tag), -1));
  for (const tag of newTags)
    if (!oldTags.has(tag)) ops.push(countDelta(tenantId, ticketCountName('tags', tag), 1));
  return ops;
};

/** Adds and removes the tag items whose `list` entry serves `?tags=<tag>`. */
export const tagItemMoves = (tenantId: string, after?: Fields, before?: Fields): WriteOp[] => {
  const ticket = (after ?? before) as Fields;
  const key = keys.record(tenantId, 'TICKET', ticket.id as string);
  const oldTags = new Set(tagsOf(before));
  const newTags = new Set(tagsOf(after));
  const ops: WriteOp[] = [];
  for (const tag of oldTags) {
    if (!newTags.has(tag)) ops.push({ item: { Delete: { Key: { pk: key.pk, sk: keys.tag(tag) } } } });
  }
  for (const tag of newTags) {
    if (oldTags.has(tag)) continue;
    ops.push({
      item: {
        Put: {
          Item: {
            pk: key.pk,
            sk: keys.tag(tag),
            entity: 'TICKET_TAG',
            tenantId,
            ticketId: ticket.id,
            tag,
            [LIST_INDEX.partition]: keys.search(tenantId, 'TICKET', 'tags', tag),
            [LIST_INDEX.sort]: keys.byCreation(ticket.insertDate as number, ticket.id as string),
          },
        },
      },
    });
  }
  return ops;
};

interface TicketReference {
  kind: EntityKind;
  id: string;
  path: string;
  label: string;
}

const referencesOf = (t: Fields | undefined): TicketReference[] => {
  if (!t) return [];
  const refs: TicketReference[] = [
    { kind: 'CUSTOMER', id: t.openedBy as string, path: 'openedBy.id', label: 'Customer' },
  ];
  const one = (kind: EntityKind, field: string, label: string) => {
    if (typeof t[field] === 'string') refs.push({ kind, id: t[field] as string, path: `${field}.id`, label });
  };
  one('AGENT', 'assignedTo', 'Agent');
  ((t.cc as string[] | undefined) ?? []).forEach((id, i) => {
    refs.push({ kind: 'AGENT', id, path: `cc.${i}.id`, label: 'Agent' });
  });
  one('TICKET_TYPE', 'type', 'Ticket type');
  one('TICKET_AREA', 'area', 'Ticket area');
  one('TICKET_GROUP', 'group', 'Ticket group');
  return refs;
};

/**
 * Moves `refCount` on the records the ticket points at: +1 for each new pointer (which also
 * checks the record exists), -1 for each dropped one; unchanged pointers cost nothing.
 */
export const ticketReferenceMoves = (tenantId: string, after?: Fields, before?: Fields): WriteOp[] => {
  const moves = new Map<string, { ref: TicketReference; delta: number }>();
  const add = (ref: TicketReference, delta: number) => {
    const id = `${ref.kind}#${ref.id}`;
    const seen = moves.get(id);
    moves.set(id, { ref: delta > 0 || !seen ? ref : seen.ref, delta: (seen?.delta ?? 0) + delta });
  };
  for (const ref of referencesOf(before)) add(ref, -1);
  for (const ref of referencesOf(after)) add(ref, 1);
  return [...moves.values()].filter((m) => m.delta !== 0).map((m) => referenceOp(tenantId, m.ref, m.delta));
};
