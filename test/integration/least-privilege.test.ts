import { DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeResponses } from '../../local/invoke';
import { type SqsLocal, startSqsLocal } from '../../local/sqs-local';
import { forgetVerifiedTokens } from '../../shared/auth/access-tokens';
import { revokeClient } from '../../shared/auth/clients';
import { config, resetConfig } from '../../shared/config';
import { forgetRateWindows } from '../../shared/http/rate-limit';
import { resetSqs } from '../../shared/queue/sqs';
import {
  AUTH_DYNAMO,
  type BlobArea,
  claimsRateLeases,
  type OperationId,
  type Route,
  routes,
} from '../../shared/routes';
import { searchEngine } from '../../shared/search/engine';
import { rebuildTenant } from '../../shared/search/rebuild';
import { customerEntity } from '../../shared/store/entities/records';
import { getRecord } from '../../shared/store/record-reads';
import { invoke, newTenant, type Tenant } from '../helpers/api';
import { actingAs, actingNow, recordAwsUsage, usedBy } from '../helpers/aws-usage';
import { finishCascades } from '../helpers/cascades';
import { jpeg, png } from '../helpers/images';
import { seedDocuments, seedReplies, seedTickets } from '../helpers/seed';
import { clientFor, type TenantClient, tenantWithCustomer } from '../helpers/tenant-client';

/**
 * Least privilege, derived: every route is exercised (its success paths and its main error
 * paths) while each DynamoDB command and S3 request its handler makes is recorded as the IAM
 * actions it needs (test/helpers/aws-usage.ts). What a route used must be exactly what the route
 * table declares for it (shared/routes.ts: `dynamo`, what its `auth` costs, the rate-limit leases
 * of authenticated routes, `blobs`), which is what its function is granted (infra/api-function.ts,
 * checked by test/infra/stack.test.ts): nothing used that is not granted, nothing granted that no
 * exercise used.
 *
 * Attribution: a route's requests run inside `as(<operationId>, ...)`, an AsyncLocalStorage
 * scope the recorder reads, so everything the handler awaits is credited to that route; every
 * response seen inside a scope must come from the scope's own route. Setup (tenants, seed data,
 * other routes' calls) runs outside any scope and is not recorded. Each scope starts as a new
 * Lambda instance of its function would (no verified tokens, no rate-limit leases cached): in
 * AWS every route has its own function.
 */

const misrouted: string[] = [];
let previousObserver: ReturnType<typeof observeResponses>;

let queues: SqsLocal;
beforeAll(async () => {
  // The import queue `PUT /import/{id}/start` sends a job's first step to (no worker reads it here).
  queues = await startSqsLocal({
    queues: [{ name: 'least-privilege-imports.fifo', visibilityTimeoutSeconds: 30 }],
  });
  process.env.SQS_ENDPOINT = queues.endpoint;
  process.env.IMPORT_QUEUE_URL = queues.queueUrl('least-privilege-imports.fifo');
  resetConfig();
  resetSqs();
  recordAwsUsage();
  previousObserver = observeResponses((route, request, result) => {
    previousObserver?.(route, request, result);
    const scope = actingNow();
    if (scope !== undefined && scope !== route.operationId)
      misrouted.push(`${request.method} ${request.rawUrl} reached ${route.operationId} inside ${scope}`);
  });
});
afterAll(async () => {
  await queues?.stop();
  observeResponses(previousObserver);
  expect(misrouted).toEqual([]);
});

/** Runs `work` as a fresh instance of `op`'s function, crediting what it uses to `op`. */
const as = async (op: OperationId, work: () => Promise<void>): Promise<void> => {
  forgetVerifiedTokens();
  forgetRateWindows();
  await actingAs(op, work);
};

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are read freely, as in the other tests
  body: any;
  headers: Record<string, string>;
}

/** Sends a request as `t` and expects `status`. */
const call = async (
  t: Tenant,
  status: number,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> => {
  const res = await invoke(method, path.replace(/^https?:\/\/[^/]+/, ''), {
    headers: {
      ...t.headers,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body }),
  });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res;
};
const get = (t: Tenant, status: number, path: string) => call(t, status, 'GET', path);

const UNKNOWN = 'ffffffffffffffffffffffff';

/** An import job of the tenant (its steps go to a queue of this file's own, which nothing reads). */
const newImport = async (t: Tenant): Promise<string> =>
  (await clientFor(t).post('/import', undefined)).body.id;
