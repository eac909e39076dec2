import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseQuery,
  QUERY_LIMITS,
  type QueryNode,
  QuerySyntaxError,
} from '../../shared/search/query-language';

/** The search query language (shared/search/query-language.ts): trees, refusals with positions, limits. */
const word = (text: string, prefix = false): QueryNode => ({ kind: 'word', text, prefix });
const day = Date.UTC(2026, 0, 1);

const refusal = (query: string): { message: string; position: number } => {
  try {
    parseQuery(query);
  } catch (error) {
    if (error instanceof QuerySyntaxError) return { message: error.message, position: error.position };
    throw error;
  }
  throw new Error(`${query} was accepted`);
};

describe('parsing', () => {
  it('reads words, phrases, prefixes and exclusions; all must match', () => {
    expect(parseQuery('refund')).toEqual(word('refund'));
    expect(parseQuery('  refund   "credit card"  refun* -spam re-open ')).toEqual({
      kind: 'and',
      children: [
        word('refund'),
        { kind: 'phrase', text: 'credit card' },
        word('refun', true),
        { kind: 'not', child: word('spam') },
        word('re-open'),
      ],
    });
  });

  it('binds OR tighter than the implicit AND, and groups with parentheses', () => {
    expect(parseQuery('a b OR c')).toEqual({
      kind: 'and',
      children: [word('a'), { kind: 'or', children: [word('b'), word('c')] }],
    });
    expect(parseQuery('(a b) OR -(c "d e")')).toEqual({
      kind: 'or',
      children: [
        { kind: 'and', children: [word('a'), word('b')] },
        { kind: 'not', child: { kind: 'and', children: [word('c'), { kind: 'phrase', text: 'd e' }] } },
      ],
    });
    expect(parseQuery('a or b')).toEqual({ kind: 'and', children: [word('a'), word('or'), word('b')] });
  });

  it('reads every filter', () => {
    const filters = parseQuery(
      'status:onhold priority:1 tag:vip assignedTo:a1 openedby:c1 type:t1 area:x group:g has:attachment',
    );
    expect(filters).toEqual({
      kind: 'and',
      children: [
        { kind: 'status', value: 'on hold' },
        { kind: 'priority', value: 1 },
        { kind: 'tag', value: 'vip' },
        { kind: 'id', field: 'assignedTo', value: 'a1' },
        { kind: 'id', field: 'openedBy', value: 'c1' },
        { kind: 'id', field: 'type', value: 't1' },
        { kind: 'id', field: 'area', value: 'x' },
        { kind: 'id', field: 'group', value: 'g' },
        { kind: 'has', value: 'attachment' },
      ],
    });
  });

  it('compares dates and times; a day with ":" is that whole day in UTC', () => {
    expect(parseQuery('created>2026-01-01')).toEqual({ kind: 'date', field: 'created', op: '>', at: day });
    expect(parseQuery('updated<=2026-01-01T10:00:00+02:00')).toEqual({
      kind: 'date',
      field: 'updated',
      op: '<=',
      at: Date.UTC(2026, 0, 1, 8),
    });
    expect(parseQuery('created:2026-01-01')).toEqual({
      kind: 'and',
      children: [
        { kind: 'date', field: 'created', op: '>=', at: day },
        { kind: 'date', field: 'created', op: '<', at: day + 86_400_000 },
      ],
    });
  });

  it('takes text that only looks like a comparison as a word', () => {
    expect(parseQuery('10:30 a>b')).toEqual({ kind: 'and', children: [word('10:30'), word('a>b')] });
  });
});

describe('refusals point at the problem', () => {
  it.each([
    ['', 'the query is empty', 1],
    ['   ', 'the query is empty', 1],
    ['refund "credit card', 'this quote is never closed', 8],
    ['a ""', 'an empty phrase', 3],
    ['(a b', 'this parenthesis is never closed', 1],
    ['a b)', 'a closing parenthesis with none open', 4],
    ['a ()', 'empty parentheses', 3],
    ['OR a', "'OR' needs something on both sides", 1],
    ['a OR', "'OR' needs something on both sides", 3],
    ['a OR OR b', "'OR' needs something on both sides", 3],
    ['a -', undefined, 0],
    ['re*und', "'*' may only end a word", 3],
    ['*', "'*' ends a word", 1],
    ['x status:bogus', "'bogus' is not a status", 10],
    ['priority:2', "'2' is not 0 or 1", 10],
    ['has:reply', "'reply' is not attachment", 5],
    ['created>2026-02-30', "'2026-02-30' is not a date", 9],
    ['created:2026-01-01T10:00Z', 'a day is compared with', 9],
    ['status>opened', "'status' is compared with ':' only", 7],
    ['tag:', "'tag:' needs a value", 5],
    ['http://example.com', "unknown field 'http'", 1],
    ['é é (a', 'this parenthesis is never closed', 5],
  ] as const)('%j', (query, message, position) => {
    if (message === undefined) {
      expect(parseQuery(query)).toEqual({ kind: 'and', children: [word('a'), word('-')] });
      return;
    }
    const refused = refusal(query);
    expect(refused.message).toContain(message);
    expect(refused.position).toBe(position);
  });

  it('bounds length, terms and depth', () => {
    expect(refusal('a'.repeat(QUERY_LIMITS.length + 1)).position).toBe(QUERY_LIMITS.length + 1);
    const terms = Array.from({ length: QUERY_LIMITS.terms + 1 }, (_, i) => `w${i}`).join(' ');
    expect(refusal(terms)).toEqual({
      message: expect.stringContaining('at most 50'),
      position: terms.lastIndexOf('w') + 1,
    });
    expect(parseQuery(`${'('.repeat(QUERY_LIMITS.depth)}a${')'.repeat(QUERY_LIMITS.depth)}`)).toEqual(
      word('a'),
    );
    expect(
      refusal(`${'('.repeat(QUERY_LIMITS.depth + 1)}a${')'.repeat(QUERY_LIMITS.depth + 1)}`).position,
    ).toBe(QUERY_LIMITS.depth + 1);
  });
});

