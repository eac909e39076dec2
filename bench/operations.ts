import { type ApiResponse, invoke } from '../local/invoke';
import { forgetVerifiedTokens } from '../shared/auth/access-tokens';
import { type CostPerMillion, costPerMillion } from './cost';
import { createDetailTicket, type Fixture } from './fixtures';
import { type Meter, totalRequests, typicalUsage, type Usage } from './meter';
import { median, progress, timed } from './stats';

/**
 * Section 1: what one request of each operation costs in DynamoDB requests and capacity, through
 * the real handlers (route match, payload 2.0 event, middy chain, store) after a warm-up, so the
 * access token is cached (see `ticket detail, cold auth` for the uncached cost).
 */
export interface OperationResult {
  name: string;
  request: string;
  /** Requests by command of one call, e.g. `{ Query: 1, BatchGetItem: 1 }`. */
  requests: Record<string, number>;
  totalRequests: number;
  /** Capacity units of one call as DynamoDB Local reports them (mean over the samples). */
  readUnits: number;
  writeUnits: number;
  /** The part of the capacity spent on global secondary indexes (reads of index Queries included). */
  indexUnits: number;
  /**
   * Requests and capacity are those of the most common set of requests among the samples;
   * false when some samples differed (a rate-limit lease claimed, a retried transaction).
   */
  stable: boolean;
  /** Median in-process latency against DynamoDB Local (handler + store, no HTTP). */
  medianMs: number;
  samples: number;
  /** USD per million requests on paper (Lambda arm64 1024 MB, HTTP API, on-demand DynamoDB). */
  costPerMillion: CostPerMillion;
}

interface Operation<C> {
  name: string;
  /** Runs before each sample, unmetered: creates what the sample consumes. */
  setup: () => Promise<C>;
  run: (ctx: C) => Promise<ApiResponse>;
  /** Shown in the table: method and path. */
  request: string;
}

const op = <C>(o: Operation<C>): Operation<unknown> => o as Operation<unknown>;

