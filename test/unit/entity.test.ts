import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STATUSES } from '../../shared/schemas/ticket';
import { derivedWrites, referenceOp } from '../../shared/store/derived-writes';
import {
  type AgentRecord,
  agentEntity,
  type CustomerRecord,
  customerEntity,
  RECORD_META,
  type StoredLookup,
  ticketAreaEntity,
  ticketGroupEntity,
  ticketTypeEntity,
} from '../../shared/store/entities/records';
import { clientEntity } from '../../shared/store/entities/system';
import { replyEntity, type TicketRecord, ticketEntity } from '../../shared/store/entities/ticket';
import type { Entity } from '../../shared/store/entity';
import { hydrate, indexAttributes, itemOf, recordOf } from '../../shared/store/entity-item';
import { Conflict, InvalidReference } from '../../shared/store/errors';
import { updateWrite } from '../../shared/store/item-changes';
import { type EntityKind, itemKindOf, keys, sortableTime } from '../../shared/store/keys';
import { guardTarget, searchInputs, searchTarget } from '../../shared/store/search-targets';
import { LIST_INDEX, PAGE_ATTRIBUTES, SEARCH_INDEXES } from '../../shared/store/table-schema';
import { createTicketWrites, replyWrites } from '../../shared/store/ticket-writes';
import { mergeCounters } from '../../shared/store/transact';
import type { CountCell, WriteOp } from '../../shared/store/write-ops';
import { addsOf, customer, id, itemMoves, NOW, spelled, TENANT, thrown, ticket } from './fixtures';

const recordPk = (kind: EntityKind, n: number) => keys.record(TENANT, kind, id(n)).pk;
const ORDER = keys.byCreation(NOW, id(100));
const COUNTERS = `T#${TENANT}#COUNTERS`;
/** What a growing reference count is conditioned on: a live record (no erased customer's mark). */
const LIVE = 'attribute_exists(pk) AND attribute_not_exists(erasedAt)';

/**
 * The count moves of a plan by item (a counter item by its name, a record by its pk) and
 * attribute, summed; a ConditionCheck is an item moved by nothing. Puts and Deletes are left out.
 */
const movesOf = (ops: WriteOp[]): Record<string, Record<string, number>> => {
  const sums: Record<string, Record<string, number>> = {};
  for (const op of ops) {
    const { Update: update, ConditionCheck: check } = op.item;
    const key = (update ?? check)?.Key;
    if (!key) continue;
    const label = key.pk === COUNTERS ? String(key.sk) : String(key.pk);
    sums[label] ??= {};
    const into = sums[label];
    for (const [attribute, delta] of update ? addsOf(update) : [])
      into[attribute] = (into[attribute] ?? 0) + delta;
  }
  return sums;
};

/** Elements of a plan by the item they write (`pk sk`): a merged plan names each item once. */
const elementKeys = (ops: WriteOp[]): string[] =>
  ops.map((op) => {
    const body = Object.values(op.item)[0] as {
      Key?: { pk: string; sk: string };
      Item?: { pk: string; sk: string };
    };
    const key = body.Key ?? body.Item;
    return `${key?.pk} ${key?.sk}`;
  });

