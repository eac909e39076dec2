import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { dispatch } from '../local/invoke';
import type { HttpHandler } from '../local/lambda-runtime';
import { db } from '../shared/store/dynamo';

/**
 * Section 4's steady measure of the overhead (docs/performance.md, "Issue 27, ninth pass"): the
 * CPU a request costs the product's handler and the bare one in one process, each request
 * dispatched as the local server does (`local/invoke.ts`) but with no socket: every DynamoDB
 * answer is recorded once from DynamoDB Local, then replayed from memory, so the SDK still
 * signs, serialises and parses every call and the product still claims its rate-limit leases,
 * but neither the machine's other load nor DynamoDB Local's JVM is in the measure. Rounds of
 * `perRound` requests, `concurrency` in flight, alternate product and bare (the order flipping
 * every round); a round's CPU is the process's (all threads), per request. On this machine the
 * ratio moves by a few per cent from run to run where the req/s ratio moves by ten.
 */
export interface ReplayRequest {
  type: 'replay';
  path: string;
  headers: Record<string, string>;
  rounds: number;
  perRound: number;
  concurrency: number;
}

export interface ReplayResult {
  /** CPU µs a request of each round, product and bare. */
  productUs: number[];
  bareUs: number[];
}

interface Recorded {
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
}

interface SdkRequest {
  headers: Record<string, string>;
  body?: Uint8Array | string;
}

interface SdkResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: AsyncIterable<Uint8Array>;
}

interface RequestHandler {
  handle(request: SdkRequest, options?: unknown): Promise<{ response: SdkResponse }>;
}

/**
 * Which recorded answer a call gets: its operation and its body, byte for byte. A read repeats the
 * same calls with the same bodies; a call not recorded (a lease claim naming another minute) goes
 * to DynamoDB Local. The SDK's JSON body is a Uint8Array whose string methods convert it with a
 * warning (an error in a later version): its bytes are read as they are.
 */
export const callKey = ({ headers, body }: SdkRequest) => {
  const bytes =
    body instanceof Uint8Array
      ? Buffer.from(body.buffer, body.byteOffset, body.byteLength)
      : Buffer.from(body ?? '');
  return `${headers['x-amz-target']} ${bytes.toString('latin1')}`;
};

/** Swaps the store client's HTTP handler for one that records each answer, then one that replays them. */
const replayingStore = () => {
  const config = (db() as unknown as { config: { requestHandler: RequestHandler } }).config;
  const real = config.requestHandler;
  const answers = new Map<string, Recorded>();
  const swap = (handle: RequestHandler['handle']) => {
    config.requestHandler = Object.assign(Object.create(real) as RequestHandler, { handle });
  };
  swap(async (request, options) => {
    const out = await real.handle(request, options);
    const body = await buffer(out.response.body);
    answers.set(callKey(request), {
      statusCode: out.response.statusCode,
      headers: out.response.headers,
      body,
    });
    return { response: { ...out.response, body: Readable.from([body]) } };
  });
  return {
    replay: () =>
      swap(async (request, options) => {
        const known = answers.get(callKey(request));
        if (!known) return real.handle(request, options);
        const response = { ...known, headers: { ...known.headers }, body: Readable.from([known.body]) };
        return { response };
      }),
    restore: () => {
      config.requestHandler = real;
    },
  };
};

export const runReplay = async (
  ask: ReplayRequest,
  handlers: { product: HttpHandler; bare: HttpHandler },
): Promise<ReplayResult> => {
  const request = { method: 'GET', rawUrl: ask.path, headers: { ...ask.headers, host: 'localhost' } };
  const serve = async (handler: HttpHandler, count: number) => {
    let left = count;
    const worker = async () => {
      while (left-- > 0) {
        const result = await dispatch(request, { loadHandler: () => Promise.resolve(handler) });
        if (result.statusCode !== 200) throw new Error(`${ask.path} answered ${result.statusCode} in replay`);
      }
    };
    await Promise.all(Array.from({ length: ask.concurrency }, worker));
  };
  const store = replayingStore();
  try {
    await serve(handlers.product, 1);
    await serve(handlers.bare, 1);
    store.replay();
    // Warm both (V8's compiler, the token cache) before anything is counted.
    for (const handler of [handlers.product, handlers.bare]) await serve(handler, ask.perRound * 3);
    const result: ReplayResult = { productUs: [], bareUs: [] };
    for (let r = 0; r < ask.rounds; r++) {
      const order = r % 2 === 0 ? (['product', 'bare'] as const) : (['bare', 'product'] as const);
      for (const side of order) {
        const before = process.cpuUsage();
        await serve(handlers[side], ask.perRound);
        const used = process.cpuUsage(before);
        result[side === 'product' ? 'productUs' : 'bareUs'].push((used.user + used.system) / ask.perRound);
      }
    }
    return result;
  } finally {
    store.restore();
  }
};
