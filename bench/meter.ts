import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AwsMetering, ItemCharge, ReadCharge, RequestCharge } from './aws-metering';
import {
  addSplit,
  addUnits,
  emptySplit,
  indexUnits as splitIndexUnits,
  totalUnits,
  type UnitSplit,
} from './unit-split';

/**
 * Counts the DynamoDB requests a client sends, by command, and sums the capacity DynamoDB
 * reports for them, split by table and index. Installed at the `initialize` step of the
 * client's middleware stack, so one logical request counts once (SDK retries of it do not add
 * to the count). With `measureAws` it also computes what each request would cost on AWS's
 * documented rules (aws-metering.ts), from item images it reads through its own, unmetered client.
 */

/** Commands that accept ReturnConsumedCapacity. */
const CAPACITY_COMMANDS = new Set([
  'GetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'Query',
  'Scan',
  'BatchGetItem',
  'BatchWriteItem',
  'TransactGetItems',
  'TransactWriteItems',
]);
const READ_COMMANDS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);

/** What the requests would cost on AWS's rules (bench/aws-units.ts). */
export interface AwsUsage {
  units: UnitSplit;
  /** Units by command, and how many items or entries its requests read or wrote. */
  byCommand: Record<string, { read: number; write: number; items: number }>;
  /** Every item written, with its sizes and units. */
  writes: ItemCharge[];
  /** Every read (an item, a key of a batch, a Query page), with its size and units. */
  reads: ReadCharge[];
  /** Re-issued Queries that did not read what the original did (their figures are suspect). */
  mismatches: string[];
  /** Writes that failed (charged as checks of the items they named). */
  failedWrites: number;
}

export interface Usage {
  /** Requests by command name, e.g. `{ Query: 1, BatchGetItem: 1 }`. */
  requests: Record<string, number>;
  /** Capacity units DynamoDB Local reported: read commands count as reads, the rest as writes. */
  readUnits: number;
  writeUnits: number;
  /** The part of readUnits + writeUnits spent on global secondary indexes. */
  indexUnits: number;
  /** The same, split by table and index (ConsumedCapacity.Table, .GlobalSecondaryIndexes). */
  local: UnitSplit;
  /** How many requests carried a ConsumedCapacity in their response. */
  withCapacity: number;
  /** Present when measured with `measureAws`. */
  aws?: AwsUsage;
}

const empty = (): Usage => ({
  requests: {},
  readUnits: 0,
  writeUnits: 0,
  indexUnits: 0,
  local: emptySplit(),
  withCapacity: 0,
});

const emptyAws = (): AwsUsage => ({
  units: emptySplit(),
  byCommand: {},
  writes: [],
  reads: [],
  mismatches: [],
  failedWrites: 0,
});

/** A ConsumedCapacity as DynamoDB returns it (one, or one per table). */
export interface Capacity {
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

/**
 * What a response's ConsumedCapacity says was spent on the table and on each index: reads for
 * read commands, writes for the rest. Without a `Table` entry, all that is not an index's.
 */
export const reportedSplit = (command: string, reported: Capacity | Capacity[]): UnitSplit => {
  const kind = READ_COMMANDS.has(command) ? 'read' : 'write';
  const split = emptySplit();
  for (const c of [reported].flat()) {
    const indexes = Object.entries(c.GlobalSecondaryIndexes ?? {});
    const onIndexes = indexes.reduce((sum, [, i]) => sum + (i.CapacityUnits ?? 0), 0);
    addUnits(split, kind, c.Table?.CapacityUnits ?? (c.CapacityUnits ?? 0) - onIndexes);
    for (const [name, i] of indexes) addUnits(split, kind, i.CapacityUnits ?? 0, name);
  }
  return split;
};

export class Meter {
  private usage = empty();
  private metering: AwsMetering | undefined;
  /** Ask DynamoDB for capacity (ReturnConsumedCapacity: INDEXES) only while measuring operations. */
  askCapacity = true;
  /**
   * While `askCapacity` is set too: compute AWS units (useAwsRules first). Each write then costs
   * two extra reads and each Query one, through a client this meter does not count: keep it off
   * while timing.
   */
  measureAws = false;