const upload = async (t: Tenant, job: string) => {
  const { uploadUrl } = (await clientFor(t).get(`/import/${job}`)).body;
  const put = await fetch(uploadUrl, {
    method: 'PUT',
    body: '{"kind":"customer","externalId":"c1","name":"Ada","email":"ada@example.com"}\n',
    headers: { 'content-type': 'application/x-ndjson' },
  });
  expect(put.status).toBe(200);
};
const uploadAndStart = async (t: Tenant, job: string) => {
  await upload(t, job);
  expect((await clientFor(t).put(`/import/${job}/start`)).status).toBe(200);
};
const PNG = png(2, 3);
const JPEG = jpeg(640, 480);
const ONCE = { 'idempotency-key': 'once' };
const inlineDoc = (name = 'a.txt') => ({
  documentName: name,
  documentType: 'text/plain',
  documentBase64: Buffer.from(`bytes of ${name}`).toString('base64'),
});

/** A presigned upload made and used as a client would. */
const uploaded = async (api: TenantClient, name = 'big.bin') => {
  const upload = (
    await api.post('/ticket/attachment/upload', { documentName: name, documentType: 'text/plain' })
  ).body;
  const put = await fetch(upload.uploadUrl, {
    method: 'PUT',
    body: 'uploaded bytes',
    headers: upload.headers,
  });
  expect(put.status).toBe(200);
  return { documentName: name, documentType: 'text/plain', uploadId: upload.uploadId as string };
};

/** A ticket with a customer's and an agent's reply, an agent's note and one stored document. */
const fullTicket = async (api: TenantClient, customer: string) => {
  const agent = await api.create('/agent/insert', { name: 'Agent', email: 'agent@example.com' });
  const id = await api.create('/ticket/insert', {
    subject: 's',
    description: 'd',
    openedBy: { id: customer },
    assignedTo: { id: agent },
    tags: ['red'],
    attachedDocuments: [inlineDoc()],
    replies: [{ text: 'first' }, { text: 'answer', replyFromOperator: { id: agent } }],
  });
  const note = await api.put(`/ticket/addNote/${id}`, { note: 'n', insertBy: agent, assignedTo: agent });
  expect(note.status).toBe(200);
  return { id, agent };
};

/** A ticket with one tag (a merge adds it, an unmerge takes it back). */
const plainTicket = (api: TenantClient, customer: string) =>
  api.create('/ticket/insert', {
    subject: 's',
    description: 'd',
    openedBy: { id: customer },
    tags: ['blue'],
  });

/** The etag of a record or ticket, for If-Match. */
const etagOf = async (api: TenantClient, path: string): Promise<string> => {
  const res = await api.get(path);
  expect(res.status).toBe(200);
  return res.headers.etag as string;
};

type Crud = 'customer' | 'agent' | 'ticketType' | 'ticketArea' | 'ticketGroup' | 'webhook';
const CRUD_BODIES: Record<
  Crud,
  { insert: (n: number) => unknown; update: unknown; search?: string; thenUpdate?: unknown }
> = {
  customer: {
    insert: (n) => ({ name: `C${n}`, email: `c${n}@example.com` }),
    update: { company: 'x' },
    search: 'email=c1@example.com',
  },
  agent: {
    insert: (n) => ({ name: `A${n}`, email: `a${n}@example.com` }),
    update: { name: 'renamed' },
    search: 'name=A1',
  },
  ticketType: { insert: (n) => ({ type: `type${n}` }), update: { labels: { en: 'T' } } },
  ticketArea: { insert: (n) => ({ area: `area${n}` }), update: { labels: { en: 'A' } } },
  ticketGroup: { insert: (n) => ({ group: `group${n}` }), update: { labels: { en: 'G' } } },
  // Paused, then enabled again: the update that starts a redelivery writes its item too.
  webhook: {
    insert: (n) => ({ url: `https://1.1.1.1/hooks/${n}` }),
    update: { enabled: false },
    thenUpdate: { enabled: true },
  },
};

type Exercise = () => Promise<void>;
type CrudRoute = 'List' | 'Detail' | 'Insert' | 'Update' | 'Delete';

