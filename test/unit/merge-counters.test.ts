import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { referenceOp } from '../../shared/store/derived-writes';
import { InvalidReference } from '../../shared/store/errors';
import { keys } from '../../shared/store/keys';
import { mergeCounters } from '../../shared/store/transact';
import type { Deltas, WriteOp } from '../../shared/store/write-ops';
import { countDelta, countMove } from '../../shared/store/write-ops';
import { id, addsOf as pairsOf, spelled, TENANT } from './fixtures';

const agent = { kind: 'AGENT' as const, label: 'Agent' };
const put = (sk: string): WriteOp => ({ item: { Put: { Item: { pk: 'P', sk } } } });
const COUNTERS = `T#${TENANT}#COUNTERS`;

type Update = NonNullable<WriteOp['item']['Update']>;

/** The moves of a count element by attribute; fails on any other shape. */
const addsOf = (update: Update): Deltas => Object.fromEntries(pairsOf(update));

/** Counter moves of a plan by counter name (the counter item's sort key) and attribute, summed. */
const counterMoves = (ops: WriteOp[], tenantId = TENANT): Record<string, Deltas> => {
  const sums: Record<string, Deltas> = {};
  for (const op of ops) {
    const update = op.item.Update;
    if (update?.Key?.pk !== `T#${tenantId}#COUNTERS`) continue;
    const name = String(update.Key.sk);
    sums[name] ??= {};
    const into = sums[name];
    for (const [attribute, delta] of Object.entries(addsOf(update)))
      into[attribute] = (into[attribute] ?? 0) + delta;
  }
  return sums;
};

describe('countDelta / countMove', () => {
  it('moves the count `n` of a named counter item: countMove on keys.counter', () => {
    const delta = countDelta(TENANT, 'TICKET_TYPE', -2);
    const move = countMove(keys.counter(TENANT, 'TICKET_TYPE'), { n: -2 });
    expect(spelled(delta.item)).toEqual(
      spelled({
        Update: {
          Key: keys.counter(TENANT, 'TICKET_TYPE'),
          UpdateExpression: 'ADD #c0 :c0',
          ExpressionAttributeNames: { '#c0': 'n' },
          ExpressionAttributeValues: { ':c0': -2 },
        },
      }),
    );
    expect(delta.item).toEqual(move.item);
    expect(delta.counter).toMatchObject({ id: `${COUNTERS}\nTICKET_TYPE`, deltas: { n: -2 } });
    expect(move.counter?.id).toBe(delta.counter?.id);
  });

  it('adds several attributes of one item in one element, the non-zero ones only', () => {
    const key = keys.counter(TENANT, 'TICKET');
    expect(spelled(countMove(key, { n: 1, 'status=on hold': 0, 'priority=1': -1 }).item.Update)).toEqual(
      spelled({
        Key: key,
        UpdateExpression: 'ADD #c0 :c0, #c1 :c1',
        ExpressionAttributeNames: { '#c0': 'n', '#c1': 'priority=1' },
        ExpressionAttributeValues: { ':c0': 1, ':c1': -1 },
      }),
    );
  });
});

