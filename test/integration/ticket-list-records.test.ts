import { beforeAll, describe, expect, it } from 'vitest';
import { COMPAT_HEADER } from '../../shared/http/compat';
import { db } from '../../shared/store/dynamo';
import { PAGE_BYTES } from '../../shared/store/pages';
import { type ApiResponse, invoke, newTenant, type Tenant } from '../helpers/api';
import { LAMBDA_RESPONSE_LIMIT, lambdaPayloadBytes } from '../helpers/payload';
import { seedDocuments, seedReplies, seedTickets } from '../helpers/seed';
import { clientFor, type TenantClient } from '../helpers/tenant-client';

/**
 * The records of `GET /ticket/list` are the seed's "detail objects of the page" (CONTRACT.md §5):
 * each ticket exactly as `GET /ticket/{id}` answers it, its replies, notes and documents
 * included, with the detail's truncation rules, flags and links, under both profiles and for
 * every search; `?view=summary` gives the lean records at two requests a page.
 */
type Json = Record<string, unknown>;
type Page = { totalRecords: number; nextQuery: string | null; records: Json[] };

const get = (tenant: Tenant, pathOrUrl: string, compat?: 'standard' | 'deskero'): Promise<ApiResponse> =>
  invoke('GET', pathOrUrl.replace(/^https?:\/\/[^/]+/, ''), {
    headers: { ...tenant.headers, ...(compat ? { [COMPAT_HEADER.toLowerCase()]: compat } : {}) },
  });

const pageOf = async (tenant: Tenant, url: string, compat?: 'standard' | 'deskero'): Promise<Page> => {
  const res = await get(tenant, url, compat);
  expect(res.status, url).toBe(200);
  expect(lambdaPayloadBytes(res), url).toBeLessThanOrEqual(LAMBDA_RESPONSE_LIMIT);
  return res.body.ticket as Page;
};

/** Every page from `first`, following nextQuery. */
const walk = async (tenant: Tenant, first: string): Promise<Page[]> => {
  const pages: Page[] = [];
  for (let url: string | null = first; url; url = pages.at(-1)?.nextQuery ?? null) {
    pages.push(await pageOf(tenant, url));
    if (pages.length > 50) throw new Error('nextQuery does not end');
  }
  return pages;
};

/** A list record against the detail of its ticket, field by field: the same fields, each equal. */
const expectDetail = async (tenant: Tenant, record: Json, where: string, compat?: 'standard' | 'deskero') => {
  const res = await get(tenant, `/ticket/${record.id}`, compat);
  expect(res.status, where).toBe(200);
  const detail = res.body as Json;
  expect(Object.keys(record), where).toEqual(Object.keys(detail));
  for (const [field, value] of Object.entries(detail))
    expect(record[field], `${where}: ${field}`).toEqual(value);
};

const SUMMARY_ONLY_ABSENT = ['replies', 'ticketNotes', 'attachedDocuments', 'repliesTruncated', 'repliesUrl'];

