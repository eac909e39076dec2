import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TICKET_FIELDS_FILE, ticketFieldsText } from '../../local/view-fields';
import type { DetailParts, TicketParts } from '../../shared/domain/ticket-reads';
import { payloadBytes } from '../../shared/http/byte-budget';
import { compatFor } from '../../shared/http/compat';
import { agentView, customerView, lookupView, RECORD_VIEWS } from '../../shared/http/views/records';
import { noteView, replyView, ticketDetailView, ticketView } from '../../shared/http/views/ticket';
import { TICKET_FIELDS } from '../../shared/http/views/ticket-fields';
import { routeOf } from '../../shared/routes';
import { SOURCES, STATUSES } from '../../shared/schemas/ticket';
import { ticketDetailView as ticketDetailSchema, ticketSummaryView } from '../../shared/schemas/views';
import type { AgentRecord, CustomerRecord, StoredLookup } from '../../shared/store/entities/records';
import type {
  DocumentRecord,
  NoteRecord,
  ReplyRecord,
  TicketRecord,
} from '../../shared/store/entities/ticket';
import type { EntityKind } from '../../shared/store/keys';
import { PAGE_BYTES } from '../../shared/store/pages';
import type { Related } from '../../shared/store/tickets';
import { customer, id, NOW, SEED_TICKET, ticket } from './fixtures';

const BASE = 'https://api.example.com';
const STANDARD = compatFor(routeOf('ticketDetail'), 'standard');
const DESKERO = compatFor(routeOf('ticketDetail'), 'deskero');

const CUSTOMER_FIELDS = [
  'id',
  'name',
  'birthDate',
  'email',
  'phoneNumber',
  'faxNumber',
  'mobileNumber',
  'address',
  'city',
  'province',
  'state',
  'postalNumber',
  'skypeAddress',
  'msnAddress',
  'gtalkAddress',
  'twitterAccountUrl',
  'facebookAccountUrl',
  'linkedinAccountUrl',
  'googleAccountUrl',
  'youtubeAccountUrl',
  'registrationChannel',
  'topClient',
  'profilePhotoUrl',
  'profilePhotoBlob',
  'signature',
  'memo',
  'website',
  'company',
  'language',
  'account',
  'insertByAgentId',
  'customFields',
];

describe('customerView', () => {
  it('has every seed field, in order, null when empty, and nothing the store keeps for itself', () => {
    const stored = {
      ...customer(),
      version: 3,
      updatedAt: NOW,
      refCount: 2,
      tenantId: 'tenant1',
    } as unknown as CustomerRecord;
    const view = customerView(stored, BASE);
    expect(Object.keys(view)).toEqual(CUSTOMER_FIELDS);
    expect(view).toEqual({
      ...Object.fromEntries(CUSTOMER_FIELDS.map((f) => [f, null])),
      id: id(1),
      name: 'Ada',
      email: 'ada@example.com',
      topClient: false,
      language: 'en',
      profilePhotoUrl: `${BASE}/customer/photo/${id(1)}`,
    });
  });

  it('keeps false, 0 and empty values that are not missing', () => {
    const view = customerView(customer({ topClient: false, birthDate: 0, customFields: {} }), BASE);
    expect(view).toMatchObject({ topClient: false, birthDate: 0, customFields: {} });
  });

  it('never returns the password or its hash, nor the stored photo location', () => {
    const c = customer({
      account: { username: 'ada', passwordHash: 'scrypt$secret-hash' },
      photo: { key: 't/tenant1/customer-photo/p1', contentType: 'image/png', size: 10 },
    });
    const view = customerView(c, BASE);
    expect(view.account).toEqual({ username: 'ada' });
    expect(view.profilePhotoBlob).toBeNull();
    expect(view.profilePhotoUrl).toBe(`${BASE}/customer/photo/${id(1)}`);
    const text = JSON.stringify(view);
    expect(text).not.toContain('secret-hash');
    expect(text).not.toContain('passwordHash');
    expect(text).not.toContain('customer-photo/p1');
    expect(customerView(customer({ account: { username: null, passwordHash: 'h' } }), BASE).account).toEqual({
      username: null,
    });
  });
});

