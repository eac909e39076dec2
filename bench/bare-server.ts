import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../shared/store/dynamo';

/**
 * The floor for section 4: `GET /ticket/{id}` answered with the same DynamoDB calls as the real
 * ticket detail (one consistent Query over the ticket's item collection, one BatchGet of the
 * records it points at) on the same DocumentClient, but with no middleware, auth, validation,
 * event building or mapping: the raw items go back as JSON.
 */
type Item = Record<string, unknown>;

const REFERENCES: [string, string][] = [
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
        ExpressionAttributeValues: { ':pk': `T#${tenant}#TICKET#${id}` },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  const keys = new Map<string, { pk: string; sk: string }>();
  const add = (kind: string, ref: unknown) => {
    if (typeof ref === 'string' && ref)
      keys.set(`${kind}#${ref}`, { pk: `T#${tenant}#${kind}#${ref}`, sk: '#' });
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

export const startBareServer = async (): Promise<{ url: string; close: () => Promise<void> }> => {
  const server = createServer((req, res) => {
    const id = /^\/ticket\/([0-9a-f]{24})$/.exec(req.url ?? '')?.[1];
    const tenant = req.headers.clientid;
    if (!id || typeof tenant !== 'string') {
      res.writeHead(404).end();
      return;
    }
    detail(tenant, id).then(
      (body) => {
        const json = JSON.stringify(body);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
        res.end(json);
      },
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
