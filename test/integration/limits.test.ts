import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { newTenant } from '../helpers/api';
import { clientFor, type TenantClient } from '../helpers/tenant-client';

/**
 * Valid input that adds up past DynamoDB's own limits (an item of 400 KB, 100 actions in one
 * transaction) is refused with a 413 naming the limit, before anything is written: never a 500.
 * Text is counted as DynamoDB counts it: UTF-8 bytes (a CJK character is 3).
 */
const cjk = (n: number) => '漢'.repeat(n);

let api: TenantClient;
let customer: string;
beforeEach(async () => {
  api = clientFor(await newTenant());
  customer = await api.create('/customer/insert', { name: 'Ada', email: 'ada@example.com' });
});

const counts = async () => ({
  tickets: (await api.get('/ticket/list')).body.ticket.totalRecords,
  customers: (await api.get('/customer/list')).body.customer.totalRecords,
});

const expectTooLarge = (res: { status: number; body: { type: string; detail: string } }, code: string) => {
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(413);
  expect(res.body.type).toBe(`urn:helpdesk:problem:${code}`);
};

describe("DynamoDB's limits", () => {
  it('refuses a customer whose fields, each within its limit, add up past 400 KB', async () => {
    const before = await counts();
    const customFields = Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [`f${i}`.padEnd(100, 'k'), cjk(2000)]),
    );
    const urls = Object.fromEntries(
      [
        'twitterAccountUrl',
        'facebookAccountUrl',
        'linkedinAccountUrl',
        'googleAccountUrl',
        'youtubeAccountUrl',
        'website',
      ].map((field) => [field, cjk(2048)]),
    );
    const big = {
      memo: cjk(10_000),
      signature: cjk(10_000),
      address: cjk(1000),
      company: cjk(200),
      city: cjk(200),
      province: cjk(200),
      phoneNumber: cjk(50),
      faxNumber: cjk(50),
      mobileNumber: cjk(50),
      skypeAddress: cjk(254),
      msnAddress: cjk(254),
      gtalkAddress: cjk(254),
      registrationChannel: cjk(100),
      postalNumber: cjk(20),
      customFields,
      ...urls,
    };
    const res = await api.post('/customer/insert', { name: cjk(200), email: 'big@example.com', ...big });
    expectTooLarge(res, 'content-too-large');
    expect(res.body.detail).toMatch(/409600 bytes/);
    expect(await counts()).toEqual(before);
    // The same customer, updated into the same size, is refused too and stays as it was.
    const update = await api.put(`/customer/update/${customer}`, big);
    expectTooLarge(update, 'content-too-large');
    expect((await api.get(`/customer/${customer}`)).body.memo).toBeNull();
  });

  it('refuses a ticket whose description and custom fields add up past 400 KB, writing nothing', async () => {
    const customFields = Array.from({ length: 50 }, (_, i) => ({ name: `f${i}`, value: cjk(2000) }));
    const res = await api.post('/ticket/insert', {
      subject: 's',
      description: cjk(64_000),
      openedBy: { id: customer },
      customFields,
    });
    expectTooLarge(res, 'content-too-large');
    expect((await counts()).tickets).toBe(0);
    // The number was never taken: the next ticket is number 1.
    const id = await api.create('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: customer },
    });
    expect((await api.get(`/ticket/${id}`)).body.number).toMatch(/^1\//);
  });

  it('refuses an update that swaps 20 tags and adds 20 replies (over 100 changes), changing nothing', async () => {
    const id = await api.create('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: customer },
      tags: Array.from({ length: 20 }, (_, i) => `old${i}`),
    });
    const res = await api.put(`/ticket/update/${id}`, {
      tags: Array.from({ length: 20 }, (_, i) => `new${i}`),
      replies: Array.from({ length: 20 }, (_, i) => ({ text: `r${i}` })),
    });
    expectTooLarge(res, 'too-many-changes');
    const detail = (await api.get(`/ticket/${id}`)).body;
    expect(detail.tags.map((t: { tag: string }) => t.tag)).toEqual(
      Array.from({ length: 20 }, (_, i) => `old${i}`),
    );
    expect(detail.numberOfReplies).toBe(0);
    expect((await api.get('/ticket/list?tags=new0')).body.ticket.totalRecords).toBe(0);
  });

  it('refuses an insert with 20 tags, 11 agents, 20 replies by 20 other agents and 10 documents, writing nothing', async () => {
    const agents = await Promise.all(
      Array.from({ length: 31 }, (_, i) =>
        api.create('/agent/insert', { name: `A${i}`, email: `a${i}@example.com` }),
      ),
    );
    const res = await api.post('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: customer },
      tags: Array.from({ length: 20 }, (_, i) => `t${i}`),
      assignedTo: { id: agents[0] },
      cc: agents.slice(1, 11).map((id) => ({ id })),
      replies: agents.slice(11).map((id, i) => ({ text: `r${i}`, replyFromOperator: { id } })),
      attachedDocuments: Array.from({ length: 10 }, (_, i) => ({
        documentName: `f${i}.txt`,
        documentType: 'text/plain',
        documentBase64: 'aGVsbG8=',
      })),
    });
    expectTooLarge(res, 'too-many-changes');
    expect((await counts()).tickets).toBe(0);
    // Nothing points at the agents: each can be deleted.
    expect((await api.del(`/agent/delete/${agents[0]}`)).status).toBe(200);
  }, 30_000);

  it('answers any ticket body within the documented field limits with a 2xx or a 413, never a 5xx', async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 50 }),
      fc.constant(cjk(2000)),
      fc.constant('x'.repeat(2000)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          description: fc.oneof(fc.constant('d'), fc.constant(cjk(64_000)), fc.constant('e'.repeat(64_000))),
          memo: fc.option(fc.oneof(fc.constant(cjk(10_000)), fc.constant('m')), { nil: undefined }),
          tags: fc.array(fc.stringMatching(/^[a-z]{1,10}$/), { maxLength: 20 }),
          customFields: fc.array(fc.record({ name: fc.stringMatching(/^[a-z]{1,10}$/), value: text }), {
            maxLength: 50,
          }),
          replies: fc.array(fc.record({ text: fc.oneof(fc.constant('r'), fc.constant(cjk(32_000))) }), {
            maxLength: 20,
          }),
        }),
        async (body) => {
          const res = await api.post('/ticket/insert', { subject: 's', openedBy: { id: customer }, ...body });
          expect([201, 413], JSON.stringify(res.body).slice(0, 200)).toContain(res.status);
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});
