import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forgetVerifiedTokens } from '../../shared/auth/access-tokens';
import { setClientSettings } from '../../shared/auth/clients';
import { pendingCascades } from '../../shared/store/cascades';
import { collectionItems, finishCascades } from '../helpers/cascades';
import { drain, settle } from '../helpers/feed';
import { everyRecord } from '../helpers/pages';
import { type TenantClient, tenantWithCustomer } from '../helpers/tenant-client';

/**
 * Issue 22, part 2: a deleted ticket goes to the trash, invisible everywhere but the trash list,
 * and comes back exactly as it was, or is purged for good (docs/decisions.md, "Trash").
 */
const doc = (name: string) => ({
  documentName: name,
  documentType: 'text/plain',
  documentBase64: 'aGVsbG8=',
});

/** A ticket with tags, an agent, a reply with a document, a note and a document of its own. */
const busyTicket = async (api: TenantClient, customer: string) => {
  const agent = await api.create('/agent/insert', { name: 'Grace', email: `g${Math.random()}@example.com` });
  const id = await api.create('/ticket/insert', {
    subject: 'Printer on fire',
    description: 'd',
    openedBy: { id: customer },
    assignedTo: { id: agent },
    tags: ['vip', 'fire'],
    attachedDocuments: [doc('a.txt')],
  });
  await api.put(`/ticket/reply/${id}`, {
    text: 'on it',
    replyFromOperator: { id: agent },
    attachedDocuments: [doc('b.txt')],
  });
  await api.put(`/ticket/addNote/${id}`, { note: 'call them' });
  return { id, agent };
};

/** A detail as a comparison sees it: what a restore keeps (the version and links move on). */
const comparable = (detail: Record<string, unknown>) => {
  const { replies, attachedDocuments, ticketNotes, ...rest } = detail as Record<string, unknown[]>;
  const strip = (list: unknown[] | undefined) =>
    (list ?? []).map((x) => {
      const { downloadUrl: _u, ...kept } = x as Record<string, unknown>;
      return kept;
    });
  return {
    ...rest,
    replies: strip(replies),
    attachedDocuments: strip(attachedDocuments),
    ticketNotes: strip(ticketNotes),
  };
};

/** A ticket with nothing but what an insert needs. */
const plainTicket = (api: TenantClient, customer: string, subject = 's') =>
  api.create('/ticket/insert', { subject, description: 'd', openedBy: { id: customer } });

const totals = async (api: TenantClient, query = '') =>
  (await api.get(`/ticket/list${query ? `?${query}` : ''}`)).body.ticket?.totalRecords ?? 0;

