import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillLabels } from '../../shared/domain/lookups';
import { relatedOf } from '../../shared/domain/ticket-reads';
import {
  closedDateAfter,
  newTicket,
  numberingYear,
  replyTurn,
  storedFields,
  ticketDefaults,
  ticketNumber,
  updatedTicket,
} from '../../shared/domain/ticket-rules';
import { STATUSES, type TicketInput, ticketFieldSchemas, ticketInsert } from '../../shared/schemas/ticket';
import type { StoredLookup } from '../../shared/store/entities/records';
import type { NoteRecord, ReplyRecord } from '../../shared/store/entities/ticket';
import { id, NOW, ticket } from './fixtures';

describe('ticketDefaults', () => {
  it('is null for every nullable field, [] for the lists, and the documented values for the rest', () => {
    // Which fields are nullable and which are lists, by what the request schema accepts (the
    // body-only lists, replies and attachedDocuments, have no default).
    const accepting = (value: unknown) =>
      Object.entries(ticketFieldSchemas()).flatMap(([name, schema]) =>
        name !== 'replies' && name !== 'attachedDocuments' && schema.safeParse(value).success
          ? [[name, value]]
          : [],
      );
    expect(ticketDefaults()).toEqual({
      ...Object.fromEntries([...accepting(null), ...accepting([])]),
      priority: 0,
      status: 'opened',
      source: 'web',
      toReply: true,
      toReplyCustomer: false,
    });
    expect(ticketDefaults()).toMatchObject({
      type: null,
      area: null,
      group: null,
      assignedTo: null,
      cc: [],
      priority: 0,
      status: 'opened',
      source: 'web',
      tags: [],
      memo: null,
      customFields: [],
      tweetId: null,
      tweetType: null,
      facebookId: null,
      facebookType: null,
      linkedinId: null,
      linkedinType: null,
      googlePlusId: null,
      googlePlusType: null,
      youtubeId: null,
      youtubeType: null,
      messageUniqueId: null,
      customPortalId: null,
      externalId1: null,
      toReply: true,
      toReplyCustomer: false,
    });
  });

  it('is itself a valid ticket body once the required fields are added', () => {
    const body = { ...ticketDefaults(), subject: 's', description: 'd', openedBy: { id: id(1) } };
    expect(ticketInsert.safeParse(body).success).toBe(true);
  });
});

describe('ticket numbers', () => {
  it('are <sequence>/<UTC year>, the year turning at midnight UTC', () => {
    expect(ticketNumber(7, Date.UTC(2025, 11, 31, 23, 59, 59, 999))).toBe('7/2025');
    expect(ticketNumber(1, Date.UTC(2026, 0, 1, 0, 0, 0, 0))).toBe('1/2026');
    expect(numberingYear(Date.UTC(2026, 0, 1))).toBe(2026);
    expect(numberingYear(Date.UTC(2026, 0, 1) - 1)).toBe(2025);
  });
});

describe('closedDateAfter', () => {
  it('sets the date when a new ticket is created closed, else none', () => {
    expect(closedDateAfter(undefined, 'closed', NOW)).toBe(NOW);
    for (const status of ['opened', 'on hold', 'solved', undefined] as const) {
      expect(closedDateAfter(undefined, status, NOW)).toBeNull();
    }
  });

  it('sets it on becoming closed, keeps it while unchanged, clears it on reopening', () => {
    const open = { status: 'opened' as const, closedDate: null };
    const closed = { status: 'closed' as const, closedDate: 1234 };
    expect(closedDateAfter(open, 'closed', NOW)).toBe(NOW);
    expect(closedDateAfter(closed, 'closed', NOW)).toBe(1234);
    expect(closedDateAfter(closed, undefined, NOW)).toBe(1234);
    expect(closedDateAfter(closed, 'opened', NOW)).toBeNull();
    expect(closedDateAfter(closed, 'solved', NOW)).toBeNull();
    expect(closedDateAfter(open, 'on hold', NOW)).toBeNull();
  });

  it('is set exactly when the status after the write is closed', () => {
    const status = fc.constantFrom(...STATUSES);
    fc.assert(
      fc.property(status, fc.option(status, { nil: undefined }), fc.nat(), (before, sent, now) => {
        const previous = { status: before, closedDate: before === 'closed' ? 1 : null };
        const after = closedDateAfter(previous, sent, now);
        expect(after !== null).toBe((sent ?? before) === 'closed');
      }),
    );
  });
});

