import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { HISTORY_KINDS } from '../schemas/views';
import { db, tableName } from './dynamo';
import { conditionOf } from './expression';
import { newId } from './ids';
import { type ItemKey, keys } from './keys';
import { partitionItems, partitionKeys } from './query-all';
import { deleteKeys } from './sweep';
import { TTL_ATTRIBUTE } from './table-schema';
import { ABSENT, type WriteOp } from './write-ops';

/**
 * The history of a ticket or a customer (docs/decisions.md, "History"): one entry per change, in
 * its own partition beside the record's (`<record pk>#HISTORY`: a ticket's detail, which reads
 * its whole collection, never reads it), written in the change's own transaction with the same
 * stamp as its events, so it is exact: never missing, never twice. Kept `days` (DynamoDB's TTL),
 * whatever the change feed keeps; removed with the record (the cascade of a purged ticket or a
 * deleted customer). Its pages: history-pages.ts.
 */
export type HistoryOf = 'TICKET' | 'CUSTOMER';

/** What a change was (its names: shared/schemas/views.ts `HISTORY_KINDS`). */
export type HistoryKind = (typeof HISTORY_KINDS)[number];

/** Who made a change: the API client, the agent the request names (a reply's or note's author), the request. */
export interface Actor {
  clientId: string;
  agentId?: string | null;
  requestId?: string | null;
  /** The import job that made the change (domain/import-run.ts). */
  importId?: string | null;
}

/** One changed field, with its value before and after (null: absent). */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** One change of a record, as a commit drafts it. */
export interface HistoryDraft {
  of: HistoryOf;
  recordId: string;
  kind: HistoryKind;
  actor: Actor;
  changes?: FieldChange[];
  /** What it added to a ticket: replies, notes, documents (ids). */
  replies?: string[];
  notes?: string[];
  documents?: string[];
}

/** An entry as stored and read. */
export interface HistoryEntry extends HistoryDraft {
  /** The entry's own id (its order among the record's entries). */
  id: string;
  at: number;
}

const DAY_S = 86_400;

/** The item of one entry. */
const entryItem = (
  tenantId: string,
  draft: HistoryDraft,
  entry: { id: string; at: number; days: number },
) => ({
  pk: keys.history(tenantId, draft.of, draft.recordId),
  sk: keys.eventOrder(entry.at, entry.id),
  entity: 'HISTORY',
  ...draft,
  id: entry.id,
  at: entry.at,
  [TTL_ATTRIBUTE]: Math.floor(entry.at / 1000) + entry.days * DAY_S,
});

/** The entries of one transaction, stamped `stamp` (one per record: each in its own partition). */
export const historyWrites = (
  tenantId: string,
  drafts: readonly HistoryDraft[],
  stamp: number,
  days: number,
): WriteOp[] =>
  drafts.map((draft) => ({
    item: {
      Put: {
        Item: entryItem(tenantId, draft, { id: newId(stamp), at: stamp, days }),
        ...conditionOf(ABSENT),
      },
    },
  }));

/**
 * One entry written on its own, keyed by `entry.id` (a job's: written again by a repeated run, it
 * is the same entry): an erasure's on each ticket it anonymised.
 */
export const putHistoryEntry = async (
  tenantId: string,
  draft: HistoryDraft,
  entry: { id: string; at: number; days: number },
): Promise<void> => {
  await db().send(new PutCommand({ TableName: tableName(), Item: entryItem(tenantId, draft, entry) }));
};

/** Every entry of one record's history, oldest first, read consistently (an export's, an erasure's). */
export const readHistory = async (
  tenantId: string,
  of: HistoryOf,
  id: string,
): Promise<(HistoryEntry & ItemKey)[]> =>
  (await partitionItems(keys.history(tenantId, of, id))) as unknown as (HistoryEntry & ItemKey)[];

/** Deletes one record's whole history (the cascade of a removed ticket or customer). */
export const deleteHistory = async (tenantId: string, of: HistoryOf, id: string): Promise<void> =>
  deleteKeys(await partitionKeys(keys.history(tenantId, of, id)));
