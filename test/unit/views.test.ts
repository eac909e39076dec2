import { describe, expect, it } from 'vitest';
import type { Related, TicketParts } from '../../shared/domain/ticket-reads';
import { agentView, customerView, lookupView, RECORD_VIEWS } from '../../shared/http/views/records';
import { ticketView } from '../../shared/http/views/ticket';
import type { AgentRecord, CustomerRecord, StoredLookup } from '../../shared/store/entities/records';
import type { DocumentRecord } from '../../shared/store/entities/ticket';
import type { EntityKind } from '../../shared/store/keys';
import { customer, id, NOW, ticket } from './fixtures';

const BASE = 'https://api.example.com';

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
      version: 1,
    } as AgentRecord;
    expect(agentView(agent)).toEqual({
      id: id(2),
      name: 'Grace',
      email: 'g@example.com',
      phoneNumber: null,
      language: null,
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

  const DETAIL_FIELDS = [
    'id',
    'number',
    'subject',
    'description',
    'insertDate',
    'managedDate',
    'closedDate',
    'priority',
    'assignedTo',
    'cc',
    'openedBy',
    'numberOfReplies',
    'replies',
    'tags',
    'attachedDocuments',
    'status',
    'type',
    'area',
    'group',
    'memo',
    'source',
    'customFields',
    'ticketNotes',
    'tweetId',
    'tweetType',
    'facebookId',
    'facebookType',
    'linkedinId',
    'linkedinType',
    'googlePlusId',
    'googlePlusType',
    'youtubeId',
    'youtubeType',
    'messageUniqueId',
    'customPortalId',
    'toReply',
    'toReplyCustomer',
  ];
  const LIST_ONLY_MISSING = ['replies', 'attachedDocuments', 'ticketNotes'];

  it('in a detail, has every seed field in order, references expanded, empty ones null', () => {
    const view = ticketView({ ...t, version: 4, updatedAt: NOW } as never, related, BASE, parts);
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
    });
  });

  it('in a detail, carries replies with their documents, notes, and the ticket documents with download URLs', () => {
    const view = ticketView(t, related, BASE, parts);
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
    const view = ticketView({ ...t, numberOfReplies: 2 }, related, BASE);
    expect(Object.keys(view)).toEqual(DETAIL_FIELDS.filter((f) => !LIST_ONLY_MISSING.includes(f)));
    expect(view.numberOfReplies).toBe(2);
  });
});
