import { beforeAll, describe, expect, it } from 'vitest';
import { RECORDS_PER_PAGE } from '../../shared/store/pages';
import type { ApiResponse } from '../helpers/api';
import { LAMBDA_RESPONSE_LIMIT, lambdaPayloadBytes } from '../helpers/payload';
import { seedDocuments, seedReplies } from '../helpers/seed';
import { clientFor, type TenantClient, tenantWithCustomer } from '../helpers/tenant-client';

/**
 * A ticket's conversation can outgrow one response: replies and notes are written one request at
 * a time and never capped in number. The detail stays under Lambda's 6 MB, keeps the most recent
 * replies and notes that fit, says when it left some out, and the paginated sub-resources
 * `GET /ticket/{id}/replies` and `/notes` reach every one of them exactly once, oldest first.
 */
const cjk = (n: number) => '漢'.repeat(n);
const control = (n: number) => '\u0001'.repeat(n);

type Page = {
  totalRecords: number;
  recordsPerPage: number;
  previousQuery: string | null;
  nextQuery: string | null;
  records: { id: string }[];
};

const walk = async (api: TenantClient, first: string, wrapper: string) => {
  const pages: Page[] = [];
  let url: string | null = first;
  while (url) {
    const res: ApiResponse = await api.get(url);
    expect(res.status, url).toBe(200);
    expect(lambdaPayloadBytes(res), url).toBeLessThanOrEqual(LAMBDA_RESPONSE_LIMIT);
    const page = res.body[wrapper] as Page;
    pages.push(page);
    url = page.nextQuery;
    if (pages.length > 500) throw new Error('nextQuery does not end');
  }
  return pages;
};

const detail = async (api: TenantClient, id: string) => {
  const res = await api.get(`/ticket/${id}`);
  expect(res.status).toBe(200);
  expect(lambdaPayloadBytes(res)).toBeLessThanOrEqual(LAMBDA_RESPONSE_LIMIT);
  return res.body;
};

