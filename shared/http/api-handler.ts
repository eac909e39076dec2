import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import type { WriteContext } from '../domain/commit';
import { publishMetrics, recordCreated } from '../observability/metrics';
import { tracing } from '../observability/tracing';
import { type OperationId, type Route, type RouteOf, routeOf } from '../routes';
import { DEFAULT_COMPAT } from '../schemas/compat';
import { withDeadline } from '../store/deadline';
import { db } from '../store/dynamo';
import { IdempotentReplay } from '../store/errors';
import { rememberOutcome, replayIfSeen, type StoredAnswer, transactionToken } from '../store/idempotency';
import { withRegionScope } from '../store/store-region';
import type { WriteOutcome } from '../store/write-ops';
import { baseUrlOf } from './base-url';
import { bearerAuth } from './bearer-auth';
import { bodyLimit } from './body-limit';
import { type Compat, compatFor, compatProfile } from './compat';
import { homeRegion } from './home-region';
import { idempotencyKey } from './idempotency-key';
import { ifMatchOf } from './if-match';
import { jsonLimits } from './json-limits';
import { createdOf, located } from './location';
import { errorFields, logContext, logger } from './logger';
import { problemResponses } from './problem-response';
import { rateLimit } from './rate-limit';
import { requestLog, tenantLogKey } from './request-log';
import { requestState, startRequestState } from './request-state';
import { etagOf, type HttpResult, json } from './responses';
import { validate } from './validate';
import { wellFormedInput } from './well-formed';

type Output<S> = S extends z.ZodMiniType ? z.output<S> : undefined;
type Req<R extends Route> = R['request'];

/** What an operation receives: its route's input, validated and typed, and who is asking. */
export interface ApiRequest<R extends Route = Route> {
  /** As API Gateway sent it; what the chain learned of it is in its state (request-state.ts). */
  event: APIGatewayProxyEventV2;
  /** The authenticated client; empty on the token route. */
  tenantId: string;
  params: Output<Req<R>['params']>;
  query: Output<Req<R>['query']>;
  /** The query as sent (search values before normalisation: page links keep them). */
  rawQuery: Record<string, string | undefined>;
  body: Output<Req<R>['body']>;
  /** Absolute base URL of the API as the client called it (for nextQuery, photo URLs). */
  baseUrl: string;
  /** Absolute URL of this route's path (a list route's: what page links start with). */
  routeUrl: string;
  /** Tenant, `If-Match` and the idempotency record, for the domain's writes. */
  write: WriteContext;
  /** The request's compatibility profile: what shapes its pages and ticket statuses. */
  compat: Compat;
  /** The invocation's Lambda context (a bulk call runs its items with it). */
  context: Context;
}

/**
 * An idempotent route's operation: its write, and the body the route answers, made of the
 * write's result (what `commit` returned). `apiHandler` answers it with the route's declared
 * success status; the same answer is stored by the write's transaction under the request's
 * Idempotency-Key, and every retry is answered with it: a replay is what the route answered.
 */
export interface IdempotentWrite<R extends Route, T> {
  write: (req: ApiRequest<R>) => Promise<T>;
  answer: (result: T) => unknown;
}

/**
 * What a route's function gives `apiHandler`: an idempotent route its write and answer, any other
 * its answer (checked as the function is made: the route table's crud entries do not tell the
 * compiler which inserts are idempotent).
 */
export type Operation<R extends Route, T> =
  | IdempotentWrite<R, T>
  | ((req: ApiRequest<R>) => Promise<HttpResult>);

/** What a write does with after-commit work that failed: log it (a retry or sweep finishes it). */
const logAfterFailed = (error: unknown): void =>
  logger.warn('after-commit work failed; a retry or sweep finishes it', { error: errorFields(error) });

/** What a committed write's answer says of it besides its body: its feed position and the version it made. */
const outcomeHeaders = ({ position, version }: WriteOutcome): Record<string, string> => ({
  ...(position ? { [POSITION_HEADER]: position } : {}),
  ...(version === undefined ? {} : { etag: etagOf(version) }),
});