describe('agent and lookup views', () => {
  it('show the agent fields only', () => {
    const agent = {
      id: id(2),
      createdAt: NOW,
      name: 'Grace',
      email: 'g@example.com',
      language: 'it',
      version: 1,
    } as AgentRecord;
    expect(agentView(agent)).toEqual({
      id: id(2),
      name: 'Grace',
      email: 'g@example.com',
      phoneNumber: null,
      language: 'it',
      signature: null,
    });
  });

  it('show a lookup by its own name field with its labels', () => {
    const labels = { en: 'Incident', it: 'Incidente', es: 'Incidente', fr: 'Incident' };
    const stored = { id: id(3), createdAt: NOW, type: 'incident', labels, version: 2 } as StoredLookup;
    expect(lookupView('type')(stored)).toEqual({ id: id(3), type: 'incident', labels });
    expect(RECORD_VIEWS.TICKET_AREA({ id: id(4), area: 'billing', labels } as never, BASE)).toEqual({
      id: id(4),
      area: 'billing',
      labels,
    });
  });
});

describe('ticketView', () => {
  it('copies the fields its response schema names, listed in a file generated from it (else: npm run openapi)', () => {
    expect(readFileSync(TICKET_FIELDS_FILE, 'utf8')).toBe(ticketFieldsText());
  });

  const records: Record<string, Record<string, unknown>> = {
    [`CUSTOMER ${id(1)}`]: { ...customer() },
    [`AGENT ${id(2)}`]: { id: id(2), name: 'Grace', email: 'g@example.com' },
    [`AGENT ${id(3)}`]: { id: id(3), name: 'Linus', email: 'l@example.com' },
    [`TICKET_TYPE ${id(5)}`]: { id: id(5), type: 'incident', labels: { en: 'Incident' } },
  };
  const related: Related = (kind: EntityKind, key: string) => records[`${kind} ${key}`];

  const doc = (n: number, replyId: string | null): DocumentRecord => ({
    id: id(300 + n),
    ticketId: id(100),
    replyId,
    documentName: `file${n}.pdf`,
    documentType: 'application/pdf',
    size: 10,
    checksum: 'abc',
    key: `t/tenant1/ticket/${id(100)}/${id(300 + n)}`,
    addedAt: NOW,
    position: n,
  });
  const parts: TicketParts = {
    replies: [
      { id: id(200), ticketId: id(100), text: 'hello', replyDate: NOW + 1, replyFromOperator: id(2) },
      // Its author was deleted since.
      { id: id(201), ticketId: id(100), text: 'again', replyDate: NOW + 2, replyFromOperator: id(9) },
    ],
    notes: [
      {
        id: id(250),
        ticketId: id(100),
        note: 'n',
        insertBy: id(3),
        assignedTo: null,
        date: NOW,
        remindMe: null,
      },
    ],
    documents: [doc(0, null), doc(1, id(200))],
  };
  const t = ticket({ assignedTo: id(2), cc: [id(3)], type: id(5), tags: ['a', 'b'], status: 'on hold' });

  // The seed's fields in its order, the conversation and files in their places, then ours: the
  // response schema's other fields, in its order.
  const DETAIL_FIELDS = [
    ...SEED_TICKET,
    ...Object.keys(ticketSummaryView.shape).filter((f) => !SEED_TICKET.includes(f)),
  ];
  const LIST_ONLY_MISSING = ['replies', 'attachedDocuments', 'ticketNotes'];

  it('in a detail, has every seed field in order, references expanded, empty ones null', () => {
    const view = ticketView({ ...t, version: 4, updatedAt: NOW } as never, related, BASE, STANDARD, parts);
    expect(Object.keys(view)).toEqual(DETAIL_FIELDS);
    expect(view).toMatchObject({
      id: id(100),
      closedDate: null,
      assignedTo: {
        id: id(2),
        name: 'Grace',
        email: 'g@example.com',
        phoneNumber: null,
        language: null,
        signature: null,
      },
      cc: [expect.objectContaining({ id: id(3), name: 'Linus' })],
      openedBy: expect.objectContaining({ id: id(1), profilePhotoUrl: `${BASE}/customer/photo/${id(1)}` }),
      tags: [{ tag: 'a' }, { tag: 'b' }],
      status: {
        status: 'on hold',
        labels: { en: 'On hold', it: 'In attesa', es: 'En espera', fr: 'En attente' },
      },
      source: { source: 'web', labels: { en: 'Web', it: 'Web', es: 'Web', fr: 'Web' } },
      type: { id: id(5), type: 'incident', labels: { en: 'Incident' } },
      area: null,
      group: null,
      memo: null,
      tweetId: null,
      toReply: true,
      toReplyCustomer: false,
      externalId1: null,
    });
  });

  it('under the deskero profile, reads the status on hold as onhold, with the same labels', () => {
    const standard = ticketView(t, related, BASE, STANDARD);
    const deskero = ticketView(t, related, BASE, DESKERO);
    expect(deskero.status).toEqual({
      status: 'onhold',
      labels: (standard.status as { labels: unknown }).labels,
    });
    expect({ ...deskero, status: null }).toEqual({ ...standard, status: null });
    const detail = ticketDetailView(
      t,
      { ...parts, allReplies: true, allNotes: true },
      related,
      BASE,
      DESKERO,
    );
    expect(detail.status).toMatchObject({ status: 'onhold' });
    for (const status of ['opened', 'solved', 'closed'] as const) {
      expect(ticketView({ ...t, status }, related, BASE, DESKERO).status).toMatchObject({ status });
    }
  });

  it('in a detail, carries replies with their documents, notes, and the ticket documents with download URLs', () => {
    const view = ticketView(t, related, BASE, STANDARD, parts);
    const download = (n: number) => ({
      id: id(300 + n),
      documentName: `file${n}.pdf`,
      documentType: 'application/pdf',
      size: 10,
      checksum: 'abc',
      downloadUrl: `${BASE}/ticket/${id(100)}/attachment/${id(300 + n)}`,
    });
    expect(view.attachedDocuments).toEqual([download(0)]);
    expect(view.replies).toEqual([
      {
        id: id(200),
        text: 'hello',
        replyDate: NOW + 1,
        replyFromOperator: expect.objectContaining({ id: id(2) }),
        attachedDocuments: [download(1)],
      },
      { id: id(201), text: 'again', replyDate: NOW + 2, replyFromOperator: null, attachedDocuments: [] },
    ]);
    expect(view.ticketNotes).toEqual([
      {
        id: id(250),
        note: 'n',
        insertBy: expect.objectContaining({ id: id(3) }),
        assignedTo: null,
        date: NOW,
        remindMe: null,
      },
    ]);
    // The S3 key of a document is the store's business.
    expect(JSON.stringify(view)).not.toContain('t/tenant1/ticket');
  });

  it('in a list, has every field but replies, ticketNotes and attachedDocuments, still counting replies', () => {
    const view = ticketView({ ...t, numberOfReplies: 2 }, related, BASE, STANDARD);
    expect(Object.keys(view)).toEqual(DETAIL_FIELDS.filter((f) => !LIST_ONLY_MISSING.includes(f)));
    expect(view.numberOfReplies).toBe(2);
  });
});

