import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { HttpHandler } from '../local/lambda-runtime';
import { db, tableName } from '../shared/store/dynamo';
import { type EntityKind, keys as storeKeys } from '../shared/store/keys';

const recordKey = storeKeys.record;

/**
 * The floor for section 4: `GET /ticket/{id}` answered with the same DynamoDB calls as the real
 * ticket detail (one consistent Query over the ticket's item collection, one BatchGet of the
 * records it points at) on the same DocumentClient, but with no middleware, auth, validation
 * or mapping: the raw items go back as JSON.
 */
type Item = Record<string, unknown>;

const REFERENCES: [string, EntityKind][] = [
  ['openedBy', 'CUSTOMER'],
  ['assignedTo', 'AGENT'],
  ['type', 'TICKET_TYPE'],
  ['area', 'TICKET_AREA'],
  ['group', 'TICKET_GROUP'],
];

const detail = async (tenant: string, id: string): Promise<Item> => {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': recordKey(tenant, 'TICKET', id).pk },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
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
  let pending: Item[] = [...keys.values()];
  while (pending.length > 0) {
    const out = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending } } }));
    related.push(...(out.Responses?.[tableName()] ?? []));
    pending = out.UnprocessedKeys?.[tableName()]?.Keys ?? [];
  }
  return { items, related };
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

export const startBareServer = async () => {
  const { startServer } = await import('../local/server');
  const { loadHandler } = await import('../local/lambda-runtime');
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    loadHandler: (name) =>
      name === 'ticket-detail' ? Promise.resolve(bareDetailHandler) : loadHandler(name),
  });
  return { url: server.url.replace('localhost', '127.0.0.1'), close: server.close };
};
