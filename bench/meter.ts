import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * Counts the DynamoDB requests a client sends, by command, and sums the capacity DynamoDB
 * reports for them. Installed at the `initialize` step of the client's middleware stack, so one
 * logical request counts once (SDK retries of it do not add to the count).
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

export interface Usage {
  /** Requests by command name, e.g. `{ Query: 1, BatchGetItem: 1 }`. */
  requests: Record<string, number>;
  /** Capacity units DynamoDB reported: read commands count as reads, the rest as writes. */
  readUnits: number;
  writeUnits: number;
  /** The part of readUnits + writeUnits spent on global secondary indexes. */
  indexUnits: number;
  /** How many requests carried a ConsumedCapacity in their response. */
  withCapacity: number;
}

const empty = (): Usage => ({ requests: {}, readUnits: 0, writeUnits: 0, indexUnits: 0, withCapacity: 0 });

interface Capacity {
  CapacityUnits?: number;
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

const indexUnits = (c: Capacity): number =>
  Object.values(c.GlobalSecondaryIndexes ?? {}).reduce((sum, i) => sum + (i.CapacityUnits ?? 0), 0);

export class Meter {
  private usage = empty();
  /** Ask DynamoDB for capacity (ReturnConsumedCapacity: INDEXES) only while measuring operations. */
  askCapacity = true;

  install(client: DynamoDBDocumentClient): void {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const command = (context.commandName ?? 'Unknown').replace(/Command$/, '');
        const input = args.input as Record<string, unknown>;
        if (this.askCapacity && CAPACITY_COMMANDS.has(command)) input.ReturnConsumedCapacity = 'INDEXES';
        this.usage.requests[command] = (this.usage.requests[command] ?? 0) + 1;
        const result = await next(args);
        const reported = (result.output as { ConsumedCapacity?: Capacity | Capacity[] }).ConsumedCapacity;
        if (reported) {
          const all = [reported].flat();
          const units = all.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
          this.usage.indexUnits += all.reduce((sum, c) => sum + indexUnits(c), 0);
          if (READ_COMMANDS.has(command)) this.usage.readUnits += units;
          else this.usage.writeUnits += units;
          this.usage.withCapacity++;
        }
        return result;
      },
      { step: 'initialize', name: 'benchMeter', override: true },
    );
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