/** A retry answered with the stored answer of the request it repeats. */
const replayed = (stored: StoredAnswer): HttpResult =>
  json(stored.status, stored.body, { 'idempotent-replayed': 'true', ...outcomeHeaders(stored.outcome) });

/** The committed change's place in the tenant's feed (search/positions.ts): what `Helpdesk-Min-Position` waits for. */
export const POSITION_HEADER = 'helpdesk-position';

/**
 * Wraps one operation in the house middleware chain, configured from its route-table entry:
 * tracing (when bundled in: observability/tracing.ts), the Lambda context and the request's keys
 * on every log line, metrics published once per invocation (observability/metrics.ts, where they
 * are on), access log and request metrics, Bearer + clientId auth (then the tenant on the
 * log lines), the per-client rate limit, the request's compatibility profile (compat.ts), body
 * limits (bytes, then depth and members: json-limits.ts) and JSON parsing only on routes with a
 * body, well-formed Unicode in every string of the path, query and body, the Idempotency-Key on
 * creating routes, the route's input schemas (the query as the profile reads it), and the single
 * problem+json error responder (last, so its onError runs first). The middlewares leave what
 * they learn in the request's state (request-state.ts), made here for each invocation; the event
 * is not theirs to change. A retry of a committed idempotent request is answered with its stored
 * answer, the operation not run; so is a duplicate that lost the race inside the transaction
 * (`IdempotentReplay`). An error of the operation that the profile answers itself (a missing
 * detail under `deskero`) becomes that answer; every other one a problem. A success of a route
 * that creates tickets, replies or notes is counted (observability/metrics.ts `recordCreated`).
 * Header names arrive lower-case (API Gateway's payload 2.0 lower-cases them, and so does the local
 * stand-in, local/event.ts): nothing normalises them again.
 */