describe('trash', () => {
  it('hides a deleted ticket everywhere but the trash, and nothing can be added to it', async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const { id, agent } = await busyTicket(api, customer);
    const docId = (await api.get(`/ticket/${id}`)).body.attachedDocuments[0].id;
    const before = Date.now();
    expect((await api.del(`/ticket/delete/${id}`)).status).toBe(200);

    expect((await api.get(`/ticket/${id}`)).status).toBe(404);
    for (const q of ['', 'tags=vip', `openedBy._id=${customer}`, `assignedTo._id=${agent}`, 'status=opened'])
      expect(await totals(api, q), q).toBe(0);
    for (const part of ['replies', 'notes', 'documents'])
      expect((await api.get(`/ticket/${id}/${part}`)).status).toBe(404);
    expect((await api.get(`/ticket/${id}/attachment/${docId}`)).status).toBe(404);
    expect((await api.put(`/ticket/reply/${id}`, { text: 'late' })).status).toBe(404);
    expect((await api.put(`/ticket/addNote/${id}`, { note: 'late' })).status).toBe(404);
    expect((await api.put(`/ticket/update/${id}`, { subject: 'x' })).status).toBe(404);
    expect((await api.del(`/ticket/delete/${id}`)).status).toBe(404);
    // Its customer and agent are free: a trashed ticket holds no reference (restore checks them).
    expect((await api.get(`/customer/${customer}`)).status).toBe(200);

    const trash = (await api.get('/ticket/trash/list')).body.ticket;
    expect(trash.totalRecords).toBe(1);
    const [record] = trash.records;
    expect(record).toMatchObject({ id, subject: 'Printer on fire', tags: [{ tag: 'vip' }, { tag: 'fire' }] });
    expect(record.deletedAt).toBeGreaterThanOrEqual(before);
    expect(record.purgesAt - record.deletedAt).toBe(30 * 86_400_000);
    // Its replies, notes and documents stay where they were until it is purged.
    expect((await collectionItems(tenant.clientId, id)).length).toBeGreaterThan(3);
    expect(await pendingCascades(tenant.clientId)).toEqual([]);
  });

  it('restores a ticket exactly as it was: id, number, conversation, files, tags, counts and references', async () => {
    const { api, customer } = await tenantWithCustomer();
    const { id, agent } = await busyTicket(api, customer);
    const other = await plainTicket(api, customer, 'other');
    const before = (await api.get(`/ticket/${id}`)).body;
    const etag = (await api.get(`/ticket/${id}`)).headers.etag;
    expect((await api.del(`/ticket/delete/${id}`)).status).toBe(200);
    expect(await totals(api)).toBe(1);

    expect((await api.put(`/ticket/restore/${id}`)).status).toBe(200);
    const after = await api.get(`/ticket/${id}`);
    expect(after.status).toBe(200);
    expect(comparable(after.body)).toEqual(comparable(before));
    expect(after.headers.etag).not.toBe(etag);
    // The documents download again.
    const download = await api.get(`/ticket/${id}/attachment/${after.body.attachedDocuments[0].id}`);
    expect(download.status).toBe(302);
    expect(await totals(api)).toBe(2);
    expect(await totals(api, 'tags=vip')).toBe(1);
    expect(await totals(api, `assignedTo._id=${agent}`)).toBe(1);
    expect((await api.get('/ticket/trash/list')).body.ticket.totalRecords).toBe(0);
    // Its references count again: the agent is in use.
    expect((await api.del(`/agent/delete/${agent}`)).status).toBe(409);
    // It is a ticket like any other again.
    expect((await api.put(`/ticket/reply/${id}`, { text: 'back' })).status).toBe(200);
    expect((await api.get(`/ticket/${id}`)).body.numberOfReplies).toBe(before.numberOfReplies + 1);
    expect((await api.put(`/ticket/restore/${id}`)).status).toBe(404);
    expect((await api.put(`/ticket/restore/${other}`)).status).toBe(404);
  });

  it('refuses to restore a ticket whose customer was deleted meanwhile (409 naming the field), keeping it in the trash', async () => {
    const { api, customer } = await tenantWithCustomer();
    const id = await plainTicket(api, customer);
    await api.del(`/ticket/delete/${id}`);
    expect((await api.del(`/customer/delete/${customer}`)).status).toBe(200);
    const res = await api.put(`/ticket/restore/${id}`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      type: 'urn:helpdesk:problem:reference-gone',
      errors: [{ path: 'openedBy.id' }],
    });
    expect((await api.get('/ticket/trash/list')).body.ticket.totalRecords).toBe(1);
    expect((await api.get(`/ticket/${id}`)).status).toBe(404);
  });

  it('purges a trashed ticket for good: out of the trash, its cascade leaves nothing', async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const { id } = await busyTicket(api, customer);
    expect((await api.del(`/ticket/purge/${id}`)).status).toBe(404); // not in the trash yet
    await api.del(`/ticket/delete/${id}`);
    expect((await api.del(`/ticket/purge/${id}`)).status).toBe(200);
    expect((await api.get('/ticket/trash/list')).body.ticket.totalRecords).toBe(0);
    expect((await api.put(`/ticket/restore/${id}`)).status).toBe(404);
    expect(await finishCascades(tenant.clientId)).toBe(1);
    expect(await collectionItems(tenant.clientId, id)).toEqual([]);
    await settle();
    const types = (await drain(api, '/event/list?since=0')).events
      .filter((e) => e.resourceId === id)
      .map((e) => e.type);
    expect(types.slice(-2)).toEqual(['ticket.deleted', 'ticket.purged']);
  });

  it('reports trash, restore and purge in the feed, a restored ticket as it reads now', async () => {
    const { api, customer } = await tenantWithCustomer();
    const id = await plainTicket(api, customer);
    await api.del(`/ticket/delete/${id}`);
    await api.put(`/ticket/restore/${id}`);
    await api.del(`/ticket/delete/${id}`);
    await api.del(`/ticket/purge/${id}`);
    await settle();
    const events = (await drain(api, '/event/list?since=0')).events.filter((e) => e.resourceId === id);
    expect(events.map((e) => e.type)).toEqual([
      'ticket.created',
      'ticket.deleted',
      'ticket.restored',
      'ticket.deleted',
      'ticket.purged',
    ]);
    expect(events[2]?.resource).toMatchObject({ id, subject: 's' });
    expect(events[4]?.resource).toBeNull();
  });

  it('purges at once when the tenant keeps no trash (--trash-days 0)', async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    expect(await setClientSettings(tenant.clientId, { trashDays: 0 })).toBe(true);
    forgetVerifiedTokens(); // the setting is read with the token (cached 30 s per instance)
    const id = await plainTicket(api, customer);
    await api.put(`/ticket/reply/${id}`, { text: 'r' });
    expect((await api.del(`/ticket/delete/${id}`)).status).toBe(200);
    expect((await api.get('/ticket/trash/list')).body.ticket.totalRecords).toBe(0);
    expect((await api.put(`/ticket/restore/${id}`)).status).toBe(404);
    expect(await finishCascades(tenant.clientId)).toBe(1);
    expect(await collectionItems(tenant.clientId, id)).toEqual([]);
    expect(await setClientSettings(tenant.clientId, { trashDays: 7 })).toBe(true);
    forgetVerifiedTokens();
    const kept = await plainTicket(api, customer);
    await api.del(`/ticket/delete/${kept}`);
    const [record] = (await api.get('/ticket/trash/list')).body.ticket.records;
    expect(record.purgesAt - record.deletedAt).toBe(7 * 86_400_000);
  });

  it("keeps one tenant's trash from another: listing, restoring, purging", async () => {
    const a = await tenantWithCustomer();
    const b = await tenantWithCustomer();
    const id = await plainTicket(a.api, a.customer);
    await a.api.del(`/ticket/delete/${id}`);
    expect((await b.api.get('/ticket/trash/list')).body.ticket.totalRecords).toBe(0);
    expect((await b.api.put(`/ticket/restore/${id}`)).status).toBe(404);
    expect((await b.api.del(`/ticket/purge/${id}`)).status).toBe(404);
    expect((await a.api.get('/ticket/trash/list')).body.ticket.totalRecords).toBe(1);
  });

  it('pages the trash newest deletion first, every ticket once, with an exact total', async () => {
    const { api, customer } = await tenantWithCustomer();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const id = await plainTicket(api, customer, `t${i}`);
      await api.del(`/ticket/delete/${id}`);
      ids.push(id);
    }
    const { records, totals } = await everyRecord<{ id: string }>(api, '/ticket/trash/list');
    expect(totals).toEqual([30]);
    const seen = records.map((r) => r.id);
    expect(seen).toEqual([...ids].reverse());
  });
});

