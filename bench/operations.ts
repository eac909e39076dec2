import { type ApiResponse, invoke } from '../local/invoke';
import { forgetVerifiedTokens } from '../shared/auth/access-tokens';
import { type CostPerMillion, costPerMillion } from './cost';
import {
  benchReply,
  conversationsTenant,
  createDetailTicket,
  type Fixture,
  realisticTicket,
  sameReferencesTenant,
} from './fixtures';
import { type Meter, totalRequests, typicalUsage, type Usage } from './meter';
import { median, progress, timed } from './stats';
import { emptySplit, indexUnits, meanSplit, totalUnits, type UnitSplit } from './unit-split';

/**
 * Section 1: what one request of each operation costs in DynamoDB requests and capacity, through
 * the real handlers (route match, payload 2.0 event, middy chain, store) after a warm-up, so the
 * access token is cached (see `ticket detail, cold auth` for the uncached cost). Each operation
 * runs twice over: timed samples (only DynamoDB Local's own capacity asked for), then samples
 * metered on AWS's rules (aws-metering.ts: its extra reads would skew the timings).
 */

/** Capacity units of one call, on the table and on each index touched. */
export interface CapacitySummary {
  readUnits: number;
  writeUnits: number;
  /** The part of readUnits + writeUnits spent on global secondary indexes. */
  indexUnits: number;
  split: UnitSplit;
}

/** Limits issue 12 sets on an operation, held on AWS's rules. */
export interface OperationGoal {
  requests?: number;
  readUnits?: number;
  writeUnits?: number;
}

/** Items of one kind written by one call: how many, the largest image (before or after), units. */
export interface WrittenItems {
  entity: string;
  items: number;
  largestBytes: number;
  units: number;
}

/** What one call read with one command from one place (table or index): items or entries, bytes, units. */
export interface ReadItems {
  command: string;
  index?: string;
  items: number;
  bytes: number;
  units: number;
}

export interface OperationResult {
  name: string;
  request: string;
  /** Requests by command of one call, e.g. `{ Query: 1, BatchGetItem: 1 }`. */
  requests: Record<string, number>;
  totalRequests: number;
  /** On AWS's documented rules, from the items' actual sizes (mean over the metered samples). */
  aws: CapacitySummary & {
    /** Units by command (read + write) and items or entries each read or wrote. */
    byCommand: Record<string, { read: number; write: number; items: number }>;
    /** One call's writes by kind of item and its reads by command and index (the first metered sample). */
    written: WrittenItems[];
    read: ReadItems[];
    /** Write units were a transaction's index writes doubled like its item writes (an upper bound). */
    conservativeWriteUnits: number;
  };
  /** As DynamoDB Local reported them for the same calls (its accounting is not AWS's: docs/performance.md). */
  local: CapacitySummary;
  goal?: OperationGoal;
  /**
   * Requests and capacity are those of the most common set of requests among the samples;
   * false when some samples differed (a rate-limit lease claimed, a retried transaction).
   */
  stable: boolean;
  /** Median in-process latency against DynamoDB Local (handler + store, no HTTP), unmetered samples. */
  medianMs: number;
  samples: number;
  /** USD per million requests on paper (Lambda arm64 1024 MB, HTTP API, on-demand DynamoDB on AWS's units). */
  costPerMillion: CostPerMillion;
}

interface Operation<C> {
  name: string;
  /** Runs before each sample, unmetered: creates what the sample consumes. */
  setup: () => Promise<C>;
  run: (ctx: C) => Promise<ApiResponse>;
  /** Shown in the table: method and path. */
  request: string;
  goal?: OperationGoal;
}

const op = <C>(o: Operation<C>): Operation<unknown> => o as Operation<unknown>;

/** Operations of the measured bulk call: a quarter each of the four single rows it is compared with. */
export const BULK_MIX = 100;
export const BULK_OPERATION = `ticket bulk (${BULK_MIX} operations: inserts with 2 replies, updates, replies, notes)`;
/** The single routes' rows whose operations the bulk call makes, BULK_MIX / 4 of each (report.ts compares). */
export const BULK_SINGLES = [
  'ticket insert (2 replies)',
  'ticket update (subject)',
  'ticket reply',
  'ticket add note',
] as const;

/** Goals of issue 12 (on AWS's units): list and search pages, detail, writes. */
const PAGE: OperationGoal = { requests: 2 };
const SAME_REFERENCES_PAGE: OperationGoal = { requests: 2, readUnits: 8 };
const SEARCH_PAGE: OperationGoal = { requests: 2, readUnits: 16 };
/**
 * Issue 21: a page of 25 detail records is the page's two requests, one Query of each ticket's
 * collection (sent together), and one BatchGet of the authors its replies and notes name that
 * the page did not read already.
 */
