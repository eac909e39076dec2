import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type EventPipeline, startEventPipeline } from '../../local/event-pipeline';
import { type SqsLocal, startSqsLocal } from '../../local/sqs-local';
import { expireTrash } from '../../local/ttl-emulator';
import { forgetVerifiedTokens } from '../../shared/auth/access-tokens';
import { revokeClient, setClientSettings } from '../../shared/auth/clients';
import { resetConfig } from '../../shared/config';
import { drainCascades } from '../../shared/domain/cascades';
import { renderExport } from '../../shared/http/views/customer-export';
import { sleep } from '../../shared/store/attempt-budget';
import { pendingCascades } from '../../shared/store/cascades';
import { tableName } from '../../shared/store/dynamo';
import { keys, RECORD_SK } from '../../shared/store/keys';
import { interceptS3, listObjects } from '../helpers/bucket';
import { collectionItems, tokenItems } from '../helpers/cascades';
import { eventually } from '../helpers/eventually';
import { settle } from '../helpers/feed';
import { png } from '../helpers/images';
import { useOwnTable } from '../helpers/own-table';
import { scanTable } from '../helpers/scan';
import { tenantWithCustomer } from '../helpers/tenant-client';

/**
 * Issue 22, "nothing orphaned": removals finish through the durable cascade, driven by the
 * table's stream as in AWS (local/event-pipeline.ts plays the event source mapping for
 * functions/cascade-worker.ts), whatever S3 does meanwhile, however writes race the removal,
 * and wherever the worker stops. Each test ends with the orphan scan: no item or object of a
 * removed parent is left once the cascades drained.
 */
const QUEUE = 'cascades-test-deliveries.fifo';
let sqs: SqsLocal;
let pipeline: EventPipeline;

const startPipeline = () =>
  startEventPipeline({
    dynamoEndpoint: String(process.env.DYNAMODB_ENDPOINT),
    tableName: tableName(),
    sqsEndpoint: sqs.endpoint,
    queueUrl: sqs.queueUrl(QUEUE),
    pollMs: 50,
    consumers: 1,
    // Cascades alone: the search indexer is tested in search.test.ts.
    search: false,
  });

beforeAll(async () => {
  // The pipeline reads its table's whole stream: a table of its own, so that it runs only the
  // cascades of this file (the other files finish theirs themselves).
  await useOwnTable('helpdesk-test-cascades');
  sqs = await startSqsLocal({ queues: [{ name: QUEUE, visibilityTimeoutSeconds: 5 }] });
  process.env.SQS_ENDPOINT = sqs.endpoint;
  process.env.WEBHOOK_QUEUE_URL = sqs.queueUrl(QUEUE);
  resetConfig();
  pipeline = await startPipeline();
});

afterAll(async () => {
  await pipeline?.stop();
  await sqs?.stop();
});

let restoreS3: (() => void) | undefined;
afterEach(() => {
  restoreS3?.();
  restoreS3 = undefined;
});

/** S3 refuses every request from now on (a refused connection, as when it is down). */
const stopS3 = () => {
  restoreS3 = interceptS3(() => {
    throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
  });
};

/** How long a wait may take: below the test's own timeout, so a stuck wait says what it waited for. */
const WITHIN_MS = 25_000;

/** Until the worker has finished every cascade of the tenant. */
const drained = (tenantId: string) =>
  eventually('the cascades drained', async () => (await pendingCascades(tenantId)).length === 0, WITHIN_MS);

/**
 * The orphan scan: every item of the tenant's ticket partitions whose ticket is gone, every
 * object under a ticket whose ticket is gone, every photo no customer points at, every token of a
 * revoked client. Empty when nothing is orphaned.
 */
