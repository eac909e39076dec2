import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  andCondition,
  andUpdate,
  conditionOf,
  projectionOf,
  queryOf,
  updateOf,
} from '../../shared/store/expression';

/**
 * The store's expression builder (shared/store/expression.ts): every name and value is a
 * placeholder, the placeholders of one element never collide, and extensions (a feed clock, a
 * home fence) join an element without meeting its placeholders.
 */
describe('updateOf', () => {
  it('renders SET, if_not_exists, ADD and REMOVE with placeholders only', () => {
    expect(
      updateOf(
        {
          set: { status: 'closed', 'labels.en': 'Closed' },
          setIfMissing: { createdAt: 5 },
          add: { version: 1 },
          remove: ['closedDate'],
        },
        { and: [{ exists: 'pk' }, { eq: ['version', 3] }] },
      ),
    ).toEqual({
      UpdateExpression: 'SET #n0 = :v0, #n1.#n2 = :v1, #n3 = if_not_exists(#n3, :v2) ADD #n4 :v3 REMOVE #n5',
      ConditionExpression: '(attribute_exists(#n6)) AND (#n4 = :v4)',
      ExpressionAttributeNames: {
        '#n0': 'status',
        '#n1': 'labels',
        '#n2': 'en',
        '#n3': 'createdAt',
        '#n4': 'version',
        '#n5': 'closedDate',
        '#n6': 'pk',
      },
      ExpressionAttributeValues: { ':v0': 'closed', ':v1': 'Closed', ':v2': 5, ':v3': 1, ':v4': 3 },
    });
  });

  it('refuses an update that changes nothing', () => {
    expect(() => updateOf({})).toThrow(/changes nothing/);
  });
});

