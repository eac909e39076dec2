import { DescribeTableCommand, type GlobalSecondaryIndexDescription } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
  ScanCommand,
  type ScanCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { itemKindOf } from '../shared/store/keys';
import type { IndexSpec } from '../shared/store/table-schema';
import { itemBytes } from '../shared/store/write-ops';
import {
  getReadUnits,
  type Item,
  indexEntry,
  itemWriteCharge,
  queryReadUnits,
  type TableKey,
  type WriteKind,
} from './aws-units';
import { addUnits, emptySplit, type UnitSplit } from './unit-split';

/**
 * Computes what one request would cost on AWS (aws-units.ts) from the items it touched, read
 * through a separate client that nothing meters: before a write, the images of every key it
 * touches (consistent reads); after it, their new images. A read is sized from what it returned,
 * or, where a ProjectionExpression, `Select` or FilterExpression hides what DynamoDB read, by
 * reading the same again without them. The indexes are the table's own (DescribeTable, once).
 */

/** One table's keys and global secondary indexes, as DescribeTable gives them. */
export interface TableShape {
  key: TableKey;
  indexes: IndexSpec[];
}

/** One item written by a request, as AWS would charge it. */
export interface ItemCharge {
  command: string;
  kind: WriteKind;
  /** The item's `entity` attribute, or what its key says it is (counter, guard, window). */
  entity: string;
  bytesBefore?: number;
  bytesAfter?: number;
  table: number;
  indexes: Record<string, number>;
}

/** One read (a GetItem, one key of a BatchGetItem, one Query or Scan page), as AWS would charge it. */
export interface ReadCharge {
  command: string;
  /** The index read, if any. */
  index?: string;
  /** Items or entries read (a missing key counts as one, of 0 bytes). */
  items: number;
  bytes: number;
  units: number;
}

export interface RequestCharge {
  units: UnitSplit;
  writes: ItemCharge[];
  reads: ReadCharge[];
  /** Set when a re-issued Query or Scan did not read what the original did (the figure is suspect). */
  mismatch?: string;
  /** The write failed: each element is charged as a check of the item it named (no index writes). */
  failed?: boolean;
}

export const WRITE_COMMANDS = new Set([
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactWriteItems',
]);
const READ_COMMANDS = new Set(['GetItem', 'BatchGetItem', 'TransactGetItems', 'Query', 'Scan']);

type Input = Record<string, unknown>;

interface Target {
  table: string;
  key: Item;
  kind: WriteKind;
  /** Table and key, as one string. */
  id: string;
}

/** A write about to be sent: what it touches and the images before it. */
export interface PendingWrite {
  command: string;
  targets: Target[];
  before: Map<string, Item>;
}

const projectionOf = (index: GlobalSecondaryIndexDescription): IndexSpec['projection'] => {
  const type = index.Projection?.ProjectionType;
  if (type === 'ALL') return 'ALL';
  return type === 'INCLUDE' ? [...(index.Projection?.NonKeyAttributes ?? [])] : [];
};

export const describeShape = async (client: DynamoDBDocumentClient, table: string): Promise<TableShape> => {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: table }));
  const keyOf = (schema: { AttributeName?: string; KeyType?: string }[] | undefined) => ({
    partition: String(schema?.find((k) => k.KeyType === 'HASH')?.AttributeName),
    sort: String(schema?.find((k) => k.KeyType === 'RANGE')?.AttributeName),
  });
  return {
    key: keyOf(Table?.KeySchema),
    indexes: (Table?.GlobalSecondaryIndexes ?? []).map((index) => ({
      name: String(index.IndexName),
      ...keyOf(index.KeySchema),
      projection: projectionOf(index),
    })),
  };
};

/** What kind of item this is, for the report: its `entity`, else what its key says. */
export const entityOf = (item: Item | undefined, key: Item): string =>
  typeof item?.entity === 'string' ? item.entity : itemKindOf(String(key.pk ?? ''), String(key.sk ?? ''));

/** The names (`#x`) and values (`:x`) an expression uses. */
const tokens = (expression: unknown, sigil: '#' | ':'): Set<string> =>
  new Set(
    typeof expression === 'string' ? (expression.match(new RegExp(`${sigil}[A-Za-z0-9_]+`, 'g')) ?? []) : [],
  );

/** A Query or Scan input that reads what the original read, and returns all of it. */
export const unfilteredRead = (input: Input): Input => {
  const {
    ProjectionExpression: _p,
    Select: _s,
    FilterExpression: _f,
    AttributesToGet: _a,
    QueryFilter: _q,
    ScanFilter: _sf,
    ConditionalOperator: _c,
    ReturnConsumedCapacity: _r,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ...rest
  } = input;
  const usedNames = tokens(rest.KeyConditionExpression, '#');
  const usedValues = tokens(rest.KeyConditionExpression, ':');
  const keep = (map: unknown, used: Set<string>) =>
    Object.fromEntries(Object.entries((map ?? {}) as Item).filter(([token]) => used.has(token)));
  const keptNames = keep(names, usedNames);
  const keptValues = keep(values, usedValues);
  return {
    ...rest,
    ...(Object.keys(keptNames).length ? { ExpressionAttributeNames: keptNames } : {}),
    ...(Object.keys(keptValues).length ? { ExpressionAttributeValues: keptValues } : {}),
  };
};