describe('replyTurn', () => {
  it("hands the turn to the customer after an agent's reply and to the agents after a customer's", () => {
    expect(replyTurn(true)).toEqual({ toReply: false, toReplyCustomer: true });
    expect(replyTurn(false)).toEqual({ toReply: true, toReplyCustomer: false });
  });
});

describe('storedFields', () => {
  it('keeps references as ids, null as null, and each cc agent once in the order sent', () => {
    expect(
      storedFields({
        subject: 'S',
        openedBy: { id: id(1) },
        assignedTo: { id: id(2) },
        type: null,
        cc: [{ id: id(3) }, { id: id(2) }, { id: id(3) }],
        replies: [{ text: 'r' }],
        attachedDocuments: [],
        tags: ['a'],
      } as TicketInput),
    ).toEqual({
      subject: 'S',
      openedBy: id(1),
      assignedTo: id(2),
      type: null,
      cc: [id(3), id(2)],
      tags: ['a'],
    });
  });

  it('leaves out what the body left out', () => {
    expect(storedFields({ priority: 1 })).toEqual({ priority: 1 });
    expect(storedFields({})).toEqual({});
  });
});

describe('newTicket', () => {
  it('fills defaults, number and dates, and counts the replies it carries', () => {
    const t = newTicket(
      {
        subject: 'S',
        description: 'D',
        openedBy: { id: id(1) },
        replies: [{ text: 'a' }, { text: 'b' }],
      } as TicketInput,
      id(100),
      '3/2026',
      NOW,
    );
    expect(t).toEqual({
      ...ticketDefaults(),
      subject: 'S',
      description: 'D',
      openedBy: id(1),
      id: id(100),
      number: '3/2026',
      insertDate: NOW,
      managedDate: NOW,
      closedDate: null,
      numberOfReplies: 2,
    });
  });

  it('lets the body override defaults, and closes a ticket created closed', () => {
    const t = newTicket(
      {
        subject: 'S',
        description: 'D',
        openedBy: { id: id(1) },
        status: 'closed',
        priority: 1,
        toReply: false,
      },
      id(100),
      '1/2026',
      NOW,
    );
    expect(t).toMatchObject({
      status: 'closed',
      closedDate: NOW,
      priority: 1,
      toReply: false,
      numberOfReplies: 0,
    });
  });
});

describe('updatedTicket', () => {
  const before = ticket({ numberOfReplies: 4, priority: 1, tags: ['x'] });

  it('changes only the fields sent, moves managedDate, keeps insertDate, adds the replies sent', () => {
    const later = NOW + 60_000;
    const after = updatedTicket(before, { subject: 'New', replies: [{ text: 'r' }] } as TicketInput, later);
    expect(after).toEqual({ ...before, subject: 'New', managedDate: later, numberOfReplies: 5 });
  });

  it('moves managedDate even when nothing else changes', () => {
    expect(updatedTicket(before, {}, NOW + 1)).toEqual({ ...before, managedDate: NOW + 1 });
  });

  it('follows the closed-date rule', () => {
    const closed = updatedTicket(before, { status: 'closed' }, NOW + 1);
    expect(closed.closedDate).toBe(NOW + 1);
    expect(updatedTicket(closed, { subject: 'x' }, NOW + 2).closedDate).toBe(NOW + 1);
    expect(updatedTicket(closed, { status: 'opened' }, NOW + 3).closedDate).toBeNull();
  });
});

const reply = (n: number, text = `reply ${n}`): ReplyRecord => ({
  id: id(1000 + n),
  ticketId: id(100),
  text,
  replyDate: NOW + n,
  replyFromOperator: null,
});

