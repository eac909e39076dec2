import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import type { EraseInput } from '../schemas/customer';
import { db, tableName } from './dynamo';
import { conditionOf, projectionOf, queryOf, updateOf } from './expression';
import type { Actor, HistoryOf } from './history';
import { newId } from './ids';
import { CASCADE_ATTRIBUTE, type ItemKey, keys, sortableTime } from './keys';
import { queryAll } from './query-all';
import { storeRegion } from './store-region';
import { TTL_ATTRIBUTE } from './table-schema';
import { ABSENT, type WriteOp } from './write-ops';

/**
 * Durable cascades (docs/decisions.md, "Nothing orphaned"). A removal that leaves work behind it
 * (a ticket's replies, notes, documents and files; a photo no record points at any more; a revoked
 * client's tokens) writes one cascade item in its own transaction: the removal and the promise to
 * finish it commit together. The item's arrival on the table's stream drives the cascade worker
 * (functions/cascade-worker.ts), which does the work, idempotently, and then marks the item done; a
 * failure is retried by the stream, then lands in a dead-letter queue with an alarm, and the item
 * stays until some run finishes it (`helpdesk cascades drain` reads what is left).
 */
export type CascadeWork =
  /** Everything of a removed ticket: its collection's items and every object under its prefix. */
  | { kind: 'ticket'; ticketId: string }
  /** Objects no record points at any more (a replaced or removed photo). */
  | { kind: 'files'; keys: string[] }
  /** Every access token of a revoked client. */
  | { kind: 'tokens'; clientId: string }
  /** The history of a deleted record (a customer: a ticket's goes with its collection). */
  | { kind: 'history'; of: HistoryOf; recordId: string }
  /** A job a client asked for (store/jobs.ts): one customer's data exported, or erased. */
  | ExportJob
  | ErasureJob;

/** `POST /customer/export/{id}`: one JSON document of everything of the customer, in S3. */
export interface ExportJob {
  kind: 'export';
  customerId: string;
  /** The API's address as the client called it (the document's links to the API). */
  baseUrl: string;
}

/** What happens to the customer's tickets (the request's `mode`). */
export type ErasureMode = EraseInput['mode'];

/** `POST /customer/erase/{id}`: every copy of the customer's personal data, erased (domain/customer-erasure.ts). */
export interface ErasureJob {
  kind: 'erasure';
  customerId: string;
  /** The API's address as the client called it (the job's status address). */
  baseUrl: string;
  mode: ErasureMode;
  /** Only counts what an erasure would change; writes nothing. */
  dryRun: boolean;
  /** What identifies the customer in other text (domain/redaction.ts): removed from the item once done. */
  identifiers?: string[];
  /** When the customer was created: no event about them is older. */
  since: number;
  /** The photo object the erased record pointed at. */
  photo?: string | null;
  actor: Actor;
  /** How long the tenant keeps history: the 'erased' entries an anonymising erasure adds. */
  historyDays: number;
}

export type Cascade = CascadeWork & {
  pk: string;
  sk: string;
  id: string;
  tenantId: string;
  createdAt: number;
  /** Several regions: where it was written (the tenant's home), so that only that region runs it. */
  region?: string;
};

/**
 * The cascade item of `work`, to be written in the transaction of the removal it finishes. `once`
 * names a removal that may be reported more than once (DynamoDB's TTL deleting an item, whose
 * stream record a retried batch hands over again): its item is then keyed by that name, so a
 * second write of it fails its condition (done cascades are kept 3 days as tombstones).
 */
export const cascadeWrite = (
  tenantId: string,
  work: CascadeWork,
  now = Date.now(),
  once?: string,
  id = newId(now),
): WriteOp => {
  const { kind, ...rest } = work;
  return {
    item: {
      Put: {
        Item: {
          pk: keys.cascades(tenantId),
          sk: once ?? `${sortableTime(now)}#${id}`,
          id,
          [CASCADE_ATTRIBUTE]: kind,
          ...rest,
          createdAt: now,
          ...(config().REGIONS ? { region: storeRegion() } : {}),
        },
        ...conditionOf(ABSENT),
      },
    },
  };
};

/** A cascade item as read from the table or its stream (undefined: not one). */
export const cascadeOf = (item: Record<string, unknown> | undefined): Cascade | undefined => {
  if (!item || typeof item.pk !== 'string' || typeof item.sk !== 'string') return undefined;
  const tenantId = keys.tenantOfCascades(item.pk);
  const kind = item[CASCADE_ATTRIBUTE];
  if (tenantId === undefined || typeof kind !== 'string') return undefined;
  const { [CASCADE_ATTRIBUTE]: _kind, ...rest } = item;
  return { ...rest, kind, tenantId } as Cascade;
};

/** How long a done cascade's item stays (a tombstone): longer than the stream keeps a record. */
const DONE_KEPT_S = 3 * 86_400;

/** Whether the cascade is still to be done (its item is there and not marked done). */
export const isPending = async (cascade: ItemKey): Promise<boolean> => {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: { pk: cascade.pk, sk: cascade.sk },
      ConsistentRead: true,
      ...projectionOf(['pk', 'done']),
    }),
  );
  return out.Item !== undefined && out.Item.done !== true;
};

/** The cascades of a tenant not finished yet, oldest first. */
export const pendingCascades = async (tenantId: string): Promise<Cascade[]> =>
  (
    await queryAll({
      ...queryOf(
        { partition: ['pk', keys.cascades(tenantId)] },
        // `done` is only ever set, to true.
        { filter: { missing: 'done' } },
      ),
      ConsistentRead: true,
    })
  ).flatMap((item) => cascadeOf(item) ?? []);

/** What a finished job keeps on its item (what it answers), and what it no longer needs. */
export interface Outcome {
  set: Record<string, unknown>;
  remove?: readonly string[];
  /** How long the item stays once done (a job's answer is read for a while: store/jobs.ts). */
  keptS: number;
}

/** Marks a cascade done, a tombstone DynamoDB's TTL removes in 3 days (repeating it is harmless). */
export const finishCascade = async (cascade: ItemKey, outcome?: Outcome): Promise<void> => {
  const kept = outcome?.keptS ?? DONE_KEPT_S;
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: cascade.pk, sk: cascade.sk },
      ...updateOf({
        set: { ...outcome?.set, done: true, [TTL_ATTRIBUTE]: Math.floor(Date.now() / 1000) + kept },
        ...(outcome?.remove ? { remove: outcome.remove } : {}),
      }),
    }),
  );
};