describe('a ticket with replies, notes and documents', () => {
  let tenant: Tenant;
  let api: TenantClient;
  let ticket: string;
  let searches: string[];

  beforeAll(async () => {
    tenant = await newTenant();
    api = clientFor(tenant);
    const customer = await api.create('/customer/insert', { name: 'Ada', email: 'ada@example.com' });
    const agent = await api.create('/agent/insert', { name: 'Grace', email: 'grace@example.com' });
    const other = await api.create('/agent/insert', { name: 'Alan', email: 'alan@example.com' });
    const type = (await api.get('/ticketType/list?type=task')).body.type.records[0].id;
    const area = await api.create('/ticketArea/insert', { area: 'billing' });
    const group = await api.create('/ticketGroup/insert', { group: 'l2' });
    // An older ticket without a conversation, so pages hold more than one record.
    await api.create('/ticket/insert', { subject: 'older', description: 'd', openedBy: { id: customer } });
    ticket = await api.create('/ticket/insert', {
      subject: 'Invoice shows a duplicated line',
      description: 'Twice the same line.',
      openedBy: { id: customer },
      assignedTo: { id: agent },
      cc: [{ id: other }],
      type: { id: type },
      area: { id: area },
      group: { id: group },
      tags: ['vip', 'billing'],
      externalId1: 'ORD-7',
      attachedDocuments: [
        { documentName: 'invoice.pdf', documentType: 'application/pdf', documentBase64: 'JVBERi0=' },
      ],
      replies: [
        {
          text: 'We are looking into it.',
          replyDate: '1700000000000',
          replyFromOperator: { id: agent },
          attachedDocuments: [
            { documentName: 'fix.txt', documentType: 'text/plain', documentBase64: 'aGk=' },
          ],
        },
      ],
    });
    expect((await api.put(`/ticket/reply/${ticket}`, { text: 'Thanks, waiting.' })).status).toBe(200);
    // Written by an agent deleted since: the detail shows the author as null, and so must the list.
    const gone = await api.create('/agent/insert', { name: 'Gone', email: 'gone@example.com' });
    expect(
      (await api.put(`/ticket/reply/${ticket}`, { text: 'Me too', replyFromOperator: { id: gone } })).status,
    ).toBe(200);
    expect((await api.del(`/agent/delete/${gone}`)).status).toBe(200);
    for (const note of ['Called back.', 'Finance is on it.'])
      expect(
        (await api.put(`/ticket/addNote/${ticket}`, { note, insertBy: agent, assignedTo: other })).status,
      ).toBe(200);
    // On hold: its status reads `onhold` under the deskero profile, in the detail and the list alike.
    expect((await api.put(`/ticket/update/${ticket}`, { status: 'on hold' })).status).toBe(200);
    searches = [
      '',
      'status=on%20hold',
      'status=onhold',
      'priority=0',
      'tags=vip',
      `openedBy._id=${customer}`,
      `assignedTo._id=${agent}`,
      `type._id=${type}`,
      `area._id=${area}`,
      `group._id=${group}`,
      'externalId1=ORD-7',
      'managedDate=0',
      'view=detail',
    ];
  });

  it.each(['standard', 'deskero'] as const)(
    'is in every list and search exactly as its detail shows it, field by field (%s profile)',
    async (compat) => {
      const detail = (await get(tenant, `/ticket/${ticket}`, compat)).body;
      expect(detail.replies).toHaveLength(3);
      expect(detail.ticketNotes).toHaveLength(2);
      expect(detail.attachedDocuments).toHaveLength(1);
      expect(detail.replies[0].attachedDocuments).toHaveLength(1);
      expect(detail.replies[2].replyFromOperator).toBeNull();
      expect(detail.status.status).toBe(compat === 'deskero' ? 'onhold' : 'on hold');
      for (const query of searches) {
        const url = `/ticket/list${query ? `?${query}` : ''}`;
        const page = await pageOf(tenant, url, compat);
        const record = page.records.find((r) => r.id === ticket);
        expect(record, url).toBeDefined();
        await expectDetail(tenant, record as Json, `${compat} ${url}`, compat);
      }
    },
  );

  it('is a summary with ?view=summary, under both profiles: every field but the conversation and the files', async () => {
    for (const compat of ['standard', 'deskero'] as const) {
      const detail = (await get(tenant, `/ticket/${ticket}`, compat)).body as Json;
      for (const query of ['view=summary', 'view=summary&tags=vip', 'status=onhold&view=summary']) {
        const page = await pageOf(tenant, `/ticket/list?${query}`, compat);
        const record = page.records.find((r) => r.id === ticket) as Json;
        for (const field of SUMMARY_ONLY_ABSENT)
          expect(record, `${compat} ${query}`).not.toHaveProperty(field);
        const kept = Object.fromEntries(Object.keys(record).map((field) => [field, detail[field]]));
        expect(record, `${compat} ${query}`).toEqual(kept);
      }
    }
  });
});