/** The same JSON whatever the key order of maps. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Item).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  ) ?? 'undefined';

export class AwsMetering {
  private readonly shapes = new Map<string, Promise<TableShape>>();

  constructor(private readonly raw: DynamoDBDocumentClient) {}

  /** The table's keys and indexes (DescribeTable on first use). */
  shape(table: string): Promise<TableShape> {
    let shape = this.shapes.get(table);
    if (!shape) {
      shape = describeShape(this.raw, table);
      this.shapes.set(table, shape);
    }
    return shape;
  }

  isWrite = (command: string): boolean => WRITE_COMMANDS.has(command);
  isRead = (command: string): boolean => READ_COMMANDS.has(command);

  /** Reads the images of every key a write touches, before it is sent. */
  async beforeWrite(command: string, input: Input): Promise<PendingWrite> {
    const targets = await this.targets(command, input);
    return { command, targets, before: await this.images(targets) };
  }

  /** Reads the images after the write and charges it (`output` undefined: the write failed). */
  async afterWrite(pending: PendingWrite, output: Input | undefined): Promise<RequestCharge> {
    const transactional = pending.command === 'TransactWriteItems';
    const unprocessed = new Set<string>();
    if (output && pending.command === 'BatchWriteItem') {
      const left = (output.UnprocessedItems ?? {}) as Record<string, Input[]>;
      for (const [table, requests] of Object.entries(left)) {
        const { key } = await this.shape(table);
        for (const r of requests) {
          const item = ((r.PutRequest as Input | undefined)?.Item ??
            (r.DeleteRequest as Input | undefined)?.Key) as Item;
          unprocessed.add(this.id(table, key, item));
        }
      }
    }
    const done = pending.targets.filter((t) => !unprocessed.has(t.id));
    const after = output
      ? await this.images(done.filter((t) => t.kind !== 'check'))
      : new Map<string, Item>();
    const charge: RequestCharge = {
      units: emptySplit(),
      writes: [],
      reads: [],
      ...(output ? {} : { failed: true }),
    };
    for (const target of done) {
      const shape = await this.shape(target.table);
      const { id } = target;
      const before = pending.before.get(id);
      const now = after.get(id);
      const kind = output ? target.kind : 'check';
      const cost = itemWriteCharge(
        { kind, before, after: now },
        { indexes: shape.indexes, transactional, table: shape.key },
      );
      addUnits(charge.units, 'write', cost.table);
      for (const [index, units] of Object.entries(cost.indexes))
        addUnits(charge.units, 'write', units, index);
      charge.writes.push({
        command: pending.command,
        kind,
        entity: entityOf(now ?? before, target.key),
        ...(before ? { bytesBefore: itemBytes(before) } : {}),
        ...(now ? { bytesAfter: itemBytes(now) } : {}),
        table: cost.table,
        indexes: cost.indexes,
      });
    }
    return charge;
  }

  /** Charges a read from what it returned (or what the same read returns without projection or filter). */
  async read(command: string, input: Input, output: Input): Promise<RequestCharge> {
    const charge: RequestCharge = { units: emptySplit(), writes: [], reads: [] };
    const add = (read: ReadCharge) => {
      charge.reads.push(read);
      addUnits(charge.units, 'read', read.units, read.index);
    };
    const item = (found: Item | undefined, mode: { consistent?: boolean; transactional?: boolean }) => ({
      command,
      items: 1,
      bytes: found ? itemBytes(found) : 0,
      units: getReadUnits(found, mode),
    });
    if (command === 'GetItem') {
      const table = String(input.TableName);
      const found = projected(input)
        ? (await this.fullItems(table, [input.Key as Item])).get(await this.keyId(table, input.Key as Item))
        : (output.Item as Item | undefined);
      add(item(found, { consistent: input.ConsistentRead === true }));
    } else if (command === 'BatchGetItem') {
      const requests = input.RequestItems as Record<string, Input>;
      const left = (output.UnprocessedKeys ?? {}) as Record<string, { Keys?: Item[] }>;
      for (const [table, request] of Object.entries(requests)) {
        const { key } = await this.shape(table);
        const skipped = new Set((left[table]?.Keys ?? []).map((k) => this.id(table, key, k)));
        const keys = ((request.Keys ?? []) as Item[]).filter((k) => !skipped.has(this.id(table, key, k)));
        const found = projected(request)
          ? await this.fullItems(table, keys)
          : new Map(
              ((output.Responses as Record<string, Item[]> | undefined)?.[table] ?? []).map((i) => [
                this.id(table, key, i),
                i,
              ]),
            );
        for (const k of keys)
          add(item(found.get(this.id(table, key, k)), { consistent: request.ConsistentRead === true }));
      }
    } else if (command === 'TransactGetItems') {
      const elements = (input.TransactItems ?? []) as { Get: Input }[];
      const responses = (output.Responses ?? []) as { Item?: Item }[];
      for (const [i, { Get }] of elements.entries()) {
        const table = String(Get.TableName);
        const found = projected(Get)
          ? (await this.fullItems(table, [Get.Key as Item])).get(await this.keyId(table, Get.Key as Item))
          : responses[i]?.Item;
        add(item(found, { transactional: true }));
      }
    } else if (command === 'Query' || command === 'Scan') {
      const table = String(input.TableName);
      const shape = await this.shape(table);
      const plain = unfilteredRead(input);
      const out = (await this.raw.send(
        command === 'Query'
          ? new QueryCommand(plain as QueryCommandInput)
          : new ScanCommand(plain as ScanCommandInput),
      )) as Input;
      const indexName = typeof input.IndexName === 'string' ? input.IndexName : undefined;
      const spec = indexName ? shape.indexes.find((i) => i.name === indexName) : undefined;
      if (indexName && !spec) throw new Error(`${table} has no index ${indexName}`);
      const entries = ((out.Items ?? []) as Item[]).map((e) =>
        spec ? (indexEntry(spec, e, shape.key) ?? e) : e,
      );
      const mode = { consistent: !spec && input.ConsistentRead === true };
      add({
        command,
        ...(indexName ? { index: indexName } : {}),
        items: entries.length,
        bytes: entries.reduce((sum, e) => sum + itemBytes(e), 0),
        units: queryReadUnits(entries, mode),
      });
      if (
        canonical(out.LastEvaluatedKey) !== canonical(output.LastEvaluatedKey) ||
        out.Count !== output.ScannedCount
      )
        charge.mismatch = `${command} re-read ${out.Count} entries, the original ${output.ScannedCount}`;
    }
    return charge;
  }

  private async targets(command: string, input: Input): Promise<Target[]> {
    const targets: Target[] = [];
    const add = async (table: string, itemOrKey: Item, kind: WriteKind) => {
      const { key } = await this.shape(table);
      const only = { [key.partition]: itemOrKey[key.partition], [key.sort]: itemOrKey[key.sort] };
      targets.push({ table, kind, key: only, id: this.id(table, key, only) });
    };
    const table = String(input.TableName);
    if (command === 'PutItem') await add(table, input.Item as Item, 'put');
    else if (command === 'UpdateItem') await add(table, input.Key as Item, 'update');
    else if (command === 'DeleteItem') await add(table, input.Key as Item, 'delete');
    else if (command === 'TransactWriteItems') {
      for (const element of (input.TransactItems ?? []) as Record<string, Input>[]) {
        const { Put, Update, Delete, ConditionCheck } = element;
        if (Put) await add(String(Put.TableName), Put.Item as Item, 'put');
        if (Update) await add(String(Update.TableName), Update.Key as Item, 'update');
        if (Delete) await add(String(Delete.TableName), Delete.Key as Item, 'delete');
        if (ConditionCheck) await add(String(ConditionCheck.TableName), ConditionCheck.Key as Item, 'check');
      }
    } else if (command === 'BatchWriteItem') {
      for (const [name, requests] of Object.entries(input.RequestItems as Record<string, Input[]>)) {
        for (const r of requests) {
          const put = r.PutRequest as Input | undefined;
          const del = r.DeleteRequest as Input | undefined;
          if (put) await add(name, put.Item as Item, 'put');
          if (del) await add(name, del.Key as Item, 'delete');
        }
      }
    }
    return targets;
  }

  private id(table: string, key: TableKey, item: Item): string {
    return JSON.stringify([table, item[key.partition], item[key.sort]]);
  }

  private async keyId(table: string, key: Item): Promise<string> {
    return this.id(table, (await this.shape(table)).key, key);
  }

  /** The current images of the targets (consistent reads), by target id; missing items are absent. */
  private async images(targets: Target[]): Promise<Map<string, Item>> {
    const found = new Map<string, Item>();
    const byTable = new Map<string, Item[]>();
    for (const t of targets) byTable.set(t.table, [...(byTable.get(t.table) ?? []), t.key]);
    for (const [table, keys] of byTable)
      for (const [id, item] of await this.fullItems(table, keys)) found.set(id, item);
    return found;
  }

  /** Whole items by key (consistent BatchGetItem, 100 keys a request), by id. */
  private async fullItems(table: string, keys: Item[]): Promise<Map<string, Item>> {
    const { key } = await this.shape(table);
    const unique = [...new Map(keys.map((k) => [this.id(table, key, k), k])).values()];
    const found = new Map<string, Item>();
    for (let i = 0; i < unique.length; i += 100) {
      let pending: Item[] = unique.slice(i, i + 100);
      while (pending.length > 0) {
        const out = await this.raw.send(
          new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }),
        );
        for (const item of out.Responses?.[table] ?? []) found.set(this.id(table, key, item), item);
        pending = out.UnprocessedKeys?.[table]?.Keys ?? [];
      }
    }
    return found;
  }
}

/** Whether a read asked for only some attributes (then DynamoDB still charges the whole item). */
const projected = (input: Input): boolean =>
  input.ProjectionExpression !== undefined || input.AttributesToGet !== undefined;
