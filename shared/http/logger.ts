import { Logger } from '@aws-lambda-powertools/logger';

/**
 * Structured JSON logs. Only fields chosen explicitly are logged (never the event, headers,
 * bodies or tokens): see request-log.ts. Errors too: through `errorFields`, never as themselves.
 */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'helpdesk' });

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
    ...(typeof e.stack === 'string' ? { stack: e.stack.slice(0, MAX_STACK) } : {}),
    ...(typeof e.$fault === 'string' ? { fault: e.$fault.slice(0, 20) } : {}),
    ...(typeof metadata?.httpStatusCode === 'number' ? { httpStatusCode: metadata.httpStatusCode } : {}),
    ...(e.cause instanceof Error && depth < MAX_CAUSES ? { cause: errorFields(e.cause, depth + 1) } : {}),
  };
};