export const apiHandler = <Op extends OperationId, T = never>(
  operationId: Op,
  operation: Operation<RouteOf<Op>, T>,
) => {
  const route: Route = routeOf(operationId);
  const { params, query, body } = route.request;
  const idempotent = typeof operation === 'function' ? undefined : operation;
  if (Boolean(route.idempotent) !== Boolean(idempotent)) {
    throw new Error(`${operationId}: an idempotent route gives { write, answer }, any other a function`);
  }
  // middy's own early timeout would answer 503 while a write may still land: ours (below) knows better.
  const newChain = () =>
    middy<APIGatewayProxyEventV2, HttpResult, Error, Context>({ timeoutEarlyInMillis: 0 });
  /** What a request runs from authentication on: the route's own handling, whether it came alone or in a bulk call. */
  const requestChain = (chain: ReturnType<typeof newChain>, logTenant: boolean) => {
    // Rate windows are counted in the receiving region; from the home region on, the tenant's data.
    if (route.auth === 'bearer') {
      chain.use(bearerAuth());
      if (logTenant) chain.use(tenantLogKey());
      chain.use(rateLimit()).use(homeRegion(route)).use(compatProfile(route));
    }
    if (body) chain.use(bodyLimit(route.maxBodyBytes)).use(jsonLimits()).use(httpJsonBodyParser());
    chain.use(wellFormedInput());
    if (route.idempotent) chain.use(idempotencyKey(operationId));
    return chain.use(problemResponses());
  };
  const chain = requestChain(
    newChain()
      .use(tracing({ awsClients: () => (route.access === 'none' ? [] : [db()]) }))
      .use(logContext())
      .use(publishMetrics())
      .use(requestLog(operationId)),
    true,
  );

  const [successStatus] = route.responses.success;
  const run =
    typeof operation === 'function'
      ? operation
      : async (req: ApiRequest<RouteOf<Op>>) =>
          json(successStatus, operation.answer(await operation.write(req)));
  // The token route has no client yet: it answers the same under every profile.
  const unprofiled = compatFor(route, DEFAULT_COMPAT);
  const operate = async (event: APIGatewayProxyEventV2, context: Context): Promise<HttpResult> => {
    const state = requestState(event);
    if (state.replay) return replayed(state.replay);
    const baseUrl = baseUrlOf(event);
    const rawQuery = event.queryStringParameters ?? {};
    const tenantId = state.client?.tenantId ?? '';
    const { idempotency } = state;
    const compat = state.compat ?? unprofiled;
    let outcome: WriteOutcome = {};
    const request: ApiRequest<RouteOf<Op>> = {
      event,
      context,
      tenantId,
      compat,
      params: (params ? validate(params, event.pathParameters ?? {}, 'path') : undefined) as never,
      query: (query ? validate(query, compat.query(rawQuery), 'query') : undefined) as never,
      rawQuery,
      // Validated before the operation touches the store, so a bad body on an unknown id is still a 400.
      body: (body ? validate(body, event.body, 'body') : undefined) as never,
      baseUrl,
      routeUrl: `${baseUrl}${route.path}`,
      write: {
        tenantId,
        ifMatch: ifMatchOf(event.headers['if-match']),
        afterFailed: logAfterFailed,
        committed: (committed) => {
          outcome = committed;
        },
        ...(state.client?.trashDays === undefined ? {} : { trashDays: state.client.trashDays }),
        ...(state.client?.historyDays === undefined ? {} : { historyDays: state.client.historyDays }),
        actor: { clientId: tenantId, requestId: event.requestContext.requestId },
        ...(idempotent && idempotency
          ? {
              // commit hands over its plan's result, which it also returns to the write.
              remember: (result: unknown, committed: WriteOutcome) => [
                rememberOutcome(idempotency, successStatus, idempotent.answer(result as T), committed),
              ],
              requestToken: transactionToken(idempotency),
              replay: async () => {
                const stored = await replayIfSeen(idempotency);
                if (stored) throw new IdempotentReplay(stored.status, stored.body, stored.outcome);
              },
            }
          : {}),
      },
    };
    try {
      const result = await run(request);
      if (result.statusCode < 300) recordCreated(operationId, request.body);
      if (result.statusCode < 300) result.headers = { ...result.headers, ...outcomeHeaders(outcome) };
      return result;
    } catch (error) {
      if (error instanceof IdempotentReplay) return replayed(error);
      const answer = compat.answer(error);
      if (answer) return answer;
      throw error;
    }
  };
  // A 201, first answer or replay, says where what it created is (location.ts).
  const created = createdOf(route);
  const core = async (event: APIGatewayProxyEventV2, context: Context): Promise<HttpResult> => {
    const result = await operate(event, context);
    return result.statusCode === 201 ? located(result, created, baseUrlOf(event)) : result;
  };
  const handler = chain.handler(core);
  let itemHandler: ((event: APIGatewayProxyEventV2, context: Context) => Promise<HttpResult>) | undefined;
  return Object.assign(
    (event: APIGatewayProxyEventV2, context: Context): Promise<HttpResult> => {
      startRequestState(event);
      const deadline = Math.max(0, context.getRemainingTimeInMillis() - DEADLINE_MARGIN_MS);
      return withDeadline(deadline, () => withRegionScope(() => handler(event, context)));
    },
    {
      /**
       * The route for one item of a bulk call (bulk.ts): the same chain from authentication on
       * (rate limit, Idempotency-Key, If-Match, validation, the operation, its problem), on the
       * item's own event, within the bulk call's deadline and log lines (made on first use).
       */
      item: (event: APIGatewayProxyEventV2, context: Context): Promise<HttpResult> => {
        startRequestState(event);
        itemHandler ??= requestChain(newChain(), false).handler(core);
        return itemHandler(event, context);
      },
    },
  );
};

/** A route's Lambda handler, with its handling of one bulk item (`item`). */
export type ApiHandler = ReturnType<typeof apiHandler>;

/**
 * Store and S3 calls stop this long before the function's own timeout, leaving time to answer
 * truthfully (503 nothing written, or 504 outcome unknown) instead of being cut off.
 */
const DEADLINE_MARGIN_MS = 1500;
