import type { APIGatewayProxyResultV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { type Route, routes } from '../shared/routes';
import { buildEvent, type HttpRequestInput } from './event';
import { type HandlerLoader, lambdaContext, loadHandler } from './lambda-runtime';
import { matchRoute } from './router';

/**
 * The one local dispatcher, what API Gateway and Lambda do between a request and a handler:
 * route table match, payload 2.0 event, the handler module from functions/ run with a Lambda
 * context, and API Gateway's reading of the result. The local server (over HTTP), the tests
 * and the benchmark (in process, through `invoke`) all call handlers through it.
 */
export interface LocalRequest {
  readonly method: string;
  /** Path plus query string as received, e.g. `/ticket/list?page=2`. */
  readonly rawUrl: string;
  /** Node's `req.rawHeaders` (flat name/value list) or a plain header object. */
  readonly headers: HttpRequestInput['headers'];
  readonly body?: Buffer;
  readonly remoteAddress?: string;
  /** Reported as x-forwarded-port. */
  readonly localPort?: number;
}

export interface DispatchOptions {
  /** Where handlers come from; functions/<name>.ts unless a benchmark swaps one in. */
  readonly loadHandler?: HandlerLoader;
}

/**
 * Sees every response a route's handler gives (not `$default`'s: no operation of the document),
 * with its route and request: the integration tests hold
 * each to the OpenAPI document this way (test/helpers/env.ts installs it). Nothing is installed
 * otherwise, so the server and the benchmark pay one comparison per request.
 */
export type ResponseObserver = (
  route: Route,
  request: LocalRequest,
  result: APIGatewayProxyStructuredResultV2,
) => void;
let observer: ResponseObserver | undefined;

/** Installs (or, with undefined, removes) the one response observer; answers the previous one. */
export const observeResponses = (next: ResponseObserver | undefined): ResponseObserver | undefined => {
  const previous = observer;
  observer = next;
  return previous;
};

/** A handler that could not be loaded or threw: a bug, which API Gateway answers with a bare 500. */
export class HandlerError extends Error {
  constructor(
    readonly routeKey: string,
    readonly requestId: string,
    cause: unknown,
  ) {
    super(`${routeKey} (${requestId}) failed`, { cause });
    this.name = 'HandlerError';
  }
}

/** API Gateway's rule: a plain (unstructured) return value becomes a 200 JSON body. */
const structured = (result: APIGatewayProxyResultV2): APIGatewayProxyStructuredResultV2 =>
  typeof result === 'object' && result !== null && 'statusCode' in result
    ? result
    : {
        statusCode: 200,
        headers: { 'content-type': 'application/json' },
        body: typeof result === 'string' ? result : JSON.stringify(result),
      };

/** The route whose function also answers what no route matches, as API Gateway's `$default` route. */
const fallback = routes.find((r) => r.fallback) as Route;

/**
 * Runs the request's handler: its route's, or (no route matching) the fallback route's under
 * API Gateway's `$default` route key. A handler that fails to load or throws rejects with a
 * HandlerError (its `cause` the original error).
 */
export const dispatch = async (
  request: LocalRequest,
  options: DispatchOptions = {},
): Promise<APIGatewayProxyStructuredResultV2> => {
  const matched = matchRoute(request.method, request.rawUrl.split('?')[0] ?? '/');
  const match = matched ?? { route: fallback, pathParameters: {}, routeKey: '$default' };
  const event = buildEvent({ ...request, ...match });
  const { requestId } = event.requestContext;
  let result: APIGatewayProxyStructuredResultV2;
  try {
    const handler = await (options.loadHandler ?? loadHandler)(match.route.handler);
    result = structured(await handler(event, lambdaContext(match.route.handler, requestId)));
  } catch (error) {
    throw new HandlerError(event.routeKey, requestId, error);
  }
  // What `$default` answers belongs to no operation of the document (shared/http/no-route.ts).
  if (matched) observer?.(match.route, request, result);
  return result;
};

/** A response as a client reads it. */
export interface ApiResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  cookies: string[];
  /** Parsed JSON for JSON media types, a Buffer for base64 bodies, else the raw string. */
  // biome-ignore lint/suspicious/noExplicitAny: callers read response fields freely and check them
  body: any;
}

export interface InvokeOptions {
  headers?: Record<string, string>;
  /** An object is sent as JSON (content-type application/json unless given); a string as is. */
  body?: unknown;
  /** Exact bytes, for non-JSON bodies and size limits. */
  rawBody?: Buffer;
  /** The caller's address (the event's `sourceIp`); 127.0.0.1 unless given. */
  remoteAddress?: string;
}

const hasHeader = (headers: Record<string, string>, name: string): boolean =>
  Object.keys(headers).some((key) => key.toLowerCase() === name);

const requestBody = (options: InvokeOptions, headers: Record<string, string>): Buffer | undefined => {
  if (options.rawBody) return options.rawBody;
  if (options.body === undefined) return undefined;
  if (typeof options.body === 'string') return Buffer.from(options.body);
  if (!hasHeader(headers, 'content-type')) headers['content-type'] = 'application/json';
  return Buffer.from(JSON.stringify(options.body));
};

const toApiResponse = (result: APIGatewayProxyStructuredResultV2): ApiResponse => {
  const headers = Object.fromEntries(
    Object.entries(result.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]),
  );
  let body: ApiResponse['body'] = result.body;
  if (result.isBase64Encoded && result.body !== undefined) body = Buffer.from(result.body, 'base64');
  else if (result.body && /[/+]json\b/.test(headers['content-type'] ?? '')) body = JSON.parse(result.body);
  return { status: result.statusCode ?? 200, headers, cookies: result.cookies ?? [], body };
};

/**
 * Calls the API in process, without a socket, as a client would: an unknown route is an error
 * (a typo in the caller), a handler's throw rejects with the handler's own error.
 * Adds host, user-agent (`helpdesk-local` unless given), content-length and, for object bodies,
 * content-type application/json.
 */
export const invoke = async (
  method: string,
  pathWithQuery: string,
  options: InvokeOptions = {},
): Promise<ApiResponse> => {
  const headers: Record<string, string> = {
    host: 'localhost',
    'user-agent': 'helpdesk-local',
    ...options.headers,
  };
  const body = requestBody(options, headers);
  // A real client sends it and API Gateway passes it on.
  if (body?.length && !hasHeader(headers, 'content-length')) headers['content-length'] = String(body.length);
  let result: APIGatewayProxyStructuredResultV2;
  try {
    result = await dispatch({
      method,
      rawUrl: pathWithQuery,
      headers,
      ...(body ? { body } : {}),
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    });
  } catch (error) {
    throw error instanceof HandlerError ? error.cause : error;
  }
  return toApiResponse(result);
};