describe('trash, restore, purge and replies in any order', () => {
  type Step = { op: 'insert' | 'reply' | 'trash' | 'restore' | 'purge'; pick: number };
  const step = fc.record({
    op: fc.constantFrom<Step['op']>('insert', 'reply', 'trash', 'restore', 'purge'),
    pick: fc.nat(20),
  });

  it('keep every total equal to what paging reaches, and every numberOfReplies to its replies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 8, maxLength: 25 }), async (steps) => {
        const { api, customer } = await tenantWithCustomer();
        const live: string[] = [];
        const trashed: string[] = [];
        const replies = new Map<string, number>();
        for (const { op, pick } of steps) {
          const from = op === 'restore' || op === 'purge' ? trashed : live;
          const id = from[pick % Math.max(1, from.length)];
          if (op === 'insert') {
            const made = await plainTicket(api, customer);
            live.push(made);
            replies.set(made, 0);
          } else if (id === undefined) {
          } else if (op === 'reply') {
            expect((await api.put(`/ticket/reply/${id}`, { text: 'r' })).status).toBe(200);
            replies.set(id, (replies.get(id) ?? 0) + 1);
          } else if (op === 'trash') {
            expect((await api.del(`/ticket/delete/${id}`)).status).toBe(200);
            live.splice(live.indexOf(id), 1);
            trashed.push(id);
          } else if (op === 'restore') {
            expect((await api.put(`/ticket/restore/${id}`)).status).toBe(200);
            trashed.splice(trashed.indexOf(id), 1);
            live.push(id);
          } else {
            expect((await api.del(`/ticket/purge/${id}`)).status).toBe(200);
            trashed.splice(trashed.indexOf(id), 1);
          }
        }
        const list = (await api.get('/ticket/list?view=summary')).body.ticket;
        expect(list.totalRecords).toBe(live.length);
        expect(list.records.map((r: { id: string }) => r.id).sort()).toEqual([...live].sort());
        for (const r of list.records as { id: string; numberOfReplies: number }[])
          expect(r.numberOfReplies).toBe(replies.get(r.id));
        const trash = (await api.get('/ticket/trash/list')).body.ticket;
        expect(trash.totalRecords).toBe(trashed.length);
        expect(trash.records.map((r: { id: string }) => r.id).sort()).toEqual([...trashed].sort());
        expect((await api.get(`/ticket/list?openedBy._id=${customer}`)).body.ticket.totalRecords).toBe(
          live.length,
        );
      }),
      { numRuns: 10 },
    );
  }, 240_000);
});
