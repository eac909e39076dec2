import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventPipeline, startEventPipeline } from '../../local/event-pipeline';
import { type SqsLocal, startSqsLocal } from '../../local/sqs-local';
import { resetConfig } from '../../shared/config';
import { resumeImports } from '../../shared/domain/import-jobs';
import { resetSqs } from '../../shared/queue/sqs';
import { allocateSequence } from '../../shared/store/counters';
import { tableName } from '../../shared/store/dynamo';
import { counterNames } from '../../shared/store/keys';
import { newTenant } from '../helpers/api';
import { interceptS3 } from '../helpers/bucket';
import { eventually } from '../helpers/eventually';
import { drain, settle } from '../helpers/feed';
import { useOwnTable } from '../helpers/own-table';
import { clientFor, type TenantClient } from '../helpers/tenant-client';
import { startReceiver } from '../helpers/webhook-receiver';

/**
 * Issue 24, part 2: import jobs. The queue, the worker and the file are the real ones (the local
 * SQS server, functions/import-worker.ts run by the local event pipeline as Lambda's event source
 * would, the local S3 server), on a table of this file's own. Steps are made small
 * (IMPORT_CHUNK_BYTES) so that a file takes many of them.
 */
const DELIVERIES = 'imports-test-deliveries.fifo';
const IMPORTS = 'imports-test-imports.fifo';
let sqs: SqsLocal;
let pipeline: EventPipeline;

const startQueueAndWorker = async () => {
  sqs = await startSqsLocal({
    queues: [
      { name: DELIVERIES, visibilityTimeoutSeconds: 5 },
      { name: 'imports-test-dlq.fifo', visibilityTimeoutSeconds: 5 },
      {
        name: IMPORTS,
        visibilityTimeoutSeconds: 30,
        maxReceiveCount: 50,
        deadLetterQueue: 'imports-test-dlq.fifo',
      },
    ],
  });
  process.env.SQS_ENDPOINT = sqs.endpoint;
  process.env.WEBHOOK_QUEUE_URL = sqs.queueUrl(DELIVERIES);
  process.env.IMPORT_QUEUE_URL = sqs.queueUrl(IMPORTS);
  resetConfig();
  resetSqs();
  pipeline = await startEventPipeline({
    dynamoEndpoint: String(process.env.DYNAMODB_ENDPOINT),
    tableName: tableName(),
    sqsEndpoint: sqs.endpoint,
    queueUrl: sqs.queueUrl(DELIVERIES),
    importQueueUrl: sqs.queueUrl(IMPORTS),
    pollMs: 50,
    consumers: 1,
    search: false,
  });
};

/** Everything gone at once, as when the process running them is killed: the in-memory queue too. */
const killQueueAndWorker = async () => {
  await pipeline.stop();
  await sqs.stop();
};

beforeAll(async () => {
  await useOwnTable('helpdesk-test-imports');
  process.env.IMPORT_CHUNK_BYTES = '2048';
  await startQueueAndWorker();
});

afterAll(async () => {
  await killQueueAndWorker();
  delete process.env.IMPORT_CHUNK_BYTES;
  resetConfig();
});

const ndjson = (lines: readonly unknown[]) =>
  `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`;

/** POST /import, the file PUT to its address, then started: the job's id. */
const importFile = async (api: TenantClient, file: string): Promise<string> => {
  const created = await api.post('/import', undefined);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.status).toBe('created');
  const put = await fetch(created.body.uploadUrl, {
    method: 'PUT',
    body: file,
    headers: { 'content-type': 'application/x-ndjson' },
  });
  expect(put.status).toBe(200);
  const started = await api.put(`/import/${created.body.id}/start`);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  expect(started.body.status).toBe('running');
  return created.body.id;
};

const WITHIN_MS = 60_000;

const finished = async (api: TenantClient, jobId: string, status = 'completed') => {
  let job: Record<string, unknown> = {};
  await eventually(
    `import ${jobId} is ${status}`,
    async () => {
      job = (await api.get(`/import/${jobId}`)).body;
      return job.status === status;
    },
    WITHIN_MS,
  );
  return job as {
    status: string;
    counts: Record<string, { read: number; created: number; skipped: number; failed: number }>;
    totals: { read: number; created: number; skipped: number; failed: number };
    progress: number;
    linesRead: number;
    bytesRead: number;
    size: number;
  };
};

