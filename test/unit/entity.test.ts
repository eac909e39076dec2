import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STATUSES } from '../../shared/schemas/ticket';
import {
  agentEntity,
  type CustomerRecord,
  customerEntity,
  RECORD_META,
} from '../../shared/store/entities/records';
import { clientEntity } from '../../shared/store/entities/system';
import { replyEntity, type TicketRecord, ticketEntity } from '../../shared/store/entities/ticket';
import {
  derivedWrites,
  indexAttributes,
  itemOf,
  recordOf,
  referenceOp,
  searchInputs,
  searchTarget,
} from '../../shared/store/entity';
import { Conflict, InvalidReference } from '../../shared/store/errors';
import { keys, sortableTime } from '../../shared/store/keys';
import { LIST_INDEX, SEARCH_INDEXES } from '../../shared/store/table-schema';
import { replyWrites } from '../../shared/store/tickets';
import { mergeCounters } from '../../shared/store/transact';
import {
  counterDeltas,
  customer,
  id,
  itemMoves,
  NOW,
  referenceDeltas,
  TENANT,
  thrown,
  ticket,
} from './fixtures';

const recordPk = (kind: Parameters<typeof keys.record>[1], n: number) => keys.record(TENANT, kind, id(n)).pk;
const ORDER = keys.byCreation(NOW, id(100));