export const runOperations = async (
  fx: Fixture,
  meter: Meter,
  samples: number,
): Promise<OperationResult[]> => {
  const { api, refs, tenant } = fx;
  const [customer, otherCustomer] = refs.customers as [string, string];
  const [agent, otherAgent] = refs.agents as [string, string];
  const reply = (i: number) => ({
    text: `Reply ${i}: we are looking into it and will get back to you shortly.`,
    ...(i % 2 === 0 ? { replyFromOperator: { id: agent } } : {}),
  });
  const ticketBody = (replies: number) => ({
    subject: 'Invoice shows a duplicated line',
    description: 'The invoice for last month shows the same line twice. Please send a corrected copy.',
    openedBy: { id: customer },
    assignedTo: { id: agent },
    type: { id: refs.types[0] },
    area: { id: refs.areas[0] },
    group: { id: refs.groups[0] },
    status: 'opened',
    priority: 1,
    tags: ['billing', 'vip'],
    ...(replies > 0 ? { replies: Array.from({ length: replies }, (_, i) => reply(i)) } : {}),
  });
  const newTicket = (replies = 0) => api.create('/ticket/insert', ticketBody(replies));
  let emails = 0;
  const newCustomer = () =>
    api.create('/customer/insert', { name: 'Bench Customer', email: `bench${emails++}@example.com` });

  /** The `ticket` page of a list URL, failing loudly on anything but 200. */
  const ticketPage = async (url: string) => {
    const res = await api.get(url);
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.ticket as { nextQuery: string | null; records: { managedDate: number }[] };
  };

  // Shared targets, created once.
  const detailTicket = await createDetailTicket(fx);
  let page40 = '/ticket/list';
  for (let page = 1; page < 40; page++) {
    const next = (await ticketPage(page40)).nextQuery;
    if (!next) throw new Error(`the list ends at page ${page}: seed at least 1000 tickets`);
    page40 = next;
  }
  // managedDate is a range search ("changed since"): since the 100th most recently changed ticket.
  let byManaged = await ticketPage('/ticket/list?managedDate=0');
  for (let page = 1; page < 4 && byManaged.nextQuery; page++)
    byManaged = await ticketPage(byManaged.nextQuery);
  const since = byManaged.records.at(-1)?.managedDate ?? 0;

  const none = async () => undefined;
  const get = (path: string) =>
    op({ name: '', request: `GET ${path}`, setup: none, run: () => api.get(path) });
  const named = (name: string, o: Operation<unknown>) => ({ ...o, name });
  const ops: Operation<unknown>[] = [
    op({
      name: 'ticket insert (2 replies)',
      request: 'POST /ticket/insert',
      setup: none,
      run: () => api.post('/ticket/insert', ticketBody(2)),
    }),
    named('ticket detail (20 replies, 5 notes)', get(`/ticket/${detailTicket}`)),
    op({
      name: 'ticket detail, cold auth',
      request: `GET /ticket/${detailTicket}`,
      setup: async () => forgetVerifiedTokens(),
      run: () => api.get(`/ticket/${detailTicket}`),
    }),
    op({
      name: 'ticket update (status, assignee)',
      request: 'PUT /ticket/update/{id}',
      setup: () => newTicket(),
      run: (id) => api.put(`/ticket/update/${id}`, { status: 'solved', assignedTo: { id: otherAgent } }),
    }),
    op({
      name: 'ticket reply',
      request: 'PUT /ticket/reply/{id}',
      setup: () => newTicket(),
      run: (id) => api.put(`/ticket/reply/${id}`, reply(0)),
    }),
    op({
      name: 'ticket add note',
      request: 'PUT /ticket/addNote/{id}',
      setup: () => newTicket(),
      run: (id) => api.put(`/ticket/addNote/${id}`, { note: 'Called the customer back.', insertBy: agent }),
    }),
    op({
      name: 'ticket delete (20 replies)',
      request: 'DELETE /ticket/delete/{id}',
      setup: () => newTicket(20),
      run: (id) => api.del(`/ticket/delete/${id}`),
    }),
    named('ticket list page 1', get('/ticket/list')),
    op({
      name: 'ticket list page 40 (nextQuery)',
      request: 'GET /ticket/list?page=40&cursor=…',
      setup: none,
      run: () => api.get(page40),
    }),
    named('ticket list ?page=40 (no cursor)', get('/ticket/list?page=40')),
    ...(
      [
        ['status', 'opened'],
        ['priority', '1'],
        ['openedBy._id', customer],
        ['assignedTo._id', agent],
        ['type._id', refs.types[0]],
        ['area._id', refs.areas[0]],
        ['group._id', refs.groups[0]],
        ['tags', 'vip'],
        ['managedDate', String(since)],
        ['managedDate', '0'],
      ] as [string, string][]
    ).map(([param, value]) =>
      named(
        `ticket search ${param}${param === 'managedDate' ? (value === '0' ? ' (all)' : ' (last 100)') : ''}`,
        get(`/ticket/list?${new URLSearchParams({ [param]: value })}`),
      ),
    ),
    op({
      name: 'customer insert',
      request: 'POST /customer/insert',
      setup: none,
      run: () =>
        api.post('/customer/insert', {
          name: 'Ada Lovelace',
          email: `ada${emails++}@example.com`,
          language: 'it',
          state: 'GB',
          company: 'Analytical Engines',
        }),
    }),
    named('customer detail', get(`/customer/${customer}`)),
    op({
      name: 'customer update (company)',
      request: 'PUT /customer/update/{id}',
      setup: none,
      run: () => api.put(`/customer/update/${otherCustomer}`, { company: `Acme ${emails++}` }),
    }),
    op({
      name: 'customer update (e-mail)',
      request: 'PUT /customer/update/{id}',
      setup: none,
      run: () => api.put(`/customer/update/${otherCustomer}`, { email: `moved${emails++}@example.com` }),
    }),
    op({
      name: 'customer delete',
      request: 'DELETE /customer/delete/{id}',
      setup: newCustomer,
      run: (id) => api.del(`/customer/delete/${id}`),
    }),
    named('customer list page 1', get('/customer/list')),
    named('customer search email', get('/customer/list?email=customer3%40example.com')),
    named('customer search name', get('/customer/list?name=Customer%203')),
    op({
      name: 'token exchange',
      request: 'GET /oauth/token',
      setup: none,
      run: () =>
        invoke('GET', '/oauth/token?grant_type=client_credentials', {
          headers: { authorization: `Basic ${tenant.apiToken}` },
        }),
    }),
  ];

  const bar = progress('operations');
  const results: OperationResult[] = [];
  for (const [i, o] of ops.entries()) {
    bar.update(i, ops.length, o.name);
    const usages: Usage[] = [];
    const times: number[] = [];
    for (let s = 0; s <= samples; s++) {
      const ctx = await o.setup();
      meter.reset();
      const { ms, value: res } = await timed(() => o.run(ctx));
      const usage = meter.take();
      if (res.status >= 300) throw new Error(`${o.name}: ${res.status} ${JSON.stringify(res.body)}`);
      if (s === 0) continue; // warm-up sample: first use of this handler module and code path
      usages.push(usage);
      times.push(ms);
    }
    const { usage: first, matching: typical, stable } = typicalUsage(usages);
    const mean = (pick: (u: Usage) => number) =>
      typical.reduce((sum, u) => sum + pick(u), 0) / typical.length;
    const measured = {
      name: o.name,
      request: o.request,
      requests: first.requests,
      totalRequests: totalRequests(first),
      readUnits: mean((u) => u.readUnits),
      writeUnits: mean((u) => u.writeUnits),
      indexUnits: mean((u) => u.indexUnits),
      stable,
      medianMs: median(times),
      samples: times.length,
    };
    results.push({ ...measured, costPerMillion: costPerMillion(measured) });
  }
  bar.done(`${ops.length} operations, ${samples} samples each`);
  return results;
};
