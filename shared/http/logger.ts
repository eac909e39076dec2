import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { sourceStack } from '../observability/source-stack';

/** `service` on every log line and the service dimension of every metric. */
export const SERVICE_NAME = process.env.POWERTOOLS_SERVICE_NAME ?? 'helpdesk';

/**
 * The levels, ranked as Powertools and Lambda's log-level filter rank them. A line is written
 * when its level ranks at or above the logger's.
 */
const LEVELS = { TRACE: 6, DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, CRITICAL: 24, SILENT: 28 } as const;
export type LogLevel = keyof typeof LEVELS;

const levelOf = (value: string | undefined): LogLevel | undefined => {
  const name = value?.trim().toUpperCase();
  return name && name in LEVELS ? (name as LogLevel) : undefined;
};

/**
 * The level the logger starts every invocation at: POWERTOOLS_LOG_LEVEL, else LOG_LEVEL, else INFO
 * (Powertools' order), never below Lambda's application log level (AWS_LAMBDA_LOG_LEVEL, set by
 * the function's `applicationLogLevelV2`): Lambda drops lines under it anyway.
 */
export const initialLevel = (env: NodeJS.ProcessEnv = process.env): LogLevel => {
  const chosen = levelOf(env.POWERTOOLS_LOG_LEVEL) ?? levelOf(env.LOG_LEVEL) ?? 'INFO';
  const lambda = levelOf(env.AWS_LAMBDA_LOG_LEVEL);
  return lambda && LEVELS[lambda] > LEVELS[chosen] ? lambda : chosen;
};

/** POWERTOOLS_LOGGER_SAMPLE_RATE: the share of invocations logged at DEBUG whatever the level. */
const sampleRateOf = (env: NodeJS.ProcessEnv): number | undefined => {
  const rate = Number(env.POWERTOOLS_LOGGER_SAMPLE_RATE);
  return env.POWERTOOLS_LOGGER_SAMPLE_RATE !== undefined && rate >= 0 && rate <= 1 ? rate : undefined;
};

/** The Lambda context's part of every line of an invocation (Powertools' key names). */
interface ContextFields {
  cold_start: boolean;
  function_arn: string;
  function_memory_size: number;
  function_name: string;
  function_request_id: string;
  xray_trace_id?: string;
}

/** The X-Ray trace id of the running invocation (`Root=` of `_X_AMZN_TRACE_ID`), set by Lambda per invocation. */
const traceIdOf = (header: string | undefined): string | undefined =>
  header
    ?.split(';')
    .find((part) => part.startsWith('Root='))
    ?.slice(5);

const RESERVED = ['level', 'message', 'timestamp', 'service'] as const;

/**
 * Structured JSON logs, one line per call: `level`, `message`, `timestamp`, `service`, the
 * invocation's Lambda context, the keys appended for the request, then the call's own fields.
 * Only fields chosen explicitly are logged (never the event, headers, bodies or tokens): see
 * request-log.ts. Errors too: through `errorFields`, never as themselves. A call's fields never
 * replace the four first keys. TRACE, DEBUG and INFO go to stdout, WARN and above to stderr;
 * Lambda's JSON log format filters them by `level` (the function's application log level).
 *
 * The line's keys are Powertools Logger's (so its queries and dashboards read ours), but not its
 * code: Powertools reads the environment on every line and merges several attribute stores, and
 * on a warm ticket detail that was a third of the middleware chain's cost (docs/performance.md,
 * "Issue 27, third pass"). This one keeps the invocation's part of the line ready and writes
 * one `JSON.stringify` per line.
 */
export class Logger {
  readonly #service: string;
  readonly #initial: LogLevel;
  readonly #sampleRate: number | undefined;
  #level: LogLevel;
  #coldStart: boolean;
  #context: Partial<ContextFields> = {};
  #keys: Record<string, unknown> = {};