describe('indexAttributes / itemOf / recordOf', () => {
  it('indexes a customer in its list and by e-mail (lower case) and name, all ordered by creation', () => {
    const c = customer({ email: 'Ada@Example.COM' });
    const order = keys.byCreation(c.createdAt, c.id);
    expect(indexAttributes(customerEntity, TENANT, c)).toEqual({
      listpk: `T#${TENANT}#CUSTOMER`,
      listsk: order,
      s1pk: `T#${TENANT}#CUSTOMER#email=ada@example.com`,
      s1sk: order,
      s2pk: `T#${TENANT}#CUSTOMER#name=Ada`,
      s2sk: order,
    });
  });

  it('leaves a record out of the search slots of fields it has no value for (empty counts as none)', () => {
    const attributes = indexAttributes(customerEntity, TENANT, customer({ name: '' }));
    expect(attributes).toHaveProperty('s1pk');
    expect(attributes).not.toHaveProperty('s2pk');
    expect(attributes).not.toHaveProperty('s2sk');
  });

  it('indexes a ticket by status, priority, each reference it has, and in the managedDate range', () => {
    const t = ticket({ status: 'on hold', priority: 1, type: id(20), managedDate: NOW + 5 });
    expect(indexAttributes(ticketEntity, TENANT, t)).toEqual({
      listpk: `T#${TENANT}#TICKET`,
      listsk: ORDER,
      s1pk: `T#${TENANT}#TICKET#status=on hold`,
      s1sk: ORDER,
      s2pk: `T#${TENANT}#TICKET#priority=1`,
      s2sk: ORDER,
      s3pk: `T#${TENANT}#TICKET#openedBy._id=${id(1)}`,
      s3sk: ORDER,
      s5pk: `T#${TENANT}#TICKET#type._id=${id(20)}`,
      s5sk: ORDER,
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

  it('builds the item: fields, system attributes, key, entity, tenant; no tenant above tenants', () => {
    const c = customer();
    expect(itemOf(customerEntity, TENANT, c, { version: 3 })).toMatchObject({
      ...c,
      version: 3,
      pk: `T#${TENANT}#CUSTOMER#${c.id}`,
      sk: '#',
      entity: 'CUSTOMER',
      tenantId: TENANT,
    });
    const client = { clientId: 'abc', name: 'n', secretHash: 'h', createdAt: 1, revoked: false };
    expect(itemOf(clientEntity, '', client)).toEqual({
      ...client,
      pk: 'CLIENT#abc',
      sk: 'CLIENT',
      entity: 'CLIENT',
    });
  });

  it('round-trips any customer record through itemOf and recordOf', () => {
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
      fc.property(record, fc.nat(), fc.nat(), fc.nat(), (r, version, updatedAt, refCount) => {
        const item = itemOf(customerEntity, TENANT, r as CustomerRecord, { version, updatedAt, refCount });
        expect(recordOf<CustomerRecord>(item, RECORD_META)).toEqual(r);
      }),
    );
  });
});

describe('derivedWrites of a customer', () => {
  const agent = id(9);

  it('on create: counts it in total, e-mail and name, claims the e-mail and checks the agent that inserted it', () => {
    const c = customer({ email: 'Ada@Example.com', insertByAgentId: agent });
    const ops = derivedWrites(customerEntity, TENANT, c.id, c);
    expect(counterDeltas(ops)).toEqual({
      CUSTOMER: 1,
      'CUSTOMER#email=ada@example.com': 1,
      'CUSTOMER#name=Ada': 1,
    });
    expect(itemMoves(ops)).toEqual([`Put T#${TENANT}#UNIQUE#CUSTOMER#email=ada@example.com #`]);
    const guard = ops.find((op) => op.item.Put);
    expect(guard?.item.Put).toEqual({
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

    // An uncounted reference: checked to exist, its refCount untouched.
    const checks = ops.filter((op) => op.item.ConditionCheck);
    expect(checks.map((op) => op.item.ConditionCheck)).toEqual([
      { Key: { pk: `T#${TENANT}#AGENT#${agent}`, sk: '#' }, ConditionExpression: 'attribute_exists(pk)' },
    ]);
    expect(referenceDeltas(ops)).toEqual({ [`T#${TENANT}#AGENT#${agent}`]: 0 });
    expect(checks[0]?.onConditionFailed?.()).toMatchObject({
      code: 'invalid-reference',
      errors: [{ path: 'insertByAgentId', message: `Agent ${agent} does not exist` }],
    });
    expect(ops).toHaveLength(5);
  });

  it('on an update that changes nothing indexed: writes nothing else', () => {
    const before = customer({ insertByAgentId: agent });
    const after = { ...before, city: 'Turin', email: 'ADA@example.com' };
    expect(derivedWrites(customerEntity, TENANT, before.id, after, before)).toEqual([]);
  });

  it('on an e-mail change: moves one count from the old address to the new and moves the guard', () => {
    const before = customer();
    const after = customer({ email: 'ada.l@example.com' });
    const ops = derivedWrites(customerEntity, TENANT, before.id, after, before);
    expect(counterDeltas(ops)).toEqual({
      'CUSTOMER#email=ada@example.com': -1,
      'CUSTOMER#email=ada.l@example.com': 1,
    });
    expect(itemMoves(ops)).toEqual([
      `Delete T#${TENANT}#UNIQUE#CUSTOMER#email=ada@example.com #`,
      `Put T#${TENANT}#UNIQUE#CUSTOMER#email=ada.l@example.com #`,
    ]);
  });

  it('on a name cleared: drops it from that search only', () => {
    const before = customer();
    const ops = derivedWrites(customerEntity, TENANT, before.id, customer({ name: '' }), before);
    expect(counterDeltas(ops)).toEqual({ 'CUSTOMER#name=Ada': -1 });
    expect(ops).toHaveLength(1);
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

  it('on delete: uncounts it everywhere and releases the e-mail, without checking references', () => {
    const c = customer({ insertByAgentId: agent });
    const ops = derivedWrites(customerEntity, TENANT, c.id, undefined, c);
    expect(counterDeltas(ops)).toEqual({
      CUSTOMER: -1,
      'CUSTOMER#email=ada@example.com': -1,
      'CUSTOMER#name=Ada': -1,
    });
    expect(itemMoves(ops)).toEqual([`Delete T#${TENANT}#UNIQUE#CUSTOMER#email=ada@example.com #`]);
    expect(ops).toHaveLength(4);
  });
});

describe('derivedWrites of a ticket', () => {
  const A = id(30);
  const B = id(31);
  const C = id(32);

  it('on create: counts it, claims a refCount of everything it points at and writes one item per tag', () => {
    const t = ticket({ assignedTo: A, cc: [B], type: id(20), tags: ['urgent'] });
    const ops = derivedWrites(ticketEntity, TENANT, t.id, t);
    expect(counterDeltas(ops)).toEqual({
      TICKET: 1,
      'TICKET#status=opened': 1,
      'TICKET#priority=0': 1,
      [`TICKET#openedBy._id=${id(1)}`]: 1,
      [`TICKET#assignedTo._id=${A}`]: 1,
      [`TICKET#type._id=${id(20)}`]: 1,
      'TICKET#tags=urgent': 1,
    });
    expect(referenceDeltas(ops)).toEqual({
      [recordPk('CUSTOMER', 1)]: 1,
      [recordPk('AGENT', 30)]: 1,
      [recordPk('AGENT', 31)]: 1,
      [recordPk('TICKET_TYPE', 20)]: 1,
    });
    const tag = ops.find((op) => op.item.Put);
    expect(tag?.item.Put?.Item).toEqual({
      pk: `T#${TENANT}#TICKET#${t.id}`,
      sk: 'TAG#urgent',
      tenantId: TENANT,
      entity: 'TICKET_TAG',
      ticketId: t.id,
      tag: 'urgent',
      listpk: `T#${TENANT}#TICKET#tags=urgent`,
      listsk: ORDER,
    });
  });

  it('on a status change: moves exactly one count from the old status to the new', () => {
    const before = ticket();
    const after = ticket({ status: 'closed', closedDate: NOW + 1, managedDate: NOW + 1 });
    const ops = derivedWrites(ticketEntity, TENANT, before.id, after, before);
    expect(counterDeltas(ops)).toEqual({ 'TICKET#status=opened': -1, 'TICKET#status=closed': 1 });
    expect(ops).toHaveLength(2);
  });

  it('on tags changed: deletes the dropped tag items, puts the new ones, moves their counts', () => {
    const before = ticket({ tags: ['a', 'b'] });
    const after = ticket({ tags: ['b', 'c'] });
    const ops = derivedWrites(ticketEntity, TENANT, before.id, after, before);
    expect(counterDeltas(ops)).toEqual({ 'TICKET#tags=a': -1, 'TICKET#tags=c': 1 });
    const pk = `T#${TENANT}#TICKET#${before.id}`;
    expect(itemMoves(ops)).toEqual([`Delete ${pk} TAG#a`, `Put ${pk} TAG#c`]);
  });

  it('moves refCount by one per changed pointer and not at all for unchanged ones', () => {
    const before = ticket({ assignedTo: A, cc: [B], type: id(20) });
    const after = ticket({ assignedTo: C, cc: [B], type: null });
    const ops = derivedWrites(ticketEntity, TENANT, before.id, after, before);
    expect(referenceDeltas(ops)).toEqual({
      [recordPk('AGENT', 30)]: -1,
      [recordPk('AGENT', 32)]: 1,
      [recordPk('TICKET_TYPE', 20)]: -1,
    });
    const increment = ops.find((op) => op.item.Update?.Key?.pk === recordPk('AGENT', 32));
    expect(increment?.item.Update).toMatchObject({
      UpdateExpression: 'ADD refCount :d',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':d': 1 },
    });
  });

  it('costs nothing when a pointer only moves between fields of one reference (assignedTo to cc)', () => {
    const before = ticket({ assignedTo: A });
    const after = ticket({ assignedTo: null, cc: [A] });
    const ops = derivedWrites(ticketEntity, TENANT, before.id, after, before);
    expect(referenceDeltas(ops)).toEqual({});
    expect(counterDeltas(ops)).toEqual({ [`TICKET#assignedTo._id=${A}`]: -1 });
  });

  it('merges the same agent in assignedTo and cc into one element that counts both', () => {
    const t = ticket({ assignedTo: A, cc: [A, B] });
    const ops = derivedWrites(ticketEntity, TENANT, t.id, t);
    const onA = ops.filter((op) => op.item.Update?.Key?.pk === recordPk('AGENT', 30));
    expect(onA).toHaveLength(1);
    expect(onA[0]?.item.Update?.ExpressionAttributeValues).toEqual({ ':d': 2 });
    expect(referenceDeltas(derivedWrites(ticketEntity, TENANT, t.id, undefined, t))).toMatchObject({
      [recordPk('AGENT', 30)]: -2,
    });
  });

  it('on delete: uncounts it, releases every refCount and deletes its tag items', () => {
    const t = ticket({ assignedTo: A, tags: ['x'] });
    const ops = derivedWrites(ticketEntity, TENANT, t.id, undefined, t);
    expect(counterDeltas(ops)).toEqual({
      TICKET: -1,
      'TICKET#status=opened': -1,
      'TICKET#priority=0': -1,
      [`TICKET#openedBy._id=${id(1)}`]: -1,
      [`TICKET#assignedTo._id=${A}`]: -1,
      'TICKET#tags=x': -1,
    });
    expect(referenceDeltas(ops)).toEqual({ [recordPk('CUSTOMER', 1)]: -1, [recordPk('AGENT', 30)]: -1 });
    expect(itemMoves(ops)).toEqual([`Delete T#${TENANT}#TICKET#${t.id} TAG#x`]);
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
      entity: 'TICKET_REPLY',
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

  it('throws InvalidReference with the path for anything but an id', () => {
    for (const bad of ['', 'abc', 'ABCDEF'.padStart(24, '0'), `${id(1)}0`, '../x']) {
      let error: unknown;
      try {
        referenceOp(TENANT, agentRef, { id: bad, path: 'assignedTo.id' }, 1);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InvalidReference);
      expect((error as InvalidReference).errors?.[0]?.path).toBe('assignedTo.id');
    }
  });

  it('is an existence check at zero and a conditional refCount move otherwise', () => {
    const key = keys.record(TENANT, 'AGENT', id(5));
    const zero = referenceOp(TENANT, agentRef, { id: id(5), path: 'p' }, 0);
    expect(zero.item).toEqual({ ConditionCheck: { Key: key, ConditionExpression: 'attribute_exists(pk)' } });
    const minus = referenceOp(TENANT, agentRef, { id: id(5), path: 'p' }, -1);
    expect(minus.item.Update).toEqual({
      Key: key,
      UpdateExpression: 'ADD refCount :d',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':d': -1 },
    });
    expect(minus.counter).toMatchObject({ id: `${key.pk}\n${key.sk}`, delta: -1 });
  });
});

describe('searchTarget', () => {
  it('serves the bare list from the list index with the total counter', () => {
    expect(searchTarget(customerEntity, TENANT)).toEqual({
      index: LIST_INDEX,
      partition: `T#${TENANT}#CUSTOMER`,
      countName: 'CUSTOMER',
    });
  });

  it('serves an exact search from its slot, normalising the value when the search says so', () => {
    expect(searchTarget(customerEntity, TENANT, { param: 'email', value: 'Ada@Example.COM' })).toEqual({
      index: SEARCH_INDEXES.s1,
      partition: `T#${TENANT}#CUSTOMER#email=ada@example.com`,
      countName: 'CUSTOMER#email=ada@example.com',
    });
    expect(searchTarget(agentEntity, TENANT, { param: 'name', value: 'GRACE' })).toEqual({
      index: SEARCH_INDEXES.s2,
      partition: `T#${TENANT}#AGENT#name=GRACE`,
      countName: 'AGENT#name=GRACE',
    });
  });

  it('serves a tag from the list index partition of that tag, where the tag items are', () => {
    const target = searchTarget(ticketEntity, TENANT, { param: 'tags', value: 'urgent' });
    expect(target).toEqual({
      index: LIST_INDEX,
      partition: `T#${TENANT}#TICKET#tags=urgent`,
      countName: 'TICKET#tags=urgent',
    });
    const tagItem = derivedWrites(ticketEntity, TENANT, id(100), ticket({ tags: ['urgent'] })).find(
      (op) => op.item.Put,
    );
    expect(tagItem?.item.Put?.Item?.[target.index.partition]).toBe(target.partition);
  });

  it('serves a managedDate range from its slot, counted from the list total, from the given instant on', () => {
    expect(searchTarget(ticketEntity, TENANT, { param: 'managedDate', value: '1700000000000' })).toEqual({
      index: SEARCH_INDEXES.s8,
      partition: `T#${TENANT}#TICKET#managedDate`,
      countName: 'TICKET',
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

/** Counters a ticket is counted in, spelled out from the contract (not from the declaration). */
const ticketCounters = (t: TicketRecord | undefined): Set<string> => {
  if (!t) return new Set();
  const names = ['TICKET', `TICKET#status=${t.status}`, `TICKET#priority=${t.priority}`];
  names.push(`TICKET#openedBy._id=${t.openedBy}`);
  if (t.assignedTo) names.push(`TICKET#assignedTo._id=${t.assignedTo}`);
  if (t.type) names.push(`TICKET#type._id=${t.type}`);
  if (t.area) names.push(`TICKET#area._id=${t.area}`);
  if (t.group) names.push(`TICKET#group._id=${t.group}`);
  // Exact, case and all; an empty one is no key.
  if (t.externalId1) names.push(`TICKET#externalId1=${t.externalId1}`);
  for (const tag of t.tags) names.push(`TICKET#tags=${tag}`);
  return new Set(names);
};

/** How many pointers a ticket holds at each record (an agent may be assigned and in cc). */
const ticketPointers = (t: TicketRecord | undefined): Map<string, number> => {
  const counts = new Map<string, number>();
  if (!t) return counts;
  const add = (kind: Parameters<typeof keys.record>[1], value: string | null) => {
    if (!value) return;
    const pk = keys.record(TENANT, kind, value).pk;
    counts.set(pk, (counts.get(pk) ?? 0) + 1);
  };
  add('CUSTOMER', t.openedBy);
  add('AGENT', t.assignedTo);
  for (const agent of t.cc) add('AGENT', agent);
  add('TICKET_TYPE', t.type);
  add('TICKET_AREA', t.area);
  add('TICKET_GROUP', t.group);
  return counts;
};

const customerCounters = (c: CustomerRecord | undefined): Set<string> => {
  if (!c) return new Set();
  const names = ['CUSTOMER'];
  if (c.email) names.push(`CUSTOMER#email=${c.email.toLowerCase()}`);
  if (c.name) names.push(`CUSTOMER#name=${c.name}`);
  return new Set(names);
};

const pool = (from: number) => fc.constantFrom(id(from), id(from + 1), id(from + 2));
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
    tags: fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'x y'), { maxLength: 4 }),
    externalId1: fc.option(fc.constantFrom('ORD-1', 'ord-1', 'ORD-2', ''), { nil: null }),
    managedDate: fc.integer({ min: 0, max: 2 ** 45 }),
  })
  .map((fields) => ticket(fields));
const arbitraryCustomer = fc
  .record({
    name: fc.constantFrom('', 'Ada', 'ada', 'Grace'),
    email: fc.constantFrom('ada@example.com', 'ADA@example.com', 'grace@example.com', ''),
  })
  .map((fields) => customer(fields));

/** For every counter, the moves of one write sum to "counted after" minus "counted before". */
const assertCounterLaw = <T>(
  after: T | undefined,
  before: T | undefined,
  ops: ReturnType<typeof derivedWrites>,
  countersOf: (r: T | undefined) => Set<string>,
) => {
  const deltas = counterDeltas(mergeCounters(ops));
  const now = countersOf(after);
  const old = countersOf(before);
  for (const name of new Set([...now, ...old, ...Object.keys(deltas)])) {
    expect(deltas[name] ?? 0, name).toBe((now.has(name) ? 1 : 0) - (old.has(name) ? 1 : 0));
  }
  // A counter that ends where it started costs no element.
  expect(Object.values(deltas)).not.toContain(0);
};

describe('properties of derivedWrites', () => {
  it('moves each ticket counter by (after has value ? 1 : 0) - (before has value ? 1 : 0)', () => {
    fc.assert(
      fc.property(
        fc.option(arbitraryTicket, { nil: undefined }),
        fc.option(arbitraryTicket, { nil: undefined }),
        (before, after) => {
          fc.pre(before !== undefined || after !== undefined);
          const ops = derivedWrites(ticketEntity, TENANT, id(100), after, before);
          assertCounterLaw(after, before, ops, ticketCounters);
        },
      ),
    );
  });

  it('moves each customer counter the same way (e-mail case-insensitively, empty names uncounted)', () => {
    fc.assert(
      fc.property(
        fc.option(arbitraryCustomer, { nil: undefined }),
        fc.option(arbitraryCustomer, { nil: undefined }),
        (before, after) => {
          fc.pre(before !== undefined || after !== undefined);
          const ops = derivedWrites(customerEntity, TENANT, id(1), after, before);
          assertCounterLaw(after, before, ops, customerCounters);
        },
      ),
    );
  });

  it('moves each refCount by the pointers gained minus the pointers lost, one element per record', () => {
    fc.assert(
      fc.property(
        fc.option(arbitraryTicket, { nil: undefined }),
        fc.option(arbitraryTicket, { nil: undefined }),
        (before, after) => {
          fc.pre(before !== undefined || after !== undefined);
          const ops = derivedWrites(ticketEntity, TENANT, id(100), after, before);
          const moves = ops.filter((op) => op.item.Update?.UpdateExpression === 'ADD refCount :d');
          const targets = moves.map((op) => op.item.Update?.Key?.pk);
          expect(new Set(targets).size).toBe(targets.length);
          expect(ops.some((op) => op.item.ConditionCheck)).toBe(false);
          const now = ticketPointers(after);
          const old = ticketPointers(before);
          const expected: Record<string, number> = {};
          for (const pk of new Set([...now.keys(), ...old.keys()])) {
            const delta = (now.get(pk) ?? 0) - (old.get(pk) ?? 0);
            if (delta !== 0) expected[pk] = delta;
          }
          expect(referenceDeltas(ops)).toEqual(expected);
        },
      ),
    );
  });

  it('writes one tag item per added tag and deletes one per removed tag, nothing for kept ones', () => {
    fc.assert(
      fc.property(arbitraryTicket, arbitraryTicket, (before, after) => {
        const ops = derivedWrites(ticketEntity, TENANT, id(100), after, before);
        const pk = `T#${TENANT}#TICKET#${id(100)}`;
        const expected = [
          ...before.tags.filter((t) => !after.tags.includes(t)).map((t) => `Delete ${pk} TAG#${t}`),
          ...after.tags.filter((t) => !before.tags.includes(t)).map((t) => `Put ${pk} TAG#${t}`),
        ];
        expect(itemMoves(ops).sort()).toEqual(expected.sort());
      }),
    );
  });
});