describe('48 CJK replies of 32 000 characters and 80 CJK notes of 10 000 (~7 MB)', () => {
  let api: TenantClient;
  let ticket: string;
  let agent: string;
  const replies: string[] = [];
  const notes: string[] = [];

  beforeAll(async () => {
    const { tenant, customer } = await tenantWithCustomer();
    api = clientFor(tenant);
    agent = await api.create('/agent/insert', { name: 'Grace', email: 'grace@example.com' });
    ticket = await api.create('/ticket/insert', {
      subject: 'Long conversation',
      description: 'd',
      openedBy: { id: customer },
    });
    for (let i = 0; i < 48; i++) {
      const res = await api.put(`/ticket/reply/${ticket}`, {
        text: `${i} ${cjk(32_000 - 10)}`,
        replyFromOperator: { id: agent },
        replyDate: 1_700_000_000_000 + i,
      });
      expect(res.status).toBe(200);
      replies.push(res.body.id);
    }
    for (let i = 0; i < 80; i++) {
      const res = await api.put(`/ticket/addNote/${ticket}`, {
        note: `${i} ${cjk(10_000 - 10)}`,
        insertBy: agent,
      });
      expect(res.status).toBe(200);
      notes.push(res.body.id);
    }
  }, 120_000);

  it('answers a detail under 6 MB that keeps the latest replies and notes and says what it left out', async () => {
    const t = await detail(api, ticket);
    expect(t.numberOfReplies).toBe(48);
    const shownReplies = t.replies.map((r: { id: string }) => r.id);
    const shownNotes = t.ticketNotes.map((n: { id: string }) => n.id);
    // the most recent ones, oldest first
    expect(shownReplies).toEqual(replies.slice(replies.length - shownReplies.length));
    expect(shownNotes).toEqual(notes.slice(notes.length - shownNotes.length));
    expect(shownReplies.length + shownNotes.length).toBeLessThan(48 + 80);
    expect(t.repliesTruncated).toBe(shownReplies.length < 48);
    expect(t.notesTruncated).toBe(shownNotes.length < 80);
    expect(t.repliesUrl).toMatch(new RegExp(`^https?://[^/]+/ticket/${ticket}/replies$`));
    expect(t.notesUrl).toMatch(new RegExp(`^https?://[^/]+/ticket/${ticket}/notes$`));
    // records are whole: every text shown is the text written
    for (const r of t.replies)
      expect(r.text).toHaveLength(32_000 - 10 + String(replies.indexOf(r.id)).length + 1);
  });

  it('pages every reply exactly once, oldest first, with the exact total, through /replies', async () => {
    const t = await detail(api, ticket);
    const pages = await walk(api, t.repliesUrl, 'reply');
    expect(pages.flatMap((p) => p.records.map((r) => r.id))).toEqual(replies);
    for (const p of pages) {
      expect(p.totalRecords).toBe(48);
      expect(p.recordsPerPage).toBe(RECORDS_PER_PAGE);
    }
    expect(pages[0]?.records[0]).toMatchObject({
      id: replies[0],
      replyDate: 1_700_000_000_000,
      replyFromOperator: { id: agent, name: 'Grace' },
      attachedDocuments: [],
    });
    expect(pages[0]?.previousQuery).toBeNull();
  });

  it('pages every note exactly once, oldest first, with the exact total, through /notes', async () => {
    const t = await detail(api, ticket);
    const pages = await walk(api, t.notesUrl, 'note');
    expect(pages.flatMap((p) => p.records.map((r) => r.id))).toEqual(notes);
    for (const p of pages) expect(p.totalRecords).toBe(80);
    expect(pages.map((p) => p.records.length)).toEqual([25, 25, 25, 5]);
    expect(pages[0]?.records[0]).toMatchObject({ id: notes[0], insertBy: { id: agent }, assignedTo: null });
  });

  it('walks back with previousQuery to the same records', async () => {
    const p1 = (await api.get(`/ticket/${ticket}/notes`)).body.note;
    const p2 = (await api.get(p1.nextQuery)).body.note;
    const p3 = (await api.get(p2.nextQuery)).body.note;
    const back2 = (await api.get(p3.previousQuery)).body.note;
    expect(back2.records).toEqual(p2.records);
    expect((await api.get(back2.previousQuery)).body.note.records).toEqual(p1.records);
    expect(ids((await api.get(`/ticket/${ticket}/notes?page=3`)).body.note)).toEqual(ids(p3));
  });

  it('refuses a cursor of another ticket, a tampered one, and answers 404 for an unknown ticket', async () => {
    const p1 = (await api.get(`/ticket/${ticket}/notes`)).body.note;
    const other = await api.create('/ticket/insert', {
      subject: 'x',
      description: 'd',
      openedBy: { id: (await api.get(`/ticket/${ticket}`)).body.openedBy.id },
    });
    const cursor = new URL(p1.nextQuery).searchParams.get('cursor') as string;
    expect((await api.get(`/ticket/${other}/notes?page=2&cursor=${cursor}`)).status).toBe(400);
    expect((await api.get(`/ticket/${ticket}/replies?page=2&cursor=${cursor}`)).status).toBe(400);
    expect((await api.get(`/ticket/${ticket}/notes?page=2&cursor=${cursor.slice(0, -2)}`)).status).toBe(400);
    expect((await api.get(`/ticket/${ticket}/notes?status=opened`)).status).toBe(400);
    for (const path of ['replies', 'notes']) {
      expect((await api.get(`/ticket/0123456789abcdef01234567/${path}`)).status).toBe(404);
      expect((await api.get(`/ticket/not-an-id/${path}`)).status).toBe(404);
      expect((await api.get(`/ticket/${other}/${path}`)).body[path === 'replies' ? 'reply' : 'note']).toEqual(
        {
          totalRecords: 0,
          recordsPerPage: 25,
          previousQuery: null,
          nextQuery: null,
          records: [],
        },
      );
    }
  });
});

const ids = (page: Page) => page.records.map((r) => r.id);

describe('replies full of control characters (6 bytes each in JSON)', () => {
  it('keeps the detail and every page of /replies under 6 MB, every reply reachable', async () => {
    const { tenant, customer } = await tenantWithCustomer();
    const api = clientFor(tenant);
    const ticket = await api.create('/ticket/insert', {
      subject: 'Binary garbage',
      description: control(64_000),
      openedBy: { id: customer },
    });
    // 48 replies of 32 000 characters: ~9 MB of JSON; text bytes alone (1.5 MB) look harmless.
    const made = await seedReplies(tenant.clientId, ticket, 48, (i) => `${i}${control(31_990)}`);
    const t = await detail(api, ticket);
    expect(t.repliesTruncated).toBe(true);
    expect(t.replies.length).toBeGreaterThan(0);
    expect(t.replies.map((r: { id: string }) => r.id)).toEqual(
      made.slice(48 - t.replies.length).map((r) => r.id),
    );
    const pages = await walk(api, t.repliesUrl, 'reply');
    expect(pages.flatMap(ids)).toEqual(made.map((r) => r.id));
    for (const page of pages)
      for (const r of page.records as unknown as { id: string; text: string }[])
        expect(r.text).toBe(made.find((m) => m.id === r.id)?.text); // whole, never cut
  });
});