describe('the view of a list', () => {
  let tenant: Tenant;
  let api: TenantClient;

  beforeAll(async () => {
    tenant = await newTenant();
    api = clientFor(tenant);
    const customer = await api.create('/customer/insert', { name: 'Ada', email: 'ada@example.com' });
    await seedTickets(
      tenant.clientId,
      Array.from({ length: 30 }, (_, i) => ({
        subject: `t${i}`,
        description: 'd',
        openedBy: { id: customer },
        tags: ['x'],
      })),
    );
  });

  it('is kept by the page links, so a walk reads one shape from the first page to the last', async () => {
    for (const [query, detail] of [
      ['view=summary', false],
      ['tags=x&view=summary', false],
      ['view=detail', true],
      ['', true],
    ] as const) {
      const pages = await walk(tenant, `/ticket/list${query ? `?${query}` : ''}`);
      expect(
        pages.map((p) => p.records.length),
        query,
      ).toEqual([25, 5]);
      const next = pages[0]?.nextQuery ?? '';
      if (query.includes('view='))
        expect(new URL(next).searchParams.get('view'), query).toBe(query.split('view=')[1]);
      else expect(next, query).not.toContain('view');
      for (const record of pages.flatMap((p) => p.records))
        expect('replies' in record, `${query} ${record.id}`).toBe(detail);
    }
  });

  it('refuses a view it does not know, naming it, and on lists that have no views', async () => {
    for (const [path, view] of [
      ['/ticket/list', 'bogus'],
      ['/ticket/list', 'SUMMARY'],
      ['/ticket/list', ''],
      ['/customer/list', 'summary'],
    ] as const) {
      const res = await api.get(`${path}?view=${view}`);
      expect(res.status, `${path} ${view}`).toBe(400);
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        `${path} ${view}`,
      ).toEqual(['view']);
    }
  });

  it('does not bind the cursor: it is a position in the list, which either view resumes from', async () => {
    const summary = await pageOf(tenant, '/ticket/list?view=summary');
    const detail = await pageOf(tenant, '/ticket/list');
    const asDetail = (summary.nextQuery as string).replace('view=summary', 'view=detail');
    const resumed = await pageOf(tenant, asDetail);
    expect(resumed.records.map((r) => r.id)).toEqual(
      (await pageOf(tenant, detail.nextQuery as string)).records.map((r) => r.id),
    );
    expect(resumed.records.every((r) => 'replies' in r)).toBe(true);
  });
});

describe('conversations the detail truncates', () => {
  it('carry the same truncation, flags and links in the list, whether read with the page or finished after it', async () => {
    const tenant = await newTenant();
    const api = clientFor(tenant);
    const customer = await api.create('/customer/insert', { name: 'Ada', email: 'ada@example.com' });
    const ticket = (subject: string) =>
      api.create('/ticket/insert', { subject, description: 'd', openedBy: { id: customer } });
    // More replies than a detail reads (1000), in a collection of one Query.
    const many = await ticket('many short replies');
    await seedReplies(tenant.clientId, many, 1001);
    // A collection past 1 MB: its first Query stops inside the replies, the rest is read after.
    const long = await ticket('a collection past 1 MB');
    await seedDocuments(tenant.clientId, long, 30);
    for (let i = 0; i < 12; i++)
      expect((await api.put(`/ticket/addNote/${long}`, { note: `n${i}` })).status).toBe(200);
    await seedReplies(tenant.clientId, long, 1200, (i) => `${i} ${'a'.repeat(1000)}`);
    const plain = await ticket('no conversation');

    const page = await pageOf(tenant, '/ticket/list');
    expect(page.records.map((r) => r.id)).toEqual([plain, long, many]);
    for (const record of page.records) await expectDetail(tenant, record, String(record.subject));
    const [, longRecord, manyRecord] = page.records as Json[];
    expect(manyRecord).toMatchObject({
      numberOfReplies: 1001,
      repliesTruncated: true,
      notesTruncated: false,
    });
    expect(manyRecord?.replies).toHaveLength(1000);
    expect(longRecord).toMatchObject({
      numberOfReplies: 1200,
      repliesTruncated: true,
      documentsTruncated: false,
    });
    expect(longRecord?.attachedDocuments).toHaveLength(30);
    expect(longRecord?.ticketNotes).toHaveLength(12);
  }, 120_000);

  it('end a page at its byte budget with whole records, at least one, and every record reached once', async () => {
    const tenant = await newTenant();
    const api = clientFor(tenant);
    const customer = await api.create('/customer/insert', { name: 'Ada', email: 'ada@example.com' });
    // ~450 KB in the payload: more than the room a detail leaves unused (less than one reply).
    const large = '\u0001'.repeat(64_000);
    const ticket = (subject: string, description = large) =>
      api.create('/ticket/insert', { subject, description, openedBy: { id: customer } });
    const oldest = await ticket('oldest');
    // ~7.5 MB of replies: the detail shows the most recent that fit in its budget, nearly all of a page's.
    const huge = await ticket('huge', 'd');
    await seedReplies(
      tenant.clientId,
      huge,
      250,
      (i) => `${i} ${'\u0001'.repeat(5000)}${'b'.repeat(25_000)}`,
    );
    const newest = await ticket('newest');

    const pages = await walk(tenant, '/ticket/list');
    expect(pages.map((p) => p.records.map((r) => r.id))).toEqual([[newest], [huge], [oldest]]);
    const bytes = (r: Json) => Buffer.byteLength(JSON.stringify(JSON.stringify(r)), 'utf8') - 2;
    const hugeRecord = pages[1]?.records[0] as Json;
    expect(hugeRecord.repliesTruncated).toBe(true);
    // Page 1 ended because the huge record did not fit after the newest one; page 2 because the
    // oldest did not fit after it.
    expect(bytes(pages[0]?.records[0] as Json) + 1 + bytes(hugeRecord)).toBeGreaterThan(PAGE_BYTES);
    expect(bytes(hugeRecord) + 1 + bytes(pages[2]?.records[0] as Json)).toBeGreaterThan(PAGE_BYTES);
    for (const page of pages)
      for (const record of page.records) await expectDetail(tenant, record, String(record.subject));
  }, 120_000);
});

