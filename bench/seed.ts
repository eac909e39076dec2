import { BatchWriteCommand, type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { insertTicket } from '../shared/domain/tickets';
import { db, tableName } from '../shared/store/dynamo';
import { type Refs, seedTicket } from './fixtures';
import { nowMs, pool, progress } from './stats';

/**
 * Seeding tickets. The real path (insertTicket: one UpdateItem for the number, one
 * TransactWriteItems) runs at ~35 tickets/s against DynamoDB Local on this 2-core machine, whatever
 * the concurrency (Local serialises transactions), so 10 000 tickets would take ~5 minutes.
 *
 * The bulk path runs the same insertTicket, but a middleware catches its TransactWriteItems before
 * it is sent: its Puts (ticket item with every index attribute, tag items) are written later with
 * BatchWriteItem, and its counter and refCount `ADD`s are summed and applied once per item at the
 * end. Items are therefore byte-for-byte what the real insert writes; only the transaction is skipped.
 */

type Item = Record<string, unknown>;
interface TransactElement {
  Put?: { Item: Item };
  Update?: {
    Key: Item;
    UpdateExpression: string;
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Record<string, unknown>;
  };
  ConditionCheck?: unknown;
  Delete?: unknown;
}

class TransactCapture {
  active = false;
  readonly puts: Item[] = [];
  /** `pk\nsk\nattribute` -> summed delta. */
  readonly adds = new Map<string, { key: Item; attribute: string; delta: number }>();

  install(client: DynamoDBDocumentClient): void {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (!this.active || context.commandName !== 'TransactWriteItemsCommand') return next(args);
        const { TransactItems } = args.input as { TransactItems: TransactElement[] };
        for (const element of TransactItems) this.capture(element);
        return { output: { $metadata: {} }, response: {} } as Awaited<ReturnType<typeof next>>;
      },
      { step: 'initialize', name: 'benchSeedCapture', override: true },
    );
  }

  private capture(element: TransactElement): void {
    if (element.Put) {
      this.puts.push(element.Put.Item);
    } else if (element.Update) {
      const {
        Key,
        UpdateExpression,
        ExpressionAttributeNames = {},
        ExpressionAttributeValues = {},
      } = element.Update;
      // Counter moves: `ADD #c0 :c0, #c1 :c1, …` (write-ops.ts addClause), summed per attribute.
      const match = /^ADD (\S+ :\w+(?:, \S+ :\w+)*)$/.exec(UpdateExpression.trim());
      if (!match) throw new Error(`bulk seeding cannot replay "${UpdateExpression}": use --seed=real`);
      for (const pair of (match[1] as string).split(', ')) {
        const [name, value] = pair.split(' ') as [string, string];
        const attribute = ExpressionAttributeNames[name] ?? name;
        const id = `${Key.pk}\n${Key.sk}\n${attribute}`;
        const delta = ExpressionAttributeValues[value] as number;
        const seen = this.adds.get(id);
        this.adds.set(id, { key: Key, attribute, delta: (seen?.delta ?? 0) + delta });
      }
    } else if (element.Delete) {
      throw new Error('bulk seeding cannot replay a Delete: use --seed=real');
    }
    // ConditionChecks (referenced records exist) hold: the fixture created them.
  }

  /** Writes the captured items (25 a request, 4 requests in flight) and the summed counters. */
  async flush(onProgress: (done: number, total: number) => void): Promise<void> {
    const batches: Item[][] = [];
    for (let i = 0; i < this.puts.length; i += 25) batches.push(this.puts.slice(i, i + 25));
    let written = 0;
    await pool(batches.length, 4, async (b) => {
      let pending = (batches[b] as Item[]).map((Item) => ({ PutRequest: { Item } }));
      while (pending.length > 0) {
        const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
        pending = (out.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
      }
      written += (batches[b] as Item[]).length;
      onProgress(written, this.puts.length);
    });
    for (const { key, attribute, delta } of this.adds.values()) {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'ADD #a :d',
          ExpressionAttributeNames: { '#a': attribute },
          ExpressionAttributeValues: { ':d': delta },
        }),
      );
    }
    this.puts.length = 0;
    this.adds.clear();
  }
}

export interface SeedResult {
  /** Tickets inserted through the real path and their rate. */
  real: { tickets: number; ms: number; perSecond: number };
  /** Tickets inserted in bulk (captured transactions, BatchWriteItem) and their rate. */
  bulk: { tickets: number; ms: number; perSecond: number };
  concurrency: number;
}

let capture: TransactCapture | undefined;

/**
 * Inserts tickets `from`..`from+realCount-1` through the real path, the rest up to `total` in bulk.
 * Numbers, ids and every item come from insertTicket either way.
 */
export const seedTickets = async (
  tenantId: string,
  refs: Refs,
  opts: { from: number; total: number; realCount: number; concurrency: number },
): Promise<SeedResult> => {
  const realCount = Math.min(opts.realCount, opts.total);
  const bar = progress('seeding (insertTicket)');
  let start = nowMs();
  let done = 0;
  await pool(realCount, opts.concurrency, async (i) => {
    await insertTicket({ tenantId }, seedTicket(opts.from + i, refs));
    bar.update(++done, realCount, `(${Math.round(done / ((nowMs() - start) / 1000))}/s)`);
  });
  const realMs = nowMs() - start;
  bar.done(`${realCount} in ${(realMs / 1000).toFixed(1)} s`);

  const bulkCount = opts.total - realCount;
  start = nowMs();
  if (bulkCount > 0) {
    if (!capture) {
      capture = new TransactCapture();
      capture.install(db());
    }
    const cap = capture;
    const building = progress('seeding (bulk: build)');
    cap.active = true;
    try {
      done = 0;
      await pool(bulkCount, opts.concurrency, async (i) => {
        await insertTicket({ tenantId }, seedTicket(opts.from + realCount + i, refs));
        building.update(++done, bulkCount);
      });
    } finally {
      cap.active = false;
    }
    building.done(`${bulkCount} tickets built`);
    const writing = progress('seeding (bulk: BatchWriteItem)');
    await cap.flush((n, of) => writing.update(n, of));
    writing.done(`done in ${((nowMs() - start) / 1000).toFixed(1)} s`);
  }
  const bulkMs = nowMs() - start;
  const rate = (n: number, ms: number) => (n > 0 ? n / (ms / 1000) : 0);
  return {
    real: { tickets: realCount, ms: realMs, perSecond: rate(realCount, realMs) },
    bulk: { tickets: bulkCount, ms: bulkMs, perSecond: rate(bulkCount, bulkMs) },
    concurrency: opts.concurrency,
  };
};