describe('an ordinary ticket', () => {
  it('shows every reply and note, says nothing was left out, and its sub-resources agree', async () => {
    const { tenant, customer } = await tenantWithCustomer();
    const api = clientFor(tenant);
    const ticket = await api.create('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: customer },
      replies: [
        {
          text: 'with a file',
          attachedDocuments: [{ documentName: 'a.txt', documentType: 'text/plain', documentBase64: 'aGk=' }],
        },
      ],
    });
    await api.put(`/ticket/reply/${ticket}`, { text: 'second' });
    await api.put(`/ticket/addNote/${ticket}`, { note: 'a note' });
    const t = await detail(api, ticket);
    expect(t).toMatchObject({ repliesTruncated: false, notesTruncated: false });
    expect(t.replies).toHaveLength(2);
    expect(t.ticketNotes).toHaveLength(1);
    const replies = (await api.get(t.repliesUrl)).body.reply;
    expect(replies).toMatchObject({ totalRecords: 2, nextQuery: null, previousQuery: null });
    expect(replies.records).toEqual(t.replies);
    const notes = (await api.get(t.notesUrl)).body.note;
    expect(notes).toMatchObject({ totalRecords: 1, nextQuery: null });
    expect(notes.records).toEqual(t.ticketNotes);
  });
});

describe('a ticket with more documents of its own than a detail can carry', () => {
  it("keeps the detail under 6 MB, says so, and pages every own document (none of the replies') through /documents", async () => {
    const { tenant, customer } = await tenantWithCustomer();
    const api = clientFor(tenant);
    const ticket = await api.create('/ticket/insert', {
      subject: 'Many files',
      description: control(64_000),
      openedBy: { id: customer },
      replies: [{ text: 'with files' }],
    });
    const replyId = (await api.get(`/ticket/${ticket}`)).body.replies[0].id;
    // 3 500 names of 251 control characters: ~7 MB of payload (an update adds up to 10 at a time)
    const own = await seedDocuments(tenant.clientId, ticket, 3500, (i) => `${i}${control(250)}`);
    const theirs = await seedDocuments(tenant.clientId, ticket, 300, (i) => `reply file ${i}`, replyId);
    const t = await detail(api, ticket);
    expect(t.documentsTruncated).toBe(true);
    expect(t.documentsUrl).toMatch(new RegExp(`/ticket/${ticket}/documents$`));
    const shown = t.attachedDocuments.map((d: { id: string }) => d.id);
    expect(shown).toEqual(own.slice(0, shown.length).map((d) => d.id));
    expect(t.replies[0].attachedDocuments).toHaveLength(300);
    const pages = await walk(api, t.documentsUrl, 'document');
    expect(pages.flatMap(ids)).toEqual(own.map((d) => d.id));
    expect(pages.every((p) => p.totalRecords === 3500)).toBe(true);
    expect(pages[0]?.records[0]).toEqual({
      id: own[0]?.id,
      documentName: own[0]?.documentName,
      documentType: 'text/plain',
      size: 1,
      checksum: 'a'.repeat(64),
      downloadUrl: expect.stringMatching(new RegExp(`/ticket/${ticket}/attachment/${own[0]?.id}$`)),
    });
    expect(ids((await api.get(`/ticket/${ticket}/documents?page=140`)).body.document)).toEqual(
      own.slice(3475).map((d) => d.id),
    );
    expect(theirs).toHaveLength(300);
  });
});

describe('replies sent in one request', () => {
  it('keep the order they were sent in, on insert and on update, in the detail and in its pages', async () => {
    const { tenant, customer } = await tenantWithCustomer();
    const api = clientFor(tenant);
    // Sent together, they share one instant: only their ids order them. Five tickets of five,
    // so that an order left to chance (1 in 120 each) cannot pass.
    for (let t = 0; t < 5; t++) {
      const texts = Array.from({ length: 5 }, (_, i) => `ticket ${t} reply ${i}`);
      const id = await api.create('/ticket/insert', {
        subject: `Order ${t}`,
        description: 'd',
        openedBy: { id: customer },
        replies: texts.map((text) => ({ text })),
      });
      const more = [`ticket ${t} later 0`, `ticket ${t} later 1`, `ticket ${t} later 2`];
      expect(
        (await api.put(`/ticket/update/${id}`, { replies: more.map((text) => ({ text })) })).status,
      ).toBe(200);
      const shown = (await detail(api, id)).replies.map((r: { text: string }) => r.text);
      expect(shown).toEqual([...texts, ...more]);
      const paged = (await walk(api, `/ticket/${id}/replies`, 'reply')).flatMap((p) =>
        p.records.map((r) => (r as unknown as { text: string }).text),
      );
      expect(paged).toEqual([...texts, ...more]);
    }
  });
});
