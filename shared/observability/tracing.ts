import type { MiddlewareObj } from '@middy/core';

/**
 * AWS X-Ray tracing (Powertools Tracer), off unless the stack is synthesized with
 * `-c tracing=true` (infra/stack-context.ts): then each function runs with Lambda active tracing
 * and its bundle carries the tracer. Off, the bundle does not contain it at all: infra/bundling.ts
 * defines `process.env.HELPDESK_TRACING` as a string literal, the test below folds to a
 * constant, and esbuild drops the dead import. Powertools Tracer and the X-Ray SDK cost, on the
 * largest function (ticket-list, 4 runs of `npm run bench -- --only=cold`): 496 KB instead of
 * 371 KB, and a start ×1.33–×1.54 of the bare handler instead of ×1.14–×1.28 untraced, i.e.
 * +10–25 ms of cold start (docs/operations.md, docs/performance.md).
 * Unbundled (the local server, the tests) the variable is read from the environment; the tracer
 * then loads but stays disabled outside Lambda.
 */
const xray = process.env.HELPDESK_TRACING === 'true' ? await import('./xray') : undefined;

export interface TracingOptions {
  /**
   * The AWS SDK clients whose calls become subsegments (`captureAWSv3Client`), asked for at each
   * invocation and instrumented once: the store's client is created on first use, not at import.
   */
  readonly awsClients?: () => readonly object[];
  /**
   * Whether outgoing HTTP calls become subsegments (Powertools' `captureHTTPsRequests`: fetch, so
   * S3 through aws4fetch). Off where the URLs are tenants' own (webhook receivers, whose paths
   * may hold their secrets).
   */
  readonly http?: boolean;
}

/** Whether this bundle carries the tracer. */
export const tracingBundled = (): boolean => xray !== undefined;

/**
 * The tracing middlewares of a handler (registered first, so the handler's subsegment spans the
 * whole chain): none without tracing. The response is never recorded (customer data).
 */
export const tracing = (options: TracingOptions = {}): MiddlewareObj[] =>
  xray ? xray.tracingMiddlewares(options) : [];

/**
 * An AWS SDK v3 client whose calls are traced (captureAWSv3Client) when tracing is bundled in; the
 * client as it is otherwise. For the modules that create clients (the SQS and Secrets Manager ones).
 */
export const traceAwsClient = <C extends object>(client: C): C => (xray ? xray.traceClient(client) : client);
