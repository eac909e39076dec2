import { randomUUID } from 'node:crypto';
import { buildEvent } from '../../local/event';
import { lambdaContext, loadHandler } from '../../local/lambda-runtime';
import { matchRoute } from '../../local/router';
import { createClient } from '../../shared/auth/clients';

/**
 * Calls a handler the way API Gateway would, without a socket: route table match, payload
 * 2.0 event, the real handler module with its middleware and the real (test) store.
 */
export interface ApiResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  cookies: string[];
  /** Parsed JSON for JSON media types, a Buffer for base64 bodies, else the raw string. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read response fields freely and assert on them
  body: any;
}

export interface InvokeOptions {
  headers?: Record<string, string>;
  /** An object is sent as JSON (content-type application/json unless given); a string as is. */
  body?: unknown;
  /** Exact bytes, for non-JSON bodies and size limits. */
  rawBody?: Buffer;
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

export const invoke = async (
  method: string,
  pathWithQuery: string,
  options: InvokeOptions = {},
): Promise<ApiResponse> => {
  const path = pathWithQuery.split('?')[0] ?? '/';
  const match = matchRoute(method, path);
  if (!match) throw new Error(`No route for ${method} ${path} in shared/routes.ts`);
  const headers: Record<string, string> = { host: 'localhost', 'user-agent': 'vitest', ...options.headers };
  const body = requestBody(options, headers);
  // A real client sends it and API Gateway passes it on.
  if (body?.length && !hasHeader(headers, 'content-length')) headers['content-length'] = String(body.length);
  const event = buildEvent({
    method,
    rawUrl: pathWithQuery,
    headers,
    body,
    route: match.route,
    pathParameters: match.pathParameters,
  });
  const handler = await loadHandler(match.route.handler);
  const result = await handler(event, lambdaContext(match.route.handler, event.requestContext.requestId));
  if (typeof result !== 'object' || result === null || !('statusCode' in result)) {
    throw new Error(`${match.route.handler} returned an unstructured result`);
  }
  const responseHeaders = Object.fromEntries(
    Object.entries(result.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]),
  );
  const contentType = responseHeaders['content-type'] ?? '';
  let responseBody: ApiResponse['body'] = result.body;
  if (result.isBase64Encoded && result.body !== undefined) responseBody = Buffer.from(result.body, 'base64');
  else if (result.body && /[/+]json\b/.test(contentType)) responseBody = JSON.parse(result.body);
  return {
    status: result.statusCode ?? 200,
    headers: responseHeaders,
    cookies: result.cookies ?? [],
    body: responseBody,
  };
};

export interface Tenant {
  clientId: string;
  apiToken: string;
  accessToken: string;
  /** What every bearer route needs. */
  headers: { authorization: string; clientid: string };
}

/** A fresh client (tenant) with an access token: tests share one table and isolate by tenant. */
export const newTenant = async (name = `tenant-${randomUUID().slice(0, 8)}`): Promise<Tenant> => {
  const { clientId, apiToken } = await createClient(name);
  const res = await invoke('GET', '/oauth/token?grant_type=client_credentials', {
    headers: { authorization: `Basic ${apiToken}` },
  });
  if (res.status !== 200) throw new Error(`token exchange failed: ${res.status} ${JSON.stringify(res.body)}`);
  const accessToken: string = res.body.access_token;
  return {
    clientId,
    apiToken,
    accessToken,
    headers: { authorization: `Bearer ${accessToken}`, clientid: clientId },
  };
};
