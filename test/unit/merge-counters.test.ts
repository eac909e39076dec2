import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { referenceOp } from '../../shared/store/entity';
import { InvalidReference } from '../../shared/store/errors';
import { keys } from '../../shared/store/keys';
import { mergeCounters } from '../../shared/store/transact';
import type { WriteOp } from '../../shared/store/write-ops';
import { countDelta } from '../../shared/store/write-ops';
import { counterDeltas, id, TENANT } from './fixtures';

const agent = { kind: 'AGENT' as const, label: 'Agent' };
const put = (sk: string): WriteOp => ({ item: { Put: { Item: { pk: 'P', sk } } } });

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
    expect(merged[2]?.item.Update).toEqual({
      Key: keys.counter(TENANT, 'TICKET_TYPE'),
      UpdateExpression: 'ADD #n :d',
      ExpressionAttributeNames: { '#n': 'n' },
      ExpressionAttributeValues: { ':d': 4 },
    });
    expect(counterDeltas(merged)).toEqual({ TICKET_TYPE: 4, AGENT: 1 });
  });

  it('drops a counter whose moves sum to zero', () => {
    const merged = mergeCounters([
      countDelta(TENANT, 'X', 1),
      put('a'),
      countDelta(TENANT, 'X', -1),
      countDelta(TENANT, 'Y', -1),
    ]);
    expect(counterDeltas(merged)).toEqual({ Y: -1 });
    expect(merged).toHaveLength(2);
  });

  it('keeps counters of different tenants apart', () => {
    const merged = mergeCounters([countDelta('t1', 'X', 1), countDelta('t2', 'X', -1)]);
    expect(merged).toHaveLength(2);
  });

  it('turns reference moves summing to zero into an existence check that still names the path', () => {
    const key = keys.record(TENANT, 'AGENT', id(7));
    const merged = mergeCounters([
      referenceOp(TENANT, agent, { id: id(7), path: 'assignedTo.id' }, -1),
      referenceOp(TENANT, agent, { id: id(7), path: 'cc.0.id' }, 1),
    ]);
    expect(merged).toHaveLength(1);
    expect(merged[0]?.item).toEqual({
      ConditionCheck: { Key: key, ConditionExpression: 'attribute_exists(pk)' },
    });
    const failure = merged[0]?.onConditionFailed?.();
    expect(failure).toBeInstanceOf(InvalidReference);
    expect((failure as InvalidReference).errors?.[0]?.path).toBe('assignedTo.id');
  });

  it('sums non-zero reference moves into one conditional refCount update', () => {
    const merged = mergeCounters([
      referenceOp(TENANT, agent, { id: id(7), path: 'assignedTo.id' }, 1),
      referenceOp(TENANT, agent, { id: id(7), path: 'cc.0.id' }, 1),
      referenceOp(TENANT, agent, { id: id(8), path: 'cc.1.id' }, 0),
    ]);
    expect(merged.map((op) => op.item)).toEqual([
      {
        Update: {
          Key: keys.record(TENANT, 'AGENT', id(7)),
          UpdateExpression: 'ADD refCount :d',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':d': 2 },
        },
      },
      {
        ConditionCheck: {
          Key: keys.record(TENANT, 'AGENT', id(8)),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
    ]);
  });

  it('touches each item at most once and preserves every sum', () => {
    const move = fc.record({ name: fc.constantFrom('A', 'B', 'C'), delta: fc.integer({ min: -3, max: 3 }) });
    fc.assert(
      fc.property(fc.array(move, { maxLength: 30 }), (moves) => {
        const merged = mergeCounters(moves.map((m) => countDelta(TENANT, m.name, m.delta)));
        const sks = merged.map((op) => op.item.Update?.Key?.sk);
        expect(new Set(sks).size).toBe(sks.length);
        const sums: Record<string, number> = {};
        for (const m of moves) sums[m.name] = (sums[m.name] ?? 0) + m.delta;
        for (const name of Object.keys(sums)) if (sums[name] === 0) delete sums[name];
        expect(counterDeltas(merged)).toEqual(sums);
      }),
    );
  });
});
