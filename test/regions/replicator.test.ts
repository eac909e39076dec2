import {
  BatchWriteItemCommand,
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { _Record as StreamRecord } from '@aws-sdk/client-dynamodb-streams';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoDbLocal, localDynamoClient, startDynamoDbLocal } from '../../local/dynamodb-local';
import { openStreamReader } from '../../local/stream-reader';
import { ensureTable } from '../../shared/store/create-table';
import { startHoldProxy } from '../helpers/hold-proxy';
import { type Replicator, type ReplicatorOptions, startReplicator } from './replicator';

/**
 * test/regions/replicator.ts between two DynamoDB Local instances ("regions" A and B, besides the one
 * of the global setup): replication both ways, no echo, last writer wins per item with
 * conditions evaluated per region (the global-tables anomaly issue 15 simulates), delay and
 * reordering. Each test uses its own items and its own replicator, started after the previous
 * one stopped, so one test's changes never reach another's replicator.
 */
const TABLE = 'regions-test';

let dbA: DynamoDbLocal;
let dbB: DynamoDbLocal;
let A: DynamoDBClient;
let B: DynamoDBClient;
let replicator: Replicator | undefined;

beforeAll(async () => {
  [dbA, dbB] = await Promise.all([
    startDynamoDbLocal({ shortLived: true }),
    startDynamoDbLocal({ shortLived: true }),
  ]);
  A = localDynamoClient(dbA.endpoint);
  B = localDynamoClient(dbB.endpoint);
  await Promise.all([ensureTable(A, TABLE), ensureTable(B, TABLE)]);
});

afterEach(async () => {
  await replicator?.stop();
  replicator = undefined;
});

afterAll(async () => {
  A?.destroy();
  B?.destroy();
  await Promise.all([dbA?.stop(), dbB?.stop()]);
});