  /** Where AWS units come from: images read through a client of their own. */
  useAwsRules(metering: AwsMetering): void {
    this.metering = metering;
  }

  install(client: DynamoDBDocumentClient): void {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const command = (context.commandName ?? 'Unknown').replace(/Command$/, '');
        const input = args.input as Record<string, unknown>;
        if (this.askCapacity && CAPACITY_COMMANDS.has(command)) input.ReturnConsumedCapacity = 'INDEXES';
        this.usage.requests[command] = (this.usage.requests[command] ?? 0) + 1;
        const aws = this.askCapacity && this.measureAws ? this.metering : undefined;
        const pending = aws?.isWrite(command) ? await aws.beforeWrite(command, input) : undefined;
        let result: Awaited<ReturnType<typeof next>>;
        try {
          result = await next(args);
        } catch (error) {
          if (aws && pending) this.addAws(command, await aws.afterWrite(pending, undefined));
          throw error;
        }
        const output = result.output as Record<string, unknown> & {
          ConsumedCapacity?: Capacity | Capacity[];
        };
        const reported = output.ConsumedCapacity;
        if (reported) {
          const split = reportedSplit(command, reported);
          const total = totalUnits(split);
          this.usage.readUnits += total.read;
          this.usage.writeUnits += total.write;
          this.usage.indexUnits += splitIndexUnits(split);
          addSplit(this.usage.local, split);
          this.usage.withCapacity++;
        }
        if (aws) {
          if (pending) this.addAws(command, await aws.afterWrite(pending, output));
          else if (aws.isRead(command)) this.addAws(command, await aws.read(command, input, output));
        }
        return result;
      },
      { step: 'initialize', name: 'benchMeter', override: true },
    );
  }

  private addAws(command: string, charge: RequestCharge): void {
    this.usage.aws ??= emptyAws();
    const aws = this.usage.aws;
    addSplit(aws.units, charge.units);
    const mine = aws.byCommand[command] ?? { read: 0, write: 0, items: 0 };
    aws.byCommand[command] = mine;
    for (const r of charge.reads) {
      mine.read += r.units;
      mine.items += r.items;
    }
    for (const w of charge.writes) {
      mine.write += w.table + Object.values(w.indexes).reduce((sum, u) => sum + u, 0);
      mine.items++;
    }
    aws.writes.push(...charge.writes);
    aws.reads.push(...charge.reads);
    if (charge.mismatch) aws.mismatches.push(charge.mismatch);
    if (charge.failed) aws.failedWrites++;
  }

  reset(): void {
    this.usage = empty();
  }

  /** What was counted since the last reset, and resets. */
  take(): Usage {
    const taken = this.usage;
    this.reset();
    return taken;
  }
}

export const totalRequests = (usage: Usage): number =>
  Object.values(usage.requests).reduce((sum, n) => sum + n, 0);

/** `Query 1, BatchGetItem 1` in a stable order (most frequent first). */
export const describeRequests = (usage: Usage): string =>
  Object.entries(usage.requests)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([name, n]) => `${name} ${n}`)
    .join(', ') || 'none';

/**
 * The usual set of requests among several calls of one operation, and the samples that sent it:
 * now and then a call also claims a rate-limit lease (one UpdateItem per 50 requests of a client
 * per instance and minute), which belongs to no operation in particular.
 */
export const typicalUsage = (usages: Usage[]): { usage: Usage; matching: Usage[]; stable: boolean } => {
  const shapes = usages.map(describeRequests);
  const count = (shape: string) => shapes.filter((s) => s === shape).length;
  const usual = [...shapes].sort((a, b) => count(b) - count(a))[0];
  const matching = usages.filter((_, i) => shapes[i] === usual);
  return { usage: matching[0] as Usage, matching, stable: matching.length === usages.length };
};