/** The five routes of a record resource: pages and searches, 404, 412, replays and duplicates. */
const crudExercises = <P extends Crud>(prefix: P): Record<`${P}${CrudRoute}`, Exercise> => {
  const bodies = CRUD_BODIES[prefix];
  const op = (suffix: CrudRoute) => `${prefix}${suffix}` as OperationId;
  /** Lookups and people have unique values (names, e-mails): a second insert of a body is a 409. */
  const unique = prefix !== 'webhook';
  const tenantWith = async (count: number) => {
    const tenant = await newTenant();
    const api = clientFor(tenant);
    const ids: string[] = [];
    for (let n = 0; n < count; n++) ids.push(await api.create(`/${prefix}/insert`, bodies.insert(n)));
    return { tenant, api, ids };
  };
  return {
    [op('List')]: async () => {
      const { tenant } = await tenantWith(3);
      await as(op('List'), async () => {
        const first = Object.values((await get(tenant, 200, `/${prefix}/list`)).body)[0] as {
          nextQuery: string;
        };
        if (first.nextQuery) await get(tenant, 200, first.nextQuery);
        await get(tenant, 200, `/${prefix}/list?page=2`);
        if (bodies.search) await get(tenant, 200, `/${prefix}/list?${bodies.search}`);
      });
    },
    [op('Detail')]: async () => {
      const { tenant, ids } = await tenantWith(1);
      await as(op('Detail'), async () => {
        await get(tenant, 200, `/${prefix}/${ids[0]}`);
        await get(tenant, 404, `/${prefix}/${UNKNOWN}`);
      });
    },
    [op('Insert')]: async () => {
      const { tenant } = await tenantWith(0);
      await as(op('Insert'), async () => {
        await call(tenant, 201, 'POST', `/${prefix}/insert`, bodies.insert(1), unique ? ONCE : {});
        if (!unique) return;
        await call(tenant, 201, 'POST', `/${prefix}/insert`, bodies.insert(1), ONCE);
        await call(tenant, 409, 'POST', `/${prefix}/insert`, bodies.insert(1));
      });
    },
    [op('Update')]: async () => {
      const { tenant, api, ids } = await tenantWith(2);
      const path = `/${prefix}/update/${ids[0]}`;
      const ifMatch = { 'if-match': await etagOf(api, `/${prefix}/${ids[0]}`) };
      await as(op('Update'), async () => {
        await call(tenant, 200, 'PUT', path, bodies.update, ifMatch);
        await call(tenant, 412, 'PUT', path, bodies.update, ifMatch);
        if (bodies.thenUpdate) await call(tenant, 200, 'PUT', path, bodies.thenUpdate);
        await call(tenant, 404, 'PUT', `/${prefix}/update/${UNKNOWN}`, bodies.update);
        // Taking the other record's unique value.
        if (unique) await call(tenant, 409, 'PUT', path, bodies.insert(1));
      });
    },
    [op('Delete')]: async () => {
      const { tenant, api, ids } = await tenantWith(1);
      const path = `/${prefix}/delete/${ids[0]}`;
      const stale = { 'if-match': await etagOf(api, `/${prefix}/${ids[0]}`) };
      await api.put(`/${prefix}/update/${ids[0]}`, bodies.update);
      await as(op('Delete'), async () => {
        await call(tenant, 412, 'DELETE', path, undefined, stale);
        await call(tenant, 200, 'DELETE', path);
        await call(tenant, 404, 'DELETE', path);
      });
    },
  } as Record<`${P}${CrudRoute}`, Exercise>;
};

