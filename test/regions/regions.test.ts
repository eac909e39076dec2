import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoDbLocal, localDynamoClient, startDynamoDbLocal } from '../../local/dynamodb-local';
import { type S3Local, startS3Local } from '../../local/s3-local';
import { ensureTable } from '../../shared/store/create-table';
import { listObjects, objectText } from '../helpers/bucket';
import { eventually } from '../helpers/eventually';
import { holdsAny, scanTable } from '../helpers/scan';
import { type RegionServer, type RegionSpec, startRegionServer } from './region-servers';
import { type Replicator, startReplicator } from './replicator';

/**
 * Issue 15's proof by simulation: two local "regions" (a DynamoDB Local each, kept in step by a
 * replicator that behaves like DynamoDB global tables: item by item, last writer wins, delayed
 * and reordered; conditions evaluated on the local replica only), an API server per region and
 * one shared local S3. Tenants are homed in each region; concurrent writers in both regions
 * insert, reply, update, delete, insert customers with colliding e-mails and retry idempotent
 * creates in the other region. After the replicator drains, both regions must agree and every
 * guarantee must hold; a customer erased through the region that is not their home is found in
 * neither. The negative control runs the same with homing off and must break one.
 */
const TABLE = 'helpdesk-regions';
const REGIONS = ['us-east-1', 'eu-west-1'] as const;
const CURSOR_SECRET = 'regions-cursor-secret-0123456789abcdefghij';
/** Above the replicator's longest delay (400 ms). */
const REHOME_SETTLE_MS = 1500;

let stores: DynamoDbLocal[] = [];
let s3: S3Local;
let specs: RegionSpec[];
let createClient: (
  name: string,
  compat?: undefined,
  home?: string,
) => Promise<{ clientId: string; apiToken: string }>;
let rehomeClient: (
  clientId: string,
  region: string,
) => Promise<{ oldHomeFenced: boolean; writesFrom: number } | undefined>;
let REHOME_NUMBER_GAP: number;

beforeAll(async () => {
  stores = await Promise.all(REGIONS.map(() => startDynamoDbLocal({ shortLived: true })));
  specs = REGIONS.map((region, i) => ({ region, endpoint: (stores[i] as DynamoDbLocal).endpoint }));
  for (const store of stores) {
    const client = localDynamoClient(store.endpoint);
    await ensureTable(client, TABLE).finally(() => client.destroy());
  }
  s3 = await startS3Local();
  // This process creates the clients (what `client create --home-region` does), from the first region.
  process.env.AWS_REGION = REGIONS[0];
  process.env.DYNAMODB_ENDPOINT = specs[0]?.endpoint;
  process.env.REGION_ENDPOINTS = `${REGIONS[1]}=${specs[1]?.endpoint}`;
  process.env.TABLE_NAME = TABLE;
  process.env.REGIONS = REGIONS.join(',');
  process.env.PRIMARY_REGION = REGIONS[0];
  // The new home waits this long for the old home's last writes (clients.ts REHOME_SETTLE_MS).
  process.env.REHOME_SETTLE_MS = String(REHOME_SETTLE_MS);
  ({ rehomeClient, REHOME_NUMBER_GAP } = (await import('../../shared/auth/clients')) as never);
  ({ createClient } = await import('../../shared/domain/new-client'));
}, 120_000);

afterAll(async () => {
  await s3?.stop();
  await Promise.all(stores.map((s) => s.stop()));
});

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers of many shapes
  body: any;
  headers: Headers;
}

