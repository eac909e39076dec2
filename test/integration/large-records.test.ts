import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../shared/store/dynamo';
import { RATE_PREFIX } from '../../shared/store/keys';
import { PAGE_BYTES, RECORDS_PER_PAGE } from '../../shared/store/pages';
import type { ApiResponse } from '../helpers/api';
import { LAMBDA_RESPONSE_LIMIT, lambdaPayloadBytes } from '../helpers/payload';
import { seedTickets } from '../helpers/seed';
import { clientFor, type TenantClient, tenantWithCustomer } from '../helpers/tenant-client';

/**
 * Lists whose records are large: DynamoDB stops a Query at 1 MB, and Lambda refuses a response
 * over 6 MB. Following nextQuery from page 1 must still reach every record exactly once, every
 * page full unless the byte budget cut it, and no response may pass Lambda's limit.
 */
type Page = { totalRecords: number; nextQuery: string | null; records: { id: string }[] };
const ids = (page: Page) => page.records.map((r) => r.id);

/** Bytes a record adds to the payload: its JSON, escaped again as part of the body string. */
const recordBytes = (record: unknown) =>
  Buffer.byteLength(JSON.stringify(JSON.stringify(record)), 'utf8') - 2;

/** Follows nextQuery from `first` to the end, checking each response against Lambda's limit. */
const walk = async (api: TenantClient, first: string, wrapper = 'ticket') => {
  const pages: Page[] = [];
  let url: string | null = first;
  while (url) {
    const res: ApiResponse = await api.get(url);
    expect(res.status, url).toBe(200);
    expect(lambdaPayloadBytes(res), url).toBeLessThanOrEqual(LAMBDA_RESPONSE_LIMIT);
    const page = res.body[wrapper] as Page;
    pages.push(page);
    url = page.nextQuery;
    if (pages.length > 200) throw new Error('nextQuery does not end');
  }
  return pages;
};

/** Every page but the last is full, unless its records and the next one would not fit the budget. */
const expectFullUnlessBudget = (pages: Page[]) => {
  pages.forEach((page, i) => {
    const next = pages[i + 1];
    if (!next || page.records.length === RECORDS_PER_PAGE) return;
    const bytes = page.records.reduce((sum, r) => sum + recordBytes(r) + 1, 0);
    expect(next.records.length, `page ${i + 1} is short but is not the last`).toBeGreaterThan(0);
    expect(bytes + recordBytes(next.records[0]), `page ${i + 1} is short without need`).toBeGreaterThan(
      PAGE_BYTES,
    );
  });
};

const text = {
  ascii: (n: number) => 'a'.repeat(n),
  /** 3 bytes a character in UTF-8 and in JSON. */
  cjk: (n: number) => '漢'.repeat(n),
  /** 1 byte stored, 6 in JSON (`\u0001`), 7 in Lambda's payload. */
  control: (n: number) => '\u0001'.repeat(n),
};

type Size = 'small' | 'ascii60k' | 'cjk350k' | 'control64k';
const ticketBody = (customer: string, size: Size, i: number) => {
  const base = { subject: `Ticket ${i}`, openedBy: { id: customer }, tags: ['x'] };
  switch (size) {
    case 'small':
      return { ...base, description: 'd' };
    case 'ascii60k':
      return { ...base, description: text.ascii(60_000) };
    case 'control64k':
      return { ...base, description: text.control(64_000) };
    case 'cjk350k':
      // ~350 KB stored: within every field limit and under DynamoDB's 400 KB item limit.
      return {
        ...base,
        description: text.cjk(64_000),
        memo: text.cjk(10_000),
        customFields: Array.from({ length: 21 }, (_, j) => ({ name: `f${j}`, value: text.cjk(2000) })),
      };
  }
};

const SEARCHES = ['', 'status=opened', 'tags=x', 'priority=0', 'managedDate=0'];
const listUrl = (query: string) => `/ticket/list${query ? `?${query}` : ''}`;

describe('30 tickets with 60 KB descriptions', () => {
  let api: TenantClient;
  let expected: string[];

  beforeAll(async () => {
    const { tenant, customer } = await tenantWithCustomer();
    api = clientFor(tenant);
    const made = await seedTickets(
      tenant.clientId,
      Array.from({ length: 30 }, (_, i) => ticketBody(customer, 'ascii60k', i)),
    );
    expected = made.map((t) => t.id).reverse();
  });

  it.each(SEARCHES)('list "%s": page 1 has 25 and a nextQuery, page 2 the other 5', async (query) => {
    const pages = await walk(api, listUrl(query));
    expect(pages.map((p) => p.records.length)).toEqual([25, 5]);
    expect(pages.every((p) => p.totalRecords === 30)).toBe(true);
    expect(pages.flatMap(ids)).toEqual(expected);
  });

  it('serves a bare ?page=2 like the cursor walk (the skip follows 1 MB pages)', async () => {
    const bare = (await api.get('/ticket/list?page=2')).body.ticket;
    expect(ids(bare)).toEqual(expected.slice(25));
    expect(bare.nextQuery).toBeNull();
  });
});

