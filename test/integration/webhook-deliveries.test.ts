import { beforeEach, describe, expect, it } from 'vitest';
import { recordAttempt } from '../../shared/domain/webhook-attempts';
import { type WebhookRecord, webhookEntity } from '../../shared/store/entities/records';
import { getRecord } from '../../shared/store/record-reads';
import { newTenant, type Tenant } from '../helpers/api';
import { clientFor, type TenantClient } from '../helpers/tenant-client';

/**
 * Delivery attempts (`recordAttempt`, `GET /webhook/{id}/deliveries`) and the disabling of a
 * subscription whose deliveries failed for the retry horizon (domain/webhook-retry.ts).
 */
let tenant: Tenant;
let api: TenantClient;
beforeEach(async () => {
  tenant = await newTenant();
  api = clientFor(tenant);
});

const HOUR = 3_600_000;
const RECEIVER = 'https://1.1.1.1/hooks/helpdesk';
const pathOf = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');
const event = (n: number) => ({ id: `e${String(n).padStart(23, '0')}`, type: 'ticket.created' });

const subscription = async (): Promise<{
  id: string;
  read: () => ReturnType<typeof getRecord<WebhookRecord>>;
}> => {
  const id = (await api.post('/webhook/insert', { url: RECEIVER })).body.id as string;
  return { id, read: () => getRecord(webhookEntity, tenant.clientId, id, true) };
};

describe('/webhook/{id}/deliveries', () => {
  it('lists the attempts newest first, 25 a page, paging with nextQuery; nothing beyond 200 characters of an answer', async () => {
    const { id, read } = await subscription();
    const s = await read();
    const t0 = Date.now() - HOUR;
    await recordAttempt(
      { tenantId: tenant.clientId },
      s,
      event(0),
      {
        ok: false,
        status: 500,
        error: 'answered 500',
        response: 'x'.repeat(4096),
        ms: 40,
      },
      { attempt: 1, at: t0, firstAttemptAt: t0 },
    );
    await recordAttempt(
      { tenantId: tenant.clientId },
      s,
      event(0),
      { ok: false, error: 'no answer within 5000 ms', ms: 5000 },
      {
        attempt: 2,
        at: t0 + 5_000,
        firstAttemptAt: t0,
      },
    );
    for (let n = 1; n <= 26; n++)
      await recordAttempt(
        { tenantId: tenant.clientId },
        s,
        event(n),
        { ok: true, status: 204, response: '', ms: 12 },
        {
          attempt: 1,
          at: t0 + 10_000 + n,
          firstAttemptAt: t0 + 10_000 + n,
        },
      );

    const first = await api.get(`/webhook/${id}/deliveries`);
    expect(first.status).toBe(200);
    const page1 = first.body.delivery;
    expect(page1.totalRecords).toBe(28);
    expect(page1.records).toHaveLength(25);
    expect(page1.records[0]).toEqual({
      eventId: event(26).id,
      eventType: 'ticket.created',
      attempt: 1,
      at: t0 + 10_026,
      ok: true,
      status: 204,
      error: null,
      response: null,
      ms: 12,
    });
    expect(page1.records.map((r: { at: number }) => r.at)).toEqual(
      Array.from({ length: 25 }, (_, i) => t0 + 10_026 - i),
    );
    const page2 = (await api.get(pathOf(page1.nextQuery))).body.delivery;
    expect(page2.records).toEqual([
      expect.objectContaining({ eventId: event(1).id, ok: true }),
      {
        eventId: event(0).id,
        eventType: 'ticket.created',
        attempt: 2,
        at: t0 + 5_000,
        ok: false,
        status: null,
        error: 'no answer within 5000 ms',
        response: null,
        ms: 5000,
      },
      expect.objectContaining({ eventId: event(0).id, attempt: 1, status: 500, response: 'x'.repeat(200) }),
    ]);
    expect(page2.nextQuery).toBeNull();
    // The subscription stays enabled: nothing failed for long.
    expect((await api.get(`/webhook/${id}`)).body).toMatchObject({ enabled: true, disabledReason: null });
  });

  it('answers 404 for an unknown subscription and for another tenant’s', async () => {
    const { id, read } = await subscription();
    const at = Date.now();
    await recordAttempt(
      { tenantId: tenant.clientId },
      await read(),
      event(1),
      { ok: true, status: 200, ms: 3 },
      {
        attempt: 1,
        at,
        firstAttemptAt: at,
      },
    );
    expect((await api.get(`/webhook/${'f'.repeat(24)}/deliveries`)).status).toBe(404);
    expect((await api.get('/webhook/nope/deliveries')).status).toBe(404);
    const other = clientFor(await newTenant());
    expect((await other.get(`/webhook/${id}/deliveries`)).status).toBe(404);
    expect((await api.get(`/webhook/${id}/deliveries`)).body.delivery.records).toHaveLength(1);
  });

  it('disables a subscription once an event failed for 24 h, and an update with enabled re-enables it', async () => {
    const { id, read } = await subscription();
    const first = Date.now() - 25 * HOUR;
    const failed = { ok: false, status: 503, error: 'answered 503', ms: 20 } as const;
    const early = await recordAttempt({ tenantId: tenant.clientId }, await read(), event(1), failed, {
      attempt: 14,
      at: first + 23 * HOUR,
      firstAttemptAt: first,
    });
    expect(early).toEqual({ disabled: false });
    expect((await api.get(`/webhook/${id}`)).body).toMatchObject({ enabled: true });

    const late = await recordAttempt({ tenantId: tenant.clientId }, await read(), event(1), failed, {
      attempt: 15,
      at: first + 24 * HOUR,
      firstAttemptAt: first,
    });
    expect(late).toEqual({ disabled: true });
    expect((await api.get(`/webhook/${id}`)).body).toMatchObject({
      enabled: false,
      disabledReason: 'deliveries failed for 24 h (last: 503)',
    });
    expect((await api.get(`/webhook/${id}/deliveries`)).body.delivery.records).toHaveLength(2);

    expect((await api.put(`/webhook/update/${id}`, { enabled: true })).status).toBe(200);
    expect((await api.get(`/webhook/${id}`)).body).toMatchObject({ enabled: true, disabledReason: null });
  });

  it('does not fight a user update made after the subscription was read: the attempt is recorded alone', async () => {
    const { id, read } = await subscription();
    const stale = await read();
    expect((await api.put(`/webhook/update/${id}`, { description: 'moved the receiver' })).status).toBe(200);
    const first = Date.now() - 25 * HOUR;
    const outcome = await recordAttempt(
      { tenantId: tenant.clientId },
      stale,
      event(1),
      { ok: false, error: 'request failed: ECONNREFUSED', ms: 2 },
      { attempt: 15, at: first + 24 * HOUR, firstAttemptAt: first },
    );
    expect(outcome).toEqual({ disabled: false });
    expect((await api.get(`/webhook/${id}`)).body).toMatchObject({
      enabled: true,
      description: 'moved the receiver',
    });
    expect((await api.get(`/webhook/${id}/deliveries`)).body.delivery.records).toEqual([
      expect.objectContaining({ ok: false, error: 'request failed: ECONNREFUSED', status: null }),
    ]);
  });
});