describe('indexAttributes / itemOf / recordOf', () => {
  it('indexes a customer in its list and by name, the search sorted by the list order; its e-mail in no slot (the guard serves it)', () => {
    const c = customer({ email: 'Ada@Example.COM' });
    // No per-slot sort copy: the exact-search indexes sort by `listsk`, shared with the list.
    expect(indexAttributes(customerEntity, TENANT, c)).toEqual({
      listpk: `T#${TENANT}#CUSTOMER`,
      listsk: keys.byCreation(c.createdAt, c.id),
      s2pk: `T#${TENANT}#CUSTOMER#name=Ada`,
    });
  });

  it('writes no e-mail index entry on customers and agents', () => {
    const grace: AgentRecord = {
      id: id(2),
      createdAt: NOW,
      name: 'Grace',
      email: 'Grace@Example.com',
      language: 'en',
    };
    for (const item of [
      itemOf(customerEntity, TENANT, customer(), { version: 1 }),
      itemOf(agentEntity, TENANT, grace, { version: 1 }),
    ]) {
      expect(item).not.toHaveProperty('s1pk');
      expect(Object.values(item)).not.toContainEqual(expect.stringMatching(/#email=/));
    }
  });

  it('leaves a record out of the search slots of fields it has no value for (empty counts as none)', () => {
    const c = customer({ name: '' });
    expect(indexAttributes(customerEntity, TENANT, c)).toEqual({
      listpk: `T#${TENANT}#CUSTOMER`,
      listsk: keys.byCreation(c.createdAt, c.id),
    });
  });

  it('indexes a ticket by status, priority, each reference it has, and in the managedDate range', () => {
    const t = ticket({ status: 'on hold', priority: 1, type: id(20), managedDate: NOW + 5 });
    expect(indexAttributes(ticketEntity, TENANT, t)).toEqual({
      listpk: `T#${TENANT}#TICKET`,
      listsk: ORDER,
      s1pk: `T#${TENANT}#TICKET#status=on hold`,
      s2pk: `T#${TENANT}#TICKET#priority=1`,
      s3pk: `T#${TENANT}#TICKET#openedBy._id=${id(1)}`,
      s5pk: `T#${TENANT}#TICKET#type._id=${id(20)}`,
      // The range slot keeps a sort attribute of its own.
      s8pk: `T#${TENANT}#TICKET#managedDate`,
      s8sk: keys.byTime(NOW + 5, t.id),
    });
  });

  it('gives items of an entity without a list no index attributes', () => {
    expect(
      indexAttributes(clientEntity, '', {
        clientId: 'c',
        name: 'n',
        secretHash: 'h',
        createdAt: 1,
        revoked: false,
      }),
    ).toEqual({});
  });

  it('builds the item: fields, system attributes, key; its type and tenant only in the key', () => {
    const c = customer();
    const item = itemOf(customerEntity, TENANT, c, { version: 3 });
    expect(item).toMatchObject({ ...c, version: 3, pk: `T#${TENANT}#CUSTOMER#${c.id}`, sk: '#' });
    expect(item).not.toHaveProperty('entity');
    expect(item).not.toHaveProperty('tenantId');
    expect(itemKindOf(item.pk as string, item.sk as string)).toBe('CUSTOMER');
    const client = { clientId: 'abc', name: 'n', secretHash: 'h', createdAt: 1, revoked: false };
    expect(itemOf(clientEntity, '', client)).toEqual({ ...client, pk: 'CLIENT#abc', sk: 'CLIENT' });
    expect(itemKindOf('CLIENT#abc', 'CLIENT')).toBe('CLIENT');
  });

  it('stores no ticket date its order keys hold, nor empty lists, and reads them back', () => {
    const t = ticket({ insertDate: NOW - 5000, managedDate: NOW, cc: [], tags: [], customFields: [] });
    const item = itemOf(ticketEntity, TENANT, t, { version: 1 });
    for (const field of ['insertDate', 'managedDate', 'cc', 'tags', 'customFields'])
      expect(item).not.toHaveProperty(field);
    expect(hydrate(ticketEntity, item)).toMatchObject({
      insertDate: NOW - 5000,
      managedDate: NOW,
      cc: [],
      tags: [],
      customFields: [],
    });
    // An older item's stored copy loses to what its keys say (a reply moved s8sk, not the copy).
    expect(hydrate(ticketEntity, { ...item, managedDate: 1 }).managedDate).toBe(NOW);
    expect(itemKindOf(item.pk as string, '#')).toBe('TICKET');
    expect(itemKindOf(item.pk as string, keys.reply(NOW, id(9)))).toBe('TICKET_REPLY');
    expect(itemKindOf(item.pk as string, keys.tag('vip'))).toBe('TICKET_TAG');
  });

  it('hydrates the item read in place, and hydrating it again changes nothing', () => {
    const t = ticket({ insertDate: NOW - 5000, managedDate: NOW, tags: ['vip'], cc: [] });
    const read = itemOf(ticketEntity, TENANT, t, { version: 1 });
    const once = hydrate(ticketEntity, read);
    expect(once).toBe(read);
    const snapshot = structuredClone(once);
    expect(hydrate(ticketEntity, once)).toEqual(snapshot);
    // A value stored wins over a default: the default only fills what is absent.
    expect(once.tags).toEqual(['vip']);
    expect(once.cc).toEqual([]);
  });

  it('stores none of the null fields of a record (absent reads as null), and keeps false, 0 and empty values', () => {
    const c = customer({ phoneNumber: null, city: null, insertByAgentId: null, topClient: false, name: '' });
    const item = itemOf(customerEntity, TENANT, c, { version: 1 });
    for (const field of ['phoneNumber', 'city', 'insertByAgentId']) expect(item).not.toHaveProperty(field);
    expect(Object.values(item)).not.toContain(null);
    expect(item).toMatchObject({ topClient: false, name: '', version: 1 });
    const { phoneNumber: _p, city: _c, insertByAgentId: _i, ...stored } = c;
    expect(recordOf<CustomerRecord>(item, RECORD_META)).toStrictEqual(stored);
  });

  it('gives a ticket item its version only (no updatedAt), without null fields or per-slot sort copies', () => {
    const t = ticket({ assignedTo: id(30), area: null });
    const put = createTicketWrites(TENANT, t)[0]?.item.Put;
    expect(spelled(put)).toMatchObject({ ConditionExpression: 'attribute_not_exists(pk)' });
    const item = put?.Item ?? {};
    expect(item).toMatchObject({
      version: 1,
      assignedTo: id(30),
      s4pk: `T#${TENANT}#TICKET#assignedTo._id=${id(30)}`,
    });
    for (const absent of ['updatedAt', 'area', 'group', 'closedDate', 'externalId1', 's1sk', 's4sk', 's9sk'])
      expect(item).not.toHaveProperty(absent);
    expect(Object.values(item)).not.toContain(null);
    expect(Object.keys(item).filter((name) => /^s\dsk$/.test(name))).toEqual(['s8sk']);
  });

  it('round-trips any customer record through itemOf and recordOf, less its null fields', () => {
    const optionalText = fc.option(fc.string({ maxLength: 20 }), { nil: null });
    const record = fc.record(
      {
        id: fc.stringMatching(/^[0-9a-f]{24}$/),
        createdAt: fc.integer({ min: 0, max: 2 ** 45 }),
        name: fc.string({ maxLength: 30 }),
        email: fc.string({ maxLength: 30 }),
        phoneNumber: optionalText,
        city: optionalText,
        topClient: fc.boolean(),
        insertByAgentId: fc.option(fc.stringMatching(/^[0-9a-f]{24}$/), { nil: null }),
        customFields: fc.option(fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.string()), { nil: null }),
      },
      { requiredKeys: ['id', 'createdAt'] },
    );
    fc.assert(
      fc.property(
        record,
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        (r, version, updatedAt, refCount, assigned) => {
          const item = itemOf(customerEntity, TENANT, r as CustomerRecord, {
            version,
            updatedAt,
            refCount,
            assigned,
          });
          expect(Object.values(item)).not.toContain(null);
          const stored = Object.fromEntries(Object.entries(r).filter(([, value]) => value !== null));
          expect(recordOf<CustomerRecord>(item, RECORD_META)).toStrictEqual(stored);
        },
      ),
    );
  });
});

describe('updateWrite', () => {
  const pre = {
    missing: () => new Error('missing'),
    stale: () => new Error('stale'),
    meta: { updatedAt: NOW + 1 },
    keep: RECORD_META,
  };

  it('removes a field that became null and old index attributes, keeping the counts other writes move', () => {
    const before = customer({ city: 'Turin', phoneNumber: null });
    // As stored: with counts moved by tickets, and a sort copy written before issue 12.
    const current = {
      ...itemOf(customerEntity, TENANT, before, { version: 2, updatedAt: NOW, refCount: 3, assigned: 1 }),
      s1sk: keys.byCreation(before.createdAt, before.id),
    };
    expect(current).not.toHaveProperty('phoneNumber');
    const after = customer({ city: null, phoneNumber: null });
    expect(spelled(updateWrite(customerEntity, TENANT, current, after, pre).item.Update)).toEqual(
      spelled({
        Key: keys.record(TENANT, 'CUSTOMER', before.id),
        UpdateExpression: 'SET #u0 = :u0 REMOVE #r1, #r2 ADD version :one',
        // Nothing searched changed: no condition on the derived values.
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#u0': 'updatedAt', '#r1': 'city', '#r2': 's1sk' },
        ExpressionAttributeValues: { ':one': 1, ':u0': NOW + 1 },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  });

  it("removes an older customer item's e-mail index entry on its next write, whatever it changes", () => {
    const before = customer();
    // As written before the guard served the e-mail search: with its search1v2 entry.
    const current = {
      ...itemOf(customerEntity, TENANT, before, { version: 2, updatedAt: NOW }),
      s1pk: `T#${TENANT}#CUSTOMER#email=ada@example.com`,
    };
    const update = updateWrite(customerEntity, TENANT, current, customer({ city: 'Turin' }), pre).item.Update;
    expect(spelled(update, { values: false })).toMatchObject(
      spelled(
        {
          UpdateExpression: 'SET #u0 = :u0, #u1 = :u1 REMOVE #r2 ADD version :one',
          ExpressionAttributeNames: { '#u0': 'city', '#u1': 'updatedAt', '#r2': 's1pk' },
          ExpressionAttributeValues: { ':u0': '', ':u1': '', ':one': '' },
          // Its derived values are unchanged (the e-mail's digest is the guard's value): no condition on them.
          ConditionExpression: 'attribute_exists(pk)',
        },
        { values: false },
      ) as object,
    );
  });

  it('sets a field that was absent and removes nothing when the item has only what the record keeps', () => {
    const before = customer({ city: null });
    const current = itemOf(customerEntity, TENANT, before, { version: 2, updatedAt: NOW, refCount: 1 });
    const update = updateWrite(customerEntity, TENANT, current, customer({ city: 'Turin' }), pre).item.Update;
    expect(spelled(update)).toMatchObject(
      spelled({
        UpdateExpression: 'SET #u0 = :u0, #u1 = :u1 ADD version :one',
        ExpressionAttributeNames: { '#u0': 'city', '#u1': 'updatedAt' },
        ExpressionAttributeValues: { ':one': 1, ':u0': 'Turin', ':u1': NOW + 1 },
      }) as object,
    );
  });

  it('removes a kept count when the writer does not say to keep it', () => {
    const before = customer();
    const current = itemOf(customerEntity, TENANT, before, { version: 2, updatedAt: NOW, refCount: 1 });
    const update = updateWrite(customerEntity, TENANT, current, before, { ...pre, keep: [] }).item.Update;
    expect(spelled(update, { values: false })).toMatchObject(
      spelled(
        {
          UpdateExpression: 'SET #u0 = :u0 REMOVE #r1 ADD version :one',
          ExpressionAttributeNames: { '#u0': 'updatedAt', '#r1': 'refCount' },
          ExpressionAttributeValues: { ':u0': '', ':one': '' },
        },
        { values: false },
      ) as object,
    );
  });
});

describe('derivedWrites of a customer', () => {
  const agent = id(9);

  it('on create: counts it in the total only (e-mail and name keep no count), claims the e-mail and checks the agent that inserted it', () => {
    const c = customer({ email: 'Ada@Example.com', insertByAgentId: agent });
    const ops = derivedWrites(customerEntity, TENANT, c.id, c);
    expect(movesOf(ops)).toEqual({
      // The e-mail and name searches count their entries: no counter item of theirs moves.
      CUSTOMER: { n: 1 },
      // An uncounted reference: checked to exist, nothing moved on it.
      [`T#${TENANT}#AGENT#${agent}`]: {},
    });
    expect(ops.filter((op) => op.item.Update)).toHaveLength(1);
    expect(spelled(ops.find((op) => op.item.Update)?.item.Update)).toEqual(
      spelled({
        Key: keys.counter(TENANT, 'CUSTOMER'),
        UpdateExpression: 'ADD #c0 :c0',
        ExpressionAttributeNames: { '#c0': 'n' },
        ExpressionAttributeValues: { ':c0': 1 },
      }),
    );
    expect(itemMoves(ops)).toEqual([`Put T#${TENANT}#UNIQUE#CUSTOMER#email=ada@example.com #`]);
    const guard = ops.find((op) => op.item.Put);
    expect(spelled(guard?.item.Put)).toEqual({
      Item: {
        pk: `T#${TENANT}#UNIQUE#CUSTOMER#email=ada@example.com`,
        sk: '#',
        entity: 'UNIQUE',
        ownerId: c.id,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
    const conflict = guard?.onConditionFailed?.();
    expect(conflict).toBeInstanceOf(Conflict);
    expect(conflict).toMatchObject({ code: 'duplicate-email', errors: [{ path: 'email' }] });

    const checks = ops.filter((op) => op.item.ConditionCheck);
    expect(spelled(checks.map((op) => op.item.ConditionCheck))).toEqual([
      { Key: { pk: `T#${TENANT}#AGENT#${agent}`, sk: '#' }, ConditionExpression: 'attribute_exists(pk)' },
    ]);
    expect(checks[0]?.onConditionFailed?.()).toMatchObject({
      code: 'invalid-reference',
      errors: [{ path: 'insertByAgentId', message: `Agent ${agent} does not exist` }],
    });
    // The total's move, the e-mail guard and the agent check.
    expect(ops).toHaveLength(3);
  });

  it('on an update that changes nothing indexed: writes nothing else', () => {
    const before = customer({ insertByAgentId: agent });
    const after = { ...before, city: 'Turin', email: 'ADA@example.com' };
    expect(derivedWrites(customerEntity, TENANT, before.id, after, before)).toEqual([]);
  });

  it('on an e-mail change: moves the guard and no counter (the e-mail search keeps no count)', () => {
    const before = customer();
    const after = customer({ email: 'ada.l@example.com' });
    const ops = derivedWrites(customerEntity, TENANT, before.id, after, before);
    expect(movesOf(ops)).toEqual({});
    expect(itemMoves(ops)).toEqual([
      `Delete T#${TENANT}#UNIQUE#CUSTOMER#email=ada@example.com #`,
      `Put T#${TENANT}#UNIQUE#CUSTOMER#email=ada.l@example.com #`,
    ]);
    expect(ops).toHaveLength(2);
  });

  it('on a name cleared: writes nothing (the name search keeps no count)', () => {
    const before = customer();
    // The name does leave its search slot: the record's own write drops s2pk.
    expect(indexAttributes(customerEntity, TENANT, customer({ name: '' }))).not.toHaveProperty('s2pk');
    expect(derivedWrites(customerEntity, TENANT, before.id, customer({ name: '' }), before)).toEqual([]);
  });

  it('checks an uncounted reference only when it is newly set', () => {
    const unset = customer();
    const set = customer({ insertByAgentId: agent });
    const changed = customer({ insertByAgentId: id(10) });
    const checked = (after: CustomerRecord, before: CustomerRecord) =>
      derivedWrites(customerEntity, TENANT, unset.id, after, before).flatMap((op) =>
        op.item.ConditionCheck ? [op.item.ConditionCheck.Key?.pk] : [],
      );
    expect(checked(set, unset)).toEqual([`T#${TENANT}#AGENT#${agent}`]);
    expect(checked(set, set)).toEqual([]);
    expect(checked(changed, set)).toEqual([`T#${TENANT}#AGENT#${id(10)}`]);
    expect(checked(unset, set)).toEqual([]);
  });

  it('on delete: uncounts it from the total only and releases the e-mail, without checking references', () => {
    const c = customer({ insertByAgentId: agent });
    const ops = derivedWrites(customerEntity, TENANT, c.id, undefined, c);
    expect(movesOf(ops)).toEqual({ CUSTOMER: { n: -1 } });
    expect(itemMoves(ops)).toEqual([`Delete T#${TENANT}#UNIQUE#CUSTOMER#email=ada@example.com #`]);
    expect(ops).toHaveLength(2);
  });
});

describe('derivedWrites of a ticket', () => {
  const A = id(30);
  const B = id(31);
  const C = id(32);
  const ticketPk = `T#${TENANT}#TICKET#${id(100)}`;
  const agentMove = (agent: string, delta: number) => ({
    Update: {
      Key: keys.record(TENANT, 'AGENT', agent),
      UpdateExpression: 'ADD #c0 :c0, #c1 :c1',
      ConditionExpression: delta > 0 ? LIVE : 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#c0': 'refCount', '#c1': 'assigned' },
      ExpressionAttributeValues: { ':c0': delta, ':c1': delta },
    },
  });

  it('on create: counts it, claims a refCount of everything it points at and writes one item per tag', () => {
    const t = ticket({ assignedTo: A, cc: [B], type: id(20), tags: ['urgent'] });
    const ops = derivedWrites(ticketEntity, TENANT, t.id, t);
    expect(movesOf(mergeCounters(ops))).toEqual({
      // Status and priority on the total counter; the searches by reference on the records.
      TICKET: { n: 1, 'status=opened': 1, 'priority=0': 1 },
      'TICKET#tags=urgent': { n: 1 },
      [recordPk('CUSTOMER', 1)]: { refCount: 1 },
      [recordPk('AGENT', 30)]: { refCount: 1, assigned: 1 },
      [recordPk('AGENT', 31)]: { refCount: 1 },
      [recordPk('TICKET_TYPE', 20)]: { refCount: 1 },
    });
    const tag = ops.find((op) => op.item.Put);
    expect(tag?.item.Put).toEqual({
      Item: {
        pk: ticketPk,
        sk: 'TAG#urgent',
        tenantId: TENANT,
        entity: 'TICKET_TAG',
        ticketId: t.id,
        tag: 'urgent',
        // The ticket's non-null page attributes (area and group are null here).
        openedBy: id(1),
        assignedTo: A,
        cc: [B],
        type: id(20),
        listpk: `T#${TENANT}#TICKET#tags=urgent`,
        listsk: ORDER,
      },
    });
  });

  it('on create: moves total, status and priority in one element on the total counter', () => {
    const t = ticket({ status: 'on hold', priority: 1 });
    const ops = derivedWrites(ticketEntity, TENANT, t.id, t);
    expect(ops.filter((op) => op.item.Update?.Key?.pk === COUNTERS)).toHaveLength(3);
    const merged = mergeCounters(ops).filter((op) => op.item.Update?.Key?.pk === COUNTERS);
    expect(spelled(merged.map((op) => op.item))).toEqual(
      spelled([
        {
          Update: {
            Key: keys.counter(TENANT, 'TICKET'),
            UpdateExpression: 'ADD #c0 :c0, #c1 :c1, #c2 :c2',
            ExpressionAttributeNames: { '#c0': 'n', '#c1': 'status=on hold', '#c2': 'priority=1' },
            ExpressionAttributeValues: { ':c0': 1, ':c1': 1, ':c2': 1 },
          },
        },
      ]),
    );
  });

  it('on a status change: moves one count from the old status to the new, on the total counter only', () => {
    const before = ticket();
    const after = ticket({ status: 'closed', closedDate: NOW + 1, managedDate: NOW + 1 });
    const ops = derivedWrites(ticketEntity, TENANT, before.id, after, before);
    expect(ops).toHaveLength(2);
    expect(spelled(mergeCounters(ops).map((op) => op.item))).toEqual(
      spelled([
        {
          Update: {
            Key: keys.counter(TENANT, 'TICKET'),
            UpdateExpression: 'ADD #c0 :c0, #c1 :c1',
            ExpressionAttributeNames: { '#c0': 'status=opened', '#c1': 'status=closed' },
            ExpressionAttributeValues: { ':c0': -1, ':c1': 1 },
          },
        },
      ]),
    );
  });

  it('on tags changed: deletes the dropped tag items, puts the new ones, moves their counts', () => {
    const before = ticket({ tags: ['a', 'b'] });
    const after = ticket({ tags: ['b', 'c'] });
    const ops = derivedWrites(ticketEntity, TENANT, before.id, after, before);
    expect(movesOf(ops)).toEqual({ 'TICKET#tags=a': { n: -1 }, 'TICKET#tags=c': { n: 1 } });
    // The kept tag's item carries what it carried: not rewritten.
    expect(itemMoves(ops)).toEqual([`Delete ${ticketPk} TAG#a`, `Put ${ticketPk} TAG#c`]);
  });

  it('on a reassignment: rewrites each kept tag item with the new page attributes', () => {
    const before = ticket({ assignedTo: A, cc: [B], tags: ['a', 'b'] });
    const after = { ...before, assignedTo: C, managedDate: NOW + 1 };
    const ops = derivedWrites(ticketEntity, TENANT, before.id, after, before);
    expect(itemMoves(ops)).toEqual([`Put ${ticketPk} TAG#a`, `Put ${ticketPk} TAG#b`]);
    const tagItem = (tag: string) => ({
      Item: {
        pk: ticketPk,
        sk: `TAG#${tag}`,
        tenantId: TENANT,
        entity: 'TICKET_TAG',
        ticketId: before.id,
        tag,
        openedBy: id(1),
        assignedTo: C,
        cc: [B],
        listpk: `T#${TENANT}#TICKET#tags=${tag}`,
        listsk: ORDER,
      },
    });
    expect(ops.filter((op) => op.item.Put).map((op) => op.item.Put)).toEqual([tagItem('a'), tagItem('b')]);
    // The tag counts do not move.
    expect(Object.keys(movesOf(ops)).filter((name) => name.startsWith('TICKET#tags='))).toEqual([]);
  });

  it('on a change of nothing derived (subject, managedDate): writes nothing, kept tag items included', () => {
    const before = ticket({ assignedTo: A, cc: [B], type: id(20), tags: ['a', 'b'] });
    const after = { ...before, subject: 'Printer fixed', managedDate: NOW + 1, toReply: false };
    expect(derivedWrites(ticketEntity, TENANT, before.id, after, before)).toEqual([]);
  });

  it('on a reassignment from A to B: moves refCount and assigned on both agents and no counter item', () => {
    const before = ticket({ assignedTo: A });
    const after = ticket({ assignedTo: B });
    const ops = derivedWrites(ticketEntity, TENANT, before.id, after, before);
    expect(spelled(mergeCounters(ops).map((op) => op.item))).toEqual(
      spelled([agentMove(A, -1), agentMove(B, 1)]),
    );
    expect(ops.some((op) => op.item.Update?.Key?.pk === COUNTERS)).toBe(false);
    expect(ops.some((op) => String(op.item.Update?.Key?.sk).includes('assignedTo._id'))).toBe(false);
  });

  it('moves refCount by one per changed pointer and not at all for unchanged ones', () => {
    const before = ticket({ assignedTo: A, cc: [B], type: id(20) });
    const after = ticket({ assignedTo: C, cc: [B], type: null });
    const ops = derivedWrites(ticketEntity, TENANT, before.id, after, before);
    expect(movesOf(mergeCounters(ops))).toEqual({
      [recordPk('AGENT', 30)]: { refCount: -1, assigned: -1 },
      [recordPk('AGENT', 32)]: { refCount: 1, assigned: 1 },
      [recordPk('TICKET_TYPE', 20)]: { refCount: -1 },
    });
    const increment = ops.find((op) => op.item.Update?.Key?.pk === recordPk('AGENT', 32));
    expect(spelled(increment?.item)).toEqual(spelled(agentMove(C, 1)));
    const release = ops.find((op) => op.item.Update?.Key?.pk === recordPk('TICKET_TYPE', 20));
    expect(spelled(release?.item.Update)).toEqual(
      spelled({
        Key: keys.record(TENANT, 'TICKET_TYPE', id(20)),
        UpdateExpression: 'ADD #c0 :c0',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#c0': 'refCount' },
        ExpressionAttributeValues: { ':c0': -1 },
      }),
    );
  });

  it('moving an agent from assignedTo to cc keeps its refCount and only uncounts the assignment', () => {
    const before = ticket({ assignedTo: A });
    const after = ticket({ assignedTo: null, cc: [A] });
    const ops = derivedWrites(ticketEntity, TENANT, before.id, after, before);
    expect(movesOf(ops)).toEqual({ [recordPk('AGENT', 30)]: { refCount: 0, assigned: -1 } });
    const merged = mergeCounters(ops);
    expect(spelled(merged.map((op) => op.item))).toEqual(
      spelled([
        {
          Update: {
            Key: keys.record(TENANT, 'AGENT', A),
            UpdateExpression: 'ADD #c0 :c0',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#c0': 'assigned' },
            ExpressionAttributeValues: { ':c0': -1 },
          },
        },
      ]),
    );
    expect(merged[0]?.onConditionFailed?.()).toBeInstanceOf(InvalidReference);
  });

  it('merges the same agent in assignedTo and cc into one element that counts both', () => {
    const t = ticket({ assignedTo: A, cc: [A, B] });
    const merged = mergeCounters(derivedWrites(ticketEntity, TENANT, t.id, t));
    const onA = merged.filter((op) => op.item.Update?.Key?.pk === recordPk('AGENT', 30));
    expect(onA).toHaveLength(1);
    expect(spelled(onA[0]?.item.Update)).toMatchObject(
      spelled({
        UpdateExpression: 'ADD #c0 :c0, #c1 :c1',
        ExpressionAttributeNames: { '#c0': 'refCount', '#c1': 'assigned' },
        ExpressionAttributeValues: { ':c0': 2, ':c1': 1 },
      }) as object,
    );
    expect(movesOf(mergeCounters(derivedWrites(ticketEntity, TENANT, t.id, undefined, t)))).toMatchObject({
      [recordPk('AGENT', 30)]: { refCount: -2, assigned: -1 },
    });
  });

  it('on delete: uncounts it, releases every refCount and deletes its tag items', () => {
    const t = ticket({ assignedTo: A, tags: ['x'] });
    const ops = derivedWrites(ticketEntity, TENANT, t.id, undefined, t);
    expect(movesOf(mergeCounters(ops))).toEqual({
      TICKET: { n: -1, 'status=opened': -1, 'priority=0': -1 },
      'TICKET#tags=x': { n: -1 },
      [recordPk('CUSTOMER', 1)]: { refCount: -1 },
      [recordPk('AGENT', 30)]: { refCount: -1, assigned: -1 },
    });
    expect(itemMoves(ops)).toEqual([`Delete ${ticketPk} TAG#x`]);
  });

  it('refuses a pointer that is not an id with an InvalidReference naming its body path', async () => {
    const error = await thrown(() =>
      derivedWrites(ticketEntity, TENANT, id(100), ticket({ cc: [A, 'not-an-id'] })),
    );
    expect(error).toBeInstanceOf(InvalidReference);
    expect(error).toMatchObject({ errors: [{ path: 'cc.1.id', message: 'Agent not-an-id does not exist' }] });
  });

  it('names the failed check of a counted reference by its path', () => {
    const ops = derivedWrites(ticketEntity, TENANT, id(100), ticket({ group: id(40) }));
    const group = ops.find((op) => op.item.Update?.Key?.pk === recordPk('TICKET_GROUP', 40));
    expect(group?.onConditionFailed?.()).toMatchObject({
      code: 'invalid-reference',
      message: `Ticket group ${id(40)} does not exist.`,
      errors: [{ path: 'group.id' }],
    });
  });
});

describe('reply writes', () => {
  const reply = (replyFromOperator: string | null) => ({
    id: id(200),
    ticketId: id(100),
    text: 'hi',
    replyDate: NOW,
    replyFromOperator,
  });

  it('prefix the path of the author check with the reply position in the body', async () => {
    const error = await thrown(() => replyWrites(TENANT, reply('bogus'), 'replies.2.'));
    expect(error).toBeInstanceOf(InvalidReference);
    expect((error as InvalidReference).errors).toEqual([
      { path: 'replies.2.replyFromOperator.id', message: 'Agent bogus does not exist' },
    ]);
    const ops = replyWrites(TENANT, reply(id(30)), 'replies.2.');
    expect(ops.map((op) => Object.keys(op.item)[0])).toEqual(['Put', 'ConditionCheck']);
    expect(ops[0]?.item.Put?.Item).toMatchObject({
      pk: `T#${TENANT}#TICKET#${id(100)}`,
      sk: keys.reply(NOW, id(200)),
    });
    expect(ops[1]?.onConditionFailed?.()).toMatchObject({
      errors: [{ path: 'replies.2.replyFromOperator.id' }],
    });
  });

  it('check nothing for a customer reply', () => {
    expect(derivedWrites(replyEntity, TENANT, id(200), reply(null))).toEqual([]);
  });
});

describe('referenceOp', () => {
  const agentRef = { kind: 'AGENT' as const, label: 'Agent' };
  const key = keys.record(TENANT, 'AGENT', id(5));
  const check = { ConditionCheck: { Key: key, ConditionExpression: 'attribute_exists(pk)' } };

  it('throws InvalidReference with the path for anything but an id', () => {
    for (const bad of ['', 'abc', 'ABCDEF'.padStart(24, '0'), `${id(1)}0`, '../x']) {
      let error: unknown;
      try {
        referenceOp(TENANT, agentRef, { id: bad, path: 'assignedTo.id' }, { refCount: 1 });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InvalidReference);
      expect((error as InvalidReference).errors?.[0]?.path).toBe('assignedTo.id');
    }
  });

  it('is an existence check when every delta is zero (or there is none)', () => {
    expect(spelled(referenceOp(TENANT, agentRef, { id: id(5), path: 'p' }, {}).item)).toEqual(check);
    expect(
      spelled(referenceOp(TENANT, agentRef, { id: id(5), path: 'p' }, { refCount: 0, assigned: 0 }).item),
    ).toEqual(check);
  });

  it('is a conditional ADD of the non-zero deltas otherwise, merged by the item it moves', () => {
    const minus = referenceOp(TENANT, agentRef, { id: id(5), path: 'p' }, { refCount: -1 });
    expect(spelled(minus.item.Update)).toEqual(
      spelled({
        Key: key,
        UpdateExpression: 'ADD #c0 :c0',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#c0': 'refCount' },
        ExpressionAttributeValues: { ':c0': -1 },
      }),
    );
    expect(minus.counter).toMatchObject({ id: `${key.pk}\n${key.sk}`, deltas: { refCount: -1 } });
    expect(minus.onConditionFailed?.()).toMatchObject({ errors: [{ path: 'p' }] });
    const both = referenceOp(TENANT, agentRef, { id: id(5), path: 'p' }, { refCount: 1, assigned: 1 });
    expect(spelled(both.item.Update)).toMatchObject(
      spelled({
        UpdateExpression: 'ADD #c0 :c0, #c1 :c1',
        ExpressionAttributeNames: { '#c0': 'refCount', '#c1': 'assigned' },
        ExpressionAttributeValues: { ':c0': 1, ':c1': 1 },
      }) as object,
    );
    const one = referenceOp(TENANT, agentRef, { id: id(5), path: 'p' }, { refCount: 0, assigned: 2 });
    expect(spelled(one.item.Update)).toMatchObject(
      spelled({
        UpdateExpression: 'ADD #c0 :c0',
        ExpressionAttributeNames: { '#c0': 'assigned' },
        ExpressionAttributeValues: { ':c0': 2 },
      }) as object,
    );
  });
});

describe('searchTarget', () => {
  const counter = (name: string, attribute = 'n'): CountCell => ({
    key: keys.counter(TENANT, name),
    attribute,
  });
  const record = (kind: EntityKind, n: number, attribute: string): CountCell => ({
    key: keys.record(TENANT, kind, id(n)),
    attribute,
  });
  const ticketSearch = (param: string, value: string) => searchTarget(ticketEntity, TENANT, { param, value });

  it('serves the exact searches from the v2 indexes: list-ordered, projecting the page attributes', () => {
    expect(SEARCH_INDEXES.s1).toEqual({
      name: 'search1v2',
      partition: 's1pk',
      sort: 'listsk',
      projection: PAGE_ATTRIBUTES,
      succeeds: 'search1',
    });
    expect(SEARCH_INDEXES.s9).toMatchObject({ name: 'search9v2', partition: 's9pk', sort: 'listsk' });
    // The range slot keeps its own sort attribute.
    expect(SEARCH_INDEXES.s8).toMatchObject({ name: 'search8v2', partition: 's8pk', sort: 's8sk' });
    expect([...PAGE_ATTRIBUTES]).toEqual(['openedBy', 'assignedTo', 'cc', 'type', 'area', 'group']);
  });

  it('serves the bare list from the list index, counted by the total counter', () => {
    expect(searchTarget(customerEntity, TENANT)).toEqual({
      index: LIST_INDEX,
      partition: `T#${TENANT}#CUSTOMER`,
      count: [counter('CUSTOMER')],
    });
  });

  it('serves an exact search from its slot, normalising the value when the search says so; names keep no count', () => {
    // No counter cell is read: the page counts the entries it finds (`countEntries`).
    expect(searchTarget(agentEntity, TENANT, { param: 'name', value: 'GRACE' })).toEqual({
      index: SEARCH_INDEXES.s2,
      partition: `T#${TENANT}#AGENT#name=GRACE`,
      count: [],
      countEntries: true,
    });
    expect(searchTarget(customerEntity, TENANT, { param: 'name', value: 'Ada' })).toEqual({
      index: SEARCH_INDEXES.s2,
      partition: `T#${TENANT}#CUSTOMER#name=Ada`,
      count: [],
      countEntries: true,
    });
    expect(guardTarget(customerEntity, TENANT, { param: 'name', value: 'Ada' })).toBeUndefined();
    expect(guardTarget(customerEntity, TENANT)).toBeUndefined();
  });

  it("serves the e-mail search of customers and agents from the e-mail's guard (lower case), not from a slot", () => {
    for (const [entity, kind, value, stored] of [
      [customerEntity, 'CUSTOMER', 'Ada@Example.COM', 'ada@example.com'],
      [agentEntity, 'AGENT', 'Grace@Example.com', 'grace@example.com'],
    ] as const) {
      const target = guardTarget(entity as typeof customerEntity, TENANT, { param: 'email', value });
      // The key uniqueMoves claims for a record with that address (see derivedWrites of a customer).
      expect(target?.guard).toEqual(keys.unique(TENANT, kind, 'email', stored));
      expect(target?.owner(id(7))).toEqual(keys.record(TENANT, kind, id(7)));
      // A record read is shown only while it still has the address searched.
      expect(target?.holds({ email: value.toUpperCase() })).toBe(true);
      expect(target?.holds({ email: 'someone@example.com' })).toBe(false);
      expect(target?.holds({})).toBe(false);
      expect(() => searchTarget(entity as typeof customerEntity, TENANT, { param: 'email', value })).toThrow(
        /served by its guard/,
      );
    }
  });

  it('serves exactly the e-mail searches from guards, each from a unique entry of its own entity', () => {
    const entities = [
      customerEntity,
      agentEntity,
      ticketTypeEntity,
      ticketAreaEntity,
      ticketGroupEntity,
      ticketEntity,
    ];
    const guarded: string[] = [];
    for (const entity of entities as Entity<unknown>[]) {
      for (const [param, search] of Object.entries(entity.searches ?? {})) {
        if (!('servedBy' in search)) continue;
        guarded.push(`${entity.entity} ?${param}=`);
        expect(
          entity.unique?.map((u) => u.field),
          `${entity.entity} ?${param}=`,
        ).toContain(search.field);
      }
    }
    // Lookup names stay in their slot: the search matches them exactly, the guard case-insensitively.
    expect(guarded).toEqual(['CUSTOMER ?email=', 'AGENT ?email=']);
  });

  it('keeps no count of a lookup name: its search counts its entries, a create or rename moves only the total', () => {
    const lookups = [
      [ticketTypeEntity, 'type', 'TICKET_TYPE'],
      [ticketAreaEntity, 'area', 'TICKET_AREA'],
      [ticketGroupEntity, 'group', 'TICKET_GROUP'],
    ] as const;
    const labels = { en: 'Hardware', it: 'Hardware', es: 'Hardware', fr: 'Matériel' };
    for (const [entity, field, kind] of lookups) {
      // Matched exactly, case and all (only the uniqueness guard is case-insensitive).
      expect(searchTarget(entity, TENANT, { param: field, value: 'Hardware' })).toEqual({
        index: SEARCH_INDEXES.s1,
        partition: `T#${TENANT}#${kind}#${field}=Hardware`,
        count: [],
        countEntries: true,
      });
      const before: StoredLookup = { id: id(20), createdAt: NOW, [field]: 'Hardware', labels };
      const after: StoredLookup = { ...before, [field]: 'Printers' };
      expect(movesOf(derivedWrites(entity, TENANT, before.id, before))).toEqual({ [kind]: { n: 1 } });
      const renamed = derivedWrites(entity, TENANT, before.id, after, before);
      expect(movesOf(renamed), kind).toEqual({});
      expect(itemMoves(renamed)).toEqual([
        `Delete T#${TENANT}#UNIQUE#${kind}#${field}=hardware #`,
        `Put T#${TENANT}#UNIQUE#${kind}#${field}=printers #`,
      ]);
    }
  });

  it('counts status and priority on the total counter, plus their own counters of earlier tickets', () => {
    expect(ticketSearch('status', 'on hold')).toEqual({
      index: SEARCH_INDEXES.s1,
      partition: `T#${TENANT}#TICKET#status=on hold`,
      count: [counter('TICKET', 'status=on hold'), counter('TICKET#status=on hold')],
    });
    expect(ticketSearch('priority', '1')).toEqual({
      index: SEARCH_INDEXES.s2,
      partition: `T#${TENANT}#TICKET#priority=1`,
      count: [counter('TICKET', 'priority=1'), counter('TICKET#priority=1')],
    });
  });

  it('counts a search by a reference on the record it names', () => {
    expect(ticketSearch('openedBy._id', id(1))).toEqual({
      index: SEARCH_INDEXES.s3,
      partition: `T#${TENANT}#TICKET#openedBy._id=${id(1)}`,
      count: [record('CUSTOMER', 1, 'refCount')],
    });
    // An agent's refCount also counts cc: its assignments have their own attribute (new since issue 12).
    expect(ticketSearch('assignedTo._id', id(30))).toEqual({
      index: SEARCH_INDEXES.s4,
      partition: `T#${TENANT}#TICKET#assignedTo._id=${id(30)}`,
      // The old counter item counts only while the agent exists (a deleted agent has no tickets).
      count: [
        record('AGENT', 30, 'assigned'),
        { ...counter(`TICKET#assignedTo._id=${id(30)}`), whileExists: keys.record(TENANT, 'AGENT', id(30)) },
      ],
    });
    expect(ticketSearch('type._id', id(20)).count).toEqual([record('TICKET_TYPE', 20, 'refCount')]);
    expect(ticketSearch('area._id', id(40)).count).toEqual([record('TICKET_AREA', 40, 'refCount')]);
    expect(ticketSearch('group._id', id(50))).toEqual({
      index: SEARCH_INDEXES.s7,
      partition: `T#${TENANT}#TICKET#group._id=${id(50)}`,
      count: [record('TICKET_GROUP', 50, 'refCount')],
    });
  });

  it('keeps no count of an external id: the page counts its entries', () => {
    expect(ticketSearch('externalId1', 'ORD-1')).toEqual({
      index: SEARCH_INDEXES.s9,
      partition: `T#${TENANT}#TICKET#externalId1=ORD-1`,
      count: [],
      countEntries: true,
    });
    // Neither setting, changing nor clearing one moves a counter of its own.
    const set = ticket({ externalId1: 'ORD-1' });
    expect(derivedWrites(ticketEntity, TENANT, set.id, { ...set, externalId1: 'ORD-2' }, set)).toEqual([]);
    expect(derivedWrites(ticketEntity, TENANT, set.id, { ...set, externalId1: null }, set)).toEqual([]);
    expect(movesOf(mergeCounters(derivedWrites(ticketEntity, TENANT, set.id, set)))).toMatchObject({
      TICKET: { n: 1 },
    });
    expect(
      Object.keys(movesOf(derivedWrites(ticketEntity, TENANT, set.id, set))).filter((name) =>
        name.includes('externalId1'),
      ),
    ).toEqual([]);
  });

  it('serves a tag from the list index partition of that tag, where the tag items are', () => {
    const target = ticketSearch('tags', 'urgent');
    expect(target).toEqual({
      index: LIST_INDEX,
      partition: `T#${TENANT}#TICKET#tags=urgent`,
      count: [counter('TICKET#tags=urgent')],
    });
    const tagItem = derivedWrites(ticketEntity, TENANT, id(100), ticket({ tags: ['urgent'] })).find(
      (op) => op.item.Put,
    );
    expect(tagItem?.item.Put?.Item?.[target.index.partition]).toBe(target.partition);
  });

  it('serves a managedDate range from its slot, counted from the list total, from the given instant on', () => {
    expect(ticketSearch('managedDate', '1700000000000')).toEqual({
      index: SEARCH_INDEXES.s8,
      partition: `T#${TENANT}#TICKET#managedDate`,
      count: [counter('TICKET')],
      sortFrom: sortableTime(1_700_000_000_000),
    });
  });

  it('places exactly the tickets managed at or after the instant at or after sortFrom', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.maxSafeInteger(), (from, managed) => {
        const target = searchTarget(ticketEntity, TENANT, { param: 'managedDate', value: String(from) });
        const t = ticket({ managedDate: managed });
        const position = indexAttributes(ticketEntity, TENANT, t)[target.index.sort] as string;
        expect(position >= (target.sortFrom as string)).toBe(managed >= from);
      }),
    );
  });

  it('refuses a parameter the entity is not searchable by, and an entity without a list', () => {
    expect(() => searchTarget(customerEntity, TENANT, { param: 'city', value: 'x' })).toThrow(
      /not searchable/,
    );
    expect(() => searchTarget(clientEntity, '')).toThrow(/has no list/);
    expect(Object.keys(searchInputs(ticketEntity))).toEqual([
      'status',
      'priority',
      'openedBy._id',
      'assignedTo._id',
      'type._id',
      'area._id',
      'group._id',
      'externalId1',
      'tags',
      'managedDate',
    ]);
  });
});

/** Cells (`counter name|attribute`) a ticket is counted in on counter items, spelled out from the contract. */
const ticketCounterCells = (t: TicketRecord | undefined): Set<string> => {
  if (!t) return new Set();
  // Status and priority are attributes of the total counter item; searches by reference move no counter item.
  // The external id keeps no count (its page counts its entries): no cell of its own.
  const cells = ['TICKET|n', `TICKET|status=${t.status}`, `TICKET|priority=${t.priority}`];
  for (const tag of t.tags) cells.push(`TICKET#tags=${tag}|n`);
  return new Set(cells);
};

/** A customer is counted in the list total only: its e-mail and name searches keep no count. */
const customerCounterCells = (c: CustomerRecord | undefined): Set<string> => new Set(c ? ['CUSTOMER|n'] : []);

/**
 * What a ticket adds to the records it points at (`pk|attribute`): one refCount per pointer (an
 * agent may be assigned and in cc), and the assigned agent's `assigned`.
 */
const ticketRecordCells = (t: TicketRecord | undefined): Map<string, number> => {
  const counts = new Map<string, number>();
  if (!t) return counts;
  const add = (kind: EntityKind, value: string | null, attribute = 'refCount') => {
    if (!value) return;
    const cell = `${keys.record(TENANT, kind, value).pk}|${attribute}`;
    counts.set(cell, (counts.get(cell) ?? 0) + 1);
  };
  add('CUSTOMER', t.openedBy);
  add('AGENT', t.assignedTo);
  add('AGENT', t.assignedTo, 'assigned');
  for (const agent of t.cc) add('AGENT', agent);
  add('TICKET_TYPE', t.type);
  add('TICKET_AREA', t.area);
  add('TICKET_GROUP', t.group);
  return counts;
};

const pool = (from: number) => fc.constantFrom(id(from), id(from + 1), id(from + 2));
const poolIds = (from: number) => [id(from), id(from + 1), id(from + 2)];
const TAGS = ['a', 'b', 'c', 'd', 'x y'];
const EXTERNAL_IDS = ['ORD-1', 'ord-1', 'ORD-2'];
const arbitraryTicket = fc
  .record({
    status: fc.constantFrom(...STATUSES),
    priority: fc.constantFrom(0, 1),
    openedBy: pool(1),
    assignedTo: fc.option(pool(30), { nil: null }),
    cc: fc.uniqueArray(pool(30), { maxLength: 3 }),
    type: fc.option(pool(20), { nil: null }),
    area: fc.option(pool(40), { nil: null }),
    group: fc.option(pool(50), { nil: null }),
    tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 4 }),
    externalId1: fc.option(fc.constantFrom(...EXTERNAL_IDS, ''), { nil: null }),
    managedDate: fc.integer({ min: 0, max: 2 ** 45 }),
  })
  .map((fields) => ticket(fields));
const arbitraryCustomer = fc
  .record({
    name: fc.constantFrom('', 'Ada', 'ada', 'Grace'),
    email: fc.constantFrom('ada@example.com', 'ADA@example.com', 'grace@example.com', ''),
  })
  .map((fields) => customer(fields));
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

/** Every search of the ticket list with the values the arbitrary tickets can hold, and who matches one. */
const TICKET_SEARCHES: [string, readonly string[], (t: TicketRecord, value: string) => boolean][] = [
  ['status', STATUSES, (t, v) => t.status === v],
  ['priority', ['0', '1'], (t, v) => String(t.priority) === v],
  ['openedBy._id', poolIds(1), (t, v) => t.openedBy === v],
  ['assignedTo._id', poolIds(30), (t, v) => t.assignedTo === v],
  ['type._id', poolIds(20), (t, v) => t.type === v],
  ['area._id', poolIds(40), (t, v) => t.area === v],
  ['group._id', poolIds(50), (t, v) => t.group === v],
  ['externalId1', EXTERNAL_IDS, (t, v) => t.externalId1 === v],
  ['tags', TAGS, (t, v) => t.tags.includes(v)],
];
/** Searches that keep no count: their pages count their entries. */
const COUNTING_ENTRIES = new Set(['externalId1']);

const cellId = (key: { pk?: unknown; sk?: unknown } | undefined, attribute: string) =>
  `${key?.pk}\n${key?.sk}\n${attribute}`;

/** The count elements of a merged plan, one per item: `split` picks counter items or records. */
const countElements = (ops: WriteOp[], on: 'counters' | 'records') => {
  const elements = ops.filter((op) => {
    const key = (op.item.Update ?? op.item.ConditionCheck)?.Key;
    return key !== undefined && (key.pk === COUNTERS) === (on === 'counters');
  });
  const items = elementKeys(elements);
  expect(new Set(items).size, 'one element per item').toBe(items.length);
  const cells: Record<string, number> = {};
  for (const [label, moves] of Object.entries(movesOf(elements)))
    for (const [attribute, delta] of Object.entries(moves)) cells[`${label}|${attribute}`] = delta;
  return { elements, cells };
};

/** For every counter cell, the merged moves of one write are "counted after" minus "counted before". */
const assertCounterLaw = <T>(
  after: T | undefined,
  before: T | undefined,
  ops: WriteOp[],
  cellsOf: (r: T | undefined) => Set<string>,
) => {
  const { cells } = countElements(mergeCounters(ops), 'counters');
  const now = cellsOf(after);
  const old = cellsOf(before);
  for (const cell of new Set([...now, ...old, ...Object.keys(cells)])) {
    expect(cells[cell] ?? 0, cell).toBe((now.has(cell) ? 1 : 0) - (old.has(cell) ? 1 : 0));
  }
  // A cell that ends where it started is not moved, and an item none of whose cells moves costs no element.
  expect(Object.values(cells)).not.toContain(0);
};

describe('properties of derivedWrites', () => {
  it('moves each ticket counter cell by (after has value ? 1 : 0) - (before has value ? 1 : 0)', () => {
    fc.assert(
      fc.property(maybe(arbitraryTicket), maybe(arbitraryTicket), (before, after) => {
        fc.pre(before !== undefined || after !== undefined);
        const ops = derivedWrites(ticketEntity, TENANT, id(100), after, before);
        assertCounterLaw(after, before, ops, ticketCounterCells);
      }),
    );
  });

  it('moves only the customer total, and the e-mail guard when the address changes case-insensitively', () => {
    fc.assert(
      fc.property(maybe(arbitraryCustomer), maybe(arbitraryCustomer), (before, after) => {
        fc.pre(before !== undefined || after !== undefined);
        const ops = derivedWrites(customerEntity, TENANT, id(1), after, before);
        // No e-mail or name counter moves (assertCounterLaw fails on any cell it does not expect).
        assertCounterLaw(after, before, ops, customerCounterCells);
        const guard = (c: CustomerRecord | undefined) =>
          c?.email ? `T#${TENANT}#UNIQUE#CUSTOMER#email=${c.email.toLowerCase()} #` : undefined;
        const [old, now] = [guard(before), guard(after)];
        const expected =
          old === now ? [] : [...(old ? [`Delete ${old}`] : []), ...(now ? [`Put ${now}`] : [])];
        expect(itemMoves(ops)).toEqual(expected);
      }),
    );
  });

  it('moves refCount and assigned by the pointers gained minus the pointers lost, one element per record', () => {
    fc.assert(
      fc.property(maybe(arbitraryTicket), maybe(arbitraryTicket), (before, after) => {
        fc.pre(before !== undefined || after !== undefined);
        const ops = derivedWrites(ticketEntity, TENANT, id(100), after, before);
        const { elements, cells } = countElements(mergeCounters(ops), 'records');
        // Counted references never leave a bare existence check: a record is moved or not written.
        for (const element of elements) {
          expect(element.item.ConditionCheck).toBeUndefined();
          // A count that grows needs a live record (not an erased customer's mark).
          const grows = Object.values(element.item.Update?.ExpressionAttributeValues ?? {}).some(
            (v) => Number(v) > 0,
          );
          expect(spelled(element.item.Update)).toMatchObject({
            ConditionExpression: grows ? LIVE : 'attribute_exists(pk)',
          });
        }
        const now = ticketRecordCells(after);
        const old = ticketRecordCells(before);
        const expected: Record<string, number> = {};
        for (const cell of new Set([...now.keys(), ...old.keys()])) {
          const delta = (now.get(cell) ?? 0) - (old.get(cell) ?? 0);
          if (delta !== 0) expected[cell] = delta;
        }
        expect(cells).toEqual(expected);
      }),
    );
  });

  it('moves the cells of every search count by (after matches ? 1 : 0) - (before matches ? 1 : 0)', () => {
    fc.assert(
      fc.property(maybe(arbitraryTicket), maybe(arbitraryTicket), (before, after) => {
        fc.pre(before !== undefined || after !== undefined);
        const ops = mergeCounters(derivedWrites(ticketEntity, TENANT, id(100), after, before));
        const moved = new Map<string, number>();
        for (const op of ops) {
          const update = op.item.Update;
          if (!update) continue;
          for (const [attribute, delta] of addsOf(update)) {
            const cell = cellId(update.Key, attribute);
            moved.set(cell, (moved.get(cell) ?? 0) + delta);
          }
        }
        const read = new Set<string>();
        const law = (
          search: { param: string; value: string } | undefined,
          matches: (t: TicketRecord) => boolean,
        ) => {
          const { count, countEntries } = searchTarget(ticketEntity, TENANT, search);
          const label = search ? `${search.param}=${search.value}` : 'list';
          expect(countEntries === true, label).toBe(
            search !== undefined && COUNTING_ENTRIES.has(search.param),
          );
          if (countEntries) {
            // No cells to sum: and no counter item of its own moves (nor any counter, below).
            expect(count, label).toEqual([]);
            const own = keys.counter(TENANT, `TICKET#${label}`);
            for (const cell of moved.keys())
              expect(cell.startsWith(`${own.pk}\n${own.sk}\n`), cell).toBe(false);
            return;
          }
          const cells = count.map((c) => cellId(c.key, c.attribute));
          for (const cell of cells) read.add(cell);
          const sum = cells.reduce((n, cell) => n + (moved.get(cell) ?? 0), 0);
          const expected = (after && matches(after) ? 1 : 0) - (before && matches(before) ? 1 : 0);
          expect(sum, label).toBe(expected);
        };
        law(undefined, () => true);
        for (const [param, values, matches] of TICKET_SEARCHES)
          for (const value of values) law({ param, value }, (t) => matches(t, value));
        // What no count reads: agents' refCounts (cc is no search), which keep agents from deletion.
        for (const cell of moved.keys())
          if (!read.has(cell))
            expect(cell).toMatch(new RegExp(`^T#${TENANT}#AGENT#[0-9a-f]{24}\\n#\\nrefCount$`));
      }),
    );
  });

  it('puts one tag item per added tag and deletes one per removed tag; kept ones only when the page attributes changed', () => {
    fc.assert(
      fc.property(arbitraryTicket, arbitraryTicket, (before, after) => {
        const ops = derivedWrites(ticketEntity, TENANT, id(100), after, before);
        const pk = `T#${TENANT}#TICKET#${id(100)}`;
        const pageOf = (t: TicketRecord) => JSON.stringify(PAGE_ATTRIBUTES.map((name) => t[name]));
        const kept =
          pageOf(before) === pageOf(after) ? [] : after.tags.filter((t) => before.tags.includes(t));
        const expected = [
          ...before.tags.filter((t) => !after.tags.includes(t)).map((t) => `Delete ${pk} TAG#${t}`),
          ...after.tags.filter((t) => !before.tags.includes(t)).map((t) => `Put ${pk} TAG#${t}`),
          ...kept.map((t) => `Put ${pk} TAG#${t}`),
        ];
        expect(itemMoves(ops).sort()).toEqual(expected.sort());
        // Every tag item put carries the ticket's page attributes as they are after the write.
        for (const op of ops) {
          const item = op.item.Put?.Item;
          if (!item) continue;
          for (const name of PAGE_ATTRIBUTES) {
            expect(name in item, name).toBe(after[name] !== null);
            if (after[name] !== null) expect(item[name], name).toEqual(after[name]);
          }
        }
      }),
    );
  });
});