describe('large tickets at the head of a list', () => {
  it('reaches every ticket exactly once by following nextQuery', async () => {
    const { tenant, customer } = await tenantWithCustomer();
    const api = clientFor(tenant);
    // 40 small tickets, then 6 of ~350 KB: the newest, so page 1 starts with them.
    const sizes: Size[] = [...Array(40).fill('small'), ...Array(6).fill('cjk350k')];
    const made = await seedTickets(
      tenant.clientId,
      sizes.map((size, i) => ticketBody(customer, size, i)),
    );
    for (const query of SEARCHES) {
      const pages = await walk(api, listUrl(query));
      expect(pages.flatMap(ids), query).toEqual(made.map((t) => t.id).reverse());
      expect(
        pages.map((p) => p.records.length),
        query,
      ).toEqual([25, 21]);
      expect(pages.every((p) => p.totalRecords === 46)).toBe(true);
    }
  });
});

describe('a page larger than Lambda can return', () => {
  it('carries the whole records that fit, and nextQuery continues right after the last one', async () => {
    const { tenant, customer } = await tenantWithCustomer();
    const api = clientFor(tenant);
    // Each ~450 KB in the payload: 25 would be ~11 MB.
    const made = await seedTickets(
      tenant.clientId,
      Array.from({ length: 30 }, (_, i) => ticketBody(customer, 'control64k', i)),
    );
    const pages = await walk(api, '/ticket/list');
    expect(pages.flatMap(ids)).toEqual(made.map((t) => t.id).reverse());
    expect(pages[0]?.records.length).toBeLessThan(RECORDS_PER_PAGE);
    expect(pages[0]?.records.length).toBeGreaterThan(1);
    for (const page of pages) {
      for (const record of page.records as unknown as { description: string }[])
        expect(record.description).toBe(text.control(64_000)); // never cut in half
    }
    expectFullUnlessBudget(pages);
  });
});

describe('customers with large fields', () => {
  it('pages 30 customers of ~120 KB as 25 + 5', async () => {
    const { tenant } = await tenantWithCustomer();
    const api = clientFor(tenant);
    const made: string[] = [];
    for (let i = 0; i < 29; i++) {
      made.push(
        await api.create('/customer/insert', {
          name: `Customer ${i}`,
          email: `c${i}@example.com`,
          memo: text.cjk(10_000),
          signature: text.cjk(10_000),
          customFields: Object.fromEntries(Array.from({ length: 10 }, (_, j) => [`f${j}`, text.cjk(2000)])),
        }),
      );
    }
    const pages = await walk(api, '/customer/list', 'customer');
    expect(pages.map((p) => p.records.length)).toEqual([25, 5]);
    // the first customer (Ada, from tenantWithCustomer) is the oldest
    expect(pages.flatMap(ids).slice(0, 29)).toEqual(made.reverse());
  });
});

describe('any mix of record sizes', () => {
  const size = fc.oneof(
    { arbitrary: fc.constant<Size>('small'), weight: 3 },
    { arbitrary: fc.constant<Size>('ascii60k'), weight: 1 },
    { arbitrary: fc.constant<Size>('cjk350k'), weight: 2 },
    { arbitrary: fc.constant<Size>('control64k'), weight: 2 },
  );

  it('reaches every record exactly once; pages are full unless the budget cut them; none passes 6 MB', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(size, { minLength: 1, maxLength: 45, size: 'max' }),
        fc.constantFrom(...SEARCHES),
        async (sizes, query) => {
          const { tenant, customer } = await tenantWithCustomer();
          const api = clientFor(tenant);
          const made = await seedTickets(
            tenant.clientId,
            sizes.map((s, i) => ticketBody(customer, s, i)),
          );
          const pages = await walk(api, listUrl(query));
          expect(pages.flatMap(ids)).toEqual(made.map((t) => t.id).reverse());
          expect(pages.every((p) => p.totalRecords === sizes.length)).toBe(true);
          expectFullUnlessBudget(pages);
        },
      ),
      { numRuns: 8 },
    );
  }, 240_000);
});

