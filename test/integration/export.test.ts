import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/store/dynamo';
import { jobSk } from '../../shared/store/jobs';
import { keys } from '../../shared/store/keys';
import { newTenant } from '../helpers/api';
import { listObjects } from '../helpers/bucket';
import { finishCascades } from '../helpers/cascades';
import { png } from '../helpers/images';
import { clientFor, tenantWithCustomer } from '../helpers/tenant-client';

/**
 * Issue 22, part 5: export of one customer's data (docs/decisions.md, "Export"): a job, then one
 * JSON document in S3 behind a short-lived address, its file links valid as long.
 */
type Doc = { id: string; documentName: string; downloadUrl: string };

describe('customer export', () => {
  it('is a job; once done, one JSON document: the customer, every ticket they opened whole, history, working file links', async () => {
    const tenant = await newTenant();
    const api = clientFor(tenant);
    const customer = await api.create('/customer/insert', {
      name: 'Ada Export',
      email: `ada.${Date.now()}@example.com`,
      profilePhotoBlob: png(3, 3).toString('hex'),
    });
    const other = await api.create('/customer/insert', {
      name: 'Other',
      email: `o.${Date.now()}@example.com`,
    });
    const agent = await api.create('/agent/insert', { name: 'Grace', email: `g.${Date.now()}@example.com` });
    const ticket = await api.create('/ticket/insert', {
      subject: 'First',
      description: 'mine',
      openedBy: { id: customer },
      attachedDocuments: [{ documentName: 'a.txt', documentType: 'text/plain', documentBase64: 'aGVsbG8=' }],
    });
    for (let i = 0; i < 30; i++)
      await api.put(`/ticket/reply/${ticket}`, {
        text: `reply ${i}`,
        replyFromOperator: i % 2 ? { id: agent } : null,
      });
    await api.put(`/ticket/addNote/${ticket}`, { note: 'n', insertBy: agent });
    const trashed = await api.create('/ticket/insert', {
      subject: 'Gone',
      description: 'd',
      openedBy: { id: customer },
    });
    await api.del(`/ticket/delete/${trashed}`);
    await api.create('/ticket/insert', { subject: 'Not theirs', description: 'd', openedBy: { id: other } });

    const asked = await api.post(`/customer/export/${customer}`, undefined);
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ customerId: customer, status: 'pending', downloadUrl: null });
    expect((await api.get(asked.body.statusUrl)).body.status).toBe('pending');
    await finishCascades(tenant.clientId);
    const done = await api.get(asked.body.statusUrl);
    expect(done.body).toMatchObject({ status: 'done' });
    // Links signed for an hour as the document was made, just before the job was marked done.
    expect(done.body.expiresAt - done.body.finishedAt).toBeGreaterThan(3590 * 1000);
    expect(done.body.expiresAt - done.body.finishedAt).toBeLessThanOrEqual(3600 * 1000);
    const res = await fetch(done.body.downloadUrl);
    expect(res.status).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: the export document, read as JSON
    const exported = (await res.json()) as Record<string, any>;
    expect(exported.customer).toMatchObject({ id: customer, name: 'Ada Export' });
    expect(exported.history.map((e: { kind: string }) => e.kind)).toEqual(['created']);
    expect(exported.tickets.map((t: { id: string }) => t.id)).toEqual([ticket, trashed]);
    const [first, gone] = exported.tickets;
    expect(first.replies).toHaveLength(30);
    expect(first.replies.map((r: { text: string }) => r.text)).toEqual(
      Array.from({ length: 30 }, (_, i) => `reply ${i}`),
    );
    expect(first.ticketNotes).toHaveLength(1);
    expect(first.deletedAt).toBeNull();
    expect(first.history.map((e: { kind: string }) => e.kind).slice(0, 2)).toEqual(['created', 'replied']);
    expect(gone.deletedAt).toEqual(expect.any(Number));
    // Its links are S3's, signed until the job's expiresAt: they work without a token.
    const [doc] = first.attachedDocuments as Doc[];
    const file = await fetch(String(doc?.downloadUrl));
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('hello');
    expect((await fetch(exported.customer.profilePhotoUrl)).status).toBe(200);
    expect(await listObjects(`exports/${tenant.clientId}/${customer}/`)).toEqual([
      `exports/${tenant.clientId}/${customer}/${asked.body.id}.json`,
    ]);

    // Past its links' validity: expired, no address.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: keys.cascades(tenant.clientId), sk: jobSk(asked.body.id) },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Date.now() - 1 },
      }),
    );
    expect((await api.get(asked.body.statusUrl)).body).toMatchObject({
      status: 'expired',
      downloadUrl: null,
    });
  });

  it('gives nothing of a customer erased before the job ran', async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const asked = await api.post(`/customer/export/${customer}`, undefined);
    expect((await api.post(`/customer/erase/${customer}`, {})).status).toBe(202);
    await finishCascades(tenant.clientId);
    expect((await api.get(asked.body.statusUrl)).body).toMatchObject({ status: 'gone', downloadUrl: null });
    expect(await listObjects(`exports/${tenant.clientId}/`)).toEqual([]);
  });
});