const everyRecord = async (api: TenantClient, path: string) => {
  const out: Record<string, unknown>[] = [];
  let next: string | null = path;
  while (next) {
    const res = await api.get(next);
    expect(res.status).toBe(200);
    const [page] = Object.values(res.body) as {
      records: Record<string, unknown>[];
      nextQuery: string | null;
    }[];
    out.push(...(page?.records ?? []));
    next = page?.nextQuery ?? null;
  }
  return out;
};

const DAY = 86_400_000;
const T0 = Date.UTC(2019, 2, 4, 9, 30);

/** A small help desk: two agents, customers, a type, and tickets with their history. */
const helpDesk = (tickets: number, options: { replies?: number; crashAt?: number } = {}) => [
  { kind: 'agent', externalId: 'a1', name: 'Grace', email: 'grace@example.com' },
  { kind: 'agent', externalId: 'a2', name: 'Alan', email: 'alan@example.com' },
  { kind: 'ticketType', externalId: 'ty1', type: 'Refund' },
  { kind: 'customer', externalId: 'c1', name: 'Ada', email: 'ada@example.com' },
  { kind: 'customer', externalId: 'c2', name: 'Linus', email: 'linus@example.com' },
  ...Array.from({ length: tickets }, (_, i) => ({
    kind: 'ticket',
    externalId: `t${i + 1}`,
    number: `${100 + i}/2019`,
    subject: `Imported ${i + 1}`,
    description: `The history of ticket ${i + 1}`,
    status: i % 2 ? 'closed' : 'opened',
    openedBy: { externalId: i % 2 ? 'c2' : 'c1' },
    assignedTo: { externalId: 'a1' },
    type: { externalId: 'ty1' },
    externalId1: `zd-${i + 1}`,
    insertDate: T0 + i * DAY,
    managedDate: T0 + i * DAY + 5 * 3_600_000,
    ...(i % 2 ? { closedDate: T0 + i * DAY + 6 * 3_600_000 } : {}),
    replies: Array.from({ length: options.replies ?? 3 }, (_, r) => ({
      text: `reply ${r + 1} of ${i + 1}`,
      // Two replies at one instant: the file's order decides.
      replyDate: T0 + i * DAY + Math.max(1, r) * 3_600_000,
      replyFromOperator: r % 2 ? { externalId: 'a2' } : null,
      ...(i === options.crashAt && r === 0
        ? {
            attachedDocuments: [
              { documentName: 'crash.txt', documentType: 'text/plain', documentBase64: 'aGk=' },
            ],
          }
        : {}),
    })),
    notes: [{ note: `note of ${i + 1}`, date: T0 + i * DAY + 60_000, insertBy: { externalId: 'a2' } }],
  })),
];