/** A query's text for a tree (fully parenthesised), for the round-trip property. */
const print = (node: QueryNode): string => {
  switch (node.kind) {
    case 'and':
      return `(${node.children.map(print).join(' ')})`;
    case 'or':
      return `(${node.children.map(print).join(' OR ')})`;
    case 'not':
      return `-${print(node.child)}`;
    case 'word':
      return `${node.text}${node.prefix ? '*' : ''}`;
    case 'phrase':
      return `"${node.text}"`;
    case 'status':
      return `status:${node.value === 'on hold' ? 'onhold' : node.value}`;
    case 'priority':
    case 'tag':
    case 'has':
      return `${node.kind}:${node.value}`;
    case 'id':
      return `${node.field}:${node.value}`;
    case 'date':
      return `${node.field}${node.op}${new Date(node.at).toISOString()}`;
  }
};

/** The same tree as the parser builds it: one child never wrapped, nested and/or of the same kind kept. */
const leaf = fc.oneof(
  fc.stringMatching(/^[a-zé0-9][a-zé0-9'.@-]{0,8}$/).map((text) => word(text)),
  fc.stringMatching(/^[a-z]{1,6}$/).map((text) => word(text, true)),
  fc
    .stringMatching(/^[a-z0-9]{1,5}( [a-z0-9]{1,5}){0,2}$/)
    .map((text): QueryNode => ({ kind: 'phrase', text })),
  fc.constantFrom<QueryNode>(
    { kind: 'status', value: 'on hold' },
    { kind: 'priority', value: 0 },
    { kind: 'has', value: 'attachment' },
  ),
  fc.stringMatching(/^[a-z0-9]{1,8}$/).map((value): QueryNode => ({ kind: 'tag', value })),
  fc
    .record({
      field: fc.constantFrom('created', 'updated'),
      op: fc.constantFrom('<', '<=', '>', '>='),
      at: fc.integer({ min: 0, max: 4_000_000_000_000 }),
    })
    .map((d): QueryNode => ({ kind: 'date', ...d }) as QueryNode),
);
const tree = fc.letrec<{ node: QueryNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc
      .array(tie('node'), { minLength: 2, maxLength: 3 })
      .map((children): QueryNode => ({ kind: 'and', children })),
    fc
      .array(tie('node'), { minLength: 2, maxLength: 3 })
      .map((children): QueryNode => ({ kind: 'or', children })),
    tie('node').map((child): QueryNode => ({ kind: 'not', child })),
  ),
})).node;

const size = (node: QueryNode): { terms: number; depth: number } => {
  if (node.kind === 'and' || node.kind === 'or') {
    const parts = node.children.map(size);
    return {
      terms: parts.reduce((a, p) => a + p.terms, 0),
      depth: 1 + Math.max(...parts.map((p) => p.depth)),
    };
  }
  if (node.kind === 'not') return size(node.child);
  return { terms: 1, depth: 0 };
};

describe('properties', () => {
  it('reads back every tree it can print', () => {
    fc.assert(
      fc.property(tree, (node) => {
        const { terms, depth } = size(node);
        fc.pre(terms <= QUERY_LIMITS.terms && depth <= QUERY_LIMITS.depth);
        const text = print(node);
        fc.pre(text.length <= QUERY_LIMITS.length);
        expect(parseQuery(text)).toEqual(node);
      }),
      { numRuns: 500 },
    );
  });

  it('answers any text with a tree or a refusal inside the text, never another error', () => {
    const alphabet = fc.constantFrom(
      ...'ab OR-"()*:<>=statuscreated2026-01 é\t'.split(''),
      'OR',
      'status:',
      'created>',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 60 }),
          fc.array(alphabet, { maxLength: 40 }).map((a) => a.join('')),
        ),
        (query) => {
          try {
            parseQuery(query);
          } catch (error) {
            expect(error).toBeInstanceOf(QuerySyntaxError);
            const { position } = error as QuerySyntaxError;
            expect(position).toBeGreaterThanOrEqual(1);
            expect(position).toBeLessThanOrEqual([...query].length + 1);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