const start = async (options: Partial<ReplicatorOptions> = {}) => {
  replicator = await startReplicator({
    regions: [
      { name: 'A', endpoint: dbA.endpoint },
      { name: 'B', endpoint: dbB.endpoint },
    ],
    tableName: TABLE,
    pollMs: 50,
    ...options,
  });
  return replicator;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const key = (pk: string) => marshall({ pk, sk: 'item' });
const put = (db: DynamoDBClient, pk: string, fields: Record<string, unknown>) =>
  db.send(new PutItemCommand({ TableName: TABLE, Item: marshall({ pk, sk: 'item', ...fields }) }));
const get = async (db: DynamoDBClient, pk: string) => {
  const out = await db.send(new GetItemCommand({ TableName: TABLE, Key: key(pk), ConsistentRead: true }));
  return out.Item ? unmarshall(out.Item) : undefined;
};

/** Every record of a region's stream from now on, in stream order. */
const tap = async (endpoint: string) => {
  const reader = await openStreamReader({ endpoint, tableName: TABLE });
  const records: StreamRecord[] = [];
  const readOnce = () =>
    reader.read(async (batch) => {
      records.push(...batch);
      return undefined;
    });
  let on = true;
  const loop = (async () => {
    while (on) if ((await readOnce()) === 0) await sleep(50);
  })();
  return {
    records,
    /** Stops after reading the stream to its current end. */
    async stop() {
      on = false;
      await loop;
      await readOnce();
      reader.close();
      return records;
    },
  };
};
const pkOf = (r: StreamRecord) => r.dynamodb?.Keys?.pk?.S;

describe('replicator', () => {
  it('replicates puts, updates and deletes from A to B and from B to A, large items included', async () => {
    const r = await start();
    const big = 'x'.repeat(350_000);
    for (const [from, to, name] of [
      [A, B, 'a'],
      [B, A, 'b'],
    ] as const) {
      const one = `rep#crud#${name}1`;
      const two = `rep#crud#${name}2`;
      await put(from, one, { v: 1, tags: new Set(['z', 'a']), nested: { list: [1, 'two'] } });
      await put(from, two, { big, bin: new Uint8Array([1, 2, 3]) });
      await r.drain();
      expect(await get(to, one)).toEqual({
        pk: one,
        sk: 'item',
        v: 1,
        tags: new Set(['a', 'z']),
        nested: { list: [1, 'two'] },
      });
      expect((await get(to, two))?.big).toBe(big);

      await from.send(
        new UpdateItemCommand({
          TableName: TABLE,
          Key: key(one),
          UpdateExpression: 'SET v = v + :one, w = :w',
          ExpressionAttributeValues: marshall({ ':one': 1, ':w': 'updated' }),
        }),
      );
      await from.send(new DeleteItemCommand({ TableName: TABLE, Key: key(two) }));
      await r.drain();
      expect(await get(to, one)).toMatchObject({ v: 2, w: 'updated' });
      expect(await get(to, two)).toBeUndefined();
      expect(await get(from, one)).toEqual(await get(to, one));
    }
  });

  it('does not replicate its own writes back: each side sees each write once', async () => {
    const tapA = await tap(dbA.endpoint);
    const tapB = await tap(dbB.endpoint);
    const r = await start();
    // 4 changes in A, 3 in B, all of different items or changing the item (each makes one record).
    await put(A, 'rep#echo#1', { v: 1, set: new Set([3, 1, 2]), bin: new Uint8Array([9]) });
    await put(A, 'rep#echo#2', { v: 1, m: { b: 1, a: [true, null] } });
    await put(A, 'rep#echo#1', { v: 2, set: new Set([1]) });
    await A.send(new DeleteItemCommand({ TableName: TABLE, Key: key('rep#echo#2') }));
    await put(B, 'rep#echo#3', { v: 1 });
    await put(B, 'rep#echo#4', { v: 1, s: 'é😀' });
    await put(B, 'rep#echo#3', { v: 2 });
    await r.drain();
    // Nothing goes on bouncing after the drain.
    await sleep(500);
    await r.drain();
    const [inA, inB] = await Promise.all([tapA.stop(), tapB.stop()]);
    expect(inA).toHaveLength(4 + 3);
    expect(inB).toHaveLength(3 + 4);
    // B's stream shows A's changes once each, in A's order, then nothing more of them.
    const fromA = (records: StreamRecord[]) =>
      records.filter((x) => /^rep#echo#[12]$/.test(pkOf(x) ?? '')).map((x) => `${x.eventName} ${pkOf(x)}`);
    expect(fromA(inB)).toEqual(fromA(inA));
    const stats = r.stats().regions;
    expect(stats.A).toMatchObject({
      observed: 4,
      echoes: 3,
      applied: 3,
      unchanged: 0,
      dropped: 0,
      errors: 0,
    });
    expect(stats.B).toMatchObject({
      observed: 3,
      echoes: 4,
      applied: 4,
      unchanged: 0,
      dropped: 0,
      errors: 0,
    });
    expect(await get(B, 'rep#echo#1')).toEqual(await get(A, 'rep#echo#1'));
    expect(await get(A, 'rep#echo#3')).toEqual(await get(B, 'rep#echo#3'));
  });

  it('resolves concurrent writes of one item last writer wins, the same in both regions', async () => {
    // Replication slower than the writes, so each region writes before the other's change arrives.
    const r = await start({ delayMs: 1000 });
    const observed = (region: 'A' | 'B') => r.stats().regions[region]?.observed ?? 0;
    /** Writes in `first`, waits until the replicator has read that write, then writes in `second`. */
    const oneAfterTheOther = async (pk: string, first: 'A' | 'B', second: 'A' | 'B') => {
      const before = observed(first);
      await put(first === 'A' ? A : B, pk, { v: `from ${first}` });
      while (observed(first) === before) await sleep(5);
      await put(second === 'A' ? A : B, pk, { v: `from ${second}` });
    };
    await oneAfterTheOther('rep#lww#1', 'A', 'B');
    // Before replication each region holds its own write.
    expect((await get(A, 'rep#lww#1'))?.v).toBe('from A');
    expect((await get(B, 'rep#lww#1'))?.v).toBe('from B');
    await oneAfterTheOther('rep#lww#2', 'B', 'A');
    await Promise.all([put(A, 'rep#lww#3', { v: 'from A' }), put(B, 'rep#lww#3', { v: 'from B' })]);
    await r.drain();
    // The later write wins in both regions, whichever region wrote it.
    expect((await get(A, 'rep#lww#1'))?.v).toBe('from B');
    expect((await get(B, 'rep#lww#1'))?.v).toBe('from B');
    expect((await get(A, 'rep#lww#2'))?.v).toBe('from A');
    expect((await get(B, 'rep#lww#2'))?.v).toBe('from A');
    // Simultaneous writes: one of them, the same one in both regions.
    const third = (await get(A, 'rep#lww#3'))?.v;
    expect(['from A', 'from B']).toContain(third);
    expect((await get(B, 'rep#lww#3'))?.v).toBe(third);
    // The older change arriving in each region was dropped there (one per item).
    const { A: a, B: b } = r.stats().regions;
    expect((a?.dropped ?? 0) + (b?.dropped ?? 0)).toBe(3);
  });

  it('writes the newer version again where an older replicated change landed after it', async () => {
    // B's side of the replicator through a proxy that holds its next PutItem.
    const proxy = await startHoldProxy(dbB.endpoint);
    try {
      const r = await start({
        regions: [
          { name: 'A', endpoint: dbA.endpoint },
          { name: 'B', endpoint: proxy.endpoint },
        ],
      });
      proxy.holdNext('PutItem');
      await put(A, 'rep#repair', { v: 'from A' });
      while (proxy.held() === 0) await sleep(10);
      // A's change is on its way to B when B writes the item itself (later, so B's write wins).
      await put(B, 'rep#repair', { v: 'from B' });
      while (r.stats().regions.B?.observed === 0) await sleep(10);
      await proxy.release(); // A's older change lands in B last
      await r.drain();
      expect((await get(A, 'rep#repair'))?.v).toBe('from B');
      expect((await get(B, 'rep#repair'))?.v).toBe('from B');
      expect(r.stats().regions.B).toMatchObject({ repaired: 1, errors: 0 });
    } finally {
      await replicator?.stop();
      replicator = undefined;
      await proxy.close();
    }
  });

  it('loses one of two conditional increments made in two regions at once (conditions are checked per region)', async () => {
    const r = await start({ delayMs: 1000 });
    await put(A, 'rep#counter', { n: 0, by: 'seed' });
    await r.drain();
    expect(await get(B, 'rep#counter')).toMatchObject({ n: 0 });
    // Read n = 0 in each region, then increment only if it is still 0: each region's check passes.
    const increment = (db: DynamoDBClient, region: string) =>
      db.send(
        new UpdateItemCommand({
          TableName: TABLE,
          Key: key('rep#counter'),
          UpdateExpression: 'ADD n :one SET #by = :by',
          ConditionExpression: 'n = :seen',
          ExpressionAttributeNames: { '#by': 'by' },
          ExpressionAttributeValues: marshall({ ':one': 1, ':seen': 0, ':by': region }),
        }),
      );
    const results = await Promise.allSettled([increment(A, 'A'), increment(B, 'B')]);
    expect(results.map((x) => x.status)).toEqual(['fulfilled', 'fulfilled']);
    await r.drain();
    const inA = await get(A, 'rep#counter');
    const inB = await get(B, 'rep#counter');
    // Two increments acknowledged, one survives: the same winner in both regions.
    expect(inA?.n).toBe(1);
    expect(inB).toEqual(inA);
    expect(['A', 'B']).toContain(inA?.by);
  });

  it('delays replication and applies changes of different items out of order, one item in order', async () => {
    const tapA = await tap(dbA.endpoint);
    const tapB = await tap(dbB.endpoint);
    const r = await start({ delayMs: 200, reorder: true });
    const began = Date.now();
    await put(A, 'rep#delay', { v: 1 });
    await sleep(50 - (Date.now() - began));
    expect(await get(B, 'rep#delay')).toBeUndefined();
    while (!(await get(B, 'rep#delay'))) await sleep(10);
    expect(Date.now() - began).toBeGreaterThanOrEqual(200);

    // 25 items in one request and 15 updates of one item, read by the replicator in a batch or two.
    const names = Array.from({ length: 25 }, (_, i) => `rep#order#${String(i).padStart(2, '0')}`);
    await A.send(
      new BatchWriteItemCommand({
        RequestItems: {
          [TABLE]: names.map((pk) => ({ PutRequest: { Item: marshall({ pk, sk: 'item', v: 0 }) } })),
        },
      }),
    );
    for (let v = 1; v <= 15; v++) await put(A, 'rep#order#one', { v });
    await r.drain();
    const [inA, inB] = await Promise.all([tapA.stop(), tapB.stop()]);
    const order = (records: StreamRecord[]) => records.map(pkOf).filter((pk) => pk && names.includes(pk));
    expect(order(inA)).toHaveLength(25);
    expect(new Set(order(inB))).toEqual(new Set(order(inA)));
    expect(order(inB)).not.toEqual(order(inA));
    // Every version of the one item arrived, in order (none applied late and dropped as older).
    const versions = inB
      .filter((x) => pkOf(x) === 'rep#order#one')
      .map((x) => Number(x.dynamodb?.NewImage?.v?.N));
    expect(versions).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(r.stats().regions.B).toMatchObject({ dropped: 0, applied: 1 + 25 + 15 });
  });
});
