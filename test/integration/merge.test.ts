import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forgetVerifiedTokens } from '../../shared/auth/access-tokens';
import { setClientSettings } from '../../shared/auth/clients';
import { db, tableName } from '../../shared/store/dynamo';
import { ticketKey } from '../../shared/store/tickets';
import { collectionItems, finishCascades } from '../helpers/cascades';
import { drain, settle } from '../helpers/feed';
import { everyRecord } from '../helpers/pages';
import { type TenantClient, tenantWithCustomer } from '../helpers/tenant-client';

/**
 * Issue 22, part 3: merge and unmerge (docs/decisions.md, "Merge"). A merge changes ticket items
 * only; the target's conversation reads the sources' collections with its own.
 */
const doc = (name: string) => ({
  documentName: name,
  documentType: 'text/plain',
  documentBase64: 'aGVsbG8=',
});

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

/** A ticket with replies dated `T0 + hour` for each hour given (so conversations interleave). */
const ticketWith = async (
  api: TenantClient,
  customer: string,
  hours: number[],
  extra: Record<string, unknown> = {},
) =>
  api.create('/ticket/insert', {
    subject: 's',
    description: 'd',
    openedBy: { id: customer },
    replies: hours.map((h) => ({ text: `at ${h}`, replyDate: T0 + h * 3_600_000 })),
    ...extra,
  });

const merge = (api: TenantClient, target: string, sources: string[]) =>
  api.put(`/ticket/merge/${target}`, { sources });

/** A detail as a comparison sees it: what an unmerge puts back (version, managedDate and links move on). */
const comparable = (detail: Record<string, unknown>) => {
  const { managedDate: _m, repliesUrl: _r, notesUrl: _n, documentsUrl: _d, ...rest } = detail;
  return rest;
};

