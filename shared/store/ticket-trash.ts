import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { cascadeWrite } from './cascades';
import { db, tableName } from './dynamo';
import type { TicketRecord } from './entities/ticket';
import type { Item } from './entity';
import { conditionOf } from './expression';
import { counterNames, keys, TRASHED_TICKET } from './keys';
import { storeRegion } from './store-region';
import { LIST_INDEX, TTL_ATTRIBUTE } from './table-schema';
import { createTicketWrites, deleteTicketWrites, releaseWrite } from './ticket-writes';
import { type StoredTicket, ticketFields, ticketKey } from './tickets';
import { countDelta, EXISTS, type WriteOp } from './write-ops';

/**
 * The trash (docs/decisions.md, "Trash"). A trashed ticket's own item is replaced, in its
 * collection, by a trashed-ticket item holding it as it was (`ticket`), with when it was trashed
 * and until when it is kept (DynamoDB's TTL removes it then, and the cascade worker the rest). Its
 * replies, notes and documents stay where they are, untouched; its tags, counts and reference
 * counts go as for a deleted ticket, so it is in no list, search or count, and nothing can be
 * added to it. A restore puts the ticket back as it was (same id, number, tags, counts, references:
 * a reference that is gone meanwhile refuses the restore), a purge writes its cascade.
 */
export interface TrashedTicket {
  ticket: StoredTicket;
  /** When it was trashed (ms). */
  deletedAt: number;
  /** When the trash lets it go (ms): DynamoDB's TTL removes it after that. */
  expiresAt: number;
}

const trashKey = (tenantId: string, id: string) => ({ pk: ticketKey(tenantId, id).pk, sk: keys.trashed });

const trashCount = (tenantId: string, delta: number) => countDelta(tenantId, counterNames.trash, delta);

/** A trashed-ticket item as read (undefined: not one, or past its retention). */
export const trashedOf = (item: Item | undefined, now = Date.now()): TrashedTicket | undefined => {
  if (!item || item.sk !== keys.trashed) return undefined;
  const expiresAt = Number(item.expiresAt);
  if (!(expiresAt > now)) return undefined;
  return { ticket: item.ticket as StoredTicket, deletedAt: Number(item.deletedAt), expiresAt };
};

/** The trashed ticket `id` of the tenant, read consistently; undefined when it is not in the trash. */
export const readTrashed = async (tenantId: string, id: string): Promise<TrashedTicket | undefined> =>
  trashedOf(
    (
      await db().send(
        new GetCommand({ TableName: tableName(), Key: trashKey(tenantId, id), ConsistentRead: true }),
      )
    ).Item,
  );

/** The ticket out of every list, search and count, kept as it was until `expiresAt`. */
export const trashWrites = (
  tenantId: string,
  current: StoredTicket,
  at: { deletedAt: number; expiresAt: number },
  ifMatch?: readonly number[],
): WriteOp[] => {
  const { id } = current;
  return [
    ...deleteTicketWrites(tenantId, current, ifMatch),
    {
      item: {
        Put: {
          Item: {
            ...trashKey(tenantId, id),
            entity: TRASHED_TICKET,
            id,
            tenantId,
            ticket: { ...ticketFields(current), version: current.version },
            deletedAt: at.deletedAt,
            expiresAt: at.expiresAt,
            [LIST_INDEX.partition]: keys.trash(tenantId),
            [LIST_INDEX.sort]: keys.byCreation(at.deletedAt, id),
            [TTL_ATTRIBUTE]: Math.ceil(at.expiresAt / 1000),
            // Several regions: where it was written (the tenant's home), whose cascade worker
            // purges it when DynamoDB's TTL removes it (infra/cascade-worker.ts).
            ...(config().REGIONS ? { region: storeRegion() } : {}),
          },
        },
      },
    },
    trashCount(tenantId, 1),
  ];
};

/** The trashed-ticket item goes, if it is still there and not expired (else `missing`). */
const takeOut = (tenantId: string, trashed: TrashedTicket, now: number, missing: () => Error): WriteOp => ({
  item: {
    Delete: {
      Key: trashKey(tenantId, trashed.ticket.id),
      ...conditionOf({ and: [EXISTS, { gt: ['expiresAt', now] }] }),
    },
  },
  onConditionFailed: missing,
});

/** The ticket back as it was (its version moved on), with its tags, counts and reference counts. */
export const restoreWrites = (
  tenantId: string,
  trashed: TrashedTicket,
  now: number,
  missing: () => Error,
): WriteOp[] => {
  const { version, ...ticket } = trashed.ticket;
  return [
    takeOut(tenantId, trashed, now, missing),
    ...createTicketWrites(tenantId, ticket as TicketRecord, version + 1),
    trashCount(tenantId, -1),
  ];
};

/**
 * What a ticket removed for good leaves to do, written with its removal: the cascade of its
 * replies, notes, documents and files, and the tickets merged into it let go (closed, no longer
 * merged, their conversations their own; a merged ticket cannot be trashed, deleted or unmerged
 * while this one exists, so each is still merged into it). `once` keys the cascade for a removal
 * that may be reported twice (TTL's: store/cascades.ts `cascadeWrite`); a second one then fails
 * with `before`.
 */
export const removedWrites = (
  tenantId: string,
  ticket: Pick<TicketRecord, 'id' | 'merged'>,
  now: number,
  once?: { key: string; before: () => Error },
): WriteOp[] => [
  {
    ...cascadeWrite(tenantId, { kind: 'ticket', ticketId: ticket.id }, now, once?.key),
    ...(once ? { onConditionFailed: once.before } : {}),
  },
  ...(ticket.merged ?? []).map((source) => releaseWrite(tenantId, source.id, ticket.id)),
];

/** What a purge writes besides taking the ticket out of the trash: one fewer in it, and its removal's. */
export const purgedWrites = (
  tenantId: string,
  ticket: Pick<TicketRecord, 'id' | 'merged'>,
  now: number,
  once?: { key: string; before: () => Error },
): WriteOp[] => [trashCount(tenantId, -1), ...removedWrites(tenantId, ticket, now, once)];

/** The ticket for good: out of the trash, and its cascade (its replies, notes, documents and files). */
export const purgeWrites = (
  tenantId: string,
  trashed: TrashedTicket,
  now: number,
  missing: () => Error,
): WriteOp[] => [takeOut(tenantId, trashed, now, missing), ...purgedWrites(tenantId, trashed.ticket, now)];