describe('conditions', () => {
  it('renders every operator', () => {
    const c = conditionOf({
      or: [
        { missing: 'until' },
        { le: ['until', 10] },
        { in: ['version', [1, 2]] },
        { not: { beginsWith: ['sk', 'R#'] } },
        { and: [{ ne: ['a', 1] }, undefined, { lt: ['b', 2] }, { gt: ['c', 3] }, { ge: ['d', 4] }] },
      ],
    });
    expect(c.ConditionExpression).toBe(
      '(attribute_not_exists(#n0)) OR (#n0 <= :v0) OR (#n1 IN (:v1, :v2)) OR (NOT (begins_with(#n2, :v3))) OR ((#n3 <> :v4) AND (#n4 < :v5) AND (#n5 > :v6) AND (#n6 >= :v7))',
    );
    expect(c.ExpressionAttributeNames).toEqual({
      '#n0': 'until',
      '#n1': 'version',
      '#n2': 'sk',
      '#n3': 'a',
      '#n4': 'b',
      '#n5': 'c',
      '#n6': 'd',
    });
  });

  it('adds a condition to an element without meeting its placeholders', () => {
    const element = { Key: { pk: 'p', sk: 's' }, ...updateOf({ set: { a: 1 } }, { exists: 'pk' }) };
    const fenced = andCondition(element, { lt: ['feedAt', 7] }, 'f');
    expect(fenced.ConditionExpression).toBe('(attribute_exists(#n1)) AND (#fn0 < :fv0)');
    expect(fenced.ExpressionAttributeNames).toEqual({ '#n0': 'a', '#n1': 'pk', '#fn0': 'feedAt' });
    expect(fenced.ExpressionAttributeValues).toEqual({ ':v0': 1, ':fv0': 7 });
    expect(
      andCondition({} as { ConditionExpression?: string }, { exists: 'pk' }, 'h').ConditionExpression,
    ).toBe('attribute_exists(#hn0)');
  });

  it('joins an update to an element clause by clause', () => {
    const element = updateOf({ set: { a: 1 }, add: { n: 1 }, remove: ['x'] });
    const both = andUpdate(element, { set: { feedAt: 9 }, add: { m: 2 } }, 'f');
    expect(both.UpdateExpression).toBe('SET #n0 = :v0, #fn0 = :fv0 ADD #n1 :v1, #fn1 :fv1 REMOVE #n2');
    expect(andUpdate(updateOf({ remove: ['x'] }), { set: { y: 1 } }, 'f').UpdateExpression).toBe(
      'REMOVE #n0 SET #fn0 = :fv0',
    );
  });

  it('gives every distinct name one placeholder and every value its own, for any attribute names', () => {
    const name = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !s.includes('.'));
    fc.assert(
      fc.property(
        fc.dictionary(name, fc.integer(), { minKeys: 1, maxKeys: 8 }),
        fc.array(name, { maxLength: 4 }),
        (set, remove) => {
          const r = updateOf({ set, remove });
          const names = r.ExpressionAttributeNames ?? {};
          expect(new Set(Object.values(names)).size).toBe(Object.keys(names).length);
          expect(Object.values(names).sort()).toEqual([...new Set([...Object.keys(set), ...remove])].sort());
          expect(Object.keys(r.ExpressionAttributeValues ?? {})).toHaveLength(Object.keys(set).length);
          // Nothing of a name or a value is spelled in the expression itself.
          expect(r.UpdateExpression).toMatch(/^[A-Z #:\w,=().]*$/);
        },
      ),
    );
  });
});

describe('queryOf', () => {
  it('renders the partition, a sort condition, a filter and a projection', () => {
    expect(
      queryOf(
        { partition: ['pk', 'T#1#EVENTS'], sort: { between: ['sk', 'a', 'b'] } },
        { filter: { in: ['type', ['x', 'y']] }, project: ['sk', 'type'] },
      ),
    ).toEqual({
      KeyConditionExpression: '#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2',
      FilterExpression: '#n2 IN (:v3, :v4)',
      ProjectionExpression: '#n1, #n2',
      ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'sk', '#n2': 'type' },
      ExpressionAttributeValues: { ':v0': 'T#1#EVENTS', ':v1': 'a', ':v2': 'b', ':v3': 'x', ':v4': 'y' },
    });
    expect(
      queryOf({ partition: ['pk', 'p'], sort: { beginsWith: ['sk', 'R#'] } }).KeyConditionExpression,
    ).toBe('#n0 = :v0 AND begins_with(#n1, :v1)');
    expect(queryOf({ partition: ['pk', 'p'], sort: { gt: ['sk', 'x'] } }).KeyConditionExpression).toBe(
      '#n0 = :v0 AND #n1 > :v1',
    );
  });
});

describe('names and the operators the store added', () => {
  it('reads a.b of identifiers as a path, and any other dotted name as one attribute', () => {
    const r = updateOf({ add: { 'status=v1.2': 1, 'priority=0.5': -1 }, set: { 'labels.en': 'x' } });
    expect(r.UpdateExpression).toBe('SET #n0.#n1 = :v0 ADD #n2 :v1, #n3 :v2');
    expect(r.ExpressionAttributeNames).toEqual({
      '#n0': 'labels',
      '#n1': 'en',
      '#n2': 'status=v1.2',
      '#n3': 'priority=0.5',
    });
  });

  it('renders attribute_type with its type as a value', () => {
    expect(conditionOf({ or: [{ missing: 'replyId' }, { attributeType: ['replyId', 'NULL'] }] })).toEqual({
      ConditionExpression: '(attribute_not_exists(#n0)) OR (attribute_type(#n0, :v0))',
      ExpressionAttributeNames: { '#n0': 'replyId' },
      ExpressionAttributeValues: { ':v0': 'NULL' },
    });
  });

  it('renders a projection alone (a GetItem of a few attributes)', () => {
    expect(projectionOf(['pk', 'numberOfReplies', 'key'])).toEqual({
      ProjectionExpression: '#n0, #n1, #n2',
      ExpressionAttributeNames: { '#n0': 'pk', '#n1': 'numberOfReplies', '#n2': 'key' },
    });
  });
});
