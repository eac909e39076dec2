import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { HttpHandler } from '../local/lambda-runtime';
import { db, tableName } from '../shared/store/dynamo';
import { counterNames, DETAIL_END, type EntityKind, keys as storeKeys } from '../shared/store/keys';
import { LIST_INDEX } from '../shared/store/table-schema';

const recordKey = storeKeys.record;

/**
 * The floor for section 4: `GET /ticket/{id}` answered with the same DynamoDB calls as the real
 * ticket detail (one consistent Query over the ticket's item collection up to its tag items, one
 * BatchGet of the records it points at) on the same DocumentClient, but with no middleware, auth,
 * validation or mapping: the raw items go back as JSON.
 */
type Item = Record<string, unknown>;

const REFERENCES: [string, EntityKind][] = [
  ['openedBy', 'CUSTOMER'],
  ['assignedTo', 'AGENT'],
  ['type', 'TICKET_TYPE'],
  ['area', 'TICKET_AREA'],
  ['group', 'TICKET_GROUP'],
];

const collection = async (tenant: string, id: string): Promise<Item[]> => {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk < :end',
        ExpressionAttributeValues: { ':pk': recordKey(tenant, 'TICKET', id).pk, ':end': DETAIL_END },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
};

/** The records `items` point at, read by key in BatchGets (with `extra` keys). */
const relatedOf = async (tenant: string, items: Item[], extra: { pk: string; sk: string }[] = []) => {
  const keys = new Map<string, { pk: string; sk: string }>();
  const add = (kind: EntityKind, ref: unknown) => {
    if (typeof ref === 'string' && ref) keys.set(`${kind}#${ref}`, recordKey(tenant, kind, ref));
  };
  for (const item of items) {
    for (const [field, kind] of REFERENCES) add(kind, item[field]);
    for (const agent of (item.cc as string[] | undefined) ?? []) add('AGENT', agent);
    add('AGENT', item.replyFromOperator);
    add('AGENT', item.insertBy);
  }
  const related: Item[] = [];
  let pending: Item[] = [...extra, ...keys.values()];
  while (pending.length > 0) {
    const out = await db().send(
      new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending.slice(0, 100) } } }),
    );
    related.push(...(out.Responses?.[tableName()] ?? []));
    pending = [...pending.slice(100), ...(out.UnprocessedKeys?.[tableName()]?.Keys ?? [])];
  }
  return related;
};

const detail = async (tenant: string, id: string): Promise<Item> => {
  const items = await collection(tenant, id);
  return { items, related: await relatedOf(tenant, items) };
};

/** The list index's Query of a tenant's tickets, newest first, by hand (no store code): a bare read. */
export const bareListQuery = (tenant: string, start?: Record<string, unknown>, limit = 26) =>
  db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: LIST_INDEX.name,
      KeyConditionExpression: '#p = :p',
      ExpressionAttributeNames: { '#p': LIST_INDEX.partition },
      ExpressionAttributeValues: { ':p': storeKeys.list(tenant, 'TICKET') },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: start,
    }),
  );

/**
 * The floor of `GET /ticket/list` (a page of ticket details, docs/decisions.md "Lists"): the list
 * index's newest 26 entries, then at once every ticket's item collection and one BatchGet of the
 * page's count and the records the entries point at; the raw items go back as JSON.
 */
const list = async (tenant: string): Promise<Item> => {
  const out = await bareListQuery(tenant);
  const entries = (out.Items ?? []).slice(0, 25);
  const [collections, related] = await Promise.all([
    Promise.all(entries.map((e) => collection(tenant, String(e.id)))),
    relatedOf(tenant, entries, [storeKeys.counter(tenant, counterNames.total('TICKET'))]),
  ]);
  return { entries: collections, related };
};

/**
 * The bare ticket-detail handler, served by the same local API Gateway stand-in as the product
 * (route match, payload 2.0 event), so the comparison isolates our middleware, auth, validation
 * and mapping.
 */
export const bareDetailHandler: HttpHandler = async (event) => {
  const tenant = event.headers.clientid;
  const id = event.pathParameters?.id;
  if (!tenant || !id) return { statusCode: 404 };
  return {
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(await detail(tenant, id)),
  };
};

export const bareListHandler: HttpHandler = async (event) => {
  const tenant = event.headers.clientid;
  if (!tenant) return { statusCode: 404 };
  return {
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(await list(tenant)),
  };
};

const BARE: Record<string, HttpHandler> = {
  'ticket-detail': bareDetailHandler,
  'ticket-list': bareListHandler,
};

export const startBareServer = async () => {
  const { startServer } = await import('../local/server');
  const { loadHandler } = await import('../local/lambda-runtime');
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    loadHandler: (name) => (BARE[name] ? Promise.resolve(BARE[name]) : loadHandler(name)),
  });
  return { url: server.url.replace('localhost', '127.0.0.1'), close: server.close };
};