/** One tenant calling one region's server. */
const caller = (server: RegionServer, tenant: { clientId: string; token: string }) => {
  const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(path.startsWith('http') ? path : `${server.url}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        authorization: `Bearer ${tenant.token}`,
        clientid: tenant.clientId,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {}
    return { status: res.status, body: parsed, headers: res.headers } as Answer;
  };
  return {
    send,
    get: (path: string) => send('GET', path),
    post: (path: string, body: unknown, headers?: Record<string, string>) =>
      send('POST', path, body, headers),
    put: (path: string, body: unknown) => send('PUT', path, body),
    del: (path: string) => send('DELETE', path),
    /** Every record of a list, following nextQuery; and the first page's totalRecords. */
    all: async (path: string, wrapper: string) => {
      const first = await send('GET', path);
      const records = [...(first.body?.[wrapper]?.records ?? [])];
      let next = first.body?.[wrapper]?.nextQuery;
      while (next) {
        const page = await send('GET', next.replace(/^http:\/\/[^/]+/, server.url));
        records.push(...(page.body?.[wrapper]?.records ?? []));
        next = page.body?.[wrapper]?.nextQuery;
      }
      return {
        records,
        total: first.body?.[wrapper]?.totalRecords as number,
        nextQuery: first.body?.[wrapper]?.nextQuery,
      };
    },
  };
};

/**
 * An access token, as a client gets one: a 503 or 504 (the store did not answer in time) is retried
 * after the answer's Retry-After, twice at most. Setup, not what these tests check: on a loaded
 * 2-core machine one of the simulated regions' DynamoDB Local can stall past a request's deadline.
 */
const tokenFor = async (server: RegionServer, apiToken: string): Promise<string> => {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${server.url}/oauth/token?grant_type=client_credentials`, {
      headers: { authorization: `Basic ${apiToken}` },
    });
    if (res.status === 200) return ((await res.json()) as { access_token: string }).access_token;
    if (attempt >= 2 || (res.status !== 503 && res.status !== 504))
      throw new Error(`token: ${res.status} ${await res.text()}`);
    const wait = Number(res.headers.get('retry-after') ?? 1) * 1000;
    await res.body?.cancel();
    await new Promise((r) => setTimeout(r, wait));
  }
};

const FILE = Buffer.from('bytes of an attachment, replicated or not');

/**
 * Runs the workload for one tenant homed in `home` (index into servers), writing through both
 * regions at once; returns what it expects to find.
 */