/** DynamoDB requests sent while `work` runs, by command. */
const requests: Record<string, number>[] = [];
const counted = async <T>(work: () => Promise<T>): Promise<{ result: T; sent: Record<string, number> }> => {
  const sent: Record<string, number> = {};
  requests.push(sent);
  try {
    return { result: await work(), sent };
  } finally {
    requests.splice(requests.indexOf(sent), 1);
  }
};

/** The same list with summary records (`?view=summary`): the index's page alone, the subject of these costs. */
const summaryUrl = (query: string) => `/ticket/list?${query ? `${query}&` : ''}view=summary`;

describe('what a page costs', () => {
  beforeAll(() => {
    db().middlewareStack.add(
      (next, context) => async (args) => {
        const command = (context.commandName ?? '').replace(/Command$/, '');
        // A rate-limit lease (one UpdateItem per lease of a client's requests, on any route, and on the
        // first request of each minute) is the request's admission, not the page's cost.
        const pk = (args.input as { Key?: { pk?: unknown } }).Key?.pk;
        const key = typeof pk === 'object' && pk !== null ? (pk as { S?: string }).S : pk;
        if (command === 'UpdateItem' && typeof key === 'string' && key.startsWith(RATE_PREFIX))
          return next(args);
        for (const sent of requests) sent[command] = (sent[command] ?? 0) + 1;
        return next(args);
      },
      { step: 'initialize', name: 'countRequests' },
    );
  });

  it('is two requests for every list and search page; a range counts itself when one page holds it', async () => {
    const { tenant, customer } = await tenantWithCustomer();
    const api = clientFor(tenant);
    const agent = await api.create('/agent/insert', { name: 'A', email: 'a@example.com' });
    const make = (i: number) =>
      api.create('/ticket/insert', {
        subject: `t${i}`,
        description: 'd',
        openedBy: { id: customer },
        assignedTo: { id: agent },
        tags: ['x'],
        externalId1: `E${i}`,
      });
    for (let i = 0; i < 3; i++) await make(i);
    const cost = async (url: string) => {
      const { result, sent } = await counted(() => api.get(url));
      expect(result.status, url).toBe(200);
      return sent;
    };
    await cost('/ticket/list'); // the access token verified and cached
    for (const query of [
      '',
      'status=opened',
      'priority=0',
      `assignedTo._id=${agent}`,
      'tags=x',
      'externalId1=E1',
      'managedDate=0',
    ])
      expect(await cost(summaryUrl(query)), query).toEqual({ Query: 1, BatchGetItem: 1 });
    // An e-mail search reads the e-mail's guard, then the record it names (no index entry).
    expect(await cost('/customer/list?email=ada@example.com')).toEqual({ BatchGetItem: 2 });
    expect(await cost('/agent/list?email=A@example.com')).toEqual({ BatchGetItem: 2 });
    expect(await cost('/customer/list?name=Ada')).toEqual({ Query: 1, BatchGetItem: 1 });
    // A range longer than a page is counted on its first page (key-only COUNT queries)...
    for (let i = 3; i < 30; i++) await make(i);
    const first = await counted(() => api.get(summaryUrl('managedDate=0')));
    expect(first.sent.Query).toBeGreaterThan(1);
    expect(first.result.body.ticket.totalRecords).toBe(30);
    // ...and carries the count in its cursors: the next page is two requests again.
    expect(await cost(first.result.body.ticket.nextQuery)).toEqual({ Query: 1, BatchGetItem: 1 });
  });

  it('stays one Query per MB read, at any depth through nextQuery', async () => {
    const { tenant, customer } = await tenantWithCustomer();
    const api = clientFor(tenant);
    const sizes: Size[] = [
      ...Array(60).fill('small'),
      ...Array(60).fill('cjk350k'), // ~21 MB
      ...Array(60).fill('small'),
    ];
    await seedTickets(
      tenant.clientId,
      sizes.map((size, i) => ticketBody(customer, size, i)),
    );
    const costs: Record<string, number>[] = [];
    let url: string | null = summaryUrl('');
    while (url) {
      const { result, sent } = await counted(() => api.get(url as string));
      costs.push(sent);
      url = result.body.ticket.nextQuery;
    }
    // small tickets: the Query, then one BatchGet of the counter and what they point at
    expect(costs[0]).toEqual({ Query: 1, BatchGetItem: 1 });
    expect(costs.at(-1)).toEqual({ Query: 1, BatchGetItem: 1 });
    // pages of ~350 KB tickets: 16 of them fill the budget (5.6 MB); DynamoDB returns 2 or 3 a Query
    for (const cost of costs) {
      expect(cost.Query).toBeLessThanOrEqual(8);
      expect(cost.GetItem).toBeUndefined();
      expect(cost.BatchGetItem).toBe(1);
    }
  }, 60_000);
});