describe('an import job', () => {
  it('brings records in with their history: dates, numbers, reply order, authors; counts exact', async () => {
    const tenant = await newTenant();
    const api = clientFor(tenant);
    const jobId = await importFile(api, ndjson(helpDesk(6)));
    const job = await finished(api, jobId);
    expect(job.counts.ticket).toEqual({ read: 6, created: 6, skipped: 0, failed: 0 });
    expect(job.counts.customer).toEqual({ read: 2, created: 2, skipped: 0, failed: 0 });
    expect(job.counts.agent).toEqual({ read: 2, created: 2, skipped: 0, failed: 0 });
    expect(job.counts.ticketType).toEqual({ read: 1, created: 1, skipped: 0, failed: 0 });
    expect(job.totals).toEqual({ read: 11, created: 11, skipped: 0, failed: 0 });
    expect(job.progress).toBe(1);
    expect(job.bytesRead).toBe(job.size);
    expect(job.linesRead).toBe(11);

    const tickets = await everyRecord(api, '/ticket/list');
    expect(tickets).toHaveLength(6);
    const second = tickets.find((t) => t.externalId1 === 'zd-2') as Record<string, unknown>;
    expect(second).toMatchObject({
      number: '101/2019',
      subject: 'Imported 2',
      status: { status: 'closed' },
      insertDate: T0 + DAY,
      managedDate: T0 + DAY + 5 * 3_600_000,
      closedDate: T0 + DAY + 6 * 3_600_000,
      numberOfReplies: 3,
    });
    const replies = (await api.get(`/ticket/${second.id}/replies`)).body.reply.records as Record<
      string,
      unknown
    >[];
    expect(replies.map((r) => r.text)).toEqual(['reply 1 of 2', 'reply 2 of 2', 'reply 3 of 2']);
    expect(replies.map((r) => r.replyDate)).toEqual([
      T0 + DAY + 3_600_000,
      T0 + DAY + 3_600_000,
      T0 + DAY + 2 * 3_600_000,
    ]);
    const agents = await everyRecord(api, '/agent/list');
    const alan = agents.find((a) => a.email === 'alan@example.com') as Record<string, unknown>;
    expect(replies[1]?.replyFromOperator).toMatchObject({ id: alan.id });
    expect(replies[0]?.replyFromOperator).toBeNull();
    const notes = (await api.get(`/ticket/${second.id}/notes`)).body.note.records as Record<
      string,
      unknown
    >[];
    expect(notes).toMatchObject([{ note: 'note of 2', date: T0 + DAY + 60_000 }]);

    // The year's sequence moved past the numbers kept: 2019's next number is none of them.
    expect(await allocateSequence(tenant.clientId, counterNames.sequence('TICKET', 2019))).toBe(106);
    const customers = await everyRecord(api, '/customer/list');
    expect(customers.map((c) => c.email).sort()).toEqual(['ada@example.com', 'linus@example.com']);

    // The change feed marks the imported changes; the job's completion is one event of its own.
    await settle();
    const { events } = await drain(api);
    const imported = events.filter((e) => (e as { importId?: string | null }).importId === jobId);
    expect(imported.map((e) => e.type).sort()).toEqual(
      [
        ...Array(2).fill('agent.created'),
        ...Array(2).fill('customer.created'),
        ...Array(6).fill('ticket.created'),
        'ticket_type.created',
      ].sort(),
    );
    const completed = events.filter((e) => e.type === 'import.completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({
      resourceId: jobId,
      importId: null,
      resource: { status: 'completed' },
    });

    // History: the ticket's one entry names the job.
    const history = (await api.get(`/ticket/${second.id}/history`)).body.history.records as Record<
      string,
      unknown
    >[];
    expect(history).toMatchObject([{ kind: 'created', actor: { importId: jobId } }]);
  });

  it('imported twice, creates nothing twice: the second job skips every line', async () => {
    const api = clientFor(await newTenant());
    const file = ndjson(helpDesk(4));
    await finished(api, await importFile(api, file));
    const again = await finished(api, await importFile(api, file));
    expect(again.totals).toEqual({ read: 9, created: 0, skipped: 9, failed: 0 });
    expect(await everyRecord(api, '/ticket/list')).toHaveLength(4);
    expect(await everyRecord(api, '/customer/list')).toHaveLength(2);
    expect(await everyRecord(api, '/agent/list')).toHaveLength(2);
  });

  it('killed mid-way and restarted, yields each record once with its history, and exact counts', async () => {
    const api = clientFor(await newTenant());
    // Ticket 9's first reply carries a file: while "crashing", S3 refuses it, so the step fails
    // with the lines of its batch around it written and not yet counted.
    let crashing = true;
    let crashes = 0;
    const restore = interceptS3((method, url) => {
      if (crashing && method === 'PUT' && url.includes('/ticket/')) {
        crashes++;
        return new Response('<Error><Code>ServiceUnavailable</Code></Error>', { status: 503 });
      }
      return undefined;
    });
    // Chunks of several tickets: ticket 9's neighbours in its chunk are written beside it.
    process.env.IMPORT_CHUNK_BYTES = '8192';
    resetConfig();
    try {
      const jobId = await importFile(api, ndjson(helpDesk(14, { crashAt: 8 })));
      await eventually('the step crashed', () => crashes > 0, WITHIN_MS);
      const before = (await api.get(`/import/${jobId}`)).body;
      expect(before.status).toBe('running');
      expect(before.bytesRead).toBeLessThan(before.size);
      // Written but not yet counted: the crashed chunk's other lines.
      expect((await everyRecord(api, '/ticket/list')).length).toBeGreaterThan(before.counts.ticket.created);
      // Killed: the worker and the queue's messages are gone.
      await killQueueAndWorker();
      crashing = false;
      // Restarted, as `npm start` does: the running jobs' steps are queued again.
      await startQueueAndWorker();
      expect(await resumeImports()).toBeGreaterThanOrEqual(1);
      const job = await finished(api, jobId);
      expect(job.counts.ticket).toEqual({ read: 14, created: 14, skipped: 0, failed: 0 });
      expect(job.totals).toEqual({ read: 19, created: 19, skipped: 0, failed: 0 });
    } finally {
      restore();
      process.env.IMPORT_CHUNK_BYTES = '2048';
      resetConfig();
    }
    const tickets = await everyRecord(api, '/ticket/list');
    expect(tickets).toHaveLength(14);
    expect(new Set(tickets.map((t) => t.externalId1)).size).toBe(14);
    expect(new Set(tickets.map((t) => t.number)).size).toBe(14);
    const ninth = tickets.find((t) => t.externalId1 === 'zd-9') as Record<string, unknown>;
    expect(ninth).toMatchObject({ number: '108/2019', insertDate: T0 + 8 * DAY, numberOfReplies: 3 });
    const replies = (await api.get(`/ticket/${ninth.id}/replies`)).body.reply.records as Record<
      string,
      unknown
    >[];
    expect(replies.map((r) => r.text)).toEqual(['reply 1 of 9', 'reply 2 of 9', 'reply 3 of 9']);
    // The file of its first reply, written once.
    expect(replies[0]?.attachedDocuments, JSON.stringify(replies[0])).toMatchObject([
      { documentName: 'crash.txt' },
    ]);
  });

  it('fails a malformed line alone, with its line number and problem; the others are written', async () => {
    const api = clientFor(await newTenant());
    const jobId = await importFile(
      api,
      ndjson([
        { kind: 'customer', externalId: 'c1', name: 'Ada', email: 'ada@example.com' },
        '{"kind": "customer", "externalId": ',
        { kind: 'customer', externalId: 'c2', name: 'Linus', email: 'not an address' },
        {
          kind: 'ticket',
          externalId: 't1',
          subject: 's',
          description: 'd',
          insertDate: T0,
          openedBy: { externalId: 'nobody' },
        },
        '',
        {
          kind: 'ticket',
          externalId: 't2',
          subject: 's',
          description: 'd',
          insertDate: T0,
          openedBy: { externalId: 'c1' },
        },
        { kind: 'invoice', externalId: 'i1' },
      ]),
    );
    const job = await finished(api, jobId);
    expect(job.counts.customer).toEqual({ read: 2, created: 1, skipped: 0, failed: 1 });
    expect(job.counts.ticket).toEqual({ read: 2, created: 1, skipped: 0, failed: 1 });
    expect(job.counts.unreadable).toEqual({ read: 2, created: 0, skipped: 0, failed: 2 });
    const errors = await api.get(`/import/${jobId}/errors`);
    expect(errors.status).toBe(200);
    const records = errors.body.error.records as Record<string, unknown>[];
    expect(errors.body.error.totalRecords).toBe(4);
    expect(records.map((r) => r.line)).toEqual([2, 3, 4, 7]);
    expect(records[0]).toMatchObject({
      kind: null,
      problem: { status: 400, type: 'urn:helpdesk:problem:malformed-json' },
    });
    expect(records[1]).toMatchObject({
      kind: 'customer',
      externalId: 'c2',
      problem: { status: 400, errors: [expect.objectContaining({ path: 'email' })] },
    });
    expect(records[2]).toMatchObject({
      kind: 'ticket',
      externalId: 't1',
      problem: { type: 'urn:helpdesk:problem:invalid-reference', errors: [{ path: 'openedBy.externalId' }] },
    });
    expect(records[3]).toMatchObject({ kind: null, externalId: 'i1', problem: { status: 400 } });
    expect(await everyRecord(api, '/ticket/list')).toHaveLength(1);
  });

  it('writes a conversation too long for one transaction in parts, in order', async () => {
    const api = clientFor(await newTenant());
    const jobId = await importFile(api, ndjson(helpDesk(1, { replies: 130 })));
    const job = await finished(api, jobId);
    expect(job.counts.ticket).toEqual({ read: 1, created: 1, skipped: 0, failed: 0 });
    const [ticket] = await everyRecord(api, '/ticket/list');
    expect(ticket?.numberOfReplies).toBe(130);
    const replies = await everyRecord(api, `/ticket/${ticket?.id}/replies`);
    expect(replies.map((r) => r.text)).toEqual(Array.from({ length: 130 }, (_, r) => `reply ${r + 1} of 1`));
  });

  it('writes a conversation with more files than one write stages in parts, every file with its reply', async () => {
    const api = clientFor(await newTenant());
    const file = (r: number) => ({
      documentName: `r${r}.txt`,
      documentType: 'text/plain',
      documentBase64: 'aGk=',
    });
    const line = {
      kind: 'ticket',
      externalId: 'files',
      subject: 's',
      description: 'd',
      insertDate: T0,
      openedBy: { externalId: 'c1' },
      replies: Array.from({ length: 12 }, (_, r) => ({
        text: `r${r}`,
        replyDate: T0 + r,
        attachedDocuments: [file(r)],
      })),
    };
    const jobId = await importFile(
      api,
      ndjson([{ kind: 'customer', externalId: 'c1', name: 'A', email: 'a@example.com' }, line]),
    );
    expect((await finished(api, jobId)).counts.ticket).toEqual({
      read: 1,
      created: 1,
      skipped: 0,
      failed: 0,
    });
    const [ticket] = await everyRecord(api, '/ticket/list');
    const replies = await everyRecord(api, `/ticket/${ticket?.id}/replies`);
    expect(
      replies.map((r) => (r.attachedDocuments as { documentName: string }[]).map((d) => d.documentName)),
    ).toEqual(Array.from({ length: 12 }, (_, r) => [`r${r}.txt`]));
  });

  it('links a customer whose e-mail is here already, and later lines refer to that record', async () => {
    const api = clientFor(await newTenant());
    const existing = await api.create('/customer/insert', { name: 'Ada here', email: 'ADA@example.com' });
    const jobId = await importFile(
      api,
      ndjson([
        { kind: 'customer', externalId: 'c1', name: 'Ada', email: 'ada@example.com' },
        {
          kind: 'ticket',
          externalId: 't1',
          subject: 's',
          description: 'd',
          insertDate: T0,
          openedBy: { externalId: 'c1' },
        },
      ]),
    );
    const job = await finished(api, jobId);
    expect(job.counts.customer).toEqual({ read: 1, created: 0, skipped: 1, failed: 0 });
    const [ticket] = await everyRecord(api, '/ticket/list');
    expect(ticket?.openedBy).toMatchObject({ id: existing });
  });
});