const workload = async (
  servers: RegionServer[],
  tenant: { clientId: string; token: string },
  replicator: Replicator,
) => {
  const [r0, r1] = servers.map((s) => caller(s, tenant)) as [
    ReturnType<typeof caller>,
    ReturnType<typeof caller>,
  ];
  const both = [r0, r1];
  const customer = await r0.post('/customer/insert', { name: 'Ada', email: 'ada@example.com' });
  expect(customer.status).toBe(201);
  await replicator.drain(30_000);
  const opener = customer.body.id as string;
  // Colliding e-mails: each address inserted in both regions at once.
  const emails = Array.from({ length: 4 }, (_, i) => `c${i}@example.com`);
  // Idempotent creates: the same key sent to one region, then retried in the other.
  const keys = Array.from({ length: 4 }, () => randomUUID());
  const ticket = (subject: string) => ({ subject, description: 'd', openedBy: { id: opener } });
  const [customerAnswers, ticketAnswers, retries] = await Promise.all([
    Promise.all(
      emails.flatMap((email) => both.map((r) => r.post('/customer/insert', { name: email, email }))),
    ),
    Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        (both[i % 2] as typeof r0).post('/ticket/insert', ticket(`t${i}`)),
      ),
    ),
    Promise.all(
      keys.map(async (key) => {
        const first = await r0.post('/ticket/insert', ticket(`idem-${key}`), { 'idempotency-key': key });
        const retry = await r1.post('/ticket/insert', ticket(`idem-${key}`), { 'idempotency-key': key });
        return [first, retry];
      }),
    ),
  ]);
  const answered: string[] = [];
  // Each colliding address: one insert wins, the other is told it is taken.
  const taken = customerAnswers.filter((r) => r.status === 409).length;
  if (taken !== 4) answered.push(`${8 - taken} customer inserts succeeded for 4 addresses`);
  expect(ticketAnswers.map((r) => r.status)).toEqual(Array(16).fill(201));
  for (const [first, retry] of retries)
    if (first?.status !== 201 || retry?.body?.id !== first?.body?.id)
      answered.push('an idempotent retry in the other region created another record');
  const tickets = ticketAnswers.map((r) => r.body.id as string);
  const busy = tickets.slice(0, 4);
  // A ticket in the trash, restored from one region while replies reach it through the other:
  // each reply lands after the restore (200), finds no ticket (404) or is refused for contention
  // with nothing written (503), never half.
  const restored = tickets[10] as string;
  expect((await r0.del(`/ticket/delete/${restored}`)).status).toBe(200);
  await replicator.drain(30_000);
  const [restore, ...racing] = await Promise.all([
    r1.put(`/ticket/restore/${restored}`, undefined),
    ...Array.from({ length: 6 }, (_, i) => r0.put(`/ticket/reply/${restored}`, { text: `racing ${i}` })),
  ]);
  if (restore?.status !== 200) answered.push(`the restore answered ${restore?.status}`);
  if (racing.some((r) => ![200, 404, 503].includes(r.status)))
    answered.push(`a reply racing the restore answered ${racing.map((r) => r.status).join(',')}`);
  // Replies from both regions at once, and updates and deletes from the region that is not home.
  await Promise.all([
    ...Array.from({ length: 24 }, (_, i) =>
      (both[i % 2] as typeof r0).put(`/ticket/reply/${busy[i % 4]}`, { text: `reply ${i}` }),
    ),
    ...tickets
      .slice(4, 8)
      .map((id, i) => (both[i % 2] as typeof r0).put(`/ticket/update/${id}`, { subject: `changed ${i}` })),
    ...tickets.slice(8, 10).map((id) => r1.del(`/ticket/delete/${id}`)),
  ]);
  const withFile = await r1.post('/ticket/insert', {
    ...ticket('with a file'),
    attachedDocuments: [
      { documentName: 'f.txt', documentType: 'text/plain', documentBase64: FILE.toString('base64') },
    ],
  });
  expect(withFile.status).toBe(201);
  return {
    busy,
    repliesEach: 6,
    idempotencyKeys: keys,
    fileTicket: withFile.body.id as string,
    restored: { id: restored, replies: racing.filter((r) => r.status === 200).length },
    trashed: tickets.slice(8, 10),
    answered,
  };
};

