import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { drainCascades } from '../../shared/domain/cascades';
import { recordAttempt } from '../../shared/domain/webhook-attempts';
import { renderExport } from '../../shared/http/views/customer-export';
import { webhookEntity } from '../../shared/store/entities/records';
import { keys } from '../../shared/store/keys';
import { getRecord } from '../../shared/store/record-reads';
import { invoke, newTenant, type Tenant } from '../helpers/api';
import { listObjects, objectText } from '../helpers/bucket';
import { collectionItems, finishCascades } from '../helpers/cascades';
import { drain, settle } from '../helpers/feed';
import { png } from '../helpers/images';
import { useOwnTable } from '../helpers/own-table';
import { everyRecord } from '../helpers/pages';
import { partitionItems } from '../helpers/partition';
import { holdsAny, scanTable } from '../helpers/scan';
import { clientFor, type TenantClient } from '../helpers/tenant-client';

/**
 * Issue 22, part 5: erasure of one customer's personal data on request (docs/decisions.md,
 * "Erasure"), through the real handlers, DynamoDB Local and the local S3 server: afterwards a scan
 * of the whole table and of the bucket finds the customer's e-mail and name nowhere.
 */
const unique = () => Math.random().toString(36).slice(2, 10);

/** A customer with everything that can hold their data: photo, history, tickets with replies, notes, files. */
const customerWithData = async (api: TenantClient, tenant: Tenant) => {
  const tag = unique();
  const name = `Zelda Quixote${tag}`;
  const email = `zq.${tag}@example.com`;
  const agent = await api.create('/agent/insert', { name: 'Grace', email: `grace.${tag}@example.com` });
  const customer = await api.create('/customer/insert', {
    name,
    email,
    phoneNumber: `+39 555 ${tag}`,
    address: `Via ${tag} 7`,
    profilePhotoBlob: png(2, 2).toString('hex'),
  });
  // Its history then holds the old and new e-mail.
  expect((await api.put(`/customer/update/${customer}`, { memo: `Prefers ${email}` })).status).toBe(200);
  const ticket = await api.create('/ticket/insert', {
    subject: `Invoice for ${name}`,
    description: `Hello, I am ${name}, write to ${email}`,
    openedBy: { id: customer },
    attachedDocuments: [
      {
        documentName: `${name}.txt`,
        documentType: 'text/plain',
        documentBase64: Buffer.from(email).toString('base64'),
      },
    ],
  });
  await api.put(`/ticket/reply/${ticket}`, { text: `It's ${name} again (${email})` });
  await api.put(`/ticket/reply/${ticket}`, {
    text: `Hi ${name}, we will write to ${email}.`,
    replyFromOperator: { id: agent },
    attachedDocuments: [
      { documentName: `notes-for-${email}.txt`, documentType: 'text/plain', documentBase64: 'b2s=' },
    ],
  });
  await api.put(`/ticket/addNote/${ticket}`, { note: `Called ${name}`, insertBy: agent });
  await api.put(`/ticket/update/${ticket}`, { subject: `Invoice for ${name} (urgent)` });
  const trashed = await api.create('/ticket/insert', {
    subject: `Old ${email}`,
    description: `${name} again`,
    openedBy: { id: customer },
  });
  expect((await api.del(`/ticket/delete/${trashed}`)).status).toBe(200);
  // A receiver that echoed what it was sent: its answer's excerpt is in the delivery log.
  const webhookId = await api.create('/webhook/insert', { url: 'https://1.1.1.1/hooks/helpdesk' });
  await settle();
  const { events } = await drain(api);
  const created = events.find((e) => e.type === 'customer.created' && e.resourceId === customer);
  const webhook = await getRecord(webhookEntity, tenant.clientId, webhookId, true);
  const now = Date.now();
  await recordAttempt(
    { tenantId: tenant.clientId },
    webhook,
    { id: String(created?.id), type: 'customer.created' },
    { ok: true, status: 200, response: `thanks ${name} <${email}>`, ms: 3 },
    { attempt: 1, at: now, firstAttemptAt: now },
  );
  return { name, email, agent, customer, ticket, trashed, webhookId };
};

/** Every item of the table and every object of the tenant whose JSON or bytes hold one of `needles`. */
const leftovers = async (tenantId: string, needles: string[]): Promise<string[]> => {
  const holds = holdsAny(needles);
  const found = (await scanTable())
    .filter((item) => holds(JSON.stringify(item)))
    .map((i) => `${i.pk} ${i.sk}`);
  for (const key of [
    ...(await listObjects(`t/${tenantId}/`)),
    ...(await listObjects(`exports/${tenantId}/`)),
  ])
    if (holds(`${key} ${(await objectText(key)) ?? ''}`)) found.push(`s3 ${key}`);
  return found;
};

