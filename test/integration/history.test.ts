import { describe, expect, it } from 'vitest';
import { forgetVerifiedTokens } from '../../shared/auth/access-tokens';
import { setClientSettings } from '../../shared/auth/clients';
import { keys } from '../../shared/store/keys';
import { TTL_ATTRIBUTE } from '../../shared/store/table-schema';
import { invoke } from '../helpers/api';
import { finishCascades } from '../helpers/cascades';
import { everyRecord } from '../helpers/pages';
import { partitionItems } from '../helpers/partition';
import { tenantWithCustomer } from '../helpers/tenant-client';

/**
 * Issue 22, part 4: the history of every change of a ticket or customer, written in the change's
 * own transaction (docs/decisions.md, "History").
 */
type Entry = {
  id: string;
  at: number;
  kind: string;
  actor: { clientId: string; agentId: string | null; requestId: string | null };
  changes: { field: string; before: unknown; after: unknown }[];
  replies: string[];
  notes: string[];
  documents: string[];
};

describe('history', () => {
  it('lists every change of a ticket, oldest first: kind, actor, request, changed fields before and after', async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const agent = await api.create('/agent/insert', { name: 'Ada', email: `a${Math.random()}@example.com` });
    const created = await api.post('/ticket/insert', {
      subject: 'Printer',
      description: 'd',
      openedBy: { id: customer },
      replies: [{ text: 'first' }],
      attachedDocuments: [{ documentName: 'a.txt', documentType: 'text/plain', documentBase64: 'aGVsbG8=' }],
    });
    const id = created.body.id as string;
    const updated = await api.put(`/ticket/update/${id}`, {
      subject: 'Printer on fire',
      assignedTo: { id: agent },
    });
    const replied = await api.put(`/ticket/reply/${id}`, { text: 'on it', replyFromOperator: { id: agent } });
    const noted = await api.put(`/ticket/addNote/${id}`, { note: 'call back', insertBy: agent });
    await api.put(`/ticket/update/${id}`, { status: 'solved' });
    await api.del(`/ticket/delete/${id}`);
    await api.put(`/ticket/restore/${id}`);
    const other = await api.create('/ticket/insert', {
      subject: 'o',
      description: 'd',
      openedBy: { id: customer },
    });
    await api.put(`/ticket/merge/${other}`, { sources: [id] });

    const { records: entries, totals } = await everyRecord<Entry>(api, `/ticket/${id}/history`);
    expect(entries.map((e) => e.kind)).toEqual([
      'created',
      'updated',
      'replied',
      'note_added',
      'status_changed',
      'trashed',
      'restored',
      'merged',
    ]);
    expect(totals).toEqual([8]);
    const at = entries.map((e) => e.at);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    for (const e of entries) expect(e.actor.clientId).toBe(tenant.clientId);
    // The request that made each change, as its answer's x-request-id said.
    expect(entries[0]?.actor.requestId).toBe(created.headers['x-request-id']);
    expect(entries[1]?.actor.requestId).toBe(updated.headers['x-request-id']);
    expect(entries[2]?.actor.requestId).toBe(replied.headers['x-request-id']);
    expect(entries[3]?.actor.requestId).toBe(noted.headers['x-request-id']);
    // Who wrote the reply and the note, and what each added.
    expect(entries[2]).toMatchObject({ replies: [replied.body.id], actor: { agentId: agent } });
    expect(entries[3]).toMatchObject({ notes: [noted.body.id], actor: { agentId: agent } });
    expect(entries[1]?.actor.agentId).toBeNull();
    expect(entries[1]?.changes).toEqual([
      { field: 'subject', before: 'Printer', after: 'Printer on fire' },
      { field: 'assignedTo', before: null, after: agent },
    ]);
    expect(entries[4]?.changes).toEqual([{ field: 'status', before: 'opened', after: 'solved' }]);
    expect(entries[7]?.changes).toContainEqual({ field: 'mergedInto', before: null, after: other });
    // The target's history has the merge too, with what it changed there.
    const target = (await everyRecord<Entry>(api, `/ticket/${other}/history`)).records;
    expect(target.map((e) => e.kind)).toEqual(['created', 'merged']);
  });

  it('writes one entry per change, exactly: a retried request adds none, concurrent replies one each', async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const id = await api.create('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: customer },
    });
    const keyed = () =>
      invoke('PUT', `/ticket/reply/${id}`, {
        headers: { ...tenant.headers, 'content-type': 'application/json', 'idempotency-key': 'reply-once' },
        body: { text: 'once' },
      });
    expect((await keyed()).status).toBe(200);
    expect((await keyed()).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => api.put(`/ticket/reply/${id}`, { text: `r${i}` })),
    );
    const ok = answers.filter((a) => a.status === 200).length;
    for (const a of answers) expect([200, 503]).toContain(a.status);
    const { records: entries, totals } = await everyRecord<Entry>(api, `/ticket/${id}/history`);
    expect(entries.filter((e) => e.kind === 'replied')).toHaveLength(1 + ok);
    expect(totals).toEqual([2 + ok]);
    expect((await api.get(`/ticket/${id}`)).body.numberOfReplies).toBe(1 + ok);
  });

  it('pages a long history with cursors and bare page numbers, the same entries either way', async () => {
    const { api, customer } = await tenantWithCustomer();
    const id = await api.create('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: customer },
    });
    for (let i = 0; i < 30; i++) await api.put(`/ticket/reply/${id}`, { text: `r${i}` });
    const { records: entries, totals } = await everyRecord<Entry>(api, `/ticket/${id}/history`);
    expect(entries).toHaveLength(31);
    expect(new Set(entries.map((e) => e.id)).size).toBe(31);
    expect(totals).toEqual([31]);
    const page2 = (await api.get(`/ticket/${id}/history?page=2`)).body.history;
    expect(page2.records.map((e: Entry) => e.id)).toEqual(entries.slice(25).map((e) => e.id));
  });

  it("lists a customer's changes, never its password, and goes with it", async () => {
    const { tenant, api } = await tenantWithCustomer();
    const id = await api.create('/customer/insert', {
      name: 'Ada',
      email: `ada${Math.random()}@example.com`,
    });
    await api.put(`/customer/update/${id}`, { company: 'Engines' });
    await api.put(`/customer/update/${id}`, {
      account: { username: 'ada', password: 'correct horse battery' },
    });
    const { records: entries } = await everyRecord<Entry>(api, `/customer/${id}/history`);
    expect(entries.map((e) => e.kind)).toEqual(['created', 'updated', 'updated']);
    expect(entries[1]?.changes).toEqual([{ field: 'company', before: null, after: 'Engines' }]);
    expect(entries[2]?.changes).toEqual([{ field: 'account', before: null, after: { username: 'ada' } }]);
    expect(JSON.stringify(await partitionItems(keys.history(tenant.clientId, 'CUSTOMER', id)))).not.toContain(
      'scrypt',
    );

    expect((await api.del(`/customer/delete/${id}`)).status).toBe(200);
    expect((await api.get(`/customer/${id}/history`)).status).toBe(404);
    await finishCascades(tenant.clientId);
    expect(await partitionItems(keys.history(tenant.clientId, 'CUSTOMER', id))).toEqual([]);
  });

  it('goes with a purged ticket, and is kept as long as the tenant says (two years unless set)', async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const id = await api.create('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: customer },
    });
    const [first] = await partitionItems(keys.history(tenant.clientId, 'TICKET', id));
    expect(Number(first?.[TTL_ATTRIBUTE]) - Math.floor(Number(first?.at) / 1000)).toBe(730 * 86_400);

    expect(await setClientSettings(tenant.clientId, { historyDays: 5 })).toBe(true);
    forgetVerifiedTokens(); // the setting is read with the token (cached 30 s per instance)
    await api.put(`/ticket/reply/${id}`, { text: 'r' });
    const [, second] = await partitionItems(keys.history(tenant.clientId, 'TICKET', id));
    expect(Number(second?.[TTL_ATTRIBUTE]) - Math.floor(Number(second?.at) / 1000)).toBe(5 * 86_400);

    await api.del(`/ticket/delete/${id}`);
    await api.del(`/ticket/purge/${id}`);
    await finishCascades(tenant.clientId);
    expect(await partitionItems(keys.history(tenant.clientId, 'TICKET', id))).toEqual([]);
  });

  it("keeps one tenant's history from another", async () => {
    const a = await tenantWithCustomer();
    const b = await tenantWithCustomer();
    const id = await a.api.create('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: a.customer },
    });
    expect((await b.api.get(`/ticket/${id}/history`)).status).toBe(404);
    expect((await b.api.get(`/customer/${a.customer}/history`)).status).toBe(404);
    const page = (await a.api.get(`/ticket/${id}/history`)).body.history;
    expect(page.totalRecords).toBe(1);
  });
});