describe('relatedOf', () => {
  it('lists every record tickets, replies and notes point at, skipping empty pointers', () => {
    const t1 = ticket({
      openedBy: id(1),
      assignedTo: id(2),
      cc: [id(3), id(4)],
      type: id(5),
      area: id(6),
      group: id(7),
    });
    const t2 = ticket({ openedBy: id(8) });
    const replies = [reply(1), { ...reply(2), replyFromOperator: id(9) }];
    const notes: NoteRecord[] = [
      {
        id: id(50),
        ticketId: t1.id,
        note: 'n',
        insertBy: id(10),
        assignedTo: null,
        date: NOW,
        remindMe: null,
      },
      {
        id: id(51),
        ticketId: t1.id,
        note: 'n',
        insertBy: null,
        assignedTo: id(11),
        date: NOW,
        remindMe: null,
      },
    ];
    expect(relatedOf([t1, t2], replies, notes)).toEqual([
      { kind: 'CUSTOMER', id: id(1) },
      { kind: 'AGENT', id: id(2) },
      { kind: 'AGENT', id: id(3) },
      { kind: 'AGENT', id: id(4) },
      { kind: 'TICKET_TYPE', id: id(5) },
      { kind: 'TICKET_AREA', id: id(6) },
      { kind: 'TICKET_GROUP', id: id(7) },
      { kind: 'CUSTOMER', id: id(8) },
      { kind: 'AGENT', id: id(9) },
      { kind: 'AGENT', id: id(10) },
      { kind: 'AGENT', id: id(11) },
    ]);
    expect(relatedOf([])).toEqual([]);
  });

  it('names each record once, in the order first pointed at, whatever repeats', () => {
    // A few ids, so tickets, replies and notes point at the same records again and again.
    const pointer = fc.option(fc.integer({ min: 1, max: 6 }).map(id), { nil: null });
    fc.assert(
      fc.property(
        fc.array(fc.record({ openedBy: pointer, assignedTo: pointer, type: pointer, cc: fc.array(pointer) })),
        fc.array(pointer),
        fc.array(fc.tuple(pointer, pointer)),
        (fields, authors, agents) => {
          const tickets = fields.map((f) =>
            ticket({
              ...f,
              openedBy: f.openedBy ?? undefined,
              cc: f.cc.filter((c): c is string => c !== null),
            }),
          );
          const replies = authors.map((a, i) => ({ ...reply(i), replyFromOperator: a }));
          const notes = agents.map(([insertBy, assignedTo], i) => ({
            id: id(100 + i),
            ticketId: id(99),
            note: 'n',
            insertBy,
            assignedTo,
            date: NOW,
            remindMe: null,
          }));
          const every: string[] = [];
          const add = (kind: string, to: string | null | undefined) => {
            if (to) every.push(`${kind} ${to}`);
          };
          for (const t of tickets) {
            add('CUSTOMER', t.openedBy);
            add('AGENT', t.assignedTo);
            for (const c of t.cc) add('AGENT', c);
            add('TICKET_TYPE', t.type);
          }
          for (const r of replies) add('AGENT', r.replyFromOperator);
          for (const n of notes) {
            add('AGENT', n.insertBy);
            add('AGENT', n.assignedTo);
          }
          const named = relatedOf(tickets, replies, notes).map((w) => `${w.kind} ${w.id}`);
          expect(named).toEqual([...new Set(every)]);
        },
      ),
    );
  });
});

describe('fillLabels', () => {
  it('gives a new lookup its name in every language unless a label is sent', () => {
    expect(fillLabels('type', { type: 'outage' }, undefined)).toEqual({
      en: 'outage',
      it: 'outage',
      es: 'outage',
      fr: 'outage',
    });
    expect(fillLabels('area', { area: 'billing', labels: { it: 'Fatture' } }, undefined)).toEqual({
      en: 'billing',
      it: 'Fatture',
      es: 'billing',
      fr: 'billing',
    });
  });

  it('on update: the label sent, else the one stored, else the (new) name', () => {
    const current = {
      id: id(1),
      createdAt: NOW,
      group: 'support',
      labels: { en: 'Support', it: 'Assistenza', es: 'support', fr: 'support' },
    } as StoredLookup;
    expect(fillLabels('group', { labels: { fr: 'Soutien' } }, current)).toEqual({
      en: 'Support',
      it: 'Assistenza',
      es: 'support',
      fr: 'Soutien',
    });
    const partial = { ...current, labels: { en: 'Support' } } as StoredLookup;
    expect(fillLabels('group', { group: 'helpdesk', labels: {} }, partial)).toEqual({
      en: 'Support',
      it: 'helpdesk',
      es: 'helpdesk',
      fr: 'helpdesk',
    });
  });
});
