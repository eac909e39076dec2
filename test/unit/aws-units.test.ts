import { describe, expect, it } from 'vitest';
import {
  getReadUnits,
  indexEntry,
  indexWriteUnits,
  itemWriteCharge,
  queryReadUnits,
  readUnits,
  sameValue,
  writeUnits,
} from '../../bench/aws-units';
import { PAGE_ATTRIBUTES } from '../../shared/store/table-schema';
import { itemBytes } from '../../shared/store/write-ops';

/**
 * The bench's model of AWS's capacity rules, pinned with small examples computed by hand
 * (sizes: each attribute name's bytes plus its value's; a number ~1 byte per 2 digits + 1).
 */

/** `{pk: 'p', sk: 's', d: 'x' * n}`: 3 + 3 + (1 + n) bytes. */
const sized = (bytes: number) => ({ pk: 'p', sk: 's', d: 'x'.repeat(bytes - 7) });

// Index specs shaped like table-schema's v2 design (kept here so the examples do not move with it).
const LIST = { name: 'list', partition: 'listpk', sort: 'listsk', projection: 'ALL' } as const;
const slot = (n: number, sort = 'listsk') => ({
  name: `search${n}v2`,
  partition: `s${n}pk`,
  sort,
  projection: PAGE_ATTRIBUTES,
});
const INDEXES = [LIST, slot(1), slot(2), slot(3), slot(4), slot(8, 's8sk')];

/**
 * A ticket item as the store writes it, 1 254 bytes:
 * pk 2+14, sk 2+1, listpk 6+11, listsk 6+4, s1pk 4+25, s3pk 4+27, s4pk 4+29, s8pk 4+23,
 * s8sk 4+4, openedBy 8+2, assignedTo 10+2, managedDate 11+3, version 7+2 = 219,
 * description 11+1024.
 */
const ticket = {
  pk: 'T#t1#TICKET#k1',
  sk: '#',
  listpk: 'T#t1#TICKET',
  listsk: '0001',
  s1pk: 'T#t1#TICKET#status=opened',
  s3pk: 'T#t1#TICKET#openedBy._id=c1',
  s4pk: 'T#t1#TICKET#assignedTo._id=a1',
  s8pk: 'T#t1#TICKET#managedDate',
  s8sk: '0100',
  openedBy: 'c1',
  assignedTo: 'a1',
  managedDate: 100,
  version: 1,
  description: 'x'.repeat(1024),
};

describe('item size and write units', () => {
  it('sizes items as DynamoDB does (itemBytes)', () => {
    expect(itemBytes(sized(1024))).toBe(1024);
    expect(itemBytes(ticket)).toBe(1254);
  });

  it('charges 1 KB per unit, rounded up: an item just over 1 KB costs 2', () => {
    const charge = (bytes: number) => itemWriteCharge({ kind: 'put', after: sized(bytes) }, { indexes: [] });
    expect(charge(1024)).toEqual({ table: 1, indexes: {} });
    expect(charge(1025)).toEqual({ table: 2, indexes: {} });
    expect(writeUnits(0)).toBe(1);
    expect(writeUnits(2049)).toBe(3);
  });

  it('charges an update by the larger of the item before and after', () => {
    const charge = itemWriteCharge(
      { kind: 'update', before: sized(2100), after: sized(900) },
      { indexes: [] },
    );
    expect(charge.table).toBe(3);
  });

  it('charges a delete by the item deleted, and a missing one the minimum', () => {
    expect(itemWriteCharge({ kind: 'delete', before: sized(1500) }, { indexes: [] }).table).toBe(2);
    expect(itemWriteCharge({ kind: 'delete' }, { indexes: [] }).table).toBe(1);
  });

  it('doubles every element of a transaction, a ConditionCheck included', () => {
    const tx = { indexes: [], transactional: true };
    expect(itemWriteCharge({ kind: 'put', after: sized(1024) }, tx).table).toBe(2);
    expect(itemWriteCharge({ kind: 'put', after: sized(1025) }, tx).table).toBe(4);
    // A check of a 2 036-byte item: 2 units, twice; it writes no index.
    expect(
      itemWriteCharge({ kind: 'check', before: { ...ticket, description: 'x'.repeat(1806) } }, tx),
    ).toEqual({
      table: 4,
      indexes: {},
    });
  });
});