const orphans = async (tenantId: string): Promise<string[]> => {
  const items = await scanTable();
  const ticketPk = keys.record(tenantId, 'TICKET', '').pk;
  const customerPk = keys.record(tenantId, 'CUSTOMER', '').pk;
  // A ticket in the trash is not removed: its collection and history stay until it is purged.
  const live = new Set(
    items
      .filter((i) => String(i.pk).startsWith(ticketPk) && (i.sk === RECORD_SK || i.sk === keys.trashed))
      .map((i) => String(i.pk)),
  );
  const customerRecords = items.filter((i) => String(i.pk).startsWith(customerPk) && i.sk === RECORD_SK);
  const customers = new Set(customerRecords.map((i) => String(i.pk)));
  // A history's partition is its record's, with the history's suffix after it.
  const historySuffix = keys.history(tenantId, 'CUSTOMER', '').slice(customerPk.length);
  const owner = (pk: string) => (pk.endsWith(historySuffix) ? pk.slice(0, -historySuffix.length) : pk);
  const found = items
    .filter(
      (i) =>
        (String(i.pk).startsWith(ticketPk) && !live.has(owner(String(i.pk)))) ||
        (String(i.pk).startsWith(customerPk) && !customers.has(owner(String(i.pk)))),
    )
    .map((i) => `item ${i.pk} ${i.sk}`);
  for (const key of await listObjects(`t/${tenantId}/ticket/`)) {
    const ticketId = key.split('/')[3] ?? '';
    if (!live.has(keys.record(tenantId, 'TICKET', ticketId).pk)) found.push(`object ${key}`);
  }
  const photos = new Set(customerRecords.map((i) => (i.photo as { key?: string } | undefined)?.key));
  for (const key of await listObjects(`t/${tenantId}/customer-photo/`))
    if (!photos.has(key)) found.push(`photo ${key}`);
  const client = items.find((i) => i.pk === keys.client(tenantId).pk && i.sk === keys.client(tenantId).sk);
  if (client?.revoked === true)
    for (const token of items.filter(
      (i) => i.pk === keys.client(tenantId).pk && String(i.sk).startsWith(keys.accessTokenPrefix),
    ))
      found.push(`token ${token.sk}`);
  return found;
};

/**
 * A tenant keeping no trash (`--trash-days 0`): its deletes are removals at once, whose cascades
 * these tests follow (a purge from the trash writes the same cascade: test/integration/trash.test.ts).
 */
const noTrash = async () => {
  const made = await tenantWithCustomer();
  await setClientSettings(made.tenant.clientId, { trashDays: 0 });
  forgetVerifiedTokens();
  return made;
};

const doc = (i: number) => ({
  documentName: `f${i}.txt`,
  documentType: 'text/plain',
  documentBase64: 'aGVsbG8=',
});

