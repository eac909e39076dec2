import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyResultV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { buildEvent } from './event';
import { type HttpHandler, lambdaContext, loadHandler } from './lambda-runtime';
import { matchRoute } from './router';

/**
 * The local stand-in for API Gateway: routes a request with the shared route table, turns it
 * into a payload 2.0 event, runs the handler from functions/ and writes back its result.
 * No logic of its own beyond what API Gateway and Lambda do, so local behaviour = deployed.
 */
export interface LocalServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Lambda rejects invocation payloads over 6 MB; API Gateway then answers 413. */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;

const sendProblem = (res: ServerResponse, status: number, title: string, detail: string): void => {
  const body = JSON.stringify({ type: 'about:blank', title, status, detail });
  res.writeHead(status, {
    'content-type': 'application/problem+json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
};

/**
 * Reads the body; undefined when it exceeds the limit. An oversized body is still read to
 * the end (and dropped): answering mid-upload makes many clients report a reset connection
 * instead of our 413.
 */
const readBody = async (req: IncomingMessage): Promise<Buffer | undefined> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  return size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks);
};

/** API Gateway's rule: a plain (unstructured) return value becomes a 200 JSON body. */
const structured = (result: APIGatewayProxyResultV2): APIGatewayProxyStructuredResultV2 =>
  typeof result === 'object' && result !== null && 'statusCode' in result
    ? result
    : {
        statusCode: 200,
        headers: { 'content-type': 'application/json' },
        body: typeof result === 'string' ? result : JSON.stringify(result),
      };

const writeResult = (res: ServerResponse, result: APIGatewayProxyStructuredResultV2): void => {
  const body =
    result.body === undefined
      ? undefined
      : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, String(value));
  if (result.cookies?.length) res.setHeader('set-cookie', result.cookies);
  if (body) res.setHeader('content-length', body.length);
  res.writeHead(result.statusCode ?? 200);
  res.end(body);
};

type HandlerLoader = (name: string) => Promise<HttpHandler>;

const handle = async (
  req: IncomingMessage,
  res: ServerResponse,
  localPort: number,
  load: HandlerLoader,
): Promise<void> => {
  const method = req.method ?? 'GET';
  const rawUrl = req.url ?? '/';
  const path = rawUrl.split('?')[0] ?? '/';
  const match = matchRoute(method, path);
  if (!match) {
    req.resume();
    return sendProblem(res, 404, 'Not Found', `No route for ${method} ${path}`);
  }
  const body = await readBody(req);
  if (!body) {
    return sendProblem(res, 413, 'Content Too Large', `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
  }
  const event = buildEvent({
    method,
    rawUrl,
    headers: req.rawHeaders,
    body,
    route: match.route,
    pathParameters: match.pathParameters,
    remoteAddress: req.socket.remoteAddress,
    localPort,
  });
  try {
    const handler = await load(match.route.handler);
    const result = await handler(event, lambdaContext(match.route.handler, event.requestContext.requestId));
    writeResult(res, structured(result));
  } catch (error) {
    // Handlers turn their own errors into problem+json; reaching here is a bug. Like API
    // Gateway after a Lambda crash, answer a bare 500 and keep the details in the log.
    console.error(`[local] ${event.routeKey} (${event.requestContext.requestId}) failed:`, error);
    if (!res.headersSent)
      sendProblem(res, 500, 'Internal Server Error', 'The request could not be completed.');
    else res.destroy();
  }
};

export interface ServerOptions {
  port?: number;
  host?: string;
  /** Where handlers come from; functions/<name>.ts unless a benchmark swaps one in. */
  loadHandler?: HandlerLoader;
}

export const startServer = async (options: ServerOptions = {}): Promise<LocalServer> => {
  let localPort = 0;
  const load = options.loadHandler ?? loadHandler;
  const server = createServer((req, res) => {
    handle(req, res, localPort, load).catch((error) => {
      console.error('[local] request failed:', error);
      res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  localPort = (server.address() as AddressInfo).port;
  return {
    url: `http://localhost:${localPort}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
};