/** The worst a character can cost in a response: 1 stored, `\u0001` in JSON, `\\u0001` in the payload. */
const worst = (n: number) => '\u0001'.repeat(n);
const fill = (n: number, i = 0) => `${i}${worst(n - String(i).length)}`;

/** Records with every text field at its limit, every character at its most expensive. */
const largest = {
  agent: (n: number): Record<string, unknown> => ({
    id: id(n),
    name: fill(200, n),
    email: `${'a'.repeat(64)}@${'b'.repeat(185)}.com`,
    phoneNumber: fill(50),
    language: 'en',
    signature: fill(10_000),
  }),
  customer: (): Record<string, unknown> => ({
    ...Object.fromEntries(
      [
        ['name', 200],
        ['phoneNumber', 50],
        ['faxNumber', 50],
        ['mobileNumber', 50],
        ['address', 1000],
        ['city', 200],
        ['province', 200],
        ['postalNumber', 20],
        ['skypeAddress', 254],
        ['msnAddress', 254],
        ['gtalkAddress', 254],
        ['twitterAccountUrl', 2048],
        ['facebookAccountUrl', 2048],
        ['linkedinAccountUrl', 2048],
        ['googleAccountUrl', 2048],
        ['youtubeAccountUrl', 2048],
        ['registrationChannel', 100],
        ['signature', 10_000],
        ['memo', 10_000],
        ['website', 2048],
        ['company', 200],
      ].map(([field, n]) => [field, fill(n as number)]),
    ),
    id: id(1),
    email: `${'a'.repeat(64)}@${'b'.repeat(185)}.com`,
    birthDate: -1,
    state: 'GB',
    topClient: true,
    language: 'en',
    account: { username: fill(200) },
    insertByAgentId: fill(64),
    customFields: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [fill(100, i), fill(2000, i)])),
  }),
  lookup: (n: number, field: string) => ({
    id: id(n),
    [field]: fill(100),
    labels: { en: fill(200), it: fill(200), es: fill(200), fr: fill(200) },
  }),
  ticket: () =>
    ticket({
      subject: fill(500),
      description: fill(64_000),
      memo: fill(10_000),
      assignedTo: id(2),
      cc: Array.from({ length: 10 }, (_, i) => id(10 + i)),
      type: id(5),
      area: id(6),
      group: id(7),
      tags: Array.from({ length: 20 }, (_, i) => fill(100, i)),
      customFields: Array.from({ length: 50 }, (_, i) => ({ name: fill(100, i), value: fill(2000, i) })),
      messageUniqueId: fill(1000),
      tweetId: fill(100),
      facebookId: fill(100),
      linkedinId: fill(100),
      linkedinType: fill(100),
      googlePlusId: fill(100),
      googlePlusType: fill(100),
      youtubeId: fill(100),
      youtubeType: fill(100),
      customPortalId: fill(100),
      externalId1: fill(255),
    }),
};
const largestRelated: Related = (kind, key) => {
  if (kind === 'CUSTOMER') return largest.customer();
  if (kind === 'AGENT') return largest.agent(Number.parseInt(key, 16));
  const field = { TICKET_TYPE: 'type', TICKET_AREA: 'area', TICKET_GROUP: 'group' }[kind as string] as string;
  return largest.lookup(Number.parseInt(key, 16), field);
};