  constructor(options: { serviceName: string; env?: NodeJS.ProcessEnv }) {
    const env = options.env ?? process.env;
    this.#service = options.serviceName;
    this.#initial = initialLevel(env);
    this.#level = this.#initial;
    this.#sampleRate = sampleRateOf(env);
    // Powertools' rule: a cold start only on an on-demand instance's first invocation.
    this.#coldStart = env.AWS_LAMBDA_INITIALIZATION_TYPE?.trim() === 'on-demand';
  }

  getLevelName(): LogLevel {
    return this.#level;
  }

  /** Keys on every later line until `resetKeys` (the invocation's end). */
  appendKeys(keys: Record<string, unknown>): void {
    Object.assign(this.#keys, keys);
  }

  resetKeys(): void {
    this.#keys = {};
  }

  /**
   * An invocation starts: its Lambda context on every line until the next, and the level back to
   * the initial one, or DEBUG for a sampled invocation (POWERTOOLS_LOGGER_SAMPLE_RATE).
   */
  startInvocation(context: Context, traceHeader = process.env._X_AMZN_TRACE_ID): void {
    const sampled = this.#sampleRate !== undefined && Math.random() < this.#sampleRate;
    this.#level = sampled && LEVELS.DEBUG < LEVELS[this.#initial] ? 'DEBUG' : this.#initial;
    const traceId = traceIdOf(traceHeader);
    this.#context = {
      cold_start: this.#coldStart,
      function_arn: context.invokedFunctionArn,
      function_memory_size: Number(context.memoryLimitInMB),
      function_name: context.functionName,
      function_request_id: context.awsRequestId,
      ...(traceId ? { xray_trace_id: traceId } : {}),
    };
    this.#coldStart = false;
  }

  trace(message: string, fields?: object): void {
    this.#write('TRACE', message, fields);
  }

  debug(message: string, fields?: object): void {
    this.#write('DEBUG', message, fields);
  }

  info(message: string, fields?: object): void {
    this.#write('INFO', message, fields);
  }

  warn(message: string, fields?: object): void {
    this.#write('WARN', message, fields);
  }

  error(message: string, fields?: object): void {
    this.#write('ERROR', message, fields);
  }

  #write(level: LogLevel, message: string, fields: object | undefined): void {
    if (LEVELS[level] < LEVELS[this.#level]) return;
    const timestamp = new Date().toISOString();
    const service = this.#service;
    const line = { level, message, timestamp, service, ...this.#context, ...this.#keys, ...fields };
    if (fields && RESERVED.some((key) => key in fields))
      Object.assign(line, { level, message, timestamp, service });
    let text: string;
    try {
      text = JSON.stringify(line);
    } catch (error) {
      // A field JSON cannot write (a BigInt, a cycle): the line without the call's fields.
      const reason = error instanceof Error ? error.message.slice(0, 200) : 'unserialisable';
      text = JSON.stringify({ level, message, timestamp, service, ...this.#context, logError: reason });
    }
    (LEVELS[level] >= LEVELS.WARN ? process.stderr : process.stdout).write(`${text}\n`);
  }
}

/**
 * The service's logger. Every line of an invocation carries the Lambda context (`function_name`,
 * `function_request_id`, `function_arn`, `function_memory_size`, `cold_start`, `xray_trace_id`:
 * `logContext` below), and every line of an API request also `requestId` (the `x-request-id` its
 * client got: API Gateway's request id), `routeKey` and, once authenticated, `tenantId`
 * (request-log.ts). Every line of one request, CloudWatch Logs Insights over the stack's log
 * groups (each function's and the API's access log, whose lines carry the same `requestId`;
 * their generated names start with the stack's, `Helpdesk-<stage>-`):
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
 * The middleware every handler starts with: the invocation's Lambda context on every line, and
 * the keys a request appended (`logger.appendKeys`) cleared when it ends, so a warm instance's
 * next invocation never logs the last one's request id or tenant. The level goes back to its
 * initial one at every invocation (debug sampling holds for one invocation).
 */
export const logContext = (): MiddlewareObj<unknown, unknown, Error, Context> => {
  const end = () => logger.resetKeys();
  return {
    before: ({ context }) => {
      logger.resetKeys();
      logger.startInvocation(context);
    },
    after: end,
    onError: end,
  };
};

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
