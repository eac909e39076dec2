import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventPipeline, startEventPipeline } from '../../local/event-pipeline';
import { type SqsLocal, startSqsLocal } from '../../local/sqs-local';
import { resetConfig } from '../../shared/config';
import { newTenant } from '../helpers/api';
import { eventually } from '../helpers/eventually';
import { drain, type FeedEvent, settle } from '../helpers/feed';
import { useOwnTable } from '../helpers/own-table';
import { startSilentReceiver } from '../helpers/silent-receiver';
import { clientFor, type TenantClient, tenantWithCustomer } from '../helpers/tenant-client';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver';

/**
 * Webhooks end to end, on the same handlers as in AWS: the table's stream (DynamoDB Local) feeds
 * functions/webhook-fanout.ts, which queues deliveries in a FIFO queue (local/sqs-local.ts) that
 * functions/webhook-deliver.ts consumes (local/event-pipeline.ts plays Lambda's event source
 * mappings). A real receiver verifies every signature with the `standardwebhooks` package.
 */
const QUEUE = 'webhook-deliveries.fifo';
const DLQ = 'webhook-deliveries-dlq.fifo';
const HORIZON_MS = 6000;

let sqs: SqsLocal;
let pipeline: EventPipeline;
let receiver: Receiver;

beforeAll(async () => {
  // The pipeline reads its table's whole stream (the cascades of every tenant in it too).
  await useOwnTable('helpdesk-test-webhook-pipeline');
  sqs = await startSqsLocal({
    queues: [
      { name: DLQ, visibilityTimeoutSeconds: 30 },
      { name: QUEUE, visibilityTimeoutSeconds: 5, maxReceiveCount: 50, deadLetterQueue: DLQ },
    ],
  });
  // Set before the handlers first read the configuration (in this test process).
  process.env.SQS_ENDPOINT = sqs.endpoint;
  process.env.WEBHOOK_QUEUE_URL = sqs.queueUrl(QUEUE);
  process.env.WEBHOOK_RETRY_CAPS_MS = '300,600,1000';
  process.env.WEBHOOK_RETRY_HORIZON_MS = String(HORIZON_MS);
  process.env.DELIVERY_BASE_URL = 'http://helpdesk.test';
  resetConfig();
  pipeline = await startEventPipeline({
    dynamoEndpoint: String(process.env.DYNAMODB_ENDPOINT),
    tableName: String(process.env.TABLE_NAME),
    sqsEndpoint: sqs.endpoint,
    queueUrl: sqs.queueUrl(QUEUE),
    pollMs: 50,
    consumers: 8,
    // Webhooks alone: the search indexer is tested in search.test.ts.
    search: false,
  });
  receiver = await startReceiver();
});

afterAll(async () => {
  await pipeline?.stop();
  await receiver?.stop();
  await sqs?.stop();
});

/** A subscription of `api`'s tenant delivering to `path` of the receiver. */
const subscribe = async (api: TenantClient, path: string, body: Record<string, unknown> = {}) => {
  const created = await api.post('/webhook/insert', { url: `${receiver.url}${path}`, ...body });
  expect(created.status).toBe(201);
  receiver.secrets.set(path, created.body.secret);
  return created.body.id as string;
};

/**
 * A new client's seeded ticket types are events committed with the client, before any
 * subscription of it exists: whether the fan-out still finds the subscription depends on when it
 * reads the stream, so the tests count only the events they wrote.
 */
const SEEDED = 'ticket_type.created';
const deliveredTo = (path: string) =>
  receiver.deliveries.filter((d) => d.path === path && d.event.type !== SEEDED);

const idsOf = (events: { id: string }[]) => new Set(events.map((e) => e.id));

/** Each resource's events in the order of `events`, first arrival of each id only. */
const perResource = (events: { id: string; resourceId: string }[]) => {
  const seen = new Set<string>();
  const order = new Map<string, string[]>();
  for (const e of events) {
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    order.set(e.resourceId, [...(order.get(e.resourceId) ?? []), e.id]);
  }
  return order;
};