describe('index entries', () => {
  it('holds only items with both index keys as strings (sparse)', () => {
    expect(indexEntry(slot(2), ticket)).toBeUndefined(); // no s2pk
    expect(indexEntry(slot(1), { ...ticket, listsk: 1 })).toBeUndefined();
  });

  it('is the table keys, the index keys and the projected attributes the item has', () => {
    // pk 16, sk 3, s1pk 29, listsk 10, openedBy 10, assignedTo 12 = 80 bytes.
    const entry = indexEntry(slot(1), ticket);
    expect(entry).toEqual({
      pk: ticket.pk,
      sk: '#',
      s1pk: ticket.s1pk,
      listsk: '0001',
      openedBy: 'c1',
      assignedTo: 'a1',
    });
    expect(itemBytes(entry as object as Record<string, unknown>)).toBe(80);
    expect(indexEntry(LIST, ticket)).toBe(ticket);
    const keysOnly = { name: 'k', partition: 's1pk', sort: 'listsk', projection: [] };
    expect(Object.keys(indexEntry(keysOnly, ticket) ?? {}).sort()).toEqual(['listsk', 'pk', 's1pk', 'sk']);
  });
});

describe('index writes', () => {
  const body = { pk: 'p', sk: 's', ap: 'A', as: '1', gp: 'open', gs: '01', status: 'open' };
  // pk 3, sk 3, ap 3, as 3, gp 6, gs 4, status 10, body 4+2000: 2 036 bytes; INCLUDE entry 26.
  const item = { ...body, body: 'x'.repeat(2000) };
  const all = { name: 'all', partition: 'ap', sort: 'as', projection: 'ALL' } as const;
  const include = { name: 'inc', partition: 'gp', sort: 'gs', projection: ['status'] };
  const keysOnly = { name: 'keys', partition: 'kp', sort: 'ks', projection: [] };
  const indexes = [all, include, keysOnly];

  it('writes nothing to an INCLUDE index when only a non-projected attribute changes', () => {
    const after = { ...item, body: 'y'.repeat(2000) };
    expect(itemBytes(item)).toBe(2036);
    expect(indexWriteUnits(include, item, after)).toBe(0);
    expect(itemWriteCharge({ kind: 'update', before: item, after }, { indexes })).toEqual({
      table: 2,
      indexes: { all: 2 }, // the ALL index projects `body`; `keys` does not hold the item
    });
  });

  it('rewrites an entry once when a projected attribute changes, by the larger entry', () => {
    expect(indexWriteUnits(include, item, { ...item, status: 'x'.repeat(1100) })).toBe(2); // 1 122-byte entry
  });

  it('writes nothing when nothing projected changes (same values, other key order)', () => {
    const { status, ...rest } = item;
    expect(indexWriteUnits(all, item, { status, ...rest })).toBe(0);
  });

  it('moves an entry whose index sort key changes: a delete plus a put', () => {
    const after = { ...item, gs: '02' };
    expect(indexWriteUnits(include, item, after)).toBe(1 + 1);
    expect(itemWriteCharge({ kind: 'update', before: item, after }, { indexes })).toEqual({
      table: 2,
      indexes: { all: 2, inc: 2 },
    });
    // In a transaction the table's write doubles; an index write costs what it does outside one.
    expect(
      itemWriteCharge({ kind: 'update', before: item, after }, { indexes, transactional: true }),
    ).toEqual({
      table: 4,
      indexes: { all: 2, inc: 2 },
    });
    // The conservative upper bound doubles the index writes as well.
    expect(
      itemWriteCharge(
        { kind: 'update', before: item, after },
        { indexes, transactional: true, conservative: true },
      ),
    ).toEqual({
      table: 4,
      indexes: { all: 4, inc: 4 },
    });
  });

  it('puts the entry of an item entering an index and deletes that of one leaving it', () => {
    expect(itemWriteCharge({ kind: 'put', after: item }, { indexes })).toEqual({
      table: 2,
      indexes: { all: 2, inc: 1 },
    });
    const { gp: _, ...left } = item;
    expect(indexWriteUnits(include, item, left)).toBe(1);
    expect(itemWriteCharge({ kind: 'delete', before: item }, { indexes })).toEqual({
      table: 2,
      indexes: { all: 2, inc: 1 },
    });
  });

  it('charges a reply: the ticket touch rewrites `list` and moves `search8v2`, nothing else', () => {
    // The touch sets managedDate and s8sk, bumps version: same sizes (1 254 bytes, 2 units).
    const touched = { ...ticket, managedDate: 200, s8sk: '0200', version: 2 };
    expect(itemWriteCharge({ kind: 'update', before: ticket, after: touched }, { indexes: INDEXES })).toEqual(
      {
        table: 2,
        // list (ALL): one write of 1 254 bytes; search8v2: delete + put of a 76-byte entry;
        // search1v2, 3, 4: keys and page attributes unchanged; search2v2: not in it.
        indexes: { list: 2, search8v2: 2 },
      },
    );
    // In the reply's transaction, with the reply (16 + 11 + 104 = 131 bytes) and the agent check:
    const reply = { pk: ticket.pk, sk: 'R#0100#r1', text: 'x'.repeat(100) };
    const agent = { pk: 'T#t1#AGENT#a1', sk: '#', name: 'Agent' };
    const tx = { indexes: INDEXES, transactional: true };
    const charges = [
      itemWriteCharge({ kind: 'update', before: ticket, after: touched }, tx),
      itemWriteCharge({ kind: 'put', after: reply }, tx),
      itemWriteCharge({ kind: 'check', before: agent }, tx),
    ];
    // Every element's table write doubles; the ticket's index writes cost what they cost outside.
    expect(charges).toEqual([
      { table: 4, indexes: { list: 2, search8v2: 2 } },
      { table: 2, indexes: {} },
      { table: 2, indexes: {} },
    ]);
    const units = (c: { table: number; indexes: Record<string, number> }) =>
      c.table + Object.values(c.indexes).reduce((a, b) => a + b, 0);
    expect(charges.reduce((sum, c) => sum + units(c), 0)).toBe(12);
    // The conservative upper bound doubles the index writes too: 4 units more.
    const conservative = { ...tx, conservative: true };
    const bounds = [
      itemWriteCharge({ kind: 'update', before: ticket, after: touched }, conservative),
      itemWriteCharge({ kind: 'put', after: reply }, conservative),
      itemWriteCharge({ kind: 'check', before: agent }, conservative),
    ];
    expect(bounds).toEqual([
      { table: 4, indexes: { list: 4, search8v2: 4 } },
      { table: 2, indexes: {} },
      { table: 2, indexes: {} },
    ]);
    expect(bounds.reduce((sum, c) => sum + units(c), 0)).toBe(16);
    // Outside a transaction there is nothing to double: the bound is the charge.
    expect(
      itemWriteCharge(
        { kind: 'update', before: ticket, after: touched },
        { indexes: INDEXES, conservative: true },
      ),
    ).toEqual({ table: 2, indexes: { list: 2, search8v2: 2 } });
  });

  it('charges a new ticket in every index that holds it', () => {
    // list: 1 254 bytes (2); search1, 3, 4 (80, 82, 84 bytes) and search8 (76): 1 each.
    expect(itemWriteCharge({ kind: 'put', after: ticket }, { indexes: INDEXES })).toEqual({
      table: 2,
      indexes: { list: 2, search1v2: 1, search3v2: 1, search4v2: 1, search8v2: 1 },
    });
  });
});

