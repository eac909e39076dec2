import type { components } from './schema.js';

type Schemas = components['schemas'];
type ProblemSchema = Schemas[Extract<keyof Schemas, `Problem${number}`>];

/** The problem types the API documents (`urn:helpdesk:problem:…`), plus what a proxy may answer. */
export type ProblemType = ProblemSchema['type'] | 'about:blank';
export type FieldError = Schemas['FieldError'];

/** An RFC 9457 body as the API sends it (every documented problem has this shape). */
interface ProblemBody {
  type?: unknown;
  title?: unknown;
  status?: unknown;
  detail?: unknown;
  instance?: unknown;
  errors?: unknown;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const fieldErrors = (value: unknown): FieldError[] =>
  Array.isArray(value)
    ? value.filter(
        (e): e is FieldError =>
          typeof e === 'object' && e !== null && typeof e.path === 'string' && typeof e.message === 'string',
      )
    : [];

/**
 * `Retry-After` in milliseconds: delay-seconds or an HTTP date (RFC 9110); undefined when absent
 * or unreadable. A date in the past is 0.
 */
export const parseRetryAfter = (value: string | null | undefined, now = Date.now()): number | undefined => {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
};

/**
 * Any answer of the API that is not a success, as one typed error: the problem+json fields
 * (`type` to branch on, `errors` for field errors), the request id to quote, and how long the
 * server asked to wait (`retryAfter`, seconds) when it said so.
 */
export class HelpdeskError extends Error {
  override readonly name = 'HelpdeskError';
  /** Stable URN to branch on (docs/errors.md), `about:blank` for an answer that is not ours. */
  readonly type: ProblemType;
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  /** Each invalid field or parameter (validation problems); empty otherwise. */
  readonly errors: FieldError[];
  /** `x-request-id` of the answer: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** `Retry-After` in seconds (429, 503, 504), undefined when the answer has none. */
  readonly retryAfter: number | undefined;
  /** The path the problem is about. */
  readonly instance: string | undefined;
  /** The answer itself (its body has been read). */
  readonly response: Response;

  constructor(response: Response, body: unknown) {
    const problem: ProblemBody = typeof body === 'object' && body !== null ? body : {};
    const title = text(problem.title) ?? (response.statusText || `HTTP ${response.status}`);
    const detail = text(problem.detail) ?? (typeof body === 'string' && body ? body.slice(0, 500) : title);
    super(`${response.status} ${title}: ${detail}`);
    this.type = (text(problem.type) ?? 'about:blank') as ProblemType;
    this.status = typeof problem.status === 'number' ? problem.status : response.status;
    this.title = title;
    this.detail = detail;
    this.errors = fieldErrors(problem.errors);
    this.instance = text(problem.instance);
    this.requestId = response.headers.get('x-request-id') ?? undefined;
    const wait = parseRetryAfter(response.headers.get('retry-after'));
    this.retryAfter = wait === undefined ? undefined : Math.ceil(wait / 1000);
    this.response = response;
  }

  /** Reads the body of a failed answer (JSON when it is, its text otherwise) into an error. */
  static async fromResponse(response: Response): Promise<HelpdeskError> {
    const raw = await response.text().catch(() => '');
    let body: unknown = raw;
    try {
      body = JSON.parse(raw);
    } catch {
      // Not JSON (a proxy's page): keep the text as the detail.
    }
    return new HelpdeskError(response, body);
  }
}

/** The problem type of an answer without consuming it (undefined unless it is problem+json). */
export const peekProblemType = async (response: Response): Promise<string | undefined> => {
  if (!response.headers.get('content-type')?.includes('json')) return undefined;
  try {
    const body = (await response.clone().json()) as ProblemBody | null;
    return text(body?.type);
  } catch {
    return undefined;
  }
};
