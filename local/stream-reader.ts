import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type Shard,
  type ShardIteratorType,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { localDynamoClient } from './dynamodb-local';

/**
 * Reads a table's stream in DynamoDB Local, shard by shard, from the moment the reader is opened:
 * shards that exist then are read from LATEST, shards found later (discover) from TRIM_HORIZON,
 * a child shard only once its parent is read to its end (so one item's changes stay in order).
 * The caller decides when to poll (read) and when to look for new shards (discover).
 * Used by local/event-pipeline.ts and test/regions/replicator.ts.
 */
export interface StreamReaderOptions {
  endpoint: string;
  tableName: string;
  /** Records per GetRecords (default 100). */
  limit?: number;
}

/**
 * Handed each non-empty batch of one shard, in stream order. It may return the sequence number
 * of one of the records: that shard is then read again from that record on the next read (as
 * Lambda's event source mapping does with a reported batch item failure).
 */
export type ShardBatchHandler = (
  records: StreamRecord[],
  shardId: string,
) => string | undefined | Promise<string | undefined>;

export interface StreamReader {
  readonly streamArn: string;
  /** Adds shards not seen yet (DescribeStream, every page), to be read from their start. */
  discover(): Promise<void>;
  /** Reads every open shard once; resolves with the number of records read. */
  read(handle: ShardBatchHandler): Promise<number>;
  close(): void;
}

interface ShardState {
  parentId: string | undefined;
  /** Null once the shard is closed and read to its end. */
  iterator: string | null;
  /** Where to start again if the iterator expires and nothing was read yet. */
  startType: 'LATEST' | 'TRIM_HORIZON';
  lastSequence: string | undefined;
}

const errorName = (error: unknown): string => (error as { name?: string } | null)?.name ?? '';

export const openStreamReader = async (options: StreamReaderOptions): Promise<StreamReader> => {
  const dynamo = localDynamoClient(options.endpoint);
  let streamArn: string | undefined;
  try {
    streamArn = (await dynamo.send(new DescribeTableCommand({ TableName: options.tableName }))).Table
      ?.LatestStreamArn;
  } finally {
    dynamo.destroy();
  }
  if (!streamArn) throw new Error(`table ${options.tableName} at ${options.endpoint} has no stream`);
  const arn = streamArn;
  const streams = new DynamoDBStreamsClient({
    endpoint: options.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const shards = new Map<string, ShardState>();

  const iteratorOf = async (shardId: string, type: ShardIteratorType, sequence?: string) =>
    (
      await streams.send(
        new GetShardIteratorCommand({
          StreamArn: arn,
          ShardId: shardId,
          ShardIteratorType: type,
          ...(sequence ? { SequenceNumber: sequence } : {}),
        }),
      )
    ).ShardIterator ?? null;

  const listShards = async (): Promise<Shard[]> => {
    const all: Shard[] = [];
    let start: string | undefined;
    do {
      const out = await streams.send(
        new DescribeStreamCommand({ StreamArn: arn, ...(start ? { ExclusiveStartShardId: start } : {}) }),
      );
      all.push(...(out.StreamDescription?.Shards ?? []));
      start = out.StreamDescription?.LastEvaluatedShardId;
    } while (start);
    return all;
  };

  const addShards = async (startType: 'LATEST' | 'TRIM_HORIZON') => {
    for (const shard of await listShards()) {
      const id = shard.ShardId;
      if (!id || shards.has(id)) continue;
      shards.set(id, {
        parentId: shard.ParentShardId,
        iterator: await iteratorOf(id, startType),
        startType,
        lastSequence: undefined,
      });
    }
  };

  /** A new iterator where the expired or trimmed one left off. */
  const reposition = async (shardId: string, state: ShardState, trimmed: boolean) => {
    state.iterator = trimmed
      ? await iteratorOf(shardId, 'TRIM_HORIZON')
      : state.lastSequence
        ? await iteratorOf(shardId, 'AFTER_SEQUENCE_NUMBER', state.lastSequence)
        : await iteratorOf(shardId, state.startType);
  };

  await addShards('LATEST');

  return {
    streamArn: arn,
    discover: () => addShards('TRIM_HORIZON'),
    async read(handle) {
      let count = 0;
      for (const [shardId, state] of shards) {
        if (!state.iterator) continue;
        // A child waits until its parent (if we read it) is closed and read to its end.
        const parent = state.parentId ? shards.get(state.parentId) : undefined;
        if (parent?.iterator) continue;
        let out: GetRecordsCommandOutput;
        try {
          out = await streams.send(
            new GetRecordsCommand({ ShardIterator: state.iterator, Limit: options.limit ?? 100 }),
          );
        } catch (error) {
          const name = errorName(error);
          if (name !== 'ExpiredIteratorException' && name !== 'TrimmedDataAccessException') throw error;
          await reposition(shardId, state, name === 'TrimmedDataAccessException');
          continue;
        }
        const records = out.Records ?? [];
        count += records.length;
        const retryFrom = records.length > 0 ? await handle(records, shardId) : undefined;
        if (retryFrom) {
          state.iterator = await iteratorOf(shardId, 'AT_SEQUENCE_NUMBER', retryFrom);
          const index = records.findIndex((r) => r.dynamodb?.SequenceNumber === retryFrom);
          state.lastSequence = index > 0 ? records[index - 1]?.dynamodb?.SequenceNumber : state.lastSequence;
          continue;
        }
        state.lastSequence = records.at(-1)?.dynamodb?.SequenceNumber ?? state.lastSequence;
        state.iterator = out.NextShardIterator ?? null;
      }
      return count;
    },
    close: () => streams.destroy(),
  };
};