describe('the durable cascade, driven by the stream', () => {
  it('removes a deleted ticket’s replies, notes, documents and files without anyone asking again', async () => {
    const { tenant, api, customer } = await noTrash();
    const id = await api.create('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: customer },
      attachedDocuments: [doc(1)],
      replies: [{ text: 'first', attachedDocuments: [doc(2)] }],
    });
    await api.put(`/ticket/addNote/${id}`, { note: 'n' });
    expect(await listObjects(`t/${tenant.clientId}/ticket/${id}/`)).toHaveLength(2);
    expect((await api.del(`/ticket/delete/${id}`)).status).toBe(200);
    await drained(tenant.clientId);
    expect(await collectionItems(tenant.clientId, id)).toEqual([]);
    expect(await listObjects(`t/${tenant.clientId}/ticket/${id}/`)).toEqual([]);
    expect(await orphans(tenant.clientId)).toEqual([]);
  });

  it('waits out S3 being down: the worker retries until it is back, then leaves nothing', async () => {
    const { tenant, api, customer } = await noTrash();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        await api.create('/ticket/insert', {
          subject: `s${i}`,
          description: 'd',
          openedBy: { id: customer },
          attachedDocuments: [doc(i)],
        }),
      );
    stopS3();
    for (const id of ids) expect((await api.del(`/ticket/delete/${id}`)).status).toBe(200);
    // Several of the worker's attempts fail meanwhile (it retries a failed batch after 1 s).
    await sleep(2500);
    expect(await pendingCascades(tenant.clientId)).toHaveLength(3);
    restoreS3?.();
    restoreS3 = undefined;
    await drained(tenant.clientId);
    expect(await orphans(tenant.clientId)).toEqual([]);
  });

  it('finishes a cascade whose worker stopped half-way, on the next run', async () => {
    const { tenant, api, customer } = await noTrash();
    const id = await api.create('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: customer },
      attachedDocuments: [doc(1), doc(2), doc(3), doc(4)],
    });
    for (let i = 0; i < 5; i++) await api.put(`/ticket/reply/${id}`, { text: `r${i}` });
    // The worker is stopped (the pipeline with it) after two of the four objects were deleted.
    await pipeline.stop();
    try {
      let deletes = 0;
      restoreS3 = interceptS3((method) => {
        if (method === 'DELETE' && ++deletes > 2) throw new Error('worker killed');
        return undefined;
      });
      expect((await api.del(`/ticket/delete/${id}`)).status).toBe(200);
      const cut = await drainCascades(renderExport, tenant.clientId);
      expect(cut).toMatchObject({ finished: 0, failed: [{ tenantId: tenant.clientId }] });
      // The two deletes let through were in flight when the run gave up.
      await eventually(
        'two objects deleted',
        async () => (await listObjects(`t/${tenant.clientId}/ticket/${id}/`)).length === 2,
        WITHIN_MS,
      );
      expect(await collectionItems(tenant.clientId, id)).not.toEqual([]);
      restoreS3?.();
      restoreS3 = undefined;
    } finally {
      // A new worker reads the stream from now on: what `npm start` does at start finds the cascade.
      pipeline = await startPipeline();
    }
    expect(await drainCascades(renderExport, tenant.clientId)).toEqual({ finished: 1, failed: [] });
    expect(await orphans(tenant.clientId)).toEqual([]);
  });

  it('leaves nothing of tickets deleted while replies with files stream in', async () => {
    const { tenant, api, customer } = await noTrash();
    const ids = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        api.create('/ticket/insert', { subject: `s${i}`, description: 'd', openedBy: { id: customer } }),
      ),
    );
    const replies = ids.flatMap((id) =>
      Array.from({ length: 10 }, (_, i) =>
        api.put(`/ticket/reply/${id}`, { text: `r${i}`, attachedDocuments: [doc(i)] }),
      ),
    );
    await sleep(30);
    // A delete refused for contention (503, nothing written) is sent again, as a client would.
    const remove = async (id: string) => {
      let res = await api.del(`/ticket/delete/${id}`);
      for (let i = 0; i < 5 && res.status === 503; i++) res = await api.del(`/ticket/delete/${id}`);
      return res;
    };
    const deletes = ids.map(remove);
    const answers = await Promise.all([...replies, ...deletes]);
    // A reply either landed before the delete (200), found the ticket gone (404), or was refused
    // with nothing written (503: on a busy machine 10 writers of one ticket can use up the
    // retries the deadline allows); the orphan scan below shows nothing of any of them is left.
    for (const res of answers) expect([200, 404, 503]).toContain(res.status);
    expect((await Promise.all(deletes)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    await drained(tenant.clientId);
    expect(await orphans(tenant.clientId)).toEqual([]);
  });

  it('deletes a replaced photo and a deleted customer’s photo', async () => {
    const { tenant, api } = await noTrash();
    const id = await api.create('/customer/insert', {
      name: 'P',
      email: 'p@example.com',
      profilePhotoBlob: png(2, 3).toString('base64'),
    });
    expect(
      (await api.put(`/customer/update/${id}`, { profilePhotoBlob: png(3, 2).toString('base64') })).status,
    ).toBe(200);
    await drained(tenant.clientId);
    expect(await listObjects(`t/${tenant.clientId}/customer-photo/`)).toHaveLength(1);
    expect((await api.del(`/customer/delete/${id}`)).status).toBe(200);
    await drained(tenant.clientId);
    expect(await listObjects(`t/${tenant.clientId}/customer-photo/`)).toEqual([]);
    expect(await orphans(tenant.clientId)).toEqual([]);
  });

  it('purges a trashed ticket when its retention ends (DynamoDB’s TTL), once, with its event', async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const id = await api.create('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: customer },
      attachedDocuments: [doc(1)],
    });
    const kept = await api.create('/ticket/insert', {
      subject: 'k',
      description: 'd',
      openedBy: { id: customer },
    });
    expect((await api.del(`/ticket/delete/${id}`)).status).toBe(200);
    expect((await api.del(`/ticket/delete/${kept}`)).status).toBe(200);
    // Nothing has expired yet.
    expect(await expireTrash()).toBe(0);
    // 31 days on, both have; the one restored meanwhile is not touched.
    expect((await api.put(`/ticket/restore/${kept}`)).status).toBe(200);
    // (Other tenants of this table may have some in their trash too.)
    expect(await expireTrash(Date.now() + 31 * 86_400_000)).toBeGreaterThanOrEqual(1);
    await eventually(
      'the trash purged',
      async () => {
        const trash = (await api.get('/ticket/trash/list')).body.ticket;
        return trash.totalRecords === 0 && (await collectionItems(tenant.clientId, id)).length === 0;
      },
      WITHIN_MS,
    );
    await drained(tenant.clientId);
    expect(await listObjects(`t/${tenant.clientId}/ticket/${id}/`)).toEqual([]);
    expect((await api.get(`/ticket/${kept}`)).status).toBe(200);
    await settle();
    const events = (await api.get('/event/list?since=0')).body.event.records.filter(
      (e: { resourceId: string }) => e.resourceId === id,
    );
    expect(events.map((e: { type: string }) => e.type)).toEqual([
      'ticket.created',
      'ticket.deleted',
      'ticket.purged',
    ]);
    expect(await orphans(tenant.clientId)).toEqual([]);
  });

  it('deletes a revoked client’s tokens', async () => {
    const { tenant } = await tenantWithCustomer();
    const tokens = () => tokenItems(tenant.clientId);
    expect(await tokens()).not.toEqual([]);
    expect(await revokeClient(tenant.clientId)).toBe(true);
    await drained(tenant.clientId);
    expect(await tokens()).toEqual([]);
    expect(await orphans(tenant.clientId)).toEqual([]);
  });
});