describe('an import and webhooks', () => {
  it("sends one import.completed, and none of the imported records' events", async () => {
    const receiver = await startReceiver();
    try {
      const api = clientFor(await newTenant());
      const created = await api.post('/webhook/insert', { url: `${receiver.url}/hooks` });
      expect(created.status).toBe(201);
      receiver.secrets.set('/hooks', created.body.secret);
      // A change of its own, before the import: delivered as usual.
      const customer = await api.create('/customer/insert', { name: 'Here', email: 'here@example.com' });
      const jobId = await importFile(api, ndjson(helpDesk(5)));
      await finished(api, jobId);
      await eventually(
        'import.completed is delivered',
        () => receiver.deliveries.some((d) => d.type === 'import.completed'),
        WITHIN_MS,
      );
      // Time for any storm to arrive (the fan-out reads the stream every 50 ms).
      await new Promise((r) => setTimeout(r, 1500));
      const types = receiver.deliveries.filter((d) => d.type !== 'ticket_type.created');
      expect(types.map((d) => [d.type, d.event.resourceId])).toEqual([
        ['customer.created', customer],
        ['import.completed', jobId],
      ]);
      expect(types[1]?.event.resource).toMatchObject({ status: 'completed', totals: { created: 10 } });
    } finally {
      await receiver.stop();
    }
  });
});