describe('reads', () => {
  it('charges 4 KB per unit, at least 1; eventually consistent half, transactional double', () => {
    expect(getReadUnits(sized(4096), { consistent: true })).toBe(1);
    expect(getReadUnits(sized(4097), { consistent: true })).toBe(2);
    expect(getReadUnits(sized(4097))).toBe(1);
    expect(getReadUnits(sized(4097), { transactional: true })).toBe(4);
    expect(readUnits(10 * 1024, { consistent: true })).toBe(3);
  });

  it('charges a missing item the minimum', () => {
    expect(getReadUnits(undefined, { consistent: true })).toBe(1);
    expect(getReadUnits(undefined)).toBe(0.5);
  });

  it('rounds each item of a BatchGetItem on its own (1.5 KB + 6.5 KB: 3 units, not 2)', () => {
    const keys = [sized(1536), sized(6656)];
    expect(keys.reduce((sum, item) => sum + getReadUnits(item, { consistent: true }), 0)).toBe(3);
    expect(keys.reduce((sum, item) => sum + getReadUnits(item), 0)).toBe(1.5);
  });

  it('rounds a Query page once, on the sum of the entries read', () => {
    // 26 tickets of 1 254 bytes = 32 604 bytes: 8 units, 4 eventually consistent.
    expect(queryReadUnits(Array.from({ length: 26 }, () => ticket))).toBe(4);
    // The same 26 read through an INCLUDE index: 26 entries of 80 bytes = 2 080 bytes.
    const entries = Array.from({ length: 26 }, () => indexEntry(slot(1), ticket) as Record<string, unknown>);
    expect(queryReadUnits(entries)).toBe(0.5);
    expect(queryReadUnits([], { consistent: true })).toBe(1);
  });
});

describe('sameValue', () => {
  it('compares maps whatever their key order, sets whatever their order, lists in order', () => {
    expect(sameValue({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(sameValue(new Set(['a', 'b']), new Set(['b', 'a']))).toBe(true);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
    expect(sameValue({ a: null }, { a: undefined })).toBe(false);
    expect(sameValue(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
  });
});
