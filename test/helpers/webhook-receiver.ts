import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { resetConfig } from '../../shared/config';

/**
 * Opens `port` to local receivers in this test process: the tests start with none
 * (WEBHOOK_LOCAL_PORTS empty, test/helpers/env.ts), and each receiver names its port as a
 * developer does.
 */
export const openLocalPort = (port: number): void => {
  const open = (process.env.WEBHOOK_LOCAL_PORTS ?? '').split(',').filter((p) => p !== '');
  if (!open.includes(String(port))) process.env.WEBHOOK_LOCAL_PORTS = [...open, String(port)].join(',');
  resetConfig();
};

/**
 * A webhook receiver for tests, on 127.0.0.1 (its port opened to local receivers): it verifies every request with the
 * `standardwebhooks` package and the subscription's secret (a request that does not verify is
 * counted, answered 401 and kept nowhere else), answers 204 while `up`, 503 while not, and can
 * be stopped and started again on the same port (a receiver that was down).
 */
export interface Delivery {
  /** The path it was posted to (one per subscription). */
  path: string;
  /** The `webhook-id` header: the event's id. */
  id: string;
  type: string;
  event: { id: string; type: string; occurredAt: number; resourceId: string; resource: unknown };
  cursor: string;
}

export interface Receiver {
  readonly url: string;
  /** Verified deliveries, in arrival order (retries included). */
  readonly deliveries: Delivery[];
  /** Requests whose signature did not verify. */
  readonly forged: number;
  /** Answers 2xx when true, 503 when false. */
  up: boolean;
  /** Verified deliveries it answers 503 (and does not keep) while it is up: a receiver failing on some events. */
  refuse?: (delivery: Delivery) => boolean;
  /** Subscriptions' secrets, by the URL path they deliver to (set after the subscription is made). */
  secrets: Map<string, string>;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export const startReceiver = async (): Promise<Receiver> => {
  let server: Server | undefined;
  let port = 0;
  let forged = 0;
  const deliveries: Delivery[] = [];
  const receiver: Receiver = {
    url: '',
    deliveries,
    get forged() {
      return forged;
    },
    up: true,
    secrets: new Map(),
    stop: async () => {
      if (!server) return;
      const s = server;
      server = undefined;
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    },
    start: async () => {
      if (server) return;
      const s = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          const secret = receiver.secrets.get(req.url ?? '');
          let payload: { type: string; data: { event: Delivery['event']; cursor: string } };
          try {
            if (!secret) throw new Error('no secret for this path');
            payload = new Webhook(secret).verify(body, headersOf(req.headers)) as typeof payload;
          } catch {
            forged++;
            res.writeHead(401).end();
            return;
          }
          if (!receiver.up) {
            res.writeHead(503).end('down');
            return;
          }
          const delivery: Delivery = {
            path: req.url ?? '',
            id: String(req.headers['webhook-id']),
            type: payload.type,
            event: payload.data.event,
            cursor: payload.data.cursor,
          };
          if (receiver.refuse?.(delivery)) {
            res.writeHead(503).end('refused');
            return;
          }
          deliveries.push(delivery);
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, '127.0.0.1', resolve);
      });
      port = (s.address() as AddressInfo).port;
      openLocalPort(port);
      server = s;
    },
  };
  await receiver.start();
  Object.assign(receiver, { url: `http://127.0.0.1:${port}` });
  return receiver;
};

const headersOf = (h: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