describe('the import routes', () => {
  it('refuse to start without a file, start twice alike, and never start an ended job', async () => {
    const api = clientFor(await newTenant());
    const created = await api.post('/import', undefined);
    const early = await api.put(`/import/${created.body.id}/start`);
    expect(early.status).toBe(409);
    expect(early.body.type).toBe('urn:helpdesk:problem:import-file-missing');
    // While created, each read signs a fresh upload address.
    expect((await api.get(`/import/${created.body.id}`)).body.uploadUrl).toMatch(/^http/);
    const jobId = await importFile(api, ndjson(helpDesk(1)));
    expect((await api.put(`/import/${jobId}/start`)).status).toBe(200);
    await finished(api, jobId);
    const late = await api.put(`/import/${jobId}/start`);
    expect(late.status).toBe(409);
    expect(late.body.type).toBe('urn:helpdesk:problem:import-finished');
    expect((await api.put(`/import/${jobId}/cancel`)).status).toBe(409);
  });

  it('fails a job whose file is replaced after it started, reading none of the new file', async () => {
    const api = clientFor(await newTenant());
    const created = await api.post('/import', undefined);
    const put = (body: string) =>
      fetch(created.body.uploadUrl, {
        method: 'PUT',
        body,
        headers: { 'content-type': 'application/x-ndjson' },
      });
    expect((await put(ndjson(helpDesk(40)))).status).toBe(200);
    expect((await api.put(`/import/${created.body.id}/start`)).status).toBe(200);
    expect(
      (await put(ndjson([{ kind: 'customer', externalId: 'x', name: 'X', email: 'x@example.com' }]))).status,
    ).toBe(200);
    const job = await finished(api, created.body.id, 'failed');
    expect(job).toMatchObject({ reason: expect.stringContaining('replaced') });
    expect((await everyRecord(api, '/customer/list')).map((c) => c.email)).not.toContain('x@example.com');
  });

  it('cancel stops a job; what it wrote is what it counted', async () => {
    const api = clientFor(await newTenant());
    const jobId = await importFile(api, ndjson(helpDesk(80)));
    await eventually(
      'some lines are done',
      async () => (await api.get(`/import/${jobId}`)).body.linesRead > 5,
      WITHIN_MS,
    );
    const cancelled = await api.put(`/import/${jobId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    // The chunk in progress settles, then nothing more moves.
    await new Promise((r) => setTimeout(r, 3000));
    const job = (await api.get(`/import/${jobId}`)).body;
    expect(job.status).toBe('cancelled');
    const tickets = await everyRecord(api, '/ticket/list');
    expect(tickets.length).toBe(job.counts.ticket.created);
    expect(tickets.length).toBeLessThan(80);
  });

  it("keep one tenant's jobs, files and errors from every other", async () => {
    const a = clientFor(await newTenant());
    const tenantB = await newTenant();
    const b = clientFor(tenantB);
    const jobId = await importFile(a, ndjson(['{broken']));
    await finished(a, jobId);
    for (const [method, path] of [
      ['GET', `/import/${jobId}`],
      ['GET', `/import/${jobId}/errors`],
      ['PUT', `/import/${jobId}/start`],
      ['PUT', `/import/${jobId}/cancel`],
    ] as const) {
      const res = await b.send(method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    // B's upload address names B's own file: it cannot reach A's.
    const other = await b.post('/import', undefined);
    expect(new URL(other.body.uploadUrl).pathname).toMatch(
      new RegExp(`/imports/${tenantB.clientId}/${other.body.id}\\.ndjson$`),
    );
  });
});