describe('merge', () => {
  it('reads the sources as part of the target: replies in date order, notes, documents, counts, tags and cc', async () => {
    const { api, customer } = await tenantWithCustomer();
    const agent = await api.create('/agent/insert', { name: 'Ada', email: `a${Math.random()}@example.com` });
    // 16 + 12 + 4 replies whose dates interleave: 32 in all, two pages and a bit.
    const target = await ticketWith(
      api,
      customer,
      [0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45],
      {
        tags: ['vip'],
      },
    );
    const one = await ticketWith(api, customer, [1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34], {
      tags: ['vip', 'printer'],
      cc: [{ id: agent }],
      attachedDocuments: [doc('one.txt')],
    });
    const two = await ticketWith(api, customer, [2, 5, 8, 11]);
    await api.put(`/ticket/addNote/${one}`, { note: 'from one' });
    await api.put(`/ticket/reply/${two}`, { text: 'latest', attachedDocuments: [doc('two.txt')] });

    const res = await merge(api, target, [one, two]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ id: target });

    const detail = (await api.get(`/ticket/${target}`)).body;
    expect(detail.numberOfReplies).toBe(33);
    expect(detail.replies).toHaveLength(33);
    const dates = detail.replies.map((r: { replyDate: number }) => r.replyDate);
    expect(dates).toEqual([...dates].sort((a: number, b: number) => a - b));
    expect(detail.replies.at(-1).text).toBe('latest');
    expect(
      detail.replies.at(-1).attachedDocuments.map((d: { documentName: string }) => d.documentName),
    ).toEqual(['two.txt']);
    expect(detail.ticketNotes.map((n: { note: string }) => n.note)).toEqual(['from one']);
    expect(detail.attachedDocuments.map((d: { documentName: string }) => d.documentName)).toEqual([
      'one.txt',
    ]);
    expect(detail.tags).toEqual([{ tag: 'vip' }, { tag: 'printer' }]);
    expect(detail.cc.map((a: { id: string }) => a.id)).toEqual([agent]);
    expect(detail.mergedTickets).toEqual([one, two]);
    expect(detail.mergedInto).toBeNull();

    // Paging reaches exactly what the count says, in date order, through cursors and bare pages.
    const replies = await everyRecord(api, `/ticket/${target}/replies`);
    expect(replies.totals).toEqual([33]);
    expect(replies.records.map((r) => r.replyDate)).toEqual(dates);
    const page2 = (await api.get(`/ticket/${target}/replies?page=2`)).body.reply.records;
    expect(page2.map((r: { id: string }) => r.id)).toEqual(replies.records.slice(25).map((r) => r.id));
    expect((await everyRecord(api, `/ticket/${target}/notes`)).totals).toEqual([1]);
    const documents = await everyRecord(api, `/ticket/${target}/documents`);
    expect(documents.records.map((d) => d.documentName)).toEqual(['one.txt']);
    expect(documents.totals).toEqual([1]);

    // Each source is closed, says where it went, and keeps its own conversation.
    const source = (await api.get(`/ticket/${one}`)).body;
    expect(source.status.status).toBe('closed');
    expect(source.closedDate).toBeGreaterThan(0);
    expect(source.mergedInto).toBe(target);
    expect(source.numberOfReplies).toBe(12);
    expect(source.replies).toHaveLength(12);
    // Its documents download through it as before.
    const download = await api.get(`/ticket/${one}/attachment/${detail.attachedDocuments[0].id}`);
    expect(download.status).toBe(302);

    // The lists count the sources as closed tickets; tag and cc searches find the target.
    expect((await api.get('/ticket/list?status=closed')).body.ticket.totalRecords).toBe(2);
    expect((await api.get('/ticket/list?tags=printer')).body.ticket.totalRecords).toBe(2);
    // The agent now in the target's cc is in use twice.
    expect((await api.del(`/agent/delete/${agent}`)).status).toBe(409);
  });

  it('is one small write whatever the conversation: the sources’ items stay where they are', async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const target = await ticketWith(api, customer, [0]);
    const source = await ticketWith(
      api,
      customer,
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    for (let i = 0; i < 3; i++)
      await api.put(`/ticket/update/${source}`, {
        replies: Array.from({ length: 20 }, (_, j) => ({ text: `more ${i}.${j}` })),
      });
    const before = await collectionItems(tenant.clientId, source);
    expect((await merge(api, target, [source])).status).toBe(200);
    const after = await collectionItems(tenant.clientId, source);
    // Only the ticket's own item changed; its 80 replies did not move.
    const children = (items: Record<string, unknown>[]) => items.filter((i) => i.sk !== '#');
    expect(children(after)).toEqual(children(before));
    expect(children(after).filter((i) => String(i.sk).startsWith('R#'))).toHaveLength(80);
    expect(await collectionItems(tenant.clientId, target)).toHaveLength(2);
    expect((await api.get(`/ticket/${target}`)).body.numberOfReplies).toBe(81);
    expect((await everyRecord(api, `/ticket/${target}/replies`)).records).toHaveLength(81);
  });

  it('refuses every write to a merged ticket but its unmerge (409 ticket-merged)', async () => {
    const { api, customer } = await tenantWithCustomer();
    const target = await ticketWith(api, customer, []);
    const source = await ticketWith(api, customer, [1]);
    await merge(api, target, [source]);
    const refused = [
      await api.put(`/ticket/reply/${source}`, { text: 'late' }),
      await api.put(`/ticket/addNote/${source}`, { note: 'late' }),
      await api.put(`/ticket/update/${source}`, { subject: 'x' }),
      await api.del(`/ticket/delete/${source}`),
    ];
    for (const res of refused) {
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.type).toBe('urn:helpdesk:problem:ticket-merged');
      expect(res.body.detail).toContain(target);
    }
    const detail = (await api.get(`/ticket/${source}`)).body;
    expect(detail.numberOfReplies).toBe(1);
    expect(detail.subject).toBe('s');
  });

  it('is idempotent and refuses what cannot be merged, writing nothing', async () => {
    const { api, customer } = await tenantWithCustomer();
    const [target, a, b, c] = [
      await ticketWith(api, customer, []),
      await ticketWith(api, customer, [1]),
      await ticketWith(api, customer, [2]),
      await ticketWith(api, customer, [3]),
    ];
    expect((await merge(api, target, [a])).status).toBe(200);
    const etag = (await api.get(`/ticket/${target}`)).headers.etag;
    // Again: nothing changes.
    expect((await merge(api, target, [a])).status).toBe(200);
    expect((await api.get(`/ticket/${target}`)).headers.etag).toBe(etag);

    const problem = async (
      res: Awaited<ReturnType<typeof merge>>,
      status: number,
      type: string,
      path?: string,
    ) => {
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.type).toBe(`urn:helpdesk:problem:${type}`);
      if (path) expect(res.body.errors?.[0]?.path).toBe(path);
    };
    await problem(await merge(api, target, [target]), 400, 'validation-error', 'sources.0');
    await problem(
      await merge(api, target, [b, '01J0000000000000000000000X']),
      400,
      'invalid-reference',
      'sources.1',
    );
    await problem(await merge(api, target, [b, b]), 400, 'validation-error');
    await problem(await merge(api, target, []), 400, 'validation-error');
    await problem(
      await merge(
        api,
        target,
        Array.from({ length: 11 }, () => b).map((x, i) => `${x}${i}`),
      ),
      400,
      'validation-error',
    );
    await problem(await merge(api, c, [a]), 409, 'already-merged', 'sources.0');
    await problem(await merge(api, a, [c]), 409, 'ticket-merged');
    await problem(await merge(api, c, [target]), 409, 'merge-chain', 'sources.0');
    await problem(await merge(api, '01J0000000000000000000000X', [b]), 404, 'not-found');
    expect((await api.put(`/ticket/merge/${target}`, { sources: [b], extra: 1 })).status).toBe(400);
    // Tags past a ticket's 20, united: refused, naming the sources.
    const tagged = (n: number, p: string) =>
      ticketWith(api, customer, [], { tags: Array.from({ length: n }, (_, i) => `${p}${i}`) });
    const many = await tagged(15, 'x');
    await problem(await merge(api, many, [await tagged(6, 'y')]), 400, 'validation-error', 'sources');
    // Nothing of it was written.
    expect((await api.get(`/ticket/${target}`)).headers.etag).toBe(etag);
    for (const id of [b, c]) expect((await api.get(`/ticket/${id}`)).body.mergedInto).toBeNull();
  });

  it('unmerges within 30 days: both back as they were, what the target got since staying with it', async () => {
    const { api, customer } = await tenantWithCustomer();
    const agent = await api.create('/agent/insert', { name: 'Ada', email: `a${Math.random()}@example.com` });
    const target = await ticketWith(api, customer, [0], { tags: ['vip'] });
    const source = await ticketWith(api, customer, [1, 2], {
      tags: ['vip', 'printer', 'paper'],
      cc: [{ id: agent }],
      status: 'on hold',
      attachedDocuments: [doc('s.txt')],
    });
    const other = await ticketWith(api, customer, [3], { tags: ['paper'] });
    await api.put(`/ticket/addNote/${source}`, { note: 'n' });
    const sourceBefore = (await api.get(`/ticket/${source}`)).body;
    const targetBefore = (await api.get(`/ticket/${target}`)).body;

    expect((await merge(api, target, [source, other])).status).toBe(200);
    // The target lives on: a reply and a tag of its own after the merge.
    await api.put(`/ticket/reply/${target}`, { text: 'after the merge' });
    await api.put(`/ticket/update/${target}`, { tags: ['vip', 'printer', 'paper', 'late'] });

    const res = await api.put(`/ticket/unmerge/${source}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const sourceAfter = (await api.get(`/ticket/${source}`)).body;
    expect(comparable(sourceAfter)).toEqual(comparable(sourceBefore));
    expect((await api.get(`/ticket/${source}`)).headers.etag).not.toBe(undefined);
    const t = (await api.get(`/ticket/${target}`)).body;
    // Its own reply and the other source's stay; the source's two go with it.
    expect(t.replies.map((r: { text: string }) => r.text)).toEqual(['at 0', 'at 3', 'after the merge']);
    expect(t.numberOfReplies).toBe(3);
    // `printer` came with the source alone: gone; `paper` came with both: the other keeps it.
    expect(t.tags.map((x: { tag: string }) => x.tag)).toEqual(['vip', 'paper', 'late']);
    expect(t.cc).toEqual(targetBefore.cc);
    expect(t.mergedTickets).toEqual([other]);
    expect(t.attachedDocuments).toEqual([]);
    expect(t.ticketNotes).toEqual([]);
    // The other's unmerge now takes `paper` (it is the one that brought it).
    await api.put(`/ticket/unmerge/${other}`);
    const back = (await api.get(`/ticket/${target}`)).body;
    expect(back.tags.map((x: { tag: string }) => x.tag)).toEqual(['vip', 'late']);
    expect(back.mergedTickets).toEqual([]);
    expect(back.numberOfReplies).toBe(2);
    expect((await api.get('/ticket/list?tags=printer')).body.ticket.totalRecords).toBe(1);
    expect((await api.get('/ticket/list?status=closed')).body.ticket.totalRecords).toBe(0);
    // Again: nothing to undo.
    expect((await api.put(`/ticket/unmerge/${source}`)).status).toBe(200);
    // A live ticket again: it takes replies.
    expect((await api.put(`/ticket/reply/${source}`, { text: 'back' })).status).toBe(200);
    expect((await api.del(`/agent/delete/${agent}`)).status).toBe(409); // the source's cc
  });

  it('refuses an unmerge after 30 days (409 unmerge-expired), and while the target is in the trash', async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const target = await ticketWith(api, customer, []);
    const source = await ticketWith(api, customer, [1]);
    await merge(api, target, [source]);
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: ticketKey(tenant.clientId, target),
        UpdateExpression: 'SET merged[0].#at = :at',
        ExpressionAttributeNames: { '#at': 'at' },
        ExpressionAttributeValues: { ':at': Date.now() - 31 * DAY },
      }),
    );
    const late = await api.put(`/ticket/unmerge/${source}`);
    expect(late.status).toBe(409);
    expect(late.body.type).toBe('urn:helpdesk:problem:unmerge-expired');

    const other = await ticketWith(api, customer, [2]);
    const second = await ticketWith(api, customer, []);
    await merge(api, second, [other]);
    expect((await api.del(`/ticket/delete/${second}`)).status).toBe(200);
    const trashed = await api.put(`/ticket/unmerge/${other}`);
    expect(trashed.status).toBe(409);
    expect(trashed.body.type).toBe('urn:helpdesk:problem:merge-target-gone');
    // Restored, the target still reads its source's conversation, and the unmerge goes.
    expect((await api.put(`/ticket/restore/${second}`)).status).toBe(200);
    expect((await api.get(`/ticket/${second}`)).body.replies).toHaveLength(1);
    expect((await api.put(`/ticket/unmerge/${other}`)).status).toBe(200);
  });

  it('lets the sources go when the target is purged: closed, their conversations their own', async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const target = await ticketWith(api, customer, [0]);
    const source = await ticketWith(api, customer, [1, 2]);
    await merge(api, target, [source]);
    await api.del(`/ticket/delete/${target}`);
    expect((await api.del(`/ticket/purge/${target}`)).status).toBe(200);
    expect(await finishCascades(tenant.clientId)).toBe(1);
    expect(await collectionItems(tenant.clientId, target)).toEqual([]);
    const detail = (await api.get(`/ticket/${source}`)).body;
    expect(detail.mergedInto).toBeNull();
    expect(detail.status.status).toBe('closed');
    expect(detail.replies).toHaveLength(2);
    expect((await collectionItems(tenant.clientId, source)).length).toBe(3);
    expect((await api.put(`/ticket/reply/${source}`, { text: 'again' })).status).toBe(200);
  });

  it('lets the sources go when the target is deleted with no trash kept (--trash-days 0)', async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    expect(await setClientSettings(tenant.clientId, { trashDays: 0 })).toBe(true);
    forgetVerifiedTokens(); // the setting is read with the token (cached 30 s per instance)
    const target = await ticketWith(api, customer, [0]);
    const source = await ticketWith(api, customer, [1]);
    await merge(api, target, [source]);
    expect((await api.del(`/ticket/delete/${target}`)).status).toBe(200);
    expect(await finishCascades(tenant.clientId)).toBe(1);
    const detail = (await api.get(`/ticket/${source}`)).body;
    expect(detail.mergedInto).toBeNull();
    expect(detail.status.status).toBe('closed');
    expect((await api.put(`/ticket/reply/${source}`, { text: 'again' })).status).toBe(200);
  });

  it('refuses a cursor of a conversation taken before a merge changed what it reads (no stale total)', async () => {
    const { api, customer } = await tenantWithCustomer();
    const target = await ticketWith(api, customer, []);
    const source = await ticketWith(api, customer, []);
    for (let i = 0; i < 26; i++) await api.put(`/ticket/addNote/${target}`, { note: `t${i}` });
    await api.put(`/ticket/addNote/${source}`, { note: 's' });
    const before = (await api.get(`/ticket/${target}/notes`)).body.note;
    expect(before.totalRecords).toBe(26);
    await merge(api, target, [source]);
    const stale = await api.get(before.nextQuery);
    expect(stale.status).toBe(400);
    expect(stale.body.type).toBe('urn:helpdesk:problem:bad-request');
    expect((await everyRecord(api, `/ticket/${target}/notes`)).totals).toEqual([27]);
  });

  it('reports merges and unmerges on both sides in the feed, each ticket as it reads then', async () => {
    const { api, customer } = await tenantWithCustomer();
    const target = await ticketWith(api, customer, []);
    const source = await ticketWith(api, customer, [1]);
    await merge(api, target, [source]);
    await api.put(`/ticket/unmerge/${source}`);
    await api.del(`/ticket/delete/${target}`);
    await api.put(`/ticket/restore/${target}`);
    await settle();
    const events = (await drain(api, '/event/list?type=ticket.merged,ticket.unmerged,ticket.restored'))
      .events;
    expect(events.map((e) => [e.type, e.resourceId])).toEqual([
      ['ticket.merged', target],
      ['ticket.merged', source],
      ['ticket.unmerged', source],
      ['ticket.unmerged', target],
      ['ticket.restored', target],
    ]);
    expect(events[0]?.resource).toMatchObject({ mergedTickets: [source], numberOfReplies: 1 });
    expect(events[1]?.resource).toMatchObject({ mergedInto: target, status: { status: 'closed' } });
    // The records a ticket event names are expanded, as in any ticket view.
    for (const e of events) expect(e.resource).toMatchObject({ openedBy: { id: customer } });
  });

  it("keeps one tenant's tickets from another's merges", async () => {
    const a = await tenantWithCustomer();
    const b = await tenantWithCustomer();
    const mine = await ticketWith(a.api, a.customer, [1]);
    const theirs = await ticketWith(b.api, b.customer, [1]);
    expect((await merge(b.api, theirs, [mine])).status).toBe(400);
    expect((await merge(b.api, mine, [theirs])).status).toBe(404);
    const other = await ticketWith(a.api, a.customer, []);
    await merge(a.api, other, [mine]);
    expect((await b.api.put(`/ticket/unmerge/${mine}`)).status).toBe(404);
    expect((await a.api.get(`/ticket/${mine}`)).body.mergedInto).toBe(other);
    expect((await b.api.get(`/ticket/${theirs}`)).body.mergedInto).toBeNull();
  });
});

describe('merge, unmerge, trash, restore and replies in any order', () => {
  type Op = 'insert' | 'reply' | 'merge' | 'unmerge' | 'trash' | 'restore';
  const step = fc.record({
    op: fc.constantFrom<Op>('insert', 'reply', 'merge', 'unmerge', 'trash', 'restore'),
    pick: fc.nat(20),
    other: fc.nat(20),
  });

  it('keep every total, status count and numberOfReplies equal to what paging reaches', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 25 }), async (steps) => {
        const { api, customer } = await tenantWithCustomer();
        const live: string[] = [];
        const trashed: string[] = [];
        const own = new Map<string, number>(); // each ticket's own replies
        const into = new Map<string, string>(); // source → target
        const at = <T>(list: T[], n: number) => list[n % Math.max(1, list.length)];
        const sourcesOf = (id: string) => [...into].filter(([, t]) => t === id).map(([s]) => s);
        for (const { op, pick, other } of steps) {
          if (op === 'insert') {
            const id = await ticketWith(api, customer, []);
            live.push(id);
            own.set(id, 0);
            continue;
          }
          const id = at(op === 'restore' ? trashed : live, pick);
          if (id === undefined) continue;
          if (op === 'reply') {
            const res = await api.put(`/ticket/reply/${id}`, { text: 'r' });
            expect(res.status).toBe(into.has(id) ? 409 : 200);
            if (!into.has(id)) own.set(id, (own.get(id) ?? 0) + 1);
          } else if (op === 'merge') {
            const source = at(live, other);
            if (!source) continue;
            const res = await merge(api, id, [source]);
            const ok =
              source !== id &&
              !into.has(id) &&
              (!into.has(source) || into.get(source) === id) &&
              sourcesOf(source).length === 0;
            expect(res.status, JSON.stringify(res.body)).toBe(
              ok ? 200 : !into.has(id) && source === id ? 400 : 409,
            );
            if (ok) into.set(source, id);
          } else if (op === 'unmerge') {
            const target = into.get(id);
            const res = await api.put(`/ticket/unmerge/${id}`);
            expect(res.status).toBe(target && trashed.includes(target) ? 409 : 200);
            if (target && !trashed.includes(target)) into.delete(id);
          } else if (op === 'trash') {
            const res = await api.del(`/ticket/delete/${id}`);
            expect(res.status).toBe(into.has(id) ? 409 : 200);
            if (!into.has(id)) {
              live.splice(live.indexOf(id), 1);
              trashed.push(id);
            }
          } else {
            expect((await api.put(`/ticket/restore/${id}`)).status).toBe(200);
            trashed.splice(trashed.indexOf(id), 1);
            live.push(id);
          }
        }
        const list = (await api.get('/ticket/list?view=summary')).body.ticket;
        expect(list.totalRecords).toBe(live.length);
        expect((await api.get('/ticket/list?status=closed')).body.ticket.totalRecords).toBe(
          live.filter((id) => into.has(id)).length,
        );
        for (const r of list.records as { id: string; numberOfReplies: number; mergedTickets: string[] }[]) {
          const expected = (own.get(r.id) ?? 0) + sourcesOf(r.id).reduce((n, s) => n + (own.get(s) ?? 0), 0);
          expect(r.numberOfReplies).toBe(expected);
          expect([...r.mergedTickets].sort()).toEqual(sourcesOf(r.id).sort());
          const replies = await everyRecord(api, `/ticket/${r.id}/replies`);
          expect(replies.records).toHaveLength(expected);
          expect(replies.totals).toEqual([expected]);
        }
      }),
      { numRuns: 8 },
    );
  }, 300_000);
});