/** DynamoDB requests sent while `work` runs, by command, and the most Queries in flight at once. */
const requests: { sent: Record<string, number>; inFlight: number; most: number }[] = [];
const counted = async <T>(work: () => Promise<T>) => {
  const count = { sent: {} as Record<string, number>, inFlight: 0, most: 0 };
  requests.push(count);
  try {
    return { result: await work(), ...count };
  } finally {
    requests.splice(requests.indexOf(count), 1);
  }
};

describe('what a page costs', () => {
  let tenant: Tenant;
  let agent: string;
  let customer: string;

  beforeAll(async () => {
    db().middlewareStack.add(
      (next, context) => async (args) => {
        const command = (context.commandName ?? '').replace(/Command$/, '');
        // A rate-limit lease (an UpdateItem of RATE# items) may land in any request: not the page's.
        if (command === 'UpdateItem') return next(args);
        for (const c of requests) {
          c.sent[command] = (c.sent[command] ?? 0) + 1;
          if (command === 'Query') c.most = Math.max(c.most, ++c.inFlight);
        }
        try {
          return await next(args);
        } finally {
          if (command === 'Query') for (const c of requests) c.inFlight--;
        }
      },
      { step: 'initialize', name: 'countListRecordRequests' },
    );
    tenant = await newTenant();
    const api = clientFor(tenant);
    customer = await api.create('/customer/insert', { name: 'Ada', email: 'ada@example.com' });
    agent = await api.create('/agent/insert', { name: 'Grace', email: 'grace@example.com' });
    const writer = await api.create('/agent/insert', { name: 'Alan', email: 'alan@example.com' });
    for (let i = 0; i < 30; i++) {
      const id = await api.create('/ticket/insert', {
        subject: `t${i}`,
        description: 'd',
        openedBy: { id: customer },
        assignedTo: { id: agent },
        tags: ['x'],
        replies: [
          { text: 'from the assignee', replyFromOperator: { id: agent } },
          { text: 'from the customer' },
        ],
      });
      if (i >= 29) await api.put(`/ticket/addNote/${id}`, { note: 'by another agent', insertBy: writer });
    }
    await get(tenant, '/ticket/list'); // the access token verified and cached
  });

  it('is two requests for a summary page, plain or searched, at any depth', async () => {
    for (const query of [
      'view=summary',
      'view=summary&status=opened',
      `view=summary&assignedTo._id=${agent}`,
      'tags=x&view=summary',
    ]) {
      const first = await counted(() => get(tenant, `/ticket/list?${query}`));
      expect(first.result.status, query).toBe(200);
      expect(first.sent, query).toEqual({ Query: 1, BatchGetItem: 1 });
      const next = await counted(() => get(tenant, first.result.body.ticket.nextQuery));
      expect(next.sent, `${query} page 2`).toEqual({ Query: 1, BatchGetItem: 1 });
      expect(next.result.body.ticket.records).toHaveLength(5);
    }
  });

  it("is the page's requests plus one Query per ticket, all in flight at once, and one BatchGet for authors the page did not read", async () => {
    for (const query of ['', 'status=opened', `openedBy._id=${customer}`, 'tags=x']) {
      const url = `/ticket/list${query ? `?${query}` : ''}`;
      const first = await counted(() => get(tenant, url));
      expect(first.result.body.ticket.records, url).toHaveLength(25);
      // The newest ticket's note names an agent no ticket points at: one more BatchGet for it.
      expect(first.sent, url).toEqual({ Query: 1 + 25, BatchGetItem: 2 });
      expect(first.most, url).toBeGreaterThanOrEqual(25);
      // Page 2's tickets point at nothing their page's own BatchGet did not read.
      const next = await counted(() => get(tenant, first.result.body.ticket.nextQuery));
      expect(next.sent, `${url} page 2`).toEqual({ Query: 1 + 5, BatchGetItem: 1 });
      expect(next.most, `${url} page 2`).toBeGreaterThanOrEqual(5);
    }
  });
});
