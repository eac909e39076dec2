import { beforeEach, describe, expect, it } from 'vitest';
import { ticketDetailView } from '../../shared/schemas/views';
import { newTenant, type Tenant } from '../helpers/api';
import { collectionItems, finishCascades } from '../helpers/cascades';
import { seedReplies } from '../helpers/seed';
import { clientFor, type TenantClient } from '../helpers/tenant-client';

let tenant: Tenant;
let api: TenantClient;
let customer: string;
let agent: string;
let agent2: string;
let typeId: string;
const YEAR = new Date().getUTCFullYear();

beforeEach(async () => {
  tenant = await newTenant();
  api = clientFor(tenant);
  customer = await api.create('/customer/insert', { name: 'Ada', email: 'ada@example.com' });
  agent = await api.create('/agent/insert', { name: 'Grace', email: 'grace@example.com' });
  agent2 = await api.create('/agent/insert', { name: 'Linus', email: 'linus@example.com' });
  typeId = (await api.get('/ticketType/list?type=incident')).body.type.records[0].id;
});

const minimal = () => ({
  subject: 'Printer on fire',
  description: 'It is on fire.',
  openedBy: { id: customer },
});

const collection = (id: string) => collectionItems(tenant.clientId, id);

describe('ticket insert and detail', () => {
  it('creates a ticket with every seed field present and the documented defaults', async () => {
    const before = Date.now();
    const res = await api.post('/ticket/insert', minimal());
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const detail = await api.get(`/ticket/${res.body.id}`);
    expect(detail.status).toBe(200);
    const t = detail.body;
    const documented = {
      id: res.body.id,
      number: `1/${YEAR}`,
      subject: 'Printer on fire',
      description: 'It is on fire.',
      insertDate: expect.any(Number),
      managedDate: t.insertDate,
      closedDate: null,
      priority: 0,
      assignedTo: null,
      cc: [],
      openedBy: expect.objectContaining({ id: customer, name: 'Ada', email: 'ada@example.com' }),
      numberOfReplies: 0,
      replies: [],
      tags: [],
      attachedDocuments: [],
      status: { status: 'opened', labels: { en: 'Opened', it: 'Aperto', es: 'Abierto', fr: 'Ouvert' } },
      type: null,
      area: null,
      group: null,
      memo: null,
      source: { source: 'web', labels: { en: 'Web', it: 'Web', es: 'Web', fr: 'Web' } },
      customFields: [],
      ticketNotes: [],
      tweetId: null,
      tweetType: null,
      facebookId: null,
      facebookType: null,
      linkedinId: null,
      linkedinType: null,
      googlePlusId: null,
      googlePlusType: null,
      youtubeId: null,
      youtubeType: null,
      messageUniqueId: null,
      customPortalId: null,
      toReply: true,
      toReplyCustomer: false,
      // beyond the seed: the ticket's key in an integrator's own system (Deskero records carry it),
      externalId1: null,
      // whether the detail left documents, replies or notes out, and where all of them are
      documentsTruncated: false,
      documentsUrl: expect.stringMatching(new RegExp(`/ticket/${res.body.id}/documents$`)),
      repliesTruncated: false,
      repliesUrl: expect.stringMatching(new RegExp(`/ticket/${res.body.id}/replies$`)),
      notesTruncated: false,
      notesUrl: expect.stringMatching(new RegExp(`/ticket/${res.body.id}/notes$`)),
    };
    expect(Object.fromEntries(Object.keys(documented).map((field) => [field, t[field]]))).toEqual(documented);
    // Every field of the response schema, a field added to it too (whose default its own test shows).
    expect(Object.keys(t).sort()).toEqual(Object.keys(ticketDetailView.shape).sort());
    expect(t.insertDate).toBeGreaterThanOrEqual(before);
    expect(t.openedBy.profilePhotoUrl).toMatch(new RegExp(`/customer/photo/${customer}$`));
  });

  it('stores every field sent, expands references and keeps replies with their own dates', async () => {
    const area = await api.create('/ticketArea/insert', { area: 'billing' });
    const group = await api.create('/ticketGroup/insert', { group: 'first line' });
    const res = await api.post('/ticket/insert', {
      ...minimal(),
      type: { id: typeId },
      area: { id: area },
      group: { id: group },
      assignedTo: { id: agent },
      cc: [{ id: agent2 }],
      priority: 1,
      source: { source: 'email' },
      tags: ['urgent', { tag: 'printer' }, 'urgent'],
      memo: 'call back',
      customFields: [{ name: 'floor', value: 3 }],
      tweetId: 't1',
      tweetType: 'mention',
      facebookType: 'private message',
      messageUniqueId: '<abc@mail>',
      toReply: false,
      replies: [
        { text: 'second', replyDate: '1700000002000', replyFromOperator: { id: agent } },
        { text: 'first', replyDate: 1_700_000_001_000 },
      ],
    });
    expect(res.status).toBe(201);
    const t = (await api.get(`/ticket/${res.body.id}`)).body;
    expect(t).toMatchObject({
      priority: 1,
      source: { source: 'email' },
      tags: [{ tag: 'urgent' }, { tag: 'printer' }],
      memo: 'call back',
      customFields: [{ name: 'floor', value: 3 }],
      tweetId: 't1',
      tweetType: 'mention',
      facebookType: 'private message',
      messageUniqueId: '<abc@mail>',
      toReply: false,
      numberOfReplies: 2,
      type: { id: typeId, type: 'incident', labels: expect.objectContaining({ en: 'Incident' }) },
      area: { id: area, area: 'billing', labels: expect.any(Object) },
      group: { id: group, group: 'first line', labels: expect.any(Object) },
      assignedTo: { id: agent, name: 'Grace', email: 'grace@example.com' },
      cc: [{ id: agent2, name: 'Linus', email: 'linus@example.com' }],
    });
    expect(t.replies).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        text: 'first',
        replyDate: 1_700_000_001_000,
        replyFromOperator: null,
        attachedDocuments: [],
      },
      {
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        text: 'second',
        replyDate: 1_700_000_002_000,
        replyFromOperator: expect.objectContaining({ id: agent }),
        attachedDocuments: [],
      },
    ]);
  });

  it('numbers tickets per tenant and year from 1 and never reuses a number', async () => {
    const a = await api.create('/ticket/insert', minimal());
    const b = await api.create('/ticket/insert', minimal());
    expect((await api.get(`/ticket/${a}`)).body.number).toBe(`1/${YEAR}`);
    expect((await api.get(`/ticket/${b}`)).body.number).toBe(`2/${YEAR}`);
    await api.del(`/ticket/delete/${b}`);
    const c = await api.create('/ticket/insert', minimal());
    expect((await api.get(`/ticket/${c}`)).body.number).toBe(`3/${YEAR}`);
    const other = clientFor(await newTenant());
    const otherCustomer = await other.create('/customer/insert', { name: 'x', email: 'x@example.com' });
    const d = await other.create('/ticket/insert', { ...minimal(), openedBy: { id: otherCustomer } });
    expect((await other.get(`/ticket/${d}`)).body.number).toBe(`1/${YEAR}`);
  });

  it('answers a 400 naming each missing reference and writes nothing', async () => {
    const ghost = 'aaaaaaaaaaaaaaaaaaaaaaaa';
    const cases: [Record<string, unknown>, string][] = [
      [{ openedBy: { id: ghost } }, 'openedBy.id'],
      [{ openedBy: { id: agent } }, 'openedBy.id'],
      [{ type: { id: ghost } }, 'type.id'],
      [{ area: { id: ghost } }, 'area.id'],
      [{ group: { id: ghost } }, 'group.id'],
      [{ assignedTo: { id: ghost } }, 'assignedTo.id'],
      [{ assignedTo: { id: 'not-an-id' } }, 'assignedTo.id'],
      [{ cc: [{ id: agent }, { id: ghost }] }, 'cc.1.id'],
      [
        { replies: [{ text: 'x' }, { text: 'y', replyFromOperator: { id: ghost } }] },
        'replies.1.replyFromOperator.id',
      ],
    ];
    for (const [patch, path] of cases) {
      const res = await api.post('/ticket/insert', { ...minimal(), ...patch });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body.type).toBe('urn:helpdesk:problem:invalid-reference');
      expect(res.body.errors[0].path).toBe(path);
    }
    const list = (await api.get('/ticket/list')).body.ticket;
    expect(list.totalRecords).toBe(0);
    const next = await api.create('/ticket/insert', minimal());
    expect((await api.get(`/ticket/${next}`)).body.number).toBe(`1/${YEAR}`);
  });

  it('validates the body field by field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ subject: undefined }, 'subject'],
      [{ description: '' }, 'description'],
      [{ openedBy: undefined }, 'openedBy'],
      [{ openedBy: customer }, 'openedBy'],
      [{ priority: 2 }, 'priority'],
      [{ status: 'lost' }, 'status'],
      [{ status: { status: 'nope' } }, 'status'],
      [{ source: 'pigeon' }, 'source'],
      [{ tags: ['x'.repeat(101)] }, 'tags.0'],
      [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags'],
      [{ cc: Array.from({ length: 11 }, () => ({ id: agent })) }, 'cc'],
      [{ replies: [{ text: '' }] }, 'replies.0.text'],
      [{ replies: [{ text: 'x', replyDate: 'yesterday' }] }, 'replies.0.replyDate'],
      [{ tweetType: 'shout' }, 'tweetType'],
      [{ subject: 's'.repeat(501) }, 'subject'],
      [{ externalId1: 'x'.repeat(256) }, 'externalId1'],
      [{ externalId1: 4711 }, 'externalId1'],
    ];
    for (const [patch, path] of cases) {
      const res = await api.post('/ticket/insert', { ...minimal(), ...patch });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(patch),
      ).toContain(path);
    }
    expect((await api.get('/ticket/list')).body.ticket.totalRecords).toBe(0);
  });

  it('answers 404 for unknown, malformed and foreign ids on every ticket route', async () => {
    const other = clientFor(await newTenant());
    const otherCustomer = await other.create('/customer/insert', { name: 'x', email: 'x@example.com' });
    const foreign = await other.create('/ticket/insert', { ...minimal(), openedBy: { id: otherCustomer } });
    for (const id of ['aaaaaaaaaaaaaaaaaaaaaaaa', 'nope', foreign]) {
      expect((await api.get(`/ticket/${id}`)).status).toBe(404);
      expect((await api.put(`/ticket/update/${id}`, { subject: 'x' })).status).toBe(404);
      expect((await api.put(`/ticket/reply/${id}`, { text: 'x' })).status).toBe(404);
      expect((await api.put(`/ticket/addNote/${id}`, { note: 'x' })).status).toBe(404);
      expect((await api.del(`/ticket/delete/${id}`)).status).toBe(404);
    }
    const still = (await other.get(`/ticket/${foreign}`)).body;
    expect(still).toMatchObject({ subject: 'Printer on fire', numberOfReplies: 0, ticketNotes: [] });
  });
});

