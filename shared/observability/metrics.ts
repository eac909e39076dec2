import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { MiddlewareObj } from '@middy/core';
import { logger, SERVICE_NAME } from '../http/logger';
import type { OperationId } from '../routes';
import { PROBLEM_TYPES } from '../schemas/problems';

/**
 * CloudWatch metrics in the embedded metric format (EMF): JSON blobs on the function's output,
 * which CloudWatch Logs turns into metrics (no API call, nothing to await). Namespace `Helpdesk`.
 * Per API request (request-log.ts), one blob:
 *
 * | metric           | unit         | value                                                        |
 * | ---------------- | ------------ | ------------------------------------------------------------ |
 * | `Requests`       | Count        | 1                                                            |
 * | `Latency`        | Milliseconds | from the first middleware of the chain to the answer         |
 * | `Errors`         | Count        | 1 for a 5xx answer, else 0 (its average is the error rate)   |
 * | `TicketsCreated` | Count        | a ticket insert that created its ticket (not a replay)       |
 * | `Replies`        | Count        | replies created: a reply, or those of a ticket insert/update |
 * | `Notes`          | Count        | a note added                                                 |
 *
 * under the dimension sets `[service, route]` and `[service]` (the whole API). A problem answer
 * adds a second blob: `Requests`, `Latency` and `Errors` under `[service, route, problemType]`
 * (one blob cannot hold both sets: Powertools refuses a dimension in two sets of one blob).
 * `route` is the operationId, `problemType` the problem's code (`urn:helpdesk:problem:<code>`):
 * both from our own fixed sets (the route table, shared/schemas/problems.ts), never from the
 * request, so the series stay bounded (routes × metrics, plus the problem types each route
 * answers). Once per instance, `ColdStart` (Count) under `[service, function_name]` (Powertools').
 *
 * Outside Lambda (the local server, the tests) nothing reads EMF, so nothing is written unless
 * `POWERTOOLS_METRICS_DISABLED=false` asks for it; in Lambda it is on unless that says `true`.
 */
export const METRICS_NAMESPACE = 'Helpdesk';

if (!process.env.AWS_LAMBDA_FUNCTION_NAME) process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

/**
 * Metrics that publish nothing, and warn of nothing, when the invocation recorded nothing; their
 * own warnings (a bad value) go to our logger, as JSON lines with the request's keys.
 */
class InvocationMetrics extends Metrics {
  constructor() {
    super({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME, logger });
  }

  /** Disabled (outside Lambda by default), nothing is recorded either. */
  get recording(): boolean {
    return !this.isDisabled();
  }

  override publishStoredMetrics(): this {
    return this.hasStoredMetrics() ? super.publishStoredMetrics() : this;
  }
}

/** Requests, latency, errors and business counts, by route. */
export const metrics = new InvocationMetrics();
/** The same three of problem answers, by route and problem type. */
const problemMetrics = new InvocationMetrics();

export type BusinessMetric = 'TicketsCreated' | 'Replies' | 'Notes';

/**
 * Publishes what the invocation recorded, once, when it ends (success or error), and the
 * cold-start metric. An invocation that recorded nothing publishes nothing: it never throws
 * (Powertools' `throwOnEmptyMetrics` stays off) nor warns.
 */
export const publishMetrics = (): MiddlewareObj[] =>
  // Off (outside Lambda by default), a request has nothing to publish: no middleware runs.
  metrics.recording
    ? [
        logMetrics(metrics, { captureColdStartMetric: true, throwOnEmptyMetrics: false }) as MiddlewareObj,
        logMetrics(problemMetrics, { throwOnEmptyMetrics: false }) as MiddlewareObj,
      ]
    : [];

/** The problem type as a dimension value: one of ours, or `other` (never the code as given). */
export const problemDimension = (code: string): string =>
  Object.hasOwn(PROBLEM_TYPES, code) ? code : 'other';

/**
 * Records one API request's metrics (see above), with the code of the problem it answered if any;
 * published when the invocation ends.
 */
export const recordRequest = (
  route: OperationId,
  status: number | undefined,
  latencyMs: number,
  problem?: string,
): void => {
  if (!metrics.recording) return;
  const problemType = problem === undefined ? undefined : problemDimension(problem);
  const errors = status === undefined || status >= 500 ? 1 : 0;
  metrics.addDimension('route', route);
  metrics.addDimensions({}); // the `[service]` set: the whole API
  metrics.addMetric('Requests', MetricUnit.Count, 1);
  metrics.addMetric('Latency', MetricUnit.Milliseconds, latencyMs);
  metrics.addMetric('Errors', MetricUnit.Count, errors);
  if (!problemType) return;
  problemMetrics.addDimension('route', route);
  problemMetrics.addDimension('problemType', problemType);
  problemMetrics.addMetric('Requests', MetricUnit.Count, 1);
  problemMetrics.addMetric('Latency', MetricUnit.Milliseconds, latencyMs);
  problemMetrics.addMetric('Errors', MetricUnit.Count, errors);
};

const repliesIn = (body: unknown): number => {
  const replies = (body as { replies?: unknown } | undefined)?.replies;
  return Array.isArray(replies) ? replies.length : 0;
};

/**
 * What a successful request of these routes created, from its validated body: every reply in a
 * ticket insert's or update's body becomes one (shared/domain/tickets.ts), all in one transaction.
 */
const CREATED: Partial<Record<OperationId, (body: unknown) => Partial<Record<BusinessMetric, number>>>> = {
  ticketInsert: (body) => ({ TicketsCreated: 1, Replies: repliesIn(body) }),
  ticketUpdate: (body) => ({ Replies: repliesIn(body) }),
  ticketReply: () => ({ Replies: 1 }),
  ticketAddNote: () => ({ Notes: 1 }),
};

/**
 * Records the business counts of a request its operation answered with a success (a replay of
 * an idempotent request is answered through the error path, and counts nothing again).
 */
export const recordCreated = (route: OperationId, body: unknown): void => {
  if (!metrics.recording) return;
  for (const [name, value] of Object.entries(CREATED[route]?.(body) ?? {})) {
    if (value > 0) metrics.addMetric(name, MetricUnit.Count, value);
  }
};
