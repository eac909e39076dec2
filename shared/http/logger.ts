import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { MiddlewareObj } from '@middy/core';
import { sourceStack } from '../observability/source-stack';

/** `service` on every log line and the service dimension of every metric. */
export const SERVICE_NAME = process.env.POWERTOOLS_SERVICE_NAME ?? 'helpdesk';

/**
 * Structured JSON logs. Only fields chosen explicitly are logged (never the event, headers,
 * bodies or tokens): see request-log.ts. Errors too: through `errorFields`, never as themselves.
 *
 * Every line of an invocation carries the Lambda context (`function_name`, `function_request_id`,
 * `function_arn`, `function_memory_size`, `cold_start`, `xray_trace_id`: `logContext` below),
 * and every line of an API request also `requestId` (the `x-request-id` its client got: API
 * Gateway's request id), `routeKey` and, once authenticated, `tenantId` (request-log.ts). Every
 * line of one request, CloudWatch Logs Insights over the stack's log groups (each function's and
 * the API's access log, whose lines carry the same `requestId`; their generated names start with
 * the stack's, `Helpdesk-<stage>-`):
 *
 *     fields @timestamp, @log, level, message, routeKey, tenantId, status, durationMs, error.name, error.message
 *     | filter requestId = "<x-request-id>"
 *     | sort @timestamp asc
 *
 * From the CLI or API the log groups can be named in the query itself: prefix it with
 * `SOURCE logGroups(namePrefix: ["Helpdesk-<stage>-"]) |`. Lambda's own lines
 * (`platform.start`, `platform.report`: duration, memory) name the invocation as
 * `record.requestId`: `or record.requestId = "<function_request_id of the lines found>"`.
 */
export const logger = new Logger({ serviceName: SERVICE_NAME });

/**
 * The middleware every handler starts with: the Lambda context on every line, and the keys a
 * request appended (`logger.appendKeys`) cleared when it ends, so a warm instance's next
 * invocation never logs the last one's request id or tenant. It also puts the logger back to its
 * initial level (POWERTOOLS_LOG_LEVEL / LOG_LEVEL, or Lambda's application log level) at every
 * invocation, for Powertools' debug sampling: a level set at run time holds for one invocation.
 */
export const logContext = (): MiddlewareObj =>
  injectLambdaContext(logger, { resetKeys: true }) as MiddlewareObj;

/** What an error log line may say about an error (and, bounded, about its causes). */
export interface ErrorFields {
  name: string;
  code?: string;
  message: string;
  stack?: string;
  /** AWS SDK errors: `client` or `server`. */
  fault?: string;
  /** AWS SDK errors: the store's HTTP status. */
  httpStatusCode?: number;
  cause?: ErrorFields;
}

const MAX_MESSAGE = 1000;
const MAX_STACK = 4000;
const MAX_CAUSES = 3;

const str = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' ? value.slice(0, max) : undefined;

/**
 * The name, code, message and stack of anything thrown, plus the SDK's `$fault` and HTTP status:
 * never its other properties. An AWS SDK error carries the raw response (`$response`,
 * `$responseBodyText`: the store's bytes, customer data included), which a logger that
 * serialises every own property of an error would write out whole.
 */
export const errorFields = (error: unknown, depth = 0): ErrorFields => {
  if (typeof error !== 'object' || error === null) {
    return { name: 'NonError', message: `a thrown ${error === null ? 'null' : typeof error}` };
  }
  const e = error as Record<string, unknown>;
  const metadata = e.$metadata as { httpStatusCode?: unknown } | undefined;
  const code = e.code ?? e.Code;
  return {
    name: str(e.name, 200) ?? error.constructor?.name ?? 'Error',
    ...(typeof code === 'string' || typeof code === 'number' ? { code: String(code).slice(0, 200) } : {}),
    message: str(e.message, MAX_MESSAGE) ?? '',
    ...(typeof e.stack === 'string' ? { stack: sourceStack(e.stack).slice(0, MAX_STACK) } : {}),
    ...(typeof e.$fault === 'string' ? { fault: e.$fault.slice(0, 20) } : {}),
    ...(typeof metadata?.httpStatusCode === 'number' ? { httpStatusCode: metadata.httpStatusCode } : {}),
    ...(e.cause instanceof Error && depth < MAX_CAUSES ? { cause: errorFields(e.cause, depth + 1) } : {}),
  };
};