/** Every guarantee, checked in one region; answers the violations found. */
const audit = async (
  server: RegionServer,
  tenant: { clientId: string; token: string },
  expected: Awaited<ReturnType<typeof workload>>,
): Promise<string[]> => {
  const api = caller(server, tenant);
  const found: string[] = [];
  const where = `${server.region}:`;
  const tickets = await api.all('/ticket/list', 'ticket');
  const numbers = tickets.records.map((t: { number: string }) => t.number);
  if (new Set(numbers).size !== numbers.length) found.push(`${where} a ticket number issued twice`);
  if (tickets.total !== tickets.records.length)
    found.push(`${where} ticket totalRecords ${tickets.total} ≠ ${tickets.records.length} reachable`);
  const customers = await api.all('/customer/list', 'customer');
  const emails = customers.records.map((c: { email: string }) => c.email);
  if (new Set(emails).size !== emails.length) found.push(`${where} a duplicate e-mail`);
  if (customers.total !== customers.records.length)
    found.push(`${where} customer totalRecords ${customers.total} ≠ ${customers.records.length} reachable`);
  for (const key of expected.idempotencyKeys) {
    const copies = tickets.records.filter((t: { subject: string }) => t.subject === `idem-${key}`).length;
    if (copies !== 1) found.push(`${where} ${copies} records for one idempotency key`);
  }
  for (const id of expected.busy) {
    const detail = (await api.get(`/ticket/${id}`)).body;
    const replies = await api.all(`/ticket/${id}/replies`, 'reply');
    if (detail?.numberOfReplies !== expected.repliesEach || replies.records.length !== expected.repliesEach)
      found.push(
        `${where} ticket ${id} counts ${detail?.numberOfReplies} replies, lists ${replies.records.length}, got ${expected.repliesEach}`,
      );
  }
  // The trash: exactly what was deleted and not restored, counted as paged.
  const trash = await api.all('/ticket/trash/list', 'ticket');
  const inTrash = trash.records.map((t: { id: string }) => t.id).sort();
  if (JSON.stringify(inTrash) !== JSON.stringify([...expected.trashed].sort()))
    found.push(`${where} the trash holds ${inTrash.join(',')}, not ${expected.trashed.join(',')}`);
  if (trash.total !== trash.records.length)
    found.push(`${where} trash totalRecords ${trash.total} ≠ ${trash.records.length} reachable`);
  const back = (await api.get(`/ticket/${expected.restored.id}`)).body;
  const backReplies = await api.all(`/ticket/${expected.restored.id}/replies`, 'reply');
  if (
    back?.numberOfReplies !== expected.restored.replies ||
    backReplies.records.length !== expected.restored.replies
  )
    found.push(
      `${where} the restored ticket counts ${back?.numberOfReplies} replies, lists ${backReplies.records.length}, ${expected.restored.replies} answered 200`,
    );
  // Attachments download here, whichever region stored them.
  const file = (await api.get(`/ticket/${expected.fileTicket}`)).body?.attachedDocuments?.[0];
  const link = file ? await api.get(file.downloadUrl.replace(/^http:\/\/[^/]+/, server.url)) : undefined;
  const bytes = link?.headers.get('location')
    ? Buffer.from(await (await fetch(String(link.headers.get('location')))).arrayBuffer())
    : undefined;
  if (!bytes?.equals(FILE)) found.push(`${where} the attachment does not download`);
  return found;
};

/**
 * Erasure across regions: a customer with tickets, replies, notes, a photo and a file, written
 * through both regions, erased through the region that is not the tenant's home. Once the home's
 * worker finished the job and the replicator drained, a scan of each region's table and of the
 * bucket finds the customer's e-mail and name nowhere.
 */
const erasure = async (
  servers: RegionServer[],
  tenant: { clientId: string; token: string },
  replicator: Replicator,
): Promise<string[]> => {
  const found: string[] = [];
  const [r0, r1] = servers.map((s) => caller(s, tenant)) as [
    ReturnType<typeof caller>,
    ReturnType<typeof caller>,
  ];
  const tag = randomUUID().slice(0, 8);
  const name = `Erin Vanish${tag}`;
  const email = `erin.${tag}@example.com`;
  const customer = await r0.post('/customer/insert', { name, email, phoneNumber: `+1 555 ${tag}` });
  await replicator.drain(30_000);
  const ticket = await r1.post('/ticket/insert', {
    subject: `For ${name}`,
    description: `I am ${name} <${email}>`,
    openedBy: { id: customer.body.id },
    attachedDocuments: [
      {
        documentName: `${name}.txt`,
        documentType: 'text/plain',
        documentBase64: Buffer.from(email).toString('base64'),
      },
    ],
  });
  await Promise.all([
    r0.put(`/ticket/reply/${ticket.body.id}`, { text: `${name} here` }),
    r1.put(`/ticket/reply/${ticket.body.id}`, { text: `again, ${email}` }),
  ]);
  await r0.put(`/customer/update/${customer.body.id}`, { memo: `call ${name}` });
  await replicator.drain(30_000);
  /** Where either region's table or the bucket still holds the customer's e-mail or name. */
  const holders = async (): Promise<string[]> => {
    const held: string[] = [];
    const holds = holdsAny([email, name]);
    for (const [i, store] of stores.entries()) {
      const db = DynamoDBDocumentClient.from(localDynamoClient(store.endpoint));
      for (const item of await scanTable(db, TABLE))
        if (holds(JSON.stringify(item))) held.push(`${REGIONS[i]}: ${item.pk} ${item.sk}`);
      db.destroy();
    }
    const bucket = { endpoint: s3.endpoint, bucket: s3.bucket };
    for (const prefix of [`t/${tenant.clientId}/`, `exports/${tenant.clientId}/`])
      for (const key of await listObjects(prefix, bucket))
        if (holds(`${key} ${(await objectText(key, bucket)) ?? ''}`)) held.push(`s3 ${key}`);
    return held;
  };
  // The scan finds them in both regions before.
  const before = await holders();
  for (const region of REGIONS)
    if (!before.some((h) => h.startsWith(`${region}:`)))
      found.push(`${region}: the scan finds nothing before the erasure`);
  const job = await r0.post(`/customer/erase/${customer.body.id}`, {});
  if (job.status !== 202) return [`the erasure answered ${job.status}`];
  const done = async () => (await r0.get(`/customer/erase/${job.body.id}`)).body?.status === 'done';
  try {
    await eventually('the erasure job is done', done, 20_000);
  } catch {
    return ['the erasure job did not finish in 20 s'];
  }
  await replicator.drain(60_000);
  for (const held of await holders()) found.push(`${held} still holds the erased customer`);
  return found;
};

