import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { type OperationId, type Route, routeOf } from '../routes';
import type { BulkInput, BulkOperation } from '../schemas/bulk';
import { timeLeft } from '../store/deadline';
import { type ApiHandler, type ApiRequest, POSITION_HEADER } from './api-handler';
import { unavailable } from './errors';
import { logger } from './logger';
import { problemBody } from './problem-response';
import { type HttpResult, json } from './responses';

/**
 * `POST /ticket/bulk` and `POST /customer/bulk` (docs/decisions.md, "Bulk changes"): up to 100
 * operations, each run by its own route's handling (`ApiHandler.item`: rate limit, Idempotency-
 * Key, If-Match, validation, the write with its events and history, its problem) on an event
 * of its own, as if it had been sent alone. One item's failure never undoes or holds back
 * another; the answer is 200 with every item's status and body, in request order.
 */

/** One kind of operation of a bulk route: the route it runs as, and that route's handler. */
export interface BulkTarget {
  readonly operationId: OperationId;
  readonly handler: ApiHandler;
}

export interface BulkResult {
  status: number;
  body: unknown;
  /** Where its change is in the change feed (the single route's Helpdesk-Position), if it wrote one. */
  position?: string;
  /** The item's Idempotency-Key found the answer of an earlier request: nothing was written now. */
  replayed?: true;
}

/** Items run at once (different records); a record's own items run one after another, in order. */
export const BULK_CONCURRENCY = 8;
/** An item starts only with this much of the call's time left: less could not see its write answered. */
export const ITEM_START_MS = 1000;

/** The headers of the bulk call an item keeps: its credentials, profile and address, never its body's. */
const DROPPED = new Set([
  'content-length',
  'content-type',
  'idempotency-key',
  'if-match',
  'content-encoding',
]);

const itemEvent = (
  event: APIGatewayProxyEventV2,
  route: Route,
  operation: BulkOperation,
  index: number,
): APIGatewayProxyEventV2 => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers))
    if (!DROPPED.has(name) && value) headers[name] = value;
  if (operation.key !== undefined) headers['idempotency-key'] = operation.key;
  if (operation.ifMatch !== undefined) headers['if-match'] = operation.ifMatch;
  const path = route.path.replace('{id}', encodeURIComponent(operation.id ?? ''));
  const routeKey = `${route.method} ${route.path}`;
  const body = route.request.body ? JSON.stringify(operation.body ?? null) : undefined;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return {
    ...event,
    routeKey,
    rawPath: path,
    rawQueryString: '',
    queryStringParameters: undefined,
    pathParameters: operation.id === undefined ? undefined : { id: operation.id },
    headers,
    body,
    isBase64Encoded: false,
    requestContext: {
      ...event.requestContext,
      requestId: `${event.requestContext.requestId}-${index}`,
      routeKey,
      http: { ...event.requestContext.http, method: route.method, path },
    },
  } as APIGatewayProxyEventV2;
};

const resultOf = (answer: HttpResult): BulkResult => {
  const position = answer.headers[POSITION_HEADER];
  return {
    status: answer.statusCode,
    body: answer.body ? JSON.parse(answer.body) : null,
    ...(answer.headers['idempotent-replayed'] === 'true' ? { replayed: true as const } : {}),
    ...(position ? { position } : {}),
  };
};

/** What an item that never started answers: a 503 that wrote nothing, which it may send again. */
const notAttempted = (event: APIGatewayProxyEventV2): BulkResult => {
  const error = unavailable(
    "Not attempted: the call's time ran out before this operation started. Nothing of it was written; send it again.",
  );
  return { status: error.status, body: problemBody(error, event.rawPath) };
};

/**
 * Runs the operations of a bulk call: at most BULK_CONCURRENCY at once, the items naming one
 * record in their order, each started only while ITEM_START_MS of the call's time is left.
 */
export const runBulk = async (
  targets: Readonly<Record<string, BulkTarget>>,
  input: BulkInput,
  event: APIGatewayProxyEventV2,
  context: Context,
): Promise<BulkResult[]> => {
  const results: BulkResult[] = new Array(input.operations.length);
  // Items without an id (inserts) each form a chain of their own.
  const chains = new Map<string, number[]>();
  input.operations.forEach((operation, index) => {
    const chain = operation.id === undefined ? `#${index}` : `id:${operation.id}`;
    const indexes = chains.get(chain);
    if (indexes) indexes.push(index);
    else chains.set(chain, [index]);
  });
  const queue = [...chains.values()];
  const runChain = async (indexes: number[]) => {
    for (const index of indexes) {
      const operation = input.operations[index] as BulkOperation;
      const target = targets[operation.op] as BulkTarget;
      const sub = itemEvent(event, routeOf(target.operationId), operation, index);
      results[index] =
        timeLeft() < ITEM_START_MS ? notAttempted(sub) : resultOf(await target.handler.item(sub, context));
    }
  };
  const worker = async () => {
    for (let chain = queue.shift(); chain; chain = queue.shift()) await runChain(chain);
  };
  await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, queue.length) }, worker));
  return results;
};

/**
 * The operation of a bulk route: every item's outcome, 200 whatever they are. The call's
 * Helpdesk-Position is its latest change's (positions sort as strings: search/positions.ts), so a
 * search sent with it waits for every change of the call; its access line counts the items' statuses.
 */
export const bulkOperation =
  (targets: Readonly<Record<string, BulkTarget>>) =>
  async ({ event, body, context }: Pick<ApiRequest, 'event' | 'context'> & { body: unknown }) => {
    // The route's schema (schemas/bulk.ts `bulkInput`) checked the body before.
    const results = await runBulk(targets, body as BulkInput, event, context);
    const statuses: Record<string, number> = {};
    let latest: string | undefined;
    for (const { status, position } of results) {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (position && (!latest || position > latest)) latest = position;
    }
    logger.appendKeys({ operations: statuses });
    return json(200, { results }, latest ? { [POSITION_HEADER]: latest } : {});
  };