const DETAIL_PAGE: OperationGoal = { requests: 2 + 25 + 1 };
/** Tickets of the same-references tenant: a full page 1 and a page 2 reached through nextQuery. */
const SAME_REFERENCES_TICKETS = 30;

/**
 * A ticket list's records are details unless `view=summary` asks for the lean ones: the rows of
 * issue 12's goals are summary pages (what a page of the index costs), the detail rows beside them.
 */
const summaryOf = (path: string) => `${path}${path.includes('?') ? '&' : '?'}view=summary`;
const withoutView = (url: string) => {
  const u = new URL(url);
  u.searchParams.delete('view');
  return `${u.pathname}${u.search}`;
};

export const runOperations = async (
  fx: Fixture,
  meter: Meter,
  samples: number,
): Promise<OperationResult[]> => {
  const { api, refs, tenant } = fx;
  const [customer, otherCustomer] = refs.customers as [string, string];
  const [agent, otherAgent] = refs.agents as [string, string];
  const ticketRefs = { customer, agent, type: refs.types[0] as string };
  const newTicket = (replies = 0) => api.create('/ticket/insert', realisticTicket(ticketRefs, replies));
  const trashedTicket = async () => {
    const id = await newTicket(20);
    await api.del(`/ticket/delete/${id}`);
    return id;
  };
  let emails = 0;
  const newCustomer = () =>
    api.create('/customer/insert', { name: 'Bench Customer', email: `bench${emails++}@example.com` });

  /** The `ticket` page of a list URL, failing loudly on anything but 200. */
  const ticketPage = async (url: string, client = api) => {
    const res = await client.get(url);
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.ticket as { nextQuery: string | null; records: { managedDate: number }[] };
  };

  // Shared targets, created once.
  const detailTicket = await createDetailTicket(fx);
  let page40 = summaryOf('/ticket/list');
  for (let page = 1; page < 40; page++) {
    const next = (await ticketPage(page40)).nextQuery;
    if (!next) throw new Error(`the list ends at page ${page}: seed at least 1000 tickets`);
    page40 = next;
  }
  // managedDate is a range search ("changed since"): since the 100th most recently changed ticket.
  let byManaged = await ticketPage(summaryOf('/ticket/list?managedDate=0'));
  for (let page = 1; page < 4 && byManaged.nextQuery; page++)
    byManaged = await ticketPage(byManaged.nextQuery);
  const since = byManaged.records.at(-1)?.managedDate ?? 0;
  // A page whose 25 tickets point at one customer, one agent and one type (see sameReferencesTenant).
  const same = await sameReferencesTenant(SAME_REFERENCES_TICKETS);
  const samePage2 = (await ticketPage(summaryOf('/ticket/list'), same.api)).nextQuery;
  if (!samePage2) throw new Error('the same-references list has no page 2');
  const sameSearches: [string, string][] = [
    ['status', 'opened'],
    ['priority', '0'],
    ['assignedTo._id', same.refs.agent],
    ['type._id', same.refs.type],
    ['tags', 'vip'],
    ['managedDate', '0'],
  ];
  const sameSearchPage2 = async (param: string, value: string) => {
    const next = (
      await ticketPage(summaryOf(`/ticket/list?${new URLSearchParams({ [param]: value })}`), same.api)
    ).nextQuery;
    if (!next) throw new Error(`the same-references search ${param} has no page 2`);
    return next;
  };
  const sameStatusPage2 = await sameSearchPage2('status', 'opened');
  const sameManagedPage2 = await sameSearchPage2('managedDate', '0');
  // 30 tickets of 20 replies and 5 notes each: page 1 of them as details, and as summaries.
  const talk = await conversationsTenant(SAME_REFERENCES_TICKETS);

  const none = async () => undefined;
  const get = (path: string, goal?: OperationGoal, client = api) =>
    op({ name: '', request: `GET ${path}`, setup: none, run: () => client.get(path), goal });
  const named = (name: string, o: Operation<unknown>) => ({ ...o, name });
  const ops: Operation<unknown>[] = [
    op({
      name: 'ticket insert (2 replies)',
      request: 'POST /ticket/insert',
      setup: none,
      run: () => api.post('/ticket/insert', realisticTicket(ticketRefs, 2)),
      goal: { writeUnits: 45 },
    }),
    named('ticket detail (20 replies, 5 notes)', get(`/ticket/${detailTicket}`, { requests: 2 })),
    op({
      name: 'ticket detail, cold auth',
      request: `GET /ticket/${detailTicket}`,
      setup: async () => forgetVerifiedTokens(),
      run: () => api.get(`/ticket/${detailTicket}`),
    }),
    op({
      name: 'ticket update (subject)',
      request: 'PUT /ticket/update/{id}',
      setup: () => newTicket(),
      run: (id) => api.put(`/ticket/update/${id}`, { subject: 'Invoice shows a duplicated line (March)' }),
      goal: { writeUnits: 20 },
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
      run: (id) => api.put(`/ticket/reply/${id}`, benchReply(0, agent)),
      goal: { writeUnits: 20 },
    }),
    op({
      name: 'ticket add note',
      request: 'PUT /ticket/addNote/{id}',
      setup: () => newTicket(),
      run: (id) => api.put(`/ticket/addNote/${id}`, { note: 'Called the customer back.', insertBy: agent }),
      goal: { writeUnits: 20 },
    }),
    op({
      name: BULK_OPERATION,
      request: 'POST /ticket/bulk',
      // 25 tickets, each updated, replied to and noted (in that order), and 25 new ones.
      setup: () => Promise.all(Array.from({ length: BULK_MIX / 4 }, () => newTicket())),
      run: (ids) =>
        api.post('/ticket/bulk', {
          operations: (ids as string[]).flatMap((id) => [
            { op: 'insert', body: realisticTicket(ticketRefs, 2) },
            { op: 'update', id, body: { subject: 'Invoice shows a duplicated line (March)' } },
            { op: 'reply', id, body: benchReply(0, agent) },
            { op: 'addNote', id, body: { note: 'Called the customer back.', insertBy: agent } },
          ]),
        }),
    }),
    op({
      name: 'ticket delete to the trash (20 replies)',
      request: 'DELETE /ticket/delete/{id}',
      setup: () => newTicket(20),
      run: (id) => api.del(`/ticket/delete/${id}`),
    }),
    op({
      name: 'ticket restore from the trash (20 replies)',
      request: 'PUT /ticket/restore/{id}',
      setup: trashedTicket,
      run: (id) => api.put(`/ticket/restore/${id}`),
    }),
    op({
      name: 'ticket purge from the trash (20 replies; the cascade after)',
      request: 'DELETE /ticket/purge/{id}',
      setup: trashedTicket,
      run: (id) => api.del(`/ticket/purge/${id}`),
    }),
    named('ticket list page 1, summary', get(summaryOf('/ticket/list'), PAGE)),
    named('ticket list page 1, detail records', get('/ticket/list', DETAIL_PAGE)),
    op({
      name: 'ticket list page 40 (nextQuery), summary',
      request: 'GET /ticket/list?view=summary&page=40&cursor=…',
      setup: none,
      run: () => api.get(page40),
      goal: PAGE,
    }),
    op({
      name: 'ticket list page 40 (nextQuery), detail records',
      request: 'GET /ticket/list?page=40&cursor=…',
      setup: none,
      run: () => api.get(withoutView(page40)),
      goal: DETAIL_PAGE,
    }),
    named(
      `ticket list page 1, same references (${SAME_REFERENCES_TICKETS} tickets, own tenant), summary`,
      get(summaryOf('/ticket/list'), SAME_REFERENCES_PAGE, same.api),
    ),
    named('ticket list page 1, same references, detail records', get('/ticket/list', DETAIL_PAGE, same.api)),
    op({
      name: 'ticket list page 2 (nextQuery), same references, summary',
      request: 'GET /ticket/list?view=summary&page=2&cursor=…',
      setup: none,
      run: () => same.api.get(samePage2),
      goal: SAME_REFERENCES_PAGE,
    }),
    named(
      `ticket list page 1, ${SAME_REFERENCES_TICKETS} tickets of 20 replies and 5 notes (own tenant), summary`,
      get(summaryOf('/ticket/list'), PAGE, talk.api),
    ),
    named(
      'ticket list page 1, tickets of 20 replies and 5 notes, detail records',
      get('/ticket/list', DETAIL_PAGE, talk.api),
    ),
    named(
      'ticket search status, tickets of 20 replies and 5 notes, detail records',
      get('/ticket/list?status=opened', DETAIL_PAGE, talk.api),
    ),
    named('ticket list ?page=40 (no cursor), summary', get(summaryOf('/ticket/list?page=40'))),
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
        `ticket search ${param}${param === 'managedDate' ? (value === '0' ? ' (all)' : ' (last 100)') : ''}, summary`,
        get(summaryOf(`/ticket/list?${new URLSearchParams({ [param]: value })}`), PAGE),
      ),
    ),
    named('ticket search status, detail records', get('/ticket/list?status=opened', DETAIL_PAGE)),
    // The read-unit goal of a search, on pages of realistic tickets that share their references.
    ...sameSearches.map(([param, value]) =>
      named(
        `ticket search ${param}, same references, summary`,
        get(summaryOf(`/ticket/list?${new URLSearchParams({ [param]: value })}`), SEARCH_PAGE, same.api),
      ),
    ),
    op({
      name: 'ticket search status page 2 (nextQuery), same references, summary',
      request: 'GET /ticket/list?status=…&view=summary&page=2&cursor=…',
      setup: none,
      run: () => same.api.get(sameStatusPage2),
      goal: SEARCH_PAGE,
    }),
    op({
      name: 'ticket search managedDate page 2 (nextQuery), same references, summary',
      request: 'GET /ticket/list?managedDate=…&view=summary&page=2&cursor=…',
      setup: none,
      run: () => same.api.get(sameManagedPage2),
      goal: SEARCH_PAGE,
    }),
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
      // 10 before issue 22: its history entry (created) is 2 more (docs/decisions.md, "History").
      goal: { writeUnits: 12 },
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
    // What asking costs; the jobs' runs are the cascade worker's (docs/decisions.md, "Erasure", "Export").
    op({
      name: 'customer export (asking)',
      request: 'POST /customer/export/{id}',
      setup: newCustomer,
      run: (id) => api.post(`/customer/export/${id}`, undefined),
      goal: { requests: 2 },
    }),
    op({
      name: 'customer erase (asking)',
      request: 'POST /customer/erase/{id}',
      setup: newCustomer,
      run: (id) => api.post(`/customer/erase/${id}`, {}),
      // The record read, then one transaction: the mark, the e-mail guard, the count, the job, the event.
      goal: { requests: 2 },
    }),
    named('customer list page 1', get('/customer/list', PAGE)),
    named('customer search email', get('/customer/list?email=customer3%40example.com', PAGE)),
    named('customer search name', get('/customer/list?name=Customer%203', PAGE)),
    op({
      name: 'token exchange',
      request: 'GET /oauth/token',
      setup: none,
      run: () =>
        invoke('GET', '/oauth/token?grant_type=client_credentials', {
          headers: { authorization: `Basic ${tenant.apiToken}` },
        }),
    }),
    // Last: the tickets they make would otherwise be the newest on the lists' page 1 above.
    op({
      name: 'ticket merge (1 source with 20 replies)',
      request: 'PUT /ticket/merge/{id}',
      setup: async () => ({ target: await newTicket(), source: await newTicket(20) }),
      run: ({ target, source }) => api.put(`/ticket/merge/${target}`, { sources: [source] }),
    }),
    op({
      name: 'ticket unmerge (20 replies)',
      request: 'PUT /ticket/unmerge/{id}',
      setup: async () => {
        const [target, source] = [await newTicket(), await newTicket(20)];
        await api.put(`/ticket/merge/${target}`, { sources: [source] });
        return source;
      },
      run: (source) => api.put(`/ticket/unmerge/${source}`),
    }),
    op({
      name: 'ticket detail, merged (2 × 20 replies)',
      request: 'GET /ticket/{id}',
      setup: async () => {
        const [target, source] = [await newTicket(20), await newTicket(20)];
        await api.put(`/ticket/merge/${target}`, { sources: [source] });
        return target;
      },
      run: (target) => api.get(`/ticket/${target}`),
      // The target's collection, then the source's (one Query each, in parallel), then the records.
      goal: { requests: 4 },
    }),
    op({
      name: 'ticket history page 1',
      request: 'GET /ticket/{id}/history',
      setup: async () => {
        const id = await newTicket();
        for (let i = 0; i < 3; i++) await api.put(`/ticket/reply/${id}`, benchReply(i, agent));
        return id;
      },
      run: (id) => api.get(`/ticket/${id}/history`),
      goal: { requests: 2 },
    }),
  ];

  const bar = progress('operations');
  const results: OperationResult[] = [];
  /** One sample: set up (unmetered), run metered, fail loudly on an error answer. */
  const sample = async (o: Operation<unknown>) => {
    const ctx = await o.setup();
    meter.reset();
    const { ms, value: res } = await timed(() => o.run(ctx));
    const usage = meter.take();
    if (res.status >= 300) throw new Error(`${o.name}: ${res.status} ${JSON.stringify(res.body)}`);
    return { ms, usage };
  };
  for (const [i, o] of ops.entries()) {
    bar.update(i, ops.length, o.name);
    const times: number[] = [];
    const timedUsages: Usage[] = [];
    for (let s = 0; s <= samples; s++) {
      const { ms, usage } = await sample(o);
      if (s === 0) continue; // warm-up sample: first use of this handler module and code path
      times.push(ms);
      timedUsages.push(usage);
    }
    const metered: Usage[] = [];
    meter.measureAws = true;
    try {
      for (let s = 0; s < samples; s++) metered.push((await sample(o)).usage);
    } finally {
      meter.measureAws = false;
    }
    const { usage: first, matching: typical } = typicalUsage(metered);
    const stable = typicalUsage([...timedUsages, ...metered]).stable;
    const aws = awsSummary(typical);
    const measured = {
      name: o.name,
      request: o.request,
      requests: first.requests,
      totalRequests: totalRequests(first),
      aws,
      local: summary(typical.map((u) => u.local)),
      ...(o.goal ? { goal: o.goal } : {}),
      stable,
      medianMs: median(times),
      samples: times.length,
    };
    const mismatches = typical.flatMap((u) => u.aws?.mismatches ?? []);
    if (mismatches.length > 0)
      process.stderr.write(`  ${o.name}: ${mismatches[0]} (AWS read units suspect)\n`);
    results.push({
      ...measured,
      costPerMillion: costPerMillion({ medianMs: measured.medianMs, ...aws }),
    });
  }
  bar.done(`${ops.length} operations, ${samples} timed and ${samples} metered samples each`);
  return results;
};