/**
 * Re-homing (`client rehome`): the old home is told first and refuses the tenant's writes from
 * then on, even through an instance that still remembers the old home with the token; the new
 * home refuses them until the settling time is over; then writes go to the new home from either
 * region, and the ticket numbers jump by REHOME_NUMBER_GAP, so none the old home may have issued
 * without replicating is issued again. Every refused write left nothing behind.
 */
const rehome = async (
  servers: RegionServer[],
  tenant: { clientId: string; token: string; apiToken: string },
  replicator: Replicator,
): Promise<string[]> => {
  const found: string[] = [];
  const [old, next] = servers.map((s) => caller(s, tenant)) as [
    ReturnType<typeof caller>,
    ReturnType<typeof caller>,
  ];
  const numberOf = (t: { number: string }) => Number(t.number.split('/')[0]);
  const before = await old.all('/ticket/list', 'ticket');
  const openedBy = { id: before.records[0].openedBy.id };
  const insert = (c: ReturnType<typeof caller>, subject: string) =>
    c.post('/ticket/insert', { subject, description: 'd', openedBy });
  // Both instances now remember the token, with the old home.
  for (const c of [old, next])
    if ((await insert(c, 'before rehome')).status !== 201) found.push('a write before re-homing failed');
  await replicator.drain(30_000);
  const highest = Math.max(...(await old.all('/ticket/list', 'ticket')).records.map(numberOf));

  const outcome = await rehomeClient(tenant.clientId, REGIONS[1]);
  if (!outcome?.oldHomeFenced) found.push(`rehome did not fence the old home: ${JSON.stringify(outcome)}`);
  // At once, before anything replicated: the old home refuses, the new home is settling.
  const refused = await Promise.all([
    insert(old, 'refused at the old home'),
    insert(next, 'refused while settling'),
  ]);
  for (const [i, answer] of refused.entries())
    if (answer.status !== 503 || answer.body?.type !== 'urn:helpdesk:problem:unavailable')
      found.push(`a write through ${REGIONS[i]} right after re-homing answered ${answer.status}`);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, (outcome?.writesFrom ?? 0) - Date.now())));

  // The same token, through both regions: each instance reads the new home again.
  const made = await Promise.all(servers.map((s, i) => insert(caller(s, tenant), `after rehome ${i}`)));
  await replicator.drain(30_000);
  for (const [r, server] of servers.entries()) {
    const after = await caller(server, tenant).all('/ticket/list', 'ticket');
    for (const answer of made) {
      const t = after.records.find((x: { id: string }) => x.id === answer.body?.id);
      if (answer.status !== 201 || !t || numberOf(t) <= highest + REHOME_NUMBER_GAP)
        found.push(`in ${REGIONS[r]} after rehome: ${answer.status}, number ${t?.number}`);
    }
    if (after.records.some((x: { subject: string }) => x.subject.startsWith('refused')))
      found.push(`in ${REGIONS[r]} a refused write is there`);
    const numbers = after.records.map(numberOf);
    if (new Set(numbers).size !== numbers.length)
      found.push(`in ${REGIONS[r]} a ticket number was issued twice`);
  }
  return found;
};