describe('webhook deliveries', () => {
  it('delivers every event at least once per subscription, signed, in feed order per ticket, to its tenant only', async () => {
    // Subscribed before anything happens in either tenant: every event of the feed is expected.
    const a = { api: clientFor(await newTenant()), customer: '' };
    const b = { api: clientFor(await newTenant()) };
    await subscribe(a.api, '/a-all');
    await subscribe(a.api, '/a-replies', { types: ['ticket.replied'] });
    await subscribe(b.api, '/b-all');
    a.customer = await a.api.create('/customer/insert', { name: 'Ada', email: 'ada@example.com' });
    const tickets: string[] = [];
    for (let i = 0; i < 20; i++)
      tickets.push(
        await a.api.create('/ticket/insert', {
          subject: `t${i}`,
          description: 'd',
          openedBy: { id: a.customer },
        }),
      );
    await Promise.all([
      ...Array.from({ length: 200 }, async (_, i) => {
        // Ten writers a ticket at once: a write that runs out of its conflict retries answers 503
        // with nothing written, and is sent again as a client does (the feed's exact count below
        // shows none was written twice).
        let res = await a.api.put(`/ticket/reply/${tickets[i % 20]}`, { text: `reply ${i}` });
        for (let attempt = 0; res.status === 503 && attempt < 5; attempt++)
          res = await a.api.put(`/ticket/reply/${tickets[i % 20]}`, { text: `reply ${i}` });
        expect(res.status).toBe(200);
      }),
      ...Array.from({ length: 5 }, (_, i) =>
        b.api.create('/agent/insert', { name: `B${i}`, email: `b${i}@example.com` }),
      ),
    ]);
    await settle();
    const feedA = (await drain(a.api)).events.filter((e) => e.type !== SEEDED);
    const feedB = (await drain(b.api)).events.filter((e) => e.type !== SEEDED);
    expect(feedA).toHaveLength(221);
    expect(feedB).toHaveLength(5);
    const replies = feedA.filter((e) => e.type === 'ticket.replied');

    await eventually('every event reached its subscriptions', () => {
      const all = idsOf(deliveredTo('/a-all').map((d) => d.event));
      const some = idsOf(deliveredTo('/a-replies').map((d) => d.event));
      const other = idsOf(deliveredTo('/b-all').map((d) => d.event));
      return (
        feedA.every((e) => all.has(e.id)) &&
        replies.every((e) => some.has(e.id)) &&
        feedB.every((e) => other.has(e.id))
      );
    });
    expect(receiver.forged).toBe(0);
    // Nothing else: no event of the other tenant, no type the subscription does not want.
    expect(idsOf(deliveredTo('/a-all').map((d) => d.event))).toEqual(idsOf(feedA));
    expect(idsOf(deliveredTo('/a-replies').map((d) => d.event))).toEqual(idsOf(replies));
    expect(idsOf(deliveredTo('/b-all').map((d) => d.event))).toEqual(idsOf(feedB));
    // The webhook-id header is the event's id; the body is the event as the feed shows it.
    for (const d of deliveredTo('/a-all')) expect(d.id).toBe(d.event.id);
    const byId = new Map(feedA.map((e) => [e.id, e]));
    // (The test's API calls see http://localhost; deliveries link to DELIVERY_BASE_URL.)
    const local = (v: unknown) =>
      JSON.parse(JSON.stringify(v).replaceAll('http://helpdesk.test/', 'http://localhost/'));
    for (const d of deliveredTo('/a-all')) expect(local(d.event)).toEqual(byId.get(d.event.id));
    // Each ticket's events arrive in the feed's order.
    const feedOrder = perResource(feedA);
    const arrival = perResource(deliveredTo('/a-all').map((d) => d.event));
    for (const ticket of tickets) expect(arrival.get(ticket)).toEqual(feedOrder.get(ticket));
  }, 120_000);

  it('delivers a ticket’s trash, restore and purge, to the subscriptions that want them, in order', async () => {
    const { api, customer } = await tenantWithCustomer();
    await subscribe(api, '/trash-all');
    await subscribe(api, '/trash-purged', { types: ['ticket.purged'] });
    const id = await api.create('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: customer },
    });
    expect((await api.del(`/ticket/delete/${id}`)).status).toBe(200);
    expect((await api.put(`/ticket/restore/${id}`)).status).toBe(200);
    expect((await api.del(`/ticket/delete/${id}`)).status).toBe(200);
    expect((await api.del(`/ticket/purge/${id}`)).status).toBe(200);
    const types = (path: string) =>
      [...(perResource(deliveredTo(path).map((d) => d.event)).get(id) ?? [])].map(
        (eventId) => deliveredTo(path).find((d) => d.event.id === eventId)?.event.type,
      );
    await eventually(
      'the trash events delivered',
      () => types('/trash-all').length === 5 && types('/trash-purged').length === 1,
    );
    expect(types('/trash-all')).toEqual([
      'ticket.created',
      'ticket.deleted',
      'ticket.restored',
      'ticket.deleted',
      'ticket.purged',
    ]);
    expect(types('/trash-purged')).toEqual(['ticket.purged']);
    const restored = deliveredTo('/trash-all').find((d) => d.event.type === 'ticket.restored');
    expect(restored?.event.resource).toMatchObject({ id, subject: 's' });
  });

  it('carries a feed cursor from which a receiver reads the event and everything that followed', async () => {
    const { api, customer } = await tenantWithCustomer();
    const hook = await subscribe(api, '/cursor');
    const subscribedAt = (await api.get(`/webhook/${hook}`)).body.createdAt as number;
    const made: string[] = [];
    for (let i = 0; i < 6; i++)
      made.push(
        await api.create('/ticket/insert', {
          subject: `c${i}`,
          description: 'd',
          openedBy: { id: customer },
        }),
      );
    await eventually('six deliveries', () => deliveredTo('/cursor').length >= 6);
    const third = deliveredTo('/cursor').find((d) => d.event.resourceId === made[2]);
    expect(third?.cursor).toMatch(/^http:\/\/helpdesk\.test\/event\/list\?page=2&cursor=/);
    await settle();
    const after = (await drain(api, String(third?.cursor).replace('http://helpdesk.test', ''))).events;
    const tickets = after.filter((e: FeedEvent) => e.type === 'ticket.created');
    expect(tickets.map((e: FeedEvent) => e.resourceId).slice(-4)).toEqual(made.slice(2));
    // What it reads again before the event (owed to the subscription then, or within the feed's lag)
    // is events the receiver gets anyway (its deduplication key is the event id), or that happened
    // before the subscription existed.
    await eventually('everything it reads again delivered too', () => {
      const received = idsOf(receiver.deliveries.filter((d) => d.path === '/cursor').map((d) => d.event));
      return after.every((e: FeedEvent) => received.has(e.id) || e.occurredAt < subscribedAt);
    });
  });

  it('never lets a receiver skip an event: the cursor stays before an event still failing, and re-enabling sends what a pause held, in order', async () => {
    const { api, customer } = await tenantWithCustomer();
    const id = await subscribe(api, '/recover');
    const ticket = (subject: string) =>
      api.create('/ticket/insert', { subject, description: 'd', openedBy: { id: customer } });
    // The receiver fails on ticket A's events only.
    const a = await ticket('A');
    let b = '';
    receiver.refuse = (d) => d.path === '/recover' && d.event.resourceId === a;
    try {
      await eventually('A refused once', async () => {
        const log = (await api.get(`/webhook/${id}/deliveries`)).body.delivery;
        return log.records.some((r: { ok: boolean }) => !r.ok);
      });
      b = await ticket('B');
      await eventually('B delivered', () => deliveredTo('/recover').some((d) => d.event.resourceId === b));
      const bDelivery = deliveredTo('/recover').find((d) => d.event.resourceId === b);
      // A was created before B and is still failing: B's cursor reads A from the feed.
      await settle();
      const fromB = (await drain(api, String(bDelivery?.cursor).replace('http://helpdesk.test', ''))).events;
      expect(fromB.map((e: FeedEvent) => e.resourceId)).toContain(a);
      // Paused while A is still in its backoff; changes made meanwhile are held, not delivered.
      expect((await api.put(`/webhook/update/${id}`, { enabled: false })).status).toBe(200);
      expect((await api.put(`/ticket/reply/${a}`, { text: 'more on A' })).status).toBe(200);
      expect((await api.put(`/ticket/reply/${b}`, { text: 'more on B' })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 2000));
      expect(deliveredTo('/recover').filter((d) => d.type === 'ticket.replied')).toEqual([]);
    } finally {
      receiver.refuse = undefined; // the receiver is fixed
    }
    expect((await api.put(`/webhook/update/${id}`, { enabled: true })).status).toBe(200);
    await eventually('A, both replies delivered after re-enabling', () => {
      const got = deliveredTo('/recover');
      return (
        got.some((d) => d.event.resourceId === a && d.type === 'ticket.created') &&
        got.filter((d) => d.type === 'ticket.replied').length >= 2
      );
    });
    // Every event of both tickets reached the receiver, each ticket's in feed order.
    await settle();
    const feed = (await drain(api)).events.filter((e: FeedEvent) => e.resourceId === a || e.resourceId === b);
    const got = deliveredTo('/recover')
      .map((d) => d.event)
      .filter((e) => e.resourceId === a || e.resourceId === b);
    expect(idsOf(got)).toEqual(idsOf(feed));
    expect(perResource(got).get(a)).toEqual(perResource(feed).get(a));
    expect(perResource(got).get(b)).toEqual(perResource(feed).get(b));
  }, 60_000);

  it('retries while the receiver is down and delivers everything it missed once it is back', async () => {
    const api = clientFor(await newTenant());
    const id = await subscribe(api, '/down');
    const customer = await api.create('/customer/insert', { name: 'Ada', email: 'ada@example.com' });
    receiver.up = false;
    await receiver.stop(); // connection refused first
    try {
      for (let i = 0; i < 3; i++)
        await api.create('/ticket/insert', {
          subject: `d${i}`,
          description: 'd',
          openedBy: { id: customer },
        });
      await eventually('failed attempts recorded', async () => {
        const log = (await api.get(`/webhook/${id}/deliveries`)).body.delivery;
        return log.records.filter((r: { ok: boolean }) => !r.ok).length >= 3;
      });
      await receiver.start(); // answering 503 now
      await eventually('a 503 recorded', async () => {
        const log = (await api.get(`/webhook/${id}/deliveries`)).body.delivery;
        return log.records.some((r: { status: number | null }) => r.status === 503);
      });
    } finally {
      receiver.up = true;
      await receiver.start().catch(() => undefined);
    }
    await eventually('all four delivered after the outage', () => deliveredTo('/down').length >= 4);
    // Every attempt, all pages (the seeded types' attempts may push the first successes off page 1).
    type Attempt = { ok: boolean; attempt: number; error: string | null; eventId: string; eventType: string };
    const attempts = async (): Promise<Attempt[]> => {
      const all: Attempt[] = [];
      for (let page: string | null = `/webhook/${id}/deliveries`; page; ) {
        const delivery: { records: Attempt[]; nextQuery: string | null } = (
          await api.get(page.replace(/^https?:\/\/[^/]+/, ''))
        ).body.delivery;
        all.push(...delivery.records);
        page = delivery.nextQuery;
      }
      return all;
    };
    // An attempt is recorded once the receiver has answered it: the last one may lag the receiver.
    const delivered = (all: Attempt[]) =>
      new Set(all.filter((r) => r.ok && r.eventType !== SEEDED).map((r) => r.eventId));
    await eventually('the four deliveries recorded', async () => delivered(await attempts()).size >= 4);
    const log = await attempts();
    // The customer and the three tickets: each refused, then answered 503, then delivered.
    expect(new Set(log.filter((r) => r.ok && r.eventType !== SEEDED).map((r) => r.eventId)).size).toBe(4);
    expect(log.some((r) => r.error?.startsWith('request failed'))).toBe(true);
    expect(Math.max(...log.map((r) => r.attempt))).toBeGreaterThan(1);
    expect((await api.get(`/webhook/${id}`)).body.enabled).toBe(true);
  }, 60_000);

  it('disables a subscription whose deliveries failed for the horizon, and an update re-enables it', async () => {
    const { api, customer } = await tenantWithCustomer();
    const id = await subscribe(api, '/always-failing');
    const secret = receiver.secrets.get('/always-failing') as string;
    receiver.secrets.delete('/always-failing'); // every request answered 401
    await api.create('/ticket/insert', { subject: 'x', description: 'd', openedBy: { id: customer } });
    await eventually(
      'disabled',
      async () => (await api.get(`/webhook/${id}`)).body.enabled === false,
      HORIZON_MS * 4,
    );
    expect((await api.get(`/webhook/${id}`)).body.disabledReason).toMatch(
      /^deliveries failed for .* \(last: 401\)$/,
    );
    // Later events are not delivered to a disabled subscription (once the attempts that were already
    // running when it was disabled, of other events, have ended).
    await new Promise((r) => setTimeout(r, 1000));
    const attempts = (await api.get(`/webhook/${id}/deliveries`)).body.delivery.totalRecords;
    await api.create('/ticket/insert', { subject: 'y', description: 'd', openedBy: { id: customer } });
    await new Promise((r) => setTimeout(r, 1500));
    expect((await api.get(`/webhook/${id}/deliveries`)).body.delivery.totalRecords).toBe(attempts);
    // Re-enabled, with the receiver fixed: new events flow again.
    receiver.secrets.set('/always-failing', secret);
    expect((await api.put(`/webhook/update/${id}`, { enabled: true })).status).toBe(200);
    expect((await api.get(`/webhook/${id}`)).body).toMatchObject({ enabled: true, disabledReason: null });
    const z = await api.create('/ticket/insert', {
      subject: 'z',
      description: 'd',
      openedBy: { id: customer },
    });
    await eventually('delivered after re-enabling', () =>
      deliveredTo('/always-failing').some((d) => d.event.resourceId === z),
    );
  }, 60_000);

  it("keeps one tenant's silent receivers from holding another tenant's deliveries back (within 10 s)", async () => {
    const silent = await startSilentReceiver();
    const hog = await tenantWithCustomer();
    const hooks: string[] = [];
    try {
      // As many subscriptions as a tenant may have, all to a receiver that never answers.
      for (let i = 0; i < 10; i++) {
        const created = await hog.api.post('/webhook/insert', { url: `${silent.url}/h${i}` });
        expect(created.status).toBe(201);
        hooks.push(created.body.id);
      }
      const refused = await hog.api.post('/webhook/insert', { url: `${silent.url}/h10` });
      expect(refused.status).toBe(409);
      expect(refused.body.type).toBe('urn:helpdesk:problem:webhook-limit');
      // Six tickets: sixty deliveries of five silent seconds each.
      for (let i = 0; i < 6; i++)
        await hog.api.create('/ticket/insert', {
          subject: `h${i}`,
          description: 'd',
          openedBy: { id: hog.customer },
        });
      await eventually('the hog holding its slots', () => silent.connections >= 4);
      const other = await tenantWithCustomer();
      await subscribe(other.api, '/other');
      const sent = Date.now();
      const id = await other.api.create('/ticket/insert', {
        subject: 'o',
        description: 'd',
        openedBy: { id: other.customer },
      });
      await eventually('the other tenant served', () =>
        deliveredTo('/other').some((d) => d.event.resourceId === id),
      );
      expect(Date.now() - sent).toBeLessThan(10_000);
      // The hog never had more attempts running at once than its slots (WEBHOOK_TENANT_CONCURRENCY, 4).
      expect(silent.peak).toBeLessThanOrEqual(4);
    } finally {
      for (const hook of hooks) await hog.api.del(`/webhook/delete/${hook}`);
      await silent.stop();
    }
  }, 60_000);
});