const reply = (n: number, text: string, replyFromOperator: string | null = null): ReplyRecord => ({
  id: id(1000 + n),
  ticketId: id(100),
  text,
  replyDate: NOW + n,
  replyFromOperator,
});
const note = (n: number, text: string): NoteRecord => ({
  id: id(5000 + n),
  ticketId: id(100),
  note: text,
  insertBy: id(2),
  assignedTo: id(3),
  date: NOW + n,
  remindMe: null,
});
const detailParts = (
  replies: ReplyRecord[],
  notes: NoteRecord[],
  over: Partial<DetailParts> = {},
): DetailParts => ({
  replies,
  notes,
  documents: [],
  allReplies: true,
  allNotes: true,
  ...over,
});

describe('the largest records the API accepts', () => {
  it('a ticket as a list record takes about half of a page budget, so a page always has room for one', () => {
    const bytes = payloadBytes(ticketView(largest.ticket(), largestRelated, BASE, STANDARD));
    // ~3.1 MB: a page always has room for one whole record, and a detail for more than the ticket
    expect(bytes).toBeLessThan(PAGE_BYTES * 0.55);
  });

  it('a reply with its author, and a note with two agents, take a small part of a budget', () => {
    const r = replyView(reply(1, fill(32_000), id(2)), { documents: [] }, largestRelated, BASE);
    expect(payloadBytes(r)).toBeLessThan(PAGE_BYTES / 10);
    expect(payloadBytes(noteView(note(1, fill(10_000)), largestRelated, BASE))).toBeLessThan(PAGE_BYTES / 10);
  });
});