describe('ticket update', () => {
  it('changes only the fields sent, appends replies and ignores server-owned fields', async () => {
    const id = await api.create('/ticket/insert', { ...minimal(), memo: 'keep', tags: ['a'] });
    const before = (await api.get(`/ticket/${id}`)).body;
    const res = await api.put(`/ticket/update/${id}`, {
      subject: 'Printer fixed?',
      assignedTo: { id: agent },
      memo: null,
      tags: ['b'],
      replies: [{ text: 'on it', replyFromOperator: { id: agent } }],
      number: '999/1999',
      insertDate: 0,
      numberOfReplies: 50,
      id: 'ffffffffffffffffffffffff',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id });
    const after = (await api.get(`/ticket/${id}`)).body;
    expect(after).toMatchObject({
      subject: 'Printer fixed?',
      description: before.description,
      assignedTo: expect.objectContaining({ id: agent }),
      memo: null,
      tags: [{ tag: 'b' }],
      number: before.number,
      insertDate: before.insertDate,
      numberOfReplies: 1,
    });
    expect(after.replies.map((r: { text: string }) => r.text)).toEqual(['on it']);
    expect(after.managedDate).toBeGreaterThanOrEqual(before.managedDate);
    expect((await api.get('/ticket/list?tags=a')).body.ticket.totalRecords).toBe(0);
    expect((await api.get('/ticket/list?tags=b')).body.ticket.totalRecords).toBe(1);
  });

  it('drives closedDate from the status and always moves managedDate', async () => {
    const id = await api.create('/ticket/insert', minimal());
    const opened = (await api.get(`/ticket/${id}`)).body;
    await new Promise((r) => setTimeout(r, 5));
    await api.put(`/ticket/update/${id}`, { status: { status: 'closed' } });
    const closed = (await api.get(`/ticket/${id}`)).body;
    expect(closed.status.status).toBe('closed');
    expect(closed.closedDate).toEqual(expect.any(Number));
    expect(closed.managedDate).toBeGreaterThan(opened.managedDate);
    await api.put(`/ticket/update/${id}`, { memo: 'still closed' });
    expect((await api.get(`/ticket/${id}`)).body.closedDate).toBe(closed.closedDate);
    await api.put(`/ticket/update/${id}`, { status: 'onhold' });
    const reopened = (await api.get(`/ticket/${id}`)).body;
    expect(reopened.status).toEqual({
      status: 'on hold',
      labels: expect.objectContaining({ en: 'On hold' }),
    });
    expect(reopened.closedDate).toBeNull();
    await api.put(`/ticket/update/${id}`, { status: 'solved' });
    expect((await api.get(`/ticket/${id}`)).body.status.status).toBe('solved');
  });

  it('re-checks references and writes nothing when one is missing', async () => {
    const id = await api.create('/ticket/insert', minimal());
    const res = await api.put(`/ticket/update/${id}`, {
      subject: 'changed',
      cc: [{ id: 'aaaaaaaaaaaaaaaaaaaaaaaa' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('cc.0.id');
    expect((await api.get(`/ticket/${id}`)).body.subject).toBe('Printer on fire');
  });
});

describe('reply and note', () => {
  it('adds a reply in one transaction: counted, dated, and the turn handed over', async () => {
    const id = await api.create('/ticket/insert', minimal());
    const fromAgent = await api.put(`/ticket/reply/${id}`, {
      text: 'Have you tried water?',
      replyFromOperator: { id: agent },
    });
    expect(fromAgent.status).toBe(200);
    expect(fromAgent.body).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    let t = (await api.get(`/ticket/${id}`)).body;
    expect(t).toMatchObject({ numberOfReplies: 1, toReply: false, toReplyCustomer: true });
    expect(t.replies[0]).toMatchObject({ id: fromAgent.body.id, text: 'Have you tried water?' });
    expect(t.managedDate).toBeGreaterThanOrEqual(t.insertDate);

    await api.put(`/ticket/reply/${id}`, { text: 'Yes.' });
    t = (await api.get(`/ticket/${id}`)).body;
    expect(t).toMatchObject({ numberOfReplies: 2, toReply: true, toReplyCustomer: false });
    expect(t.replies.map((r: { text: string }) => r.text)).toEqual(['Have you tried water?', 'Yes.']);
  });

  it('rejects a reply from an unknown agent or with a bad body, writing nothing', async () => {
    const id = await api.create('/ticket/insert', minimal());
    const ghost = await api.put(`/ticket/reply/${id}`, {
      text: 'x',
      replyFromOperator: { id: 'aaaaaaaaaaaaaaaaaaaaaaaa' },
    });
    expect(ghost.status).toBe(400);
    expect(ghost.body.errors[0].path).toBe('replyFromOperator.id');
    expect((await api.put(`/ticket/reply/${id}`, { text: '' })).status).toBe(400);
    expect((await api.put(`/ticket/reply/${id}`, {})).status).toBe(400);
    expect((await api.get(`/ticket/${id}`)).body).toMatchObject({ numberOfReplies: 0, replies: [] });
  });

  it('adds notes with agents as plain ids and timestamps as numbers or strings', async () => {
    const id = await api.create('/ticket/insert', minimal());
    const res = await api.put(`/ticket/addNote/${id}`, {
      note: 'Customer is VIP',
      insertBy: agent,
      assignedTo: agent2,
      date: '1700000000000',
      remindMe: 1_800_000_000_000,
    });
    expect(res.status).toBe(200);
    const t = (await api.get(`/ticket/${id}`)).body;
    expect(t.ticketNotes).toEqual([
      {
        id: res.body.id,
        note: 'Customer is VIP',
        insertBy: expect.objectContaining({ id: agent, name: 'Grace' }),
        assignedTo: expect.objectContaining({ id: agent2, name: 'Linus' }),
        date: 1_700_000_000_000,
        remindMe: 1_800_000_000_000,
      },
    ]);
    const ghost = await api.put(`/ticket/addNote/${id}`, { note: 'x', insertBy: 'aaaaaaaaaaaaaaaaaaaaaaaa' });
    expect(ghost.status).toBe(400);
    expect(ghost.body.errors[0].path).toBe('insertBy');
    expect((await api.put(`/ticket/addNote/${id}`, { note: 'x', date: 'soon' })).status).toBe(400);
    expect((await api.get(`/ticket/${id}`)).body.ticketNotes).toHaveLength(1);
  });
});

describe('ticket delete', () => {
  it('removes the ticket with its replies, notes and tags, and every count and index entry', async () => {
    const id = await api.create('/ticket/insert', {
      ...minimal(),
      tags: ['x', 'y'],
      assignedTo: { id: agent },
      replies: [{ text: 'a' }],
    });
    await api.put(`/ticket/reply/${id}`, { text: 'b', replyFromOperator: { id: agent } });
    await api.put(`/ticket/addNote/${id}`, { note: 'n' });
    expect((await collection(id)).length).toBe(6);

    expect((await api.del(`/customer/delete/${customer}`)).status).toBe(409);
    expect((await api.del(`/agent/delete/${agent}`)).status).toBe(409);

    const res = await api.del(`/ticket/delete/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id });
    expect((await api.get(`/ticket/${id}`)).status).toBe(404);
    // The ticket went to the trash in the transaction; its replies and notes stay with it there
    // (with the trashed-ticket item) until it is purged, then go by its cascade.
    expect((await collection(id)).length).toBe(4);
    expect((await api.del(`/ticket/purge/${id}`)).status).toBe(200);
    expect(await finishCascades(tenant.clientId)).toBe(1);
    expect(await collection(id)).toEqual([]);
    for (const q of [
      '',
      `?tags=x`,
      `?openedBy._id=${customer}`,
      `?assignedTo._id=${agent}`,
      '?status=opened',
    ]) {
      const page = (await api.get(`/ticket/list${q}`)).body.ticket;
      expect(page, q).toMatchObject({ totalRecords: 0, records: [] });
    }
    expect((await api.del(`/agent/delete/${agent}`)).status).toBe(200);
    expect((await api.del(`/customer/delete/${customer}`)).status).toBe(200);
  });

  it('deletes a ticket with a thousand replies completely, after its detail returned them all', async () => {
    const id = await api.create('/ticket/insert', minimal());
    // The subject is reading and deleting them, not writing them: seeded with batch writes.
    await seedReplies(tenant.clientId, id, 1000);
    const t = (await api.get(`/ticket/${id}`)).body;
    expect(t.numberOfReplies).toBe(1000);
    expect(t.replies).toHaveLength(1000);
    expect(t.replies.map((r: { text: string }) => r.text)).toEqual(
      Array.from({ length: 1000 }, (_, i) => `reply ${i}`),
    );
    expect((await api.del(`/ticket/delete/${id}`)).status).toBe(200);
    expect((await api.del(`/ticket/purge/${id}`)).status).toBe(200);
    expect(await finishCascades(tenant.clientId)).toBe(1);
    expect(await collection(id)).toEqual([]);
  });
});

describe('concurrency', () => {
  it('keeps and counts 100 concurrent replies to one ticket', async () => {
    const id = await api.create('/ticket/insert', minimal());
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => api.put(`/ticket/reply/${id}`, { text: `r${i}` })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(100).fill(200));
    const t = (await api.get(`/ticket/${id}`)).body;
    expect(t.numberOfReplies).toBe(100);
    expect(new Set(t.replies.map((r: { text: string }) => r.text)).size).toBe(100);
  });

  it('gives 100 concurrent inserts 100 distinct numbers and moves the counter by exactly 100', async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, () => api.post('/ticket/insert', minimal())),
    );
    expect(results.map((r) => r.status)).toEqual(Array(100).fill(201));
    const numbers = await Promise.all(
      results.map(async (r) => (await api.get(`/ticket/${r.body.id}`)).body.number),
    );
    expect(new Set(numbers).size).toBe(100);
    expect(numbers.map((n: string) => Number(n.split('/')[0])).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
    expect((await api.get('/ticket/list')).body.ticket.totalRecords).toBe(100);
  });
});