/**
 * Read-your-writes from another region: a write sent to one region runs at the tenant's home in
 * the other; `Helpdesk-Read-Home: true` reads it back at once, before it has replicated here.
 */
const readsHome = async (servers: RegionServer[], tenant: { clientId: string; token: string }) => {
  const away = caller(servers[1] as RegionServer, tenant);
  const found: string[] = [];
  for (let i = 0; i < 5; i++) {
    const made = await away.post('/customer/insert', {
      name: `Read home ${i}`,
      email: `home${i}@example.com`,
    });
    const read = await away.send('GET', `/customer/${made.body?.id}`, undefined, {
      'helpdesk-read-home': 'true',
    });
    if (made.status !== 201 || read.status !== 200 || read.body?.name !== `Read home ${i}`)
      found.push(`read-your-writes: insert ${made.status}, read ${read.status}`);
  }
  return found;
};

/** One whole run: servers for each region, tenants homed in each, the workload, then the audit. */
const simulate = async (homing: boolean) => {
  const replicator = await startReplicator({
    regions: specs.map((s) => ({ name: s.region, endpoint: s.endpoint })),
    tableName: TABLE,
    delayMs: () => 100 + Math.random() * 300,
    reorder: true,
  });
  const servers = await Promise.all(
    specs.map((spec) =>
      startRegionServer(spec, specs, {
        tableName: TABLE,
        s3Endpoint: s3.endpoint,
        bucket: s3.bucket,
        cursorSecret: CURSOR_SECRET,
        homing,
      }),
    ),
  );
  try {
    const tenants = await Promise.all(
      REGIONS.map(async (home, i) => {
        const { clientId, apiToken } = await createClient(`homed-in-${home}`, undefined, home);
        await replicator.drain(30_000);
        return { clientId, apiToken, token: await tokenFor(servers[i] as RegionServer, apiToken), home };
      }),
    );
    const runs = await Promise.all(tenants.map((t) => workload(servers, t, replicator)));
    await replicator.drain(60_000);
    const violations = runs.flatMap((r) => r.answered);
    for (const [i, tenant] of tenants.entries())
      for (const server of servers)
        violations.push(...(await audit(server, tenant, runs[i] as Awaited<ReturnType<typeof workload>>)));
    // A cursor minted in one region reads on in the other, with the same token.
    const t0 = tenants[0] as (typeof tenants)[number];
    const first = await caller(servers[0] as RegionServer, t0).get('/event/list');
    const next = String(first.body.event.nextQuery).replace(
      /^http:\/\/[^/]+/,
      (servers[1] as RegionServer).url,
    );
    const resumed = await caller(servers[1] as RegionServer, t0).get(next);
    if (resumed.status !== 200)
      violations.push(`a cursor of ${REGIONS[0]} answered ${resumed.status} in ${REGIONS[1]}`);
    if (homing) violations.push(...(await readsHome(servers, t0)));
    if (homing)
      violations.push(...(await erasure(servers, tenants[1] as (typeof tenants)[number], replicator)));
    if (homing) violations.push(...(await rehome(servers, t0, replicator)));
    return violations;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await replicator.stop();
  }
};

describe('two regions under replication', () => {
  it('keeps every guarantee with tenant-homed writes', async () => {
    expect(await simulate(true)).toEqual([]);
  }, 240_000);

  it('negative control: without homing the simulator shows the conflicts homing prevents', async () => {
    const violations = await simulate(false);
    console.log(`without homing: ${violations.join('; ')}`);
    expect(violations.length).toBeGreaterThan(0);
  }, 240_000);
});
