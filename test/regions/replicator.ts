import { createHash } from 'node:crypto';
import {
  type AttributeValue,
  DeleteItemCommand,
  type DynamoDBClient,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { _Record as StreamRecord } from '@aws-sdk/client-dynamodb-streams';
import { localDynamoClient } from '../../local/dynamodb-local';
import { openStreamReader, type StreamReader } from '../../local/stream-reader';

/**
 * A stand-in for DynamoDB global tables (multi-region eventual consistency) between several
 * DynamoDB Local instances, for simulation tests of multi-region correctness (issue 15). As in
 * AWS: every item change is replicated on its own, asynchronously; conditions (and transactions)
 * are evaluated only against the replica they were sent to; concurrent changes of one item are
 * reconciled last writer wins, per item; a replicated write overwrites without a condition.
 *
 * How it works:
 * - Each region's table stream is read from the moment the replicator starts (local/stream-reader.ts).
 * - A change seen in region R is a local write unless it is the echo of one the replicator
 *   applied to R (below). A local write gets a version: the time the replicator first read it
 *   (ms; the stream's ApproximateCreationDateTime has only seconds), made later than the version
 *   R held for that item (a write overwrites what it saw), and R's name to break ties.
 * - It is queued for every other region after `delayMs`, then applied there (a Put of the new
 *   image or a Delete of the key, ReturnValues ALL_OLD) unless the region already holds a newer
 *   version of the item, in which case it is dropped: the newer write wins everywhere.
 * - Echoes: before each applied write, the (item, image hash, version) is noted for the target;
 *   the next stream record of that item in the target that carries the same image is that write,
 *   and is consumed instead of replicated. A write that changes nothing (ALL_OLD equals the new
 *   image, or a Delete of a missing item) makes no stream record in DynamoDB, so none is awaited.
 * - Repair: a local write can land in the target after the replicator decided to apply an older
 *   change but before that change landed; the stream then shows the older change last. The
 *   replicator then writes the winner again, so every region ends with the newest version.
 *
 * Differences from AWS: versions are the replicator's read times, not the writes' own times, so
 * two writes in different regions closer together than a poll or two are ordered by when they
 * were read; a transaction's items are replicated one by one (as in AWS, not as a unit); a local
 * write identical to a replicated write still in flight is taken for its echo (both regions hold
 * the same image, so nothing diverges). Not modelled: AWS's own replication lag (typically under a
 * second: choose delayMs), table settings, strong multi-region consistency (MRSC) mode, and
 * changes made before start or while the replicator was stopped (nothing is persisted).
 */
export interface ReplicaRegion {
  name: string;
  endpoint: string;
}

export interface ReplicatorOptions {
  regions: readonly ReplicaRegion[];
  tableName: string;
  /** Time from reading a change in its region to applying it elsewhere (ms), or a function for jitter (called per change and target). */
  delayMs?: number | (() => number);
  /** Apply pending changes of different items in random order (changes of one item from one region stay in order). */
  reorder?: boolean;
  /** Pause between reads of a stream that had nothing (ms, default 200). */
  pollMs?: number;
}

export interface RegionStats {
  /** Local writes read from this region's stream (each replicated to every other region). */
  observed: number;
  /** Stream records of this region recognised as the replicator's own writes (not replicated again). */
  echoes: number;
  /** Replicated changes written into this region (repairs included). */
  applied: number;
  /** Of those, writes that changed nothing (the region held the same image already). */
  unchanged: number;
  /** Replicated changes not applied because this region held a newer version of the item. */
  dropped: number;
  /** Winners written again after an older replicated change overwrote them (see above). */
  repaired: number;
  /** Failed reads or writes (logged; writes are retried). */
  errors: number;
  /** Changes waiting to be applied to this region. */
  pending: number;
}

export interface ReplicatorStats {
  regions: Record<string, RegionStats>;
  pending: number;
}

export interface Replicator {
  /**
   * Resolves once every region's stream, read twice in a row since the call, had nothing new and
   * no change is pending or being written; rejects after `timeoutMs` (default 30 s) or on stop.
   */
  drain(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
  stats(): ReplicatorStats;
}

type Image = Record<string, AttributeValue>;

/** When a version of an item was written; later ts wins, then the greater region name. */
interface Version {
  ts: number;
  region: string;
}

const compare = (a: Version, b: Version): number =>
  a.ts - b.ts || (a.region < b.region ? -1 : a.region > b.region ? 1 : 0);

interface Change {
  source: string;
  key: string;
  keys: Image;
  /** null: a delete. */
  image: Image | null;
  version: Version;
  due: number;
  seq: number;
  /** Rewrite the target's winner (or retry a failed write): applied only if it is still the winner. */
  repair?: boolean;
}

/** What the replicator knows of one item in one region. */
interface ItemState {
  keys: Image;
  /** Version of what the region holds, as its stream has shown so far. */
  current: Version | undefined;
  /** Newest version the region should hold (local writes read, replicated writes decided). */
  best: Version | undefined;
  /** best's image while it may be needed for a repair (undefined: not kept; null: a delete). */
  bestImage: Image | null | undefined;
  /** Writes applied (or being applied) whose stream record has not been read yet, in order. */
  echoes: { hash: string; version: Version }[];
  repairQueued: boolean;
}

interface Region {
  name: string;
  client: DynamoDBClient;
  reader: StreamReader;
  items: Map<string, ItemState>;
  queue: Change[];
  /** Due time of the last change queued per source (reorder: per source and item). */
  lastDue: Map<string, number>;
  timer: NodeJS.Timeout | undefined;
  /** When the timer fires. */
  timerDue: number;
  busy: boolean;
  quietPolls: number;
  stats: Omit<RegionStats, 'pending'>;
}

/** A deterministic string for an attribute value: map keys and set members sorted. */
const canonical = (value: unknown): string => {
  if (value instanceof Uint8Array) return JSON.stringify(Buffer.from(value).toString('base64'));
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries
      .map(([k, v]) => {
        const sets = k === 'SS' || k === 'NS' || k === 'BS';
        const inner = sets && Array.isArray(v) ? `[${v.map(canonical).sort().join(',')}]` : canonical(v);
        return `${JSON.stringify(k)}:${inner}`;
      })
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
};

const hashOf = (image: Image | null | undefined): string =>
  image ? createHash('sha256').update(canonical(image)).digest('base64') : 'deleted';

const newStats = () => ({
  observed: 0,
  echoes: 0,
  applied: 0,
  unchanged: 0,
  dropped: 0,
  repaired: 0,
  errors: 0,
});

export const startReplicator = async (options: ReplicatorOptions): Promise<Replicator> => {
  const names = options.regions.map((r) => r.name);
  if (new Set(names).size !== names.length) throw new Error(`region names must differ: ${names.join(', ')}`);
  const pollMs = options.pollMs ?? 200;
  const delay =
    typeof options.delayMs === 'function'
      ? options.delayMs
      : () => (options.delayMs as number | undefined) ?? 0;
  const reorder = options.reorder ?? false;

  let running = true;
  /** Aborts a write under way when stopping (a region that stopped answering would hold stop() up). */
  const halt = new AbortController();
  let seq = 0;
  /** Bumped by anything that may produce stream records or work: drain counts quiet polls since. */
  let epoch = 0;
  let drainWaiters = 0;
  const sleepers = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (!running) return resolve();
      const sleeper = {
        resolve,
        timer: setTimeout(() => {
          sleepers.delete(sleeper);
          resolve();
        }, ms),
      };
      sleepers.add(sleeper);
    });

  const regions: Region[] = [];
  try {
    for (const r of options.regions) {
      regions.push({
        name: r.name,
        client: localDynamoClient(r.endpoint),
        reader: await openStreamReader({ endpoint: r.endpoint, tableName: options.tableName }),
        items: new Map(),
        queue: [],
        lastDue: new Map(),
        timer: undefined,
        timerDue: 0,
        busy: false,
        quietPolls: 0,
        stats: newStats(),
      });
    }
  } catch (error) {
    for (const region of regions) {
      region.client.destroy();
      region.reader.close();
    }
    throw error;
  }

  const activity = () => {
    epoch++;
    for (const region of regions) region.quietPolls = 0;
  };

  const stateOf = (region: Region, key: string, keys: Image): ItemState => {
    let state = region.items.get(key);
    if (!state) {
      state = {
        keys,
        current: undefined,
        best: undefined,
        bestImage: undefined,
        echoes: [],
        repairQueued: false,
      };
      region.items.set(key, state);
    }
    return state;
  };

  /** Sets the region's timer for its earliest due change (`due`: a change just queued, the timer set already if earlier). */
  const schedule = (region: Region, due?: number) => {
    if (due !== undefined && region.timer && region.timerDue <= due) return;
    clearTimeout(region.timer);
    region.timer = undefined;
    if (!running || region.busy || region.queue.length === 0) return;
    const next = due ?? region.queue.reduce((min, c) => Math.min(min, c.due), Number.POSITIVE_INFINITY);
    region.timerDue = next;
    region.timer = setTimeout(() => void pump(region), Math.max(0, next - Date.now()));
  };

  const enqueue = (target: Region, change: Omit<Change, 'seq'>) => {
    // Changes of one source (reorder: of one item from one source) are never due before earlier ones.
    const lane = reorder ? `${change.source}\u0000${change.key}` : change.source;
    const due = Math.max(change.due, target.lastDue.get(lane) ?? 0);
    target.lastDue.set(lane, due);
    target.queue.push({ ...change, due, seq: seq++ });
    activity();
    schedule(target, due);
  };

  /** After a region's stream or a write moved an item: write the winner again if the region holds an older version. */
  const settle = (region: Region, key: string, state: ItemState) => {
    if (state.echoes.length > 0 || state.repairQueued || !state.best) return;
    if (state.current && compare(state.current, state.best) >= 0) {
      state.bestImage = undefined; // the region holds the winner: nothing to repair with
      return;
    }
    if (state.bestImage === undefined) {
      region.stats.errors++;
      console.error(`replicator: ${region.name} ${key}: holds an older version and the newer image is gone`);
      return;
    }
    state.repairQueued = true;
    enqueue(region, {
      source: region.name,
      key,
      keys: state.keys,
      image: state.bestImage,
      version: state.best,
      due: Date.now(),
      repair: true,
    });
  };

  /** A batch of region's stream, in order. */
  const onRecords = (region: Region, records: StreamRecord[]) => {
    const now = Date.now();
    const touched = new Map<string, ItemState>();
    for (const record of records) {
      const keys = record.dynamodb?.Keys as Image | undefined;
      if (!keys) continue;
      const key = canonical(keys);
      const image =
        record.eventName === 'REMOVE' ? null : ((record.dynamodb?.NewImage as Image | undefined) ?? null);
      const state = stateOf(region, key, keys);
      touched.set(key, state);
      const hash = hashOf(image);
      const echo = state.echoes[0];
      if (echo && echo.hash === hash) {
        state.echoes.shift();
        state.current = echo.version;
        region.stats.echoes++;
        continue;
      }
      const version = { ts: Math.max(now, (state.current?.ts ?? 0) + 1), region: region.name };
      state.current = version;
      if (!state.best || compare(version, state.best) > 0) {
        state.best = version;
        state.bestImage = image;
      }
      region.stats.observed++;
      for (const target of regions) {
        if (target !== region)
          enqueue(target, { source: region.name, key, keys, image, version, due: now + delay() });
      }
    }
    for (const [key, state] of touched) settle(region, key, state);
  };

  const apply = async (region: Region, change: Change) => {
    const state = stateOf(region, change.key, change.keys);
    if (change.repair) {
      state.repairQueued = false;
      if (!state.best || compare(state.best, change.version) !== 0) return; // superseded meanwhile
    } else if (state.best && compare(change.version, state.best) <= 0) {
      region.stats.dropped++;
      return;
    }
    state.best = change.version;
    state.bestImage = change.image;
    const echo = { hash: hashOf(change.image), version: change.version };
    state.echoes.push(echo);
    const forget = () => {
      const at = state.echoes.indexOf(echo);
      if (at >= 0) state.echoes.splice(at, 1);
    };
    try {
      const old = change.image
        ? (
            await region.client.send(
              new PutItemCommand({
                TableName: options.tableName,
                Item: change.image,
                ReturnValues: 'ALL_OLD',
              }),
              { abortSignal: halt.signal },
            )
          ).Attributes
        : (
            await region.client.send(
              new DeleteItemCommand({
                TableName: options.tableName,
                Key: change.keys,
                ReturnValues: 'ALL_OLD',
              }),
              { abortSignal: halt.signal },
            )
          ).Attributes;
      region.stats.applied++;
      if (change.repair) region.stats.repaired++;
      if (hashOf(old) === echo.hash) {
        // Nothing changed, so no stream record comes: the region holds this version now.
        region.stats.unchanged++;
        forget();
        if (!state.current || compare(change.version, state.current) > 0) state.current = change.version;
      }
    } catch (error) {
      forget();
      if (running) {
        region.stats.errors++;
        console.error(`replicator: writing ${change.key} to ${region.name}: ${(error as Error).message}`);
      }
      // Retried as a repair: written if it is still the winner by then.
      if (!state.repairQueued && running) {
        state.repairQueued = true;
        enqueue(region, { ...change, source: region.name, due: Date.now() + 1000, repair: true });
      }
      return;
    } finally {
      activity();
    }
    settle(region, change.key, state);
  };

  /** Random order, keeping the relative order of changes of one item from one source. */
  const shuffle = (changes: Change[]): Change[] => {
    const lanes = new Map<string, Change[]>();
    for (const c of changes) {
      const lane = `${c.source}\u0000${c.key}`;
      lanes.set(lane, [...(lanes.get(lane) ?? []), c]);
    }
    const open = [...lanes.values()];
    const out: Change[] = [];
    while (open.length > 0) {
      const i = Math.floor(Math.random() * open.length);
      const lane = open[i] as Change[];
      out.push(lane.shift() as Change);
      if (lane.length === 0) open.splice(i, 1);
    }
    return out;
  };

  /** Applies the region's due changes, one write at a time, until none is due. */
  const pump = async (region: Region) => {
    if (region.busy || !running) return;
    region.busy = true;
    region.timer = undefined;
    try {
      while (running) {
        const now = Date.now();
        const due = region.queue.filter((c) => c.due <= now);
        if (due.length === 0) break;
        region.queue = region.queue.filter((c) => c.due > now);
        // Lanes whose last change is due now constrain nothing any more (a later change is due later).
        for (const [lane, last] of region.lastDue) if (last <= now) region.lastDue.delete(lane);
        const ordered = reorder ? shuffle(due) : due.sort((a, b) => a.due - b.due || a.seq - b.seq);
        for (const change of ordered) {
          if (!running) break;
          await apply(region, change);
        }
      }
    } finally {
      region.busy = false;
      activity();
      schedule(region);
    }
  };

  const poll = async (region: Region) => {
    let rounds = 0;
    while (running) {
      const started = epoch;
      try {
        if (++rounds % 10 === 0 || drainWaiters > 0) await region.reader.discover();
        const read = await region.reader.read(async (records) => {
          if (running) onRecords(region, records);
          return undefined;
        });
        if (read > 0) {
          activity();
          continue;
        }
        if (started === epoch) region.quietPolls++;
        await sleep(pollMs);
      } catch (error) {
        if (!running) break;
        region.stats.errors++;
        console.error(`replicator: reading the stream of ${region.name}: ${(error as Error).message}`);
        activity();
        await sleep(1000);
      }
    }
  };

  const loops = regions.map(poll);
  const pending = () => regions.reduce((n, r) => n + r.queue.length, 0);

  const stats = (): ReplicatorStats => {
    const out: Record<string, RegionStats> = {};
    for (const r of regions) out[r.name] = { ...r.stats, pending: r.queue.length };
    return { regions: out, pending: pending() };
  };

  return {
    stats,
    async drain(timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      drainWaiters++;
      // Quiet polls count only from now: they must read what the caller wrote before calling.
      activity();
      try {
        for (;;) {
          if (!running) throw new Error('replicator stopped');
          if (regions.every((r) => r.quietPolls >= 2 && !r.busy && r.queue.length === 0)) return;
          if (Date.now() > until)
            throw new Error(`replicator not drained within ${timeoutMs} ms: ${JSON.stringify(stats())}`);
          await sleep(Math.max(10, pollMs / 2));
        }
      } finally {
        drainWaiters--;
      }
    },
    async stop() {
      if (!running) return;
      running = false;
      halt.abort();
      for (const region of regions) clearTimeout(region.timer);
      for (const sleeper of sleepers) {
        clearTimeout(sleeper.timer);
        sleeper.resolve();
      }
      sleepers.clear();
      await Promise.allSettled(loops);
      // A write under way ends (aborted) and its pump stops: wait for that before closing the clients.
      while (regions.some((r) => r.busy)) await new Promise((resolve) => setTimeout(resolve, 10));
      for (const region of regions) {
        clearTimeout(region.timer);
        region.client.destroy();
        region.reader.close();
      }
    },
  };
};
