import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { errorFields } from '../shared/http/logger';
import { PROBLEM_TYPE_PREFIX, type ProblemCode } from '../shared/schemas/problems';
import { type DispatchOptions, dispatch, HandlerError } from './invoke';

/**
 * The local stand-in for API Gateway over HTTP: reads the request, hands it to the local
 * dispatcher (route table, payload 2.0 event, the handler from functions/) and writes back its result.
 * No logic of its own beyond what API Gateway and Lambda do, so local behaviour = deployed.
 */
export interface LocalServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Lambda rejects invocation payloads over 6 MB; API Gateway then answers 413. */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;

/** What the stand-in answers itself (no function ran): a problem of ours, as every function's. */
const sendProblem = (
  res: ServerResponse,
  status: number,
  code: ProblemCode,
  title: string,
  detail: string,
): void => {
  const body = JSON.stringify({ type: `${PROBLEM_TYPE_PREFIX}${code}`, title, status, detail });
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

const handle = async (
  req: IncomingMessage,
  res: ServerResponse,
  localPort: number,
  options: DispatchOptions,
): Promise<void> => {
  const method = req.method ?? 'GET';
  const rawUrl = req.url ?? '/';
  const path = rawUrl.split('?')[0] ?? '/';
  const body = await readBody(req);
  // Like Lambda behind API Gateway: a payload over its limit never reaches a function (the
  // `$default` route's neither).
  if (!body)
    return sendProblem(
      res,
      413,
      'content-too-large',
      'Content Too Large',
      `The request body exceeds ${MAX_BODY_BYTES} bytes.`,
    );
  try {
    const result = await dispatch(
      { method, rawUrl, headers: req.rawHeaders, body, remoteAddress: req.socket.remoteAddress, localPort },
      options,
    );
    writeResult(res, result);
  } catch (error) {
    // Handlers turn their own errors into problem+json; reaching here is a bug (a crash or a
    // result that cannot be written). Like API Gateway after a Lambda crash, answer a bare 500
    // and keep the details in the log.
    const [what, cause] =
      error instanceof HandlerError ? [error.message, error.cause] : [`${method} ${path} failed`, error];
    console.error(`[local] ${what}:`, errorFields(cause));
    if (!res.headersSent)
      sendProblem(res, 500, 'internal-error', 'Internal Server Error', 'The request could not be completed.');
    else res.destroy();
  }
};

export interface ServerOptions extends DispatchOptions {
  port?: number;
  /**
   * The address to listen on: 127.0.0.1 unless asked (`::` or `0.0.0.0`: every interface). Loopback
   * by default, as the local S3 server and queue are: the local stores check no credentials.
   */
  host?: string;
}

export const startServer = async (options: ServerOptions = {}): Promise<LocalServer> => {
  let localPort = 0;
  const server = createServer((req, res) => {
    handle(req, res, localPort, options).catch((error) => {
      console.error('[local] request failed:', errorFields(error));
      res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
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
