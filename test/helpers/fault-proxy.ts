import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy in front of the local server that loses requests the way a network or a
 * gateway does, for tests of a client's retries. Faults apply to the requests `match` picks,
 * in order of arrival:
 * - `refuseNext(n)`: answers the next n with a 503 problem and `Retry-After: 0` without
 *   forwarding them (nothing reaches the server);
 * - `dropNextResponse(n)`: forwards the next n, waits for the server's whole answer (it has
 *   committed), then cuts the connection instead of answering.
 * Everything else passes through. `log` records each request and what became of it.
 */
export interface ProxyLogEntry {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  outcome: 'refused' | 'forwarded' | 'dropped';
  /** The server's status (forwarded and dropped requests). */
  status?: number;
  /** The server's `Idempotent-Replayed` header. */
  replayed?: boolean;
}

export type Match = (method: string, path: string) => boolean;

export interface FaultProxy {
  readonly url: string;
  readonly log: ProxyLogEntry[];
  refuseNext(count: number, match?: Match): void;
  dropNextResponse(count: number, match?: Match): void;
  close(): Promise<void>;
}

const any: Match = () => true;

const readAll = async (stream: AsyncIterable<Buffer>): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
};

export const startFaultProxy = async (target: string): Promise<FaultProxy> => {
  const upstream = new URL(target);
  const log: ProxyLogEntry[] = [];
  const faults: { kind: 'refuse' | 'drop'; left: number; match: Match }[] = [];

  const takeFault = (method: string, path: string) => {
    const fault = faults.find((f) => f.left > 0 && f.match(method, path));
    if (!fault) return undefined;
    fault.left--;
    return fault.kind;
  };

  const forward = async (req: IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
      const out = httpRequest(
        {
          hostname: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, 'content-length': String(body.length) },
        },
        (answer) => {
          readAll(answer).then(
            (bytes) => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: bytes }),
            reject,
          );
        },
      );
      out.on('error', reject);
      out.end(body);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const key = req.headers['idempotency-key'];
    const idempotencyKey = Array.isArray(key) ? key[0] : key;
    const body = await readAll(req);
    const fault = takeFault(method, path);
    if (fault === 'refuse') {
      log.push({ method, path, idempotencyKey, outcome: 'refused' });
      const problem = JSON.stringify({
        type: 'urn:helpdesk:problem:unavailable',
        title: 'Service Unavailable',
        status: 503,
        detail: 'Injected by the fault proxy.',
        instance: path,
      });
      res.writeHead(503, {
        'content-type': 'application/problem+json',
        'retry-after': '0',
        'x-request-id': 'fault-proxy',
        'content-length': Buffer.byteLength(problem),
      });
      res.end(problem);
      return;
    }
    const answer = await forward(req, body);
    const replayed = answer.headers['idempotent-replayed'] === 'true';
    if (fault === 'drop') {
      log.push({ method, path, idempotencyKey, outcome: 'dropped', status: answer.status, replayed });
      req.socket.destroy();
      return;
    }
    log.push({ method, path, idempotencyKey, outcome: 'forwarded', status: answer.status, replayed });
    const headers = { ...answer.headers };
    delete headers['transfer-encoding'];
    delete headers.connection;
    res.writeHead(answer.status, { ...headers, 'content-length': answer.body.length });
    res.end(answer.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    refuseNext: (count, match = any) => void faults.push({ kind: 'refuse', left: count, match }),
    dropNextResponse: (count, match = any) => void faults.push({ kind: 'drop', left: count, match }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