const exercises: Record<OperationId, Exercise> = {
  openapi: () => as('openapi', async () => void (await invoke('GET', '/openapi.json'))),
  docsPage: () => as('docsPage', async () => void (await invoke('GET', '/docs'))),
  docsRenderer: () => as('docsRenderer', async () => void (await invoke('GET', '/docs/redoc.standalone.js'))),

  oauthToken: async () => {
    const tenant = await newTenant();
    const revoked = await newTenant();
    await revokeClient(revoked.clientId);
    const basic = (apiToken: string) => ({ headers: { authorization: `Basic ${apiToken}` } });
    const wrong = Buffer.from(`${tenant.clientId}:${'x'.repeat(43)}`).toString('base64');
    const path = '/oauth/token?grant_type=client_credentials';
    await as('oauthToken', async () => {
      expect((await invoke('GET', path, basic(tenant.apiToken))).status).toBe(200);
      expect((await invoke('GET', path, basic(wrong))).status).toBe(401);
      expect((await invoke('GET', path, basic(revoked.apiToken))).status).toBe(401);
      expect((await invoke('GET', '/oauth/token?grant_type=password', basic(tenant.apiToken))).status).toBe(
        400,
      );
    });
  },

  eventList: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    await fullTicket(api, customer);
    await new Promise((resolve) => setTimeout(resolve, 150)); // past EVENT_FEED_LAG_MS of the tests
    await as('eventList', async () => {
      const first = await get(tenant, 200, '/event/list');
      await get(tenant, 200, first.body.event.nextQuery);
      await get(tenant, 200, `/event/list?since=${Date.now() - 60_000}&type=ticket.created,ticket.replied`);
      await get(tenant, 400, '/event/list?cursor=forged');
    });
  },

  ticketList: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    await fullTicket(api, customer);
    const bodies = Array.from({ length: 30 }, (_, i) => ({
      subject: `s${i}`,
      description: 'd',
      openedBy: { id: customer },
      tags: ['red'],
    }));
    await seedTickets(tenant.clientId, bodies);
    await as('ticketList', async () => {
      const first = await get(tenant, 200, '/ticket/list');
      await get(tenant, 200, first.body.ticket.nextQuery);
      const searches = ['page=2', 'status=opened', 'priority=0', `openedBy._id=${customer}`, 'tags=red'];
      for (const query of [...searches, 'managedDate=0', 'externalId1=x', 'page=2&tags=red'])
        await get(tenant, 200, `/ticket/list?${query}`);
    });
  },

  ticketSearch: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    await fullTicket(api, customer);
    const bodies = Array.from({ length: 30 }, (_, i) => ({
      subject: `router ${i}`,
      description: 'd',
      openedBy: { id: customer },
    }));
    await seedTickets(tenant.clientId, bodies);
    // The index as the stream would have it (no stream reader in this file).
    await rebuildTenant(await searchEngine(), tenant.clientId);
    await as('ticketSearch', async () => {
      const first = await get(tenant, 200, '/ticket/search?query=router');
      await get(tenant, 200, first.body.ticket.nextQuery);
      await get(tenant, 200, '/ticket/search?query=status:opened&sort=created&page=2');
      await get(tenant, 400, '/ticket/search?query=%22unclosed');
    });
  },

  customerSearch: async () => {
    const { tenant } = await tenantWithCustomer();
    await rebuildTenant(await searchEngine(), tenant.clientId);
    await as('customerSearch', async () => {
      await get(tenant, 200, '/customer/search?query=ada');
      await get(tenant, 400, '/customer/search?query=status:opened');
    });
  },

  ticketDetail: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const { id } = await fullTicket(api, customer);
    await as('ticketDetail', async () => {
      await get(tenant, 200, `/ticket/${id}`);
      await get(tenant, 404, `/ticket/${UNKNOWN}`);
    });
  },

  ticketDocuments: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const { id } = await fullTicket(api, customer);
    await seedDocuments(tenant.clientId, id, 30);
    await as('ticketDocuments', async () => {
      const first = await get(tenant, 200, `/ticket/${id}/documents`);
      await get(tenant, 200, first.body.document.nextQuery);
      await get(tenant, 404, `/ticket/${UNKNOWN}/documents`);
    });
  },

  ticketReplies: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const { id } = await fullTicket(api, customer);
    await seedReplies(tenant.clientId, id, 30);
    await as('ticketReplies', async () => {
      const first = await get(tenant, 200, `/ticket/${id}/replies`);
      await get(tenant, 200, first.body.reply.nextQuery);
      await get(tenant, 200, `/ticket/${id}/replies?page=2`);
      await get(tenant, 404, `/ticket/${UNKNOWN}/replies`);
    });
  },

  ticketNotes: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const { id } = await fullTicket(api, customer);
    for (let i = 0; i < 3; i++) await api.put(`/ticket/addNote/${id}`, { note: `n${i}` });
    await as('ticketNotes', async () => {
      await get(tenant, 200, `/ticket/${id}/notes`);
      await get(tenant, 200, `/ticket/${id}/notes?page=2`);
      await get(tenant, 404, `/ticket/${UNKNOWN}/notes`);
    });
  },

  ticketHistory: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const { id } = await fullTicket(api, customer);
    for (let i = 0; i < 3; i++) await api.put(`/ticket/reply/${id}`, { text: `r${i}` });
    await as('ticketHistory', async () => {
      await get(tenant, 200, `/ticket/${id}/history`);
      await get(tenant, 200, `/ticket/${id}/history?page=2`);
      await get(tenant, 404, `/ticket/${UNKNOWN}/history`);
    });
  },

  customerHistory: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    await api.put(`/customer/update/${customer}`, { company: 'Engines' });
    await as('customerHistory', async () => {
      await get(tenant, 200, `/customer/${customer}/history`);
      await get(tenant, 404, `/customer/${UNKNOWN}/history`);
    });
  },

  customerExport: async () => {
    const { tenant, customer } = await tenantWithCustomer();
    await as('customerExport', async () => {
      await call(tenant, 202, 'POST', `/customer/export/${customer}`, undefined, ONCE);
      await call(tenant, 404, 'POST', `/customer/export/${UNKNOWN}`);
    });
  },
  customerExportStatus: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const job = (await api.post(`/customer/export/${customer}`, undefined)).body.id as string;
    await as('customerExportStatus', async () => {
      await get(tenant, 200, `/customer/export/${job}`);
      await get(tenant, 404, `/customer/export/${UNKNOWN}`);
    });
    await finishCascades(tenant.clientId);
    await as('customerExportStatus', async () => void (await get(tenant, 200, `/customer/export/${job}`)));
  },
  customerErase: async () => {
    const { tenant, customer } = await tenantWithCustomer();
    await as('customerErase', async () => {
      await call(tenant, 202, 'POST', `/customer/erase/${customer}`, { dryRun: true });
      await call(tenant, 202, 'POST', `/customer/erase/${customer}`, {}, ONCE);
      await call(tenant, 404, 'POST', `/customer/erase/${customer}`, {});
    });
  },
  customerEraseStatus: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const job = (await api.post(`/customer/erase/${customer}`, {})).body.id as string;
    await as('customerEraseStatus', async () => {
      await get(tenant, 200, `/customer/erase/${job}`);
      await get(tenant, 404, `/customer/erase/${UNKNOWN}`);
    });
  },

  ticketInsert: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const agent = await api.create('/agent/insert', { name: 'A', email: 'a@example.com' });
    // A reply's author is checked to exist, not counted (unless the ticket also counts that agent).
    const author = await api.create('/agent/insert', { name: 'B', email: 'b@example.com' });
    const type = await api.create('/ticketType/insert', { type: 'billing' });
    const upload = await uploaded(api);
    const body = {
      subject: 's',
      description: 'd',
      openedBy: { id: customer },
      assignedTo: { id: agent },
      cc: [{ id: agent }],
      type: { id: type },
      tags: ['red', 'blue'],
      attachedDocuments: [inlineDoc(), upload],
      replies: [{ text: 'r', replyFromOperator: { id: author }, attachedDocuments: [inlineDoc('r.txt')] }],
    };
    await as('ticketInsert', async () => {
      await call(tenant, 201, 'POST', '/ticket/insert', body, ONCE);
      await call(tenant, 201, 'POST', '/ticket/insert', body, ONCE);
      // The upload was consumed: its id no longer names a file (S3 answers 404).
      await call(tenant, 400, 'POST', '/ticket/insert', {
        ...body,
        attachedDocuments: [upload],
        replies: [],
      });
      // A reference to nothing, found by the transaction after the documents were stored: removed again.
      const dangling = { ...body, attachedDocuments: [inlineDoc()], replies: [], type: { id: UNKNOWN } };
      await call(tenant, 400, 'POST', '/ticket/insert', dangling);
    });
  },

  ticketUpdate: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const { id, agent } = await fullTicket(api, customer);
    const ifMatch = { 'if-match': await etagOf(api, `/ticket/${id}`) };
    const upload = await uploaded(api);
    const author = await api.create('/agent/insert', { name: 'B', email: 'b@example.com' });
    const path = `/ticket/update/${id}`;
    await as('ticketUpdate', async () => {
      const body = {
        subject: 'changed',
        tags: ['blue'],
        status: 'solved',
        assignedTo: null,
        cc: [{ id: agent }],
        attachedDocuments: [inlineDoc('b.txt'), upload],
        replies: [
          { text: 'more', replyFromOperator: { id: author }, attachedDocuments: [inlineDoc('c.txt')] },
        ],
      };
      await call(tenant, 200, 'PUT', path, body, ifMatch);
      await call(tenant, 412, 'PUT', path, { subject: 'x' }, ifMatch);
      await call(tenant, 404, 'PUT', `/ticket/update/${UNKNOWN}`, { subject: 'x' });
      await call(tenant, 400, 'PUT', path, { attachedDocuments: [upload] });
      await call(tenant, 400, 'PUT', path, {
        type: { id: UNKNOWN },
        attachedDocuments: [inlineDoc('d.txt')],
      });
    });
  },

  ticketDelete: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const { id } = await fullTicket(api, customer);
    // More than one transaction could hold: the collection is swept after the commit.
    await seedReplies(tenant.clientId, id, 120);
    const stale = { 'if-match': await etagOf(api, `/ticket/${id}`) };
    await api.put(`/ticket/addNote/${id}`, { note: 'changes the version' });
    await as('ticketDelete', async () => {
      await call(tenant, 412, 'DELETE', `/ticket/delete/${id}`, undefined, stale);
      await call(tenant, 200, 'DELETE', `/ticket/delete/${id}`);
      await call(tenant, 404, 'DELETE', `/ticket/delete/${id}`);
    });
  },

  ticketTrashList: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    for (let i = 0; i < 27; i++) {
      const id = await api.create('/ticket/insert', {
        subject: `t${i}`,
        description: 'd',
        openedBy: { id: customer },
      });
      await api.del(`/ticket/delete/${id}`);
    }
    await as('ticketTrashList', async () => {
      const first = await get(tenant, 200, '/ticket/trash/list');
      expect(first.body.ticket.totalRecords).toBe(27);
      await get(tenant, 200, first.body.ticket.nextQuery);
    });
  },

  ticketRestore: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const { id } = await fullTicket(api, customer);
    await api.del(`/ticket/delete/${id}`);
    await as('ticketRestore', async () => {
      await call(tenant, 200, 'PUT', `/ticket/restore/${id}`, undefined, ONCE);
      await call(tenant, 200, 'PUT', `/ticket/restore/${id}`, undefined, ONCE);
      await call(tenant, 404, 'PUT', `/ticket/restore/${id}`);
    });
  },

  ticketPurge: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const { id } = await fullTicket(api, customer);
    await api.del(`/ticket/delete/${id}`);
    await as('ticketPurge', async () => {
      await call(tenant, 200, 'DELETE', `/ticket/purge/${id}`, undefined, ONCE);
      await call(tenant, 404, 'DELETE', `/ticket/purge/${id}`);
    });
  },

  ticketMerge: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const { id } = await fullTicket(api, customer);
    const other = await plainTicket(api, customer);
    await as('ticketMerge', async () => {
      await call(tenant, 200, 'PUT', `/ticket/merge/${id}`, { sources: [other] }, ONCE);
      await call(tenant, 200, 'PUT', `/ticket/merge/${id}`, { sources: [other] });
      await call(tenant, 409, 'PUT', `/ticket/merge/${other}`, { sources: [id] });
    });
  },

  ticketUnmerge: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const { id } = await fullTicket(api, customer);
    const other = await plainTicket(api, customer);
    expect((await api.put(`/ticket/merge/${id}`, { sources: [other] })).status).toBe(200);
    await as('ticketUnmerge', async () => {
      await call(tenant, 200, 'PUT', `/ticket/unmerge/${other}`, undefined, ONCE);
      await call(tenant, 200, 'PUT', `/ticket/unmerge/${other}`);
    });
  },

  ticketReply: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const { id, agent } = await fullTicket(api, customer);
    const upload = await uploaded(api);
    await as('ticketReply', async () => {
      const body = {
        text: 'hello',
        replyFromOperator: { id: agent },
        attachedDocuments: [inlineDoc(), upload],
      };
      await call(tenant, 200, 'PUT', `/ticket/reply/${id}`, body, ONCE);
      await call(tenant, 200, 'PUT', `/ticket/reply/${id}`, body, ONCE);
      await call(tenant, 400, 'PUT', `/ticket/reply/${id}`, { text: 'x', attachedDocuments: [upload] });
      await call(tenant, 400, 'PUT', `/ticket/reply/${id}`, {
        text: 'x',
        replyFromOperator: { id: UNKNOWN },
      });
      await call(tenant, 404, 'PUT', `/ticket/reply/${UNKNOWN}`, {
        text: 'x',
        attachedDocuments: [inlineDoc()],
      });
    });
  },

  ticketAddNote: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const { id, agent } = await fullTicket(api, customer);
    await as('ticketAddNote', async () => {
      const body = { note: 'n', insertBy: agent, assignedTo: agent };
      await call(tenant, 200, 'PUT', `/ticket/addNote/${id}`, body, ONCE);
      await call(tenant, 200, 'PUT', `/ticket/addNote/${id}`, body, ONCE);
      await call(tenant, 400, 'PUT', `/ticket/addNote/${id}`, { note: 'n', insertBy: UNKNOWN });
      await call(tenant, 404, 'PUT', `/ticket/addNote/${UNKNOWN}`, { note: 'n' });
    });
  },

  ticketBulk: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const { id, agent } = await fullTicket(api, customer);
    const other = await api.create('/ticket/insert', {
      subject: 's',
      description: 'd',
      openedBy: { id: customer },
    });
    const ifMatch = await etagOf(api, `/ticket/${id}`);
    const upload = await uploaded(api);
    const second = await uploaded(api, 'second.bin');
    const operations = [
      {
        op: 'insert',
        key: 'bulk-insert',
        body: {
          subject: 's',
          description: 'd',
          openedBy: { id: customer },
          assignedTo: { id: agent },
          attachedDocuments: [inlineDoc(), upload],
          replies: [{ text: 'r', replyFromOperator: { id: agent } }],
        },
      },
      // A reference to nothing, found by the transaction after the document was stored: removed again.
      {
        op: 'insert',
        body: { subject: 's', description: 'd', openedBy: { id: UNKNOWN }, attachedDocuments: [inlineDoc()] },
      },
      // Operations on one ticket run in their order: the second finds the upload consumed (S3's 404).
      { op: 'reply', id: other, body: { text: 'x', attachedDocuments: [second] } },
      { op: 'reply', id: other, body: { text: 'x', attachedDocuments: [second] } },
      { op: 'update', id, ifMatch, body: { subject: 'changed' } },
      { op: 'reply', id, body: { text: 'hello', replyFromOperator: { id: agent } } },
      { op: 'addNote', id, body: { note: 'n', insertBy: agent } },
      { op: 'delete', id: other },
    ];
    await as('ticketBulk', async () => {
      const first = await call(tenant, 200, 'POST', '/ticket/bulk', { operations });
      const statuses = first.body.results.map((r: { status: number }) => r.status);
      expect(statuses).toEqual([201, 400, 200, 400, 200, 200, 200, 200]);
      await call(tenant, 400, 'POST', '/ticket/bulk', { operations: [] });
    });
  },

  ticketAttachment: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const { id } = await fullTicket(api, customer);
    const doc = (await api.get(`/ticket/${id}`)).body.attachedDocuments[0];
    await as('ticketAttachment', async () => {
      await get(tenant, 302, `/ticket/${id}/attachment/${doc.id}`);
      await get(tenant, 404, `/ticket/${id}/attachment/${UNKNOWN}`);
    });
  },

  ticketAttachmentUpload: async () => {
    const tenant = await newTenant();
    await as('ticketAttachmentUpload', async () => {
      const path = '/ticket/attachment/upload';
      await call(tenant, 201, 'POST', path, { documentName: 'a', documentType: 'text/plain' });
      await call(tenant, 400, 'POST', path, { documentName: 'a', documentType: 'not a type' });
    });
  },

  ...crudExercises('customer'),
  customerInsert: async () => {
    const { tenant, api } = await tenantWithCustomer();
    const agent = await api.create('/agent/insert', { name: 'A', email: 'a@example.com' });
    await as('customerInsert', async () => {
      const body = {
        name: 'P',
        email: 'p@example.com',
        insertByAgentId: agent,
        profilePhotoBlob: PNG.toString('hex'),
      };
      await call(tenant, 201, 'POST', '/customer/insert', body, ONCE);
      await call(tenant, 201, 'POST', '/customer/insert', body, ONCE);
      // The duplicate's photo is stored before the transaction refuses it, then deleted.
      await call(tenant, 409, 'POST', '/customer/insert', body);
      await call(tenant, 400, 'POST', '/customer/insert', {
        name: 'Q',
        email: 'q@example.com',
        insertByAgentId: UNKNOWN,
      });
    });
  },
  customerUpdate: async () => {
    const { tenant, api } = await tenantWithCustomer();
    const agent = await api.create('/agent/insert', { name: 'A', email: 'a@example.com' });
    const id = await api.create('/customer/insert', {
      name: 'P',
      email: 'p@example.com',
      profilePhotoBlob: PNG.toString('hex'),
    });
    const path = `/customer/update/${id}`;
    const ifMatch = { 'if-match': await etagOf(api, `/customer/${id}`) };
    await as('customerUpdate', async () => {
      await call(
        tenant,
        200,
        'PUT',
        path,
        { insertByAgentId: agent, profilePhotoBlob: JPEG.toString('base64') },
        ifMatch,
      );
      await call(tenant, 412, 'PUT', path, { company: 'x' }, ifMatch);
      await call(tenant, 409, 'PUT', path, {
        email: 'ada@example.com',
        profilePhotoBlob: PNG.toString('hex'),
      });
      await call(tenant, 200, 'PUT', path, { profilePhotoBlob: null });
      await call(tenant, 404, 'PUT', `/customer/update/${UNKNOWN}`, { company: 'x' });
    });
  },
  customerDelete: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const id = await api.create('/customer/insert', {
      name: 'P',
      email: 'p@example.com',
      profilePhotoBlob: PNG.toString('hex'),
    });
    const stale = { 'if-match': await etagOf(api, `/customer/${id}`) };
    await api.put(`/customer/update/${id}`, { company: 'changes the version' });
    await api.create('/ticket/insert', { subject: 's', description: 'd', openedBy: { id: customer } });
    await as('customerDelete', async () => {
      await call(tenant, 412, 'DELETE', `/customer/delete/${id}`, undefined, stale);
      await call(tenant, 409, 'DELETE', `/customer/delete/${customer}`); // a ticket points at it
      await call(tenant, 200, 'DELETE', `/customer/delete/${id}`);
      await call(tenant, 404, 'DELETE', `/customer/delete/${id}`);
    });
  },
  customerBulk: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const agent = await api.create('/agent/insert', { name: 'A', email: 'a@example.com' });
    const gone = await api.create('/customer/insert', { name: 'G', email: 'g@example.com' });
    const photo = { profilePhotoBlob: PNG.toString('hex') };
    const operations = [
      {
        op: 'insert',
        key: 'bulk-c',
        body: { name: 'P', email: 'p@example.com', insertByAgentId: agent, ...photo },
      },
      // The duplicate's photo is stored before the transaction refuses it, then deleted.
      { op: 'insert', body: { name: 'Q', email: 'ada@example.com', ...photo } },
      { op: 'update', id: customer, body: { company: 'x' } },
      { op: 'delete', id: gone },
    ];
    await as('customerBulk', async () => {
      const first = await call(tenant, 200, 'POST', '/customer/bulk', { operations });
      expect(first.body.results.map((r: { status: number }) => r.status)).toEqual([201, 409, 200, 200]);
    });
  },
  customerPhoto: async () => {
    const { tenant, api, customer } = await tenantWithCustomer();
    const id = await api.create('/customer/insert', {
      name: 'P',
      email: 'p@example.com',
      profilePhotoBlob: PNG.toString('hex'),
    });
    const lost = await api.create('/customer/insert', {
      name: 'L',
      email: 'l@example.com',
      profilePhotoBlob: PNG.toString('hex'),
    });
    // A photo whose object is gone, as for a read racing the update that replaced it: still a 404.
    const { photo } = await getRecord(customerEntity, tenant.clientId, lost);
    const s3 = new S3Client({
      region: config().AWS_REGION,
      endpoint: config().S3_ENDPOINT,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    await s3.send(new DeleteObjectCommand({ Bucket: config().BUCKET_NAME, Key: photo?.key }));
    s3.destroy();
    await as('customerPhoto', async () => {
      await get(tenant, 200, `/customer/photo/${id}`);
      await get(tenant, 404, `/customer/photo/${customer}`);
      await get(tenant, 404, `/customer/photo/${lost}`);
      await get(tenant, 404, `/customer/photo/${UNKNOWN}`);
    });
  },

  ...crudExercises('agent'),
  ...crudExercises('ticketType'),
  ...crudExercises('ticketArea'),
  ...crudExercises('ticketGroup'),
  ...crudExercises('webhook'),

  importCreate: async () => {
    const tenant = await newTenant();
    await as('importCreate', async () => void (await call(tenant, 201, 'POST', '/import', undefined, ONCE)));
  },
  importDetail: async () => {
    const tenant = await newTenant();
    const job = await newImport(tenant);
    await as('importDetail', async () => {
      await get(tenant, 200, `/import/${job}`);
      await get(tenant, 404, `/import/${UNKNOWN}`);
    });
    await uploadAndStart(tenant, job);
    await as('importDetail', async () => void (await get(tenant, 200, `/import/${job}`)));
  },
  importStart: async () => {
    const tenant = await newTenant();
    const job = await newImport(tenant);
    await as('importStart', async () => {
      await call(tenant, 409, 'PUT', `/import/${job}/start`);
      await call(tenant, 404, 'PUT', `/import/${UNKNOWN}/start`);
    });
    await upload(tenant, job);
    await as('importStart', async () => {
      await call(tenant, 200, 'PUT', `/import/${job}/start`, undefined, ONCE);
      // Running: its current step queued again.
      await call(tenant, 200, 'PUT', `/import/${job}/start`);
    });
  },
  importCancel: async () => {
    const tenant = await newTenant();
    const job = await newImport(tenant);
    await as('importCancel', async () => {
      await call(tenant, 200, 'PUT', `/import/${job}/cancel`, undefined, ONCE);
      await call(tenant, 200, 'PUT', `/import/${job}/cancel`);
      await call(tenant, 404, 'PUT', `/import/${UNKNOWN}/cancel`);
    });
  },
  importErrors: async () => {
    const tenant = await newTenant();
    const job = await newImport(tenant);
    await as('importErrors', async () => {
      await get(tenant, 200, `/import/${job}/errors`);
      await get(tenant, 404, `/import/${UNKNOWN}/errors`);
    });
  },
  webhookDeliveries: async () => {
    const tenant = await newTenant();
    const id = await clientFor(tenant).create('/webhook/insert', { url: 'https://1.1.1.1/hooks' });
    await as('webhookDeliveries', async () => {
      await get(tenant, 200, `/webhook/${id}/deliveries`);
      await get(tenant, 200, `/webhook/${id}/deliveries?page=2`);
      await get(tenant, 404, `/webhook/${UNKNOWN}/deliveries`);
    });
  },
};

/** What the route table grants a route, spelled as the recorder spells what was used. */
const declared = (r: Route): string[] => [
  ...(r.dynamo ?? []),
  ...AUTH_DYNAMO[r.auth].map((action) => `auth:${action}`),
  ...(claimsRateLeases(r) ? ['UpdateItem:RATE#'] : []),
  ...(Object.entries(r.blobs ?? {}) as [BlobArea | 'listBucket', readonly string[] | true][]).flatMap(
    ([area, actions]) =>
      area === 'listBucket' ? ['s3:ListBucket'] : (actions as string[]).map((a) => `s3:${a} ${area}`),
  ),
];

describe('what each route uses is exactly what it is granted', () => {
  it('has an exercise for every route', () => {
    expect(Object.keys(exercises).sort()).toEqual(routes.map((r) => r.operationId).sort());
  });

  for (const route of routes) {
    it(route.operationId, async () => {
      await exercises[route.operationId as OperationId]();
      const used = [...usedBy(route.operationId)];
      const granted = declared(route);
      expect({
        usedButNotGranted: used.filter((p) => !granted.includes(p)).sort(),
        grantedButNotUsed: granted.filter((p) => !used.includes(p)).sort(),
      }).toEqual({ usedButNotGranted: [], grantedButNotUsed: [] });
      expect(misrouted).toEqual([]);
    });
  }
});