const erase = async (api: TenantClient, customer: string, body: object) => {
  const asked = await api.post(`/customer/erase/${customer}`, body);
  expect(asked.status, JSON.stringify(asked.body)).toBe(202);
  expect(asked.body).toMatchObject({ customerId: customer, status: 'pending', receipt: null });
  return asked.body as { id: string; statusUrl: string };
};

// Each test scans the whole table: a table of this file's own keeps the scans small.
beforeAll(() => useOwnTable('helpdesk-test-erasure'));

describe('customer erasure', () => {
  it('anonymise: the customer goes, their tickets stay without a trace of them, every copy reached', async () => {
    const tenant = await newTenant();
    const api = clientFor(tenant);
    const data = await customerWithData(api, tenant);
    const other = await api.create('/customer/insert', {
      name: 'Bob Other',
      email: `bob.${unique()}@example.com`,
    });
    const kept = await api.create('/ticket/insert', {
      subject: 'Bob asks',
      description: 'mine',
      openedBy: { id: other },
    });
    // An export made before: its document goes with the erasure.
    const exported = await api.post(`/customer/export/${data.customer}`, undefined);
    expect(exported.status).toBe(202);
    await finishCascades(tenant.clientId);
    expect((await api.get(exported.body.statusUrl)).body.status).toBe('done');
    expect(await leftovers(tenant.clientId, [data.email])).not.toEqual([]);

    // The dry run counts and changes nothing.
    const dry = await erase(api, data.customer, { dryRun: true });
    await finishCascades(tenant.clientId);
    const counted = await api.get(dry.statusUrl);
    expect(counted.body).toMatchObject({ status: 'done', dryRun: true, mode: 'anonymise' });
    expect(counted.body.receipt).toMatchObject({
      customers: 1,
      photos: 1,
      tickets: 2,
      replies: 2,
      notes: 1,
      exports: 1,
    });
    expect(counted.body.receipt.events).toBeGreaterThan(5);
    expect(counted.body.receipt.deliveries).toBe(1);
    expect((await api.get(`/customer/${data.customer}`)).status).toBe(200);

    const job = await erase(api, data.customer, {});
    // At once: the customer is gone from every read, their tickets show no customer.
    expect((await api.get(`/customer/${data.customer}`)).status).toBe(404);
    expect((await api.get(`/customer/list?email=${data.email}`)).body.customer.totalRecords).toBe(0);
    expect((await api.get(`/ticket/${data.ticket}`)).body.openedBy).toBeNull();
    expect((await api.get(job.statusUrl)).body.status).toBe('pending');
    await finishCascades(tenant.clientId);
    const done = await api.get(job.statusUrl);
    expect(done.body).toMatchObject({ status: 'done', dryRun: false, receipt: counted.body.receipt });
    expect(done.body.finishedAt).toBeGreaterThanOrEqual(done.body.requestedAt);

    expect(await leftovers(tenant.clientId, [data.email, data.name])).toEqual([]);
    expect((await api.get(exported.body.statusUrl)).body).toMatchObject({
      status: 'gone',
      downloadUrl: null,
    });
    const detail = (await api.get(`/ticket/${data.ticket}`)).body;
    expect(detail.description).toBe('[erased]');
    expect(detail.subject).toBe('Invoice for [erased] (urgent)');
    expect(detail.replies.map((r: { text: string }) => r.text)).toEqual([
      '[erased]',
      'Hi [erased], we will write to [erased].',
    ]);
    expect(detail.ticketNotes[0].note).toBe('Called [erased]');
    // The customer's own file went; the agent's stays, renamed.
    expect(detail.attachedDocuments).toEqual([]);
    expect(detail.replies[1].attachedDocuments[0].documentName).toBe('notes-for-[erased].txt');
    const history = await everyRecord<{ kind: string; actor: { clientId: string } }>(
      api,
      `/ticket/${data.ticket}/history`,
    );
    expect(history.records.at(-1)).toMatchObject({ kind: 'erased', actor: { clientId: tenant.clientId } });
    expect((await api.get(`/customer/${data.customer}/history`)).status).toBe(404);
    expect(await partitionItems(keys.history(tenant.clientId, 'CUSTOMER', data.customer))).toEqual([]);

    // The event says who, and nothing else; the feed's earlier events about them are emptied.
    await settle();
    const { events } = await drain(api);
    expect(events.filter((e) => e.type === 'customer.erased')).toEqual([
      expect.objectContaining({ resourceId: data.customer, resource: null }),
    ]);
    // Someone else's data is untouched.
    expect((await api.get(`/customer/${other}`)).body.name).toBe('Bob Other');
    expect((await api.get(`/ticket/${kept}`)).body.description).toBe('mine');

    // The kept tickets live on: updated, deleted; no new ticket can name the erased customer,
    // a trashed one of theirs cannot come back to them; their e-mail is free again.
    expect((await api.put(`/ticket/update/${data.ticket}`, { status: 'solved' })).status).toBe(200);
    const refused = await api.post('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: data.customer },
    });
    expect(refused.status).toBe(400);
    expect((await api.put(`/ticket/restore/${data.trashed}`)).body.type).toMatch(/reference-gone/);
    expect((await api.del(`/ticket/delete/${data.ticket}`)).status).toBe(200);
    expect(await api.create('/customer/insert', { name: 'New', email: data.email })).toBeTruthy();
    // Asking again: the customer is not there.
    expect((await api.post(`/customer/erase/${data.customer}`, {})).status).toBe(404);
  }, 90_000);

  it('delete: their tickets go with them, and the mark once no ticket counts on it', async () => {
    const tenant = await newTenant();
    const api = clientFor(tenant);
    const data = await customerWithData(api, tenant);
    const job = await erase(api, data.customer, { mode: 'delete' });
    // The erasure, then the cascades of the tickets it deleted (the stream hands them on in AWS).
    expect((await drainCascades(renderExport, tenant.clientId)).finished).toBe(1);
    expect(await finishCascades(tenant.clientId)).toBe(2);
    const done = await api.get(job.statusUrl);
    expect(done.body).toMatchObject({ status: 'done', mode: 'delete' });
    expect(done.body.receipt).toMatchObject({ customers: 1, photos: 1, tickets: 2, replies: 2, notes: 1 });
    expect((await api.get(`/ticket/${data.ticket}`)).status).toBe(404);
    expect((await api.get('/ticket/trash/list')).body.ticket.totalRecords).toBe(0);
    expect(await collectionItems(tenant.clientId, data.ticket)).toEqual([]);
    expect(await partitionItems(keys.record(tenant.clientId, 'CUSTOMER', data.customer).pk)).toEqual([]);
    expect(await leftovers(tenant.clientId, [data.email, data.name])).toEqual([]);
  }, 90_000);

  it('refuses bad bodies, unknown customers and other tenants’ jobs; a retry with the same Idempotency-Key is the same job', async () => {
    const tenant = await newTenant();
    const api = clientFor(tenant);
    const customer = await api.create('/customer/insert', {
      name: 'Ada',
      email: `ada.${unique()}@example.com`,
    });
    for (const body of [{ mode: 'shred' }, { dryRun: 'yes' }, { extra: 1 }, []]) {
      const res = await api.post(`/customer/erase/${customer}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api.post('/customer/erase/000000000000000000000000', {})).status).toBe(404);
    expect((await api.post('/customer/export/000000000000000000000000', undefined)).status).toBe(404);
    const headers = {
      ...tenant.headers,
      'content-type': 'application/json',
      'idempotency-key': `k-${unique()}`,
    };
    const first = await invoke('POST', `/customer/erase/${customer}`, { headers, body: { dryRun: true } });
    const again = await invoke('POST', `/customer/erase/${customer}`, { headers, body: { dryRun: true } });
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers['idempotent-replayed']).toBe('true');

    const intruder = clientFor(await newTenant());
    expect((await intruder.get(first.body.statusUrl)).status).toBe(404);
    expect((await intruder.post(`/customer/erase/${customer}`, {})).status).toBe(404);
    expect((await intruder.post(`/customer/export/${customer}`, undefined)).status).toBe(404);
    // An erasure job's id is no export's.
    expect((await api.get(`/customer/export/${first.body.id}`)).status).toBe(404);
    expect((await api.get(`/customer/${customer}`)).status).toBe(200);
  });
});

describe('an erasure after any sequence of tickets, replies, merges, trash and restores', () => {
  type Op = 'insert' | 'reply' | 'merge' | 'trash' | 'restore';
  const step = fc.record({
    op: fc.constantFrom<Op>('insert', 'insert', 'reply', 'merge', 'trash', 'restore'),
    ofErased: fc.boolean(),
    pick: fc.nat(20),
    other: fc.nat(20),
  });

  it("keeps every total and count equal to what paging reaches, the other customer's tickets whole, and the erased one nowhere", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 8, maxLength: 18 }),
        fc.boolean(),
        async (steps, deleting) => {
          const tenant = await newTenant();
          const api = clientFor(tenant);
          const email = `gone.${unique()}@example.com`;
          const name = `Gone ${unique()}`;
          const erased = await api.create('/customer/insert', { name, email });
          const kept = await api.create('/customer/insert', {
            name: 'Kept Person',
            email: `kept.${unique()}@example.com`,
          });
          const live: string[] = [];
          const trashed: string[] = [];
          const owner = new Map<string, string>();
          const into = new Map<string, string>(); // source → target
          const at = <T>(list: T[], n: number) => list[n % Math.max(1, list.length)];
          const hasSources = (id: string) => [...into.values()].includes(id);
          for (const { op, ofErased, pick, other } of steps) {
            if (op === 'insert') {
              const by = ofErased ? erased : kept;
              // What the erased customer writes names them; the other customer's tickets do not.
              const id = await api.create('/ticket/insert', {
                subject: ofErased ? `About ${email}` : 'About an order',
                description: ofErased ? `${name} writes` : 'Kept writes',
                openedBy: { id: by },
              });
              live.push(id);
              owner.set(id, by);
              continue;
            }
            const id = at(op === 'restore' ? trashed : live, pick);
            if (id === undefined) continue;
            if (op === 'reply') {
              const text = owner.get(id) === erased ? `${email} again` : 'again';
              const res = await api.put(`/ticket/reply/${id}`, { text });
              expect(res.status).toBe(into.has(id) ? 409 : 200);
            } else if (op === 'merge') {
              const source = at(live, other);
              if (!source || source === id || into.has(id) || into.has(source) || hasSources(source))
                continue;
              expect((await api.put(`/ticket/merge/${id}`, { sources: [source] })).status).toBe(200);
              into.set(source, id);
            } else if (op === 'trash') {
              const res = await api.del(`/ticket/delete/${id}`);
              expect(res.status).toBe(into.has(id) ? 409 : 200);
              if (into.has(id)) continue;
              live.splice(live.indexOf(id), 1);
              trashed.push(id);
            } else {
              expect((await api.put(`/ticket/restore/${id}`)).status).toBe(200);
              trashed.splice(trashed.indexOf(id), 1);
              live.push(id);
            }
          }
          await erase(api, erased, deleting ? { mode: 'delete' } : {});
          // The job, then the cascades of what it deleted (the stream hands them on in AWS).
          await finishCascades(tenant.clientId);

          const tickets = await everyRecord<{
            id: string;
            openedBy: { id: string } | null;
            numberOfReplies: number;
          }>(api, '/ticket/list?view=summary');
          expect(tickets.totals).toEqual([tickets.records.length]);
          const trash = await everyRecord<{ id: string }>(api, '/ticket/trash/list');
          expect(trash.totals).toEqual([trash.records.length]);
          for (const t of tickets.records) {
            const replies = await everyRecord(api, `/ticket/${t.id}/replies`);
            expect(t.numberOfReplies).toBe(replies.records.length);
          }
          // The other customer's tickets are all there, theirs, counted by their search.
          const theirs = live.filter((id) => owner.get(id) === kept).sort();
          expect(
            tickets.records
              .filter((t) => t.openedBy?.id === kept)
              .map((t) => t.id)
              .sort(),
          ).toEqual(theirs);
          expect((await api.get(`/ticket/list?openedBy._id=${kept}`)).body.ticket.totalRecords).toBe(
            theirs.length,
          );
          // The erased customer's: deleted (but those merged into the other's), or kept without them.
          const erasedOnes = live.filter((id) => owner.get(id) === erased);
          const stay = deleting
            ? erasedOnes.filter((id) => into.has(id) && owner.get(into.get(id) as string) === kept)
            : erasedOnes;
          expect(
            tickets.records
              .filter((t) => owner.get(t.id) === erased)
              .map((t) => t.id)
              .sort(),
          ).toEqual([...stay].sort());
          expect(tickets.records.filter((t) => t.openedBy === null).length).toBe(stay.length);
          expect(trash.records.map((t) => t.id).sort()).toEqual(
            trashed.filter((id) => !deleting || owner.get(id) === kept).sort(),
          );
          expect(await leftovers(tenant.clientId, [email, name])).toEqual([]);
        },
      ),
      { numRuns: 6 },
    );
  }, 300_000);
});