describe('mergeCounters', () => {
  it('sums several moves of one counter into one element, keeping the other elements', () => {
    const merged = mergeCounters([
      put('a'),
      countDelta(TENANT, 'TICKET_TYPE', 1),
      countDelta(TENANT, 'TICKET_TYPE', 1),
      put('b'),
      countDelta(TENANT, 'AGENT', 1),
      countDelta(TENANT, 'TICKET_TYPE', 1),
      countDelta(TENANT, 'TICKET_TYPE', 1),
    ]);
    expect(merged.map((op) => Object.keys(op.item)[0])).toEqual(['Put', 'Put', 'Update', 'Update']);
    expect(merged.slice(0, 2)).toEqual([put('a'), put('b')]);
    expect(spelled(merged[2]?.item.Update)).toEqual(
      spelled({
        Key: keys.counter(TENANT, 'TICKET_TYPE'),
        UpdateExpression: 'ADD #c0 :c0',
        ExpressionAttributeNames: { '#c0': 'n' },
        ExpressionAttributeValues: { ':c0': 4 },
      }),
    );
    expect(counterMoves(merged)).toEqual({ TICKET_TYPE: { n: 4 }, AGENT: { n: 1 } });
  });

  it('merges moves of different attributes of one item into one element', () => {
    const total = keys.counter(TENANT, 'TICKET');
    const merged = mergeCounters([
      countDelta(TENANT, 'TICKET', 1),
      countMove(total, { 'status=opened': 1 }),
      countMove(total, { 'priority=0': 1 }),
      countMove(total, { 'status=opened': -1, 'status=closed': 1 }),
    ]);
    expect(spelled(merged.map((op) => op.item))).toEqual(
      spelled([
        {
          Update: {
            Key: total,
            // status=opened summed to zero: not added.
            UpdateExpression: 'ADD #c0 :c0, #c1 :c1, #c2 :c2',
            ExpressionAttributeNames: { '#c0': 'n', '#c1': 'priority=0', '#c2': 'status=closed' },
            ExpressionAttributeValues: { ':c0': 1, ':c1': 1, ':c2': 1 },
          },
        },
      ]),
    );
  });

  it('drops a counter whose moves sum to zero in every attribute', () => {
    const total = keys.counter(TENANT, 'TICKET');
    const merged = mergeCounters([
      countDelta(TENANT, 'X', 1),
      put('a'),
      countDelta(TENANT, 'X', -1),
      countDelta(TENANT, 'Y', -1),
      countMove(total, { 'status=opened': -1, 'status=closed': 1 }),
      countMove(total, { 'status=closed': -1, 'status=opened': 1 }),
    ]);
    expect(counterMoves(merged)).toEqual({ Y: { n: -1 } });
    expect(merged).toHaveLength(2);
  });

  it('keeps counters of different tenants apart', () => {
    const merged = mergeCounters([countDelta('t1', 'X', 1), countDelta('t2', 'X', -1)]);
    expect(merged).toHaveLength(2);
    expect(counterMoves(merged, 't1')).toEqual({ X: { n: 1 } });
    expect(counterMoves(merged, 't2')).toEqual({ X: { n: -1 } });
  });

  it('turns reference moves summing to zero into an existence check that still names the path', () => {
    const key = keys.record(TENANT, 'AGENT', id(7));
    const merged = mergeCounters([
      referenceOp(TENANT, agent, { id: id(7), path: 'assignedTo.id' }, { refCount: -1 }),
      referenceOp(TENANT, agent, { id: id(7), path: 'cc.0.id' }, { refCount: 1 }),
    ]);
    expect(merged).toHaveLength(1);
    expect(spelled(merged[0]?.item)).toEqual({
      ConditionCheck: { Key: key, ConditionExpression: 'attribute_exists(pk)' },
    });
    const failure = merged[0]?.onConditionFailed?.();
    expect(failure).toBeInstanceOf(InvalidReference);
    expect((failure as InvalidReference).errors?.[0]?.path).toBe('assignedTo.id');
  });

  it('sums non-zero reference moves into one conditional update of the attributes that moved', () => {
    const merged = mergeCounters([
      referenceOp(TENANT, agent, { id: id(7), path: 'assignedTo.id' }, { refCount: 1 }),
      referenceOp(TENANT, agent, { id: id(7), path: 'cc.0.id' }, { refCount: 1 }),
      referenceOp(TENANT, agent, { id: id(8), path: 'cc.1.id' }, {}),
    ]);
    expect(spelled(merged.map((op) => op.item))).toEqual(
      spelled([
        {
          Update: {
            Key: keys.record(TENANT, 'AGENT', id(7)),
            UpdateExpression: 'ADD #c0 :c0',
            // A count that grows: the record must be live (no erased customer's mark).
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(erasedAt)',
            ExpressionAttributeNames: { '#c0': 'refCount' },
            ExpressionAttributeValues: { ':c0': 2 },
          },
        },
        {
          ConditionCheck: {
            Key: keys.record(TENANT, 'AGENT', id(8)),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
      ]),
    );
  });

  it('nets an agent moved from assignedTo to cc into a conditional move of `assigned` alone', () => {
    const merged = mergeCounters([
      referenceOp(TENANT, agent, { id: id(7), path: 'assignedTo.id' }, { refCount: -1, assigned: -1 }),
      referenceOp(TENANT, agent, { id: id(7), path: 'cc.0.id' }, { refCount: 1 }),
    ]);
    expect(spelled(merged.map((op) => op.item))).toEqual(
      spelled([
        {
          Update: {
            Key: keys.record(TENANT, 'AGENT', id(7)),
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

  it('touches each item at most once and preserves every sum of every attribute', () => {
    const move = fc.record({
      name: fc.constantFrom('A', 'B', 'C'),
      deltas: fc.dictionary(fc.constantFrom('n', 'status=opened', 'x y'), fc.integer({ min: -3, max: 3 }), {
        maxKeys: 3,
      }),
    });
    fc.assert(
      fc.property(fc.array(move, { maxLength: 30 }), (moves) => {
        const merged = mergeCounters(moves.map((m) => countMove(keys.counter(TENANT, m.name), m.deltas)));
        const sks = merged.map((op) => op.item.Update?.Key?.sk);
        expect(new Set(sks).size).toBe(sks.length);
        const sums: Record<string, Deltas> = {};
        for (const m of moves)
          for (const [attribute, delta] of Object.entries(m.deltas)) {
            sums[m.name] ??= {};
            const into = sums[m.name] as Deltas;
            into[attribute] = (into[attribute] ?? 0) + delta;
          }
        // Only non-zero sums are added; an item none of whose sums is non-zero is not written.
        const expected: Record<string, Deltas> = {};
        for (const [name, deltas] of Object.entries(sums)) {
          const moved = Object.entries(deltas).filter(([, delta]) => delta !== 0);
          if (moved.length > 0) expected[name] = Object.fromEntries(moved);
        }
        expect(counterMoves(merged)).toEqual(expected);
      }),
    );
  });
});

describe('a counter move with a ceiling', () => {
  it('keeps its condition on the merged sum, whichever move of the item comes first', () => {
    const key = keys.counter(TENANT, 'WEBHOOK');
    const exceeded = () => new Error('past the ceiling');
    const capped = countMove(key, { n: 1 }, { attribute: 'n', max: 10, exceeded });
    for (const order of [
      [countMove(key, { n: 1 }), capped],
      [capped, countMove(key, { n: 1 })],
    ]) {
      const [merged] = mergeCounters(order);
      const update = merged?.item.Update as Update;
      expect(addsOf(update)).toEqual({ n: 2 });
      // Two moves: the count must be at most 8 before them.
      expect((spelled(update) as Update).ConditionExpression).toBe('attribute_not_exists(n) OR n <= 8');
      expect(merged?.onConditionFailed?.()).toEqual(new Error('past the ceiling'));
    }
  });
});
