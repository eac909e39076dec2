import { clientFor, newTenant, type Tenant, type TenantClient } from '../local/tenant';
import type { TicketInput } from '../shared/schemas/ticket';
import { STATUSES } from '../shared/schemas/ticket';

/**
 * One tenant with the records tickets point at, and seeded tickets spread over every searchable
 * value (status, priority, assignee, type, area, group, tags) so each search fills whole pages.
 */
export interface Refs {
  customers: string[];
  agents: string[];
  types: string[];
  areas: string[];
  groups: string[];
}

export interface Fixture {
  tenant: Tenant;
  api: TenantClient;
  refs: Refs;
}

export const TAGS = ['billing', 'bug', 'vip', 'hardware', 'network'] as const;

const created = async (api: TenantClient, path: string, bodies: unknown[]): Promise<string[]> => {
  const ids: string[] = [];
  for (const body of bodies) ids.push(await api.create(path, body));
  return ids;
};

export const setupTenant = async (): Promise<Fixture> => {
  const tenant = await newTenant('bench');
  const api = clientFor(tenant);
  const n = (count: number) => Array.from({ length: count }, (_, i) => i);
  const refs: Refs = {
    customers: await created(
      api,
      '/customer/insert',
      n(20).map((i) => ({ name: `Customer ${i}`, email: `customer${i}@example.com`, company: 'Acme' })),
    ),
    agents: await created(
      api,
      '/agent/insert',
      n(5).map((i) => ({ name: `Agent ${i}`, email: `agent${i}@example.com` })),
    ),
    types: (await api.get('/ticketType/list')).body.type.records.map((r: { id: string }) => r.id),
    areas: await created(
      api,
      '/ticketArea/insert',
      ['billing', 'support', 'sales'].map((area) => ({ area })),
    ),
    groups: await created(
      api,
      '/ticketGroup/insert',
      ['first line', 'second line', 'experts'].map((group) => ({ group })),
    ),
  };
  return { tenant, api, refs };
};

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;

const DESCRIPTION =
  'The customer reports that the invoice for last month shows a duplicated line and asks for a ' +
  'corrected copy. Steps taken so far: checked the billing export, compared it with the order history ' +
  'and confirmed the duplicate. Waiting for the finance team to reissue the document.';

/** The i-th seeded ticket, as the validated body of POST /ticket/insert would be. */
export const seedTicket = (i: number, refs: Refs): TicketInput => ({
  subject: `Seeded ticket ${i}`,
  description: DESCRIPTION,
  openedBy: { id: pick(refs.customers, i) },
  assignedTo: i % 6 === 5 ? null : { id: pick(refs.agents, i) },
  type: { id: pick(refs.types, i) },
  area: { id: pick(refs.areas, i) },
  group: { id: pick(refs.groups, i) },
  status: pick(STATUSES, i),
  priority: i % 2 === 0 ? 0 : 1,
  tags: [pick(TAGS, i), pick(TAGS, i + 2)],
});

/** The ticket every detail measurement reads: 20 replies (every other one from an agent) and 5 notes. */
export const createDetailTicket = async ({ api, refs }: Fixture): Promise<string> => {
  const agent = refs.agents[0] as string;
  const id = await api.create('/ticket/insert', {
    subject: 'Invoice shows a duplicated line',
    description: 'The invoice for last month shows the same line twice. Please send a corrected copy.',
    openedBy: { id: refs.customers[0] },
    assignedTo: { id: agent },
    type: { id: refs.types[0] },
    area: { id: refs.areas[0] },
    group: { id: refs.groups[0] },
    tags: ['billing', 'vip'],
    replies: Array.from({ length: 20 }, (_, i) => benchReply(i, agent)),
  });
  for (let i = 0; i < 5; i++) {
    const res = await api.put(`/ticket/addNote/${id}`, {
      note: `Note ${i}: customer called again.`,
      insertBy: agent,
    });
    if (res.status !== 200) throw new Error(`addNote answered ${res.status}`);
  }
  return id;
};

/** What a realistic ticket points at: its customer, its agent and its type. */
export interface TicketRefs {
  customer: string;
  agent: string;
  type: string;
}

/** 1 024 characters (1 KB in UTF-8): the description of issue 12's realistic ticket. */
export const REALISTIC_DESCRIPTION = (() => {
  const text =
    'The customer reports that the invoice for last month shows a duplicated line and asks for a ' +
    'corrected copy before the end of the quarter. ';
  return text.repeat(Math.ceil(1024 / text.length)).slice(0, 1024);
})();

/** A reply of the bench: every other one (the 1st, 3rd, ...) from the agent. */
export const benchReply = (i: number, agent: string) => ({
  text: `Reply ${i}: we are looking into it and will get back to you shortly.`,
  ...(i % 2 === 0 ? { replyFromOperator: { id: agent } } : {}),
});

/**
 * Issue 12's realistic ticket, as a POST /ticket/insert body: a 1 KB description, a type, an
 * assigned agent, two tags, no area and no group; `replies` replies (the first from the agent).
 */
export const realisticTicket = (refs: TicketRefs, replies = 0) => ({
  subject: 'Invoice shows a duplicated line',
  description: REALISTIC_DESCRIPTION,
  openedBy: { id: refs.customer },
  assignedTo: { id: refs.agent },
  type: { id: refs.type },
  tags: ['billing', 'vip'],
  ...(replies > 0 ? { replies: Array.from({ length: replies }, (_, i) => benchReply(i, refs.agent)) } : {}),
});

/**
 * A tenant of its own whose `count` tickets each carry a conversation, as the detail ticket does
 * (20 replies, every other one from the agent, and 5 notes by the agent), all pointing at one
 * customer, agent and type: what a page of detail records costs when its tickets have something
 * to show, beside the summary page of the same tickets.
 */
export const conversationsTenant = async (count: number): Promise<{ api: TenantClient }> => {
  const tenant = await newTenant('bench-conversations');
  const api = clientFor(tenant);
  const refs: TicketRefs = {
    customer: await api.create('/customer/insert', { name: 'Talkative', email: 'talk@example.com' }),
    agent: await api.create('/agent/insert', { name: 'Patient Agent', email: 'patient@example.com' }),
    type: (await api.get('/ticketType/list')).body.type.records[0].id,
  };
  for (let i = 0; i < count; i++) {
    const id = await api.create('/ticket/insert', realisticTicket(refs, 20));
    for (let n = 0; n < 5; n++) {
      const res = await api.put(`/ticket/addNote/${id}`, {
        note: `Note ${n}: customer called again.`,
        insertBy: refs.agent,
      });
      if (res.status !== 200) throw new Error(`addNote answered ${res.status}`);
    }
  }
  return { api };
};

/**
 * A tenant of its own whose `count` realistic tickets all point at the same customer, agent
 * and type: a page of them reads 3 related records, where the main tenant's pages read up to
 * 20 customers, 5 agents and the lookups.
 */
export const sameReferencesTenant = async (
  count: number,
): Promise<{ api: TenantClient; refs: TicketRefs }> => {
  const tenant = await newTenant('bench-same-references');
  const api = clientFor(tenant);
  const refs: TicketRefs = {
    customer: await api.create('/customer/insert', { name: 'Only Customer', email: 'only@example.com' }),
    agent: await api.create('/agent/insert', { name: 'Only Agent', email: 'only.agent@example.com' }),
    type: (await api.get('/ticketType/list')).body.type.records[0].id,
  };
  for (let i = 0; i < count; i++) await api.create('/ticket/insert', realisticTicket(refs));
  return { api, refs };
};