describe('ticketDetailView', () => {
  const related: Related = (kind, key) => (kind === 'AGENT' ? { id: key, name: 'Grace' } : { id: key });
  const t = ticket();

  // The detail is written as one literal for speed; every other shape is filled from the
  // schema's field list. Any ticket, any fields present or absent: the same fields, values and
  // order, the conversation in the seed's places, then the detail's own six.
  const DETAIL_TAIL = Object.keys(ticketDetailSchema.shape).filter(
    (key) =>
      !(key in ticketSummaryView.shape) && !['replies', 'attachedDocuments', 'ticketNotes'].includes(key),
  );
  // What a stored ticket may lack: every field but those every ticket has (`mergedTickets` is
  // read from `merged`).
  const ALWAYS = [
    'id',
    'number',
    'subject',
    'description',
    'insertDate',
    'priority',
    'numberOfReplies',
    'openedBy',
    'status',
    'source',
    'mergedTickets',
  ];
  const OPTIONAL = [...TICKET_FIELDS.filter((f) => !ALWAYS.includes(f)), 'merged'];
  const text = fc.option(fc.string({ maxLength: 8 }));
  const anyTicket = fc
    .record({
      over: fc.record(
        {
          managedDate: fc.integer({ min: 0 }),
          closedDate: fc.option(fc.integer({ min: 0 })),
          priority: fc.integer({ min: 0, max: 3 }),
          status: fc.constantFrom(...STATUSES),
          source: fc.constantFrom(...SOURCES),
          assignedTo: fc.option(fc.constantFrom(id(2), id(3))),
          cc: fc.array(fc.constantFrom(id(2), id(3)), { maxLength: 3 }),
          tags: fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
          type: fc.option(fc.constant(id(5))),
          area: fc.option(fc.constant(id(6))),
          group: fc.option(fc.constant(id(7))),
          memo: text,
          customFields: fc.array(fc.record({ name: fc.string(), value: fc.string() }), { maxLength: 2 }),
          tweetId: text,
          tweetType: text,
          facebookId: text,
          facebookType: text,
          linkedinId: text,
          linkedinType: text,
          googlePlusId: text,
          googlePlusType: text,
          youtubeId: text,
          youtubeType: text,
          messageUniqueId: text,
          customPortalId: text,
          toReply: fc.option(fc.boolean()),
          toReplyCustomer: fc.option(fc.boolean()),
          externalId1: text,
          mergedInto: fc.option(fc.constant(id(8))),
          merged: fc.array(fc.record({ id: fc.constantFrom(id(9), id(10)), at: fc.integer({ min: 0 }) }), {
            maxLength: 2,
          }),
        },
        { requiredKeys: [] },
      ),
      absent: fc.subarray(OPTIONAL),
    })
    .map(({ over, absent }) => {
      const record: Record<string, unknown> = ticket(over as Partial<TicketRecord>);
      for (const field of absent) delete record[field];
      return record as unknown as TicketRecord;
    });

  it('has the fields and values of the ticket view for any ticket, in its order, then its own', () => {
    const referenced: Related = (kind, key) =>
      kind === 'AGENT'
        ? { id: key, name: `Agent ${key}` }
        : kind === 'CUSTOMER'
          ? { ...customer() }
          : { id: key };
    const parts = detailParts([reply(1, 'a', id(2))], [note(1, 'n')]);
    fc.assert(
      fc.property(anyTicket, fc.constantFrom(STANDARD, DESKERO), (t, compat) => {
        const detail = ticketDetailView(t, parts, referenced, BASE, compat);
        const withConversation = ticketView(t, referenced, BASE, compat, parts);
        expect(Object.keys(detail)).toEqual([...Object.keys(withConversation), ...DETAIL_TAIL]);
        const {
          documentsTruncated,
          documentsUrl,
          repliesTruncated,
          repliesUrl,
          notesTruncated,
          notesUrl,
          ...rest
        } = detail;
        expect(rest).toEqual(withConversation);
        const { replies, attachedDocuments, ticketNotes, ...fields } = rest;
        expect(fields).toStrictEqual(ticketView(t, referenced, BASE, compat));
      }),
    );
  });

  it('shows a short conversation whole, says nothing was left out, and where the whole conversation is', () => {
    const view = ticketDetailView(t, detailParts([reply(1, 'a')], [note(1, 'n')]), related, BASE, STANDARD);
    expect(view).toMatchObject({
      documentsTruncated: false,
      documentsUrl: `${BASE}/ticket/${id(100)}/documents`,
      replies: [expect.objectContaining({ id: id(1001) })],
      repliesTruncated: false,
      repliesUrl: `${BASE}/ticket/${id(100)}/replies`,
      ticketNotes: [expect.objectContaining({ id: id(5001) })],
      notesTruncated: false,
      notesUrl: `${BASE}/ticket/${id(100)}/notes`,
    });
  });

  it('keeps the earliest own documents that fit, and leaves the documents of the replies with them', () => {
    const document = (n: number, replyId: string | null): DocumentRecord => ({
      id: id(7000 + n),
      ticketId: id(100),
      replyId,
      documentName: worst(255),
      documentType: 'text/plain',
      size: 1,
      checksum: 'a'.repeat(64),
      key: 'k',
      addedAt: NOW + n,
      position: 0,
    });
    const own = Array.from({ length: 4000 }, (_, i) => document(i, null));
    const theirs = Array.from({ length: 10 }, (_, i) => document(5000 + i, id(1001)));
    const view = ticketDetailView(
      largest.ticket(),
      detailParts([reply(1, 'a')], [note(1, 'n')], { documents: [...own, ...theirs] }),
      largestRelated,
      BASE,
      STANDARD,
    );
    expect(payloadBytes(view)).toBeLessThanOrEqual(PAGE_BYTES);
    const shown = (view.attachedDocuments as { id: string }[]).map((d) => d.id);
    expect(shown.length).toBeGreaterThan(500);
    expect(shown).toEqual(own.slice(0, shown.length).map((d) => d.id));
    expect(view).toMatchObject({
      documentsTruncated: true,
      documentsUrl: `${BASE}/ticket/${id(100)}/documents`,
      repliesTruncated: false,
      notesTruncated: false,
    });
    expect((view.replies as { attachedDocuments: unknown[] }[])[0]?.attachedDocuments).toHaveLength(10);
  });

  it('says replies or notes were left out when the store did not read them all', () => {
    const view = ticketDetailView(
      t,
      detailParts([reply(1, 'a')], [], { allReplies: false, allNotes: false }),
      related,
      BASE,
      STANDARD,
    );
    expect(view).toMatchObject({ repliesTruncated: true, notesTruncated: true });
  });

  it('keeps the most recent of 48 CJK replies and 80 CJK notes (~7 MB) within the budget', () => {
    const replies = Array.from({ length: 48 }, (_, i) => reply(i, '漢'.repeat(32_000)));
    const notes = Array.from({ length: 80 }, (_, i) => note(i, '漢'.repeat(10_000)));
    const view = ticketDetailView(t, detailParts(replies, notes), related, BASE, STANDARD);
    expect(payloadBytes(view)).toBeLessThanOrEqual(PAGE_BYTES);
    const shown = (view.replies as { id: string }[]).map((r) => r.id);
    expect(shown).toEqual(replies.slice(48 - shown.length).map((r) => r.id));
    // the notes (2.4 MB) need less than half the room: all of them, and the replies get the rest
    expect(view.ticketNotes).toHaveLength(80);
    expect(view.notesTruncated).toBe(false);
    expect(shown.length).toBeGreaterThan(30);
    expect(view.repliesTruncated).toBe(true);
  });

  it('for any conversation: stays within the budget, shows the most recent, and flags exactly what it left out', () => {
    const text = fc.oneof(
      fc.constant('short'),
      fc.integer({ min: 1, max: 32_000 }).map((n) => '漢'.repeat(n)),
      fc.integer({ min: 1, max: 32_000 }).map((n) => worst(n)),
    );
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 60 }),
        fc.array(text, { maxLength: 60 }),
        (replyTexts, noteTexts) => {
          const replies = replyTexts.map((x, i) => reply(i, x));
          const notes = noteTexts.map((x, i) => note(i, x.slice(0, 10_000)));
          const view = ticketDetailView(
            largest.ticket(),
            detailParts(replies, notes),
            largestRelated,
            BASE,
            STANDARD,
          );
          expect(payloadBytes(view)).toBeLessThanOrEqual(PAGE_BYTES);
          const shownReplies = (view.replies as { id: string }[]).map((r) => r.id);
          const shownNotes = (view.ticketNotes as { id: string }[]).map((n) => n.id);
          expect(shownReplies).toEqual(replies.slice(replies.length - shownReplies.length).map((r) => r.id));
          expect(shownNotes).toEqual(notes.slice(notes.length - shownNotes.length).map((n) => n.id));
          expect(view.repliesTruncated).toBe(shownReplies.length < replies.length);
          expect(view.notesTruncated).toBe(shownNotes.length < notes.length);
        },
      ),
      { numRuns: 30 },
    );
  });
});