/** Mean read, write and index units of several calls' splits. */
const summary = (splits: UnitSplit[]): CapacitySummary => {
  const split = meanSplit(splits.length ? splits : [emptySplit()]);
  const total = totalUnits(split);
  return { readUnits: total.read, writeUnits: total.write, indexUnits: indexUnits(split), split };
};

/** AWS units of the typical calls (means), with one call's items written and read. */
const awsSummary = (typical: Usage[]): OperationResult['aws'] => {
  const awsUsages = typical.flatMap((u) => (u.aws ? [u.aws] : []));
  const byCommand: OperationResult['aws']['byCommand'] = {};
  for (const a of awsUsages) {
    for (const [command, c] of Object.entries(a.byCommand)) {
      const mine = byCommand[command] ?? { read: 0, write: 0, items: 0 };
      mine.read += c.read / awsUsages.length;
      mine.write += c.write / awsUsages.length;
      mine.items += c.items / awsUsages.length;
      byCommand[command] = mine;
    }
  }
  const one = awsUsages[0];
  const written = new Map<string, WrittenItems>();
  for (const w of one?.writes ?? []) {
    const seen = written.get(w.entity) ?? { entity: w.entity, items: 0, largestBytes: 0, units: 0 };
    seen.items++;
    seen.largestBytes = Math.max(seen.largestBytes, w.bytesBefore ?? 0, w.bytesAfter ?? 0);
    seen.units += w.table + Object.values(w.indexes).reduce((sum, u) => sum + u, 0);
    written.set(w.entity, seen);
  }
  const read = new Map<string, ReadItems>();
  for (const r of one?.reads ?? []) {
    const id = `${r.command}\n${r.index ?? ''}`;
    const seen = read.get(id) ?? {
      command: r.command,
      ...(r.index ? { index: r.index } : {}),
      items: 0,
      bytes: 0,
      units: 0,
    };
    seen.items += r.items;
    seen.bytes += r.bytes;
    seen.units += r.units;
    read.set(id, seen);
  }
  const indexDoubled = (a: (typeof awsUsages)[number]) =>
    a.writes.reduce(
      (sum, w) =>
        sum +
        w.table +
        (w.command === 'TransactWriteItems' ? 2 : 1) * Object.values(w.indexes).reduce((n, u) => n + u, 0),
      0,
    );
  return {
    ...summary(awsUsages.map((a) => a.units)),
    conservativeWriteUnits: awsUsages.reduce((sum, a) => sum + indexDoubled(a), 0) / (awsUsages.length || 1),
    byCommand,
    written: [...written.values()].sort((a, b) => b.units - a.units),
    read: [...read.values()].sort((a, b) => b.units - a.units),
  };
};
