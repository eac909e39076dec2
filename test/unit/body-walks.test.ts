import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../shared/http/canonical-json';
import type { HttpError } from '../../shared/http/errors';
import { fieldPath } from '../../shared/http/field-path';
import { JSON_LIMITS, jsonLimits, jsonShape } from '../../shared/http/json-limits';
import { toHttpError } from '../../shared/http/problem-response';
import { validate } from '../../shared/http/validate';
import { illFormedPaths } from '../../shared/http/well-formed';
import { customerInsert } from '../../shared/schemas/customer';
import { documentInput, isBase64 } from '../../shared/schemas/documents';
import { thrown } from './fixtures';

/**
 * Everything that reads a body before or during validation costs time and memory linear in the
 * body's size, whatever its shape: deep, wide, deep and wide, many keys, long strings. Cost is
 * compared with a flat array of as many values (the fastest of three runs each, with a wide margin),
 * so the checks hold on a slow machine and fail where the cost grows as depth × width.
 */

/** `depth` arrays inside one another around `leaf`. */
const nested = (depth: number, leaf: unknown): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};
/** `depth` objects inside one another (each `{ k: … }`) around `leaf`. */
const nestedObjects = (depth: number, leaf: unknown): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { k: value };
  return value;
};
const wide = <T>(n: number, item: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => item(i));
const manyKeys = (n: number, value: (i: number) => unknown, key = (i: number) => `k${i}`) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [key(i), value(i)]));

/** Milliseconds of the fastest of `runs` calls. */
const fastest = (f: () => unknown, runs = 3): number => {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    f();
    best = Math.min(best, performance.now() - started);
  }
  return best;
};

/** `walk` costs on `shape` no more than 10× (+ 50 ms) what it costs on a flat array of `values` numbers. */
const expectLinear = (walk: (body: unknown) => unknown, shape: unknown, values: number) => {
  const flat = wide(values, (i) => i);
  const baseline = fastest(() => walk(flat));
  const cost = fastest(() => walk(shape));
  expect(cost, `${cost.toFixed(0)} ms against ${baseline.toFixed(0)} ms flat`).toBeLessThan(
    10 * baseline + 50,
  );
};

// The shapes, each with the number of values it holds. 1,500 × 40,000 is the issue's 83 KB body.
const DEEP = 20_000;
const shapes = (leaf: unknown): [string, unknown, number][] => [
  ['deep arrays', nested(DEEP, leaf), DEEP],
  ['deep objects', nestedObjects(DEEP, leaf), DEEP],
  [
    'deep and wide',
    {
      a: nested(
        1_500,
        wide(40_000, (i) => (i === 39_999 ? leaf : i)),
      ),
    },
    41_500,
  ],
  [
    'deep and wide objects',
    nestedObjects(
      1_500,
      manyKeys(40_000, (i) => (i === 39_999 ? leaf : i)),
    ),
    41_500,
  ],
  ['wide', wide(300_000, (i) => (i === 299_999 ? leaf : i)), 300_000],
  ['many keys', manyKeys(100_000, (i) => (i === 99_999 ? leaf : i)), 100_000],
  ['long strings', wide(8, (i) => (i === 7 ? `${'x'.repeat(1_000_000)}${leaf}` : 'x'.repeat(1_000_000))), 8],
];

/** The paths as specified: every ill-formed value or key, in document order, shown well-formed, the first 20 named once. */
const referencePaths = (root: unknown): string[] => {
  const found: string[] = [];
  const visit = (value: unknown, path: string[], badKey: boolean) => {
    if (badKey || (typeof value === 'string' && !value.isWellFormed())) found.push(path.join('.'));
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) visit(v, [...path, String(i)], false);
    } else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) visit(v, [...path, k.toWellFormed()], !k.isWellFormed());
  };
  visit(root, [], false);
  return [...new Set(found.slice(0, 20))];
};

/** JSON values whose strings and keys may hold lone surrogates. */
const withSurrogates = fc.letrec((tie) => ({
  text: fc.oneof(fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 4 })),
  value: fc.oneof(
    { depthSize: 'small' },
    tie('text'),
    fc.integer(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(tie('text') as fc.Arbitrary<string>, tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('the well-formed Unicode walk', () => {
  it('property: names the same fields as the specification, in document order', () => {
    fc.assert(
      fc.property(withSurrogates, (body) => {
        expect(illFormedPaths(body)).toEqual(referencePaths(body));
      }),
      { numRuns: 1000 },
    );
  });

  it.each(shapes('\ud800'))('costs what the body holds, not depth × width: %s', (_, shape, values) => {
    expect(illFormedPaths(shape)).toHaveLength(1);
    expectLinear(illFormedPaths, shape, values);
  });

  it('names a deep field by the start of its path, bounded', () => {
    expect(illFormedPaths(nested(DEEP, '\udfff'))).toEqual([`${'0.'.repeat(250)}…`]);
    const [path] = illFormedPaths({
      a: nested(
        1_500,
        wide(40_000, (i) => (i === 39_999 ? '\ud800' : i)),
      ),
    });
    expect(path?.startsWith('a.0.0.0.')).toBe(true);
    expect(path?.length).toBe(501);
  });

  it('names at most 20 fields, each path bounded, however many are ill-formed and however long their keys', () => {
    const key = (i: number) => `k${String(i).padStart(2, '0')}${'x'.repeat(1_000_000)}\ud800`;
    const paths = illFormedPaths(manyKeys(30, () => '\udc00', key));
    expect(paths).toEqual(wide(20, (i) => `${key(i).slice(0, 100)}…`));
    const values = illFormedPaths(wide(100_000, () => '\ud800'));
    expect(values).toEqual(wide(20, (i) => String(i)));
  });
});

/** Canonical JSON as specified: JSON.stringify with every object's keys sorted. */
const referenceCanonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(referenceCanonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${referenceCanonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
};

describe('the Idempotency-Key fingerprint walk (canonical JSON)', () => {
  it('property: writes every value as the specification does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const parsed = JSON.parse(JSON.stringify(value));
        expect(canonicalJson(parsed)).toBe(referenceCanonical(parsed));
      }),
      { numRuns: 1000 },
    );
  });

  it.each(shapes('x'))('writes any shape, at a cost linear in its size: %s', (_, shape, values) => {
    // The wide shapes have more items than a call can take as arguments.
    expect(canonicalJson(shape)).toHaveLength(referenceLength(shape));
    expectLinear(canonicalJson, shape, values);
  });

  it('writes a 300,000-item array whole', () => {
    expect(canonicalJson({ tags: wide(300_000, () => 1) })).toBe(
      `{"tags":[${wide(300_000, () => 1).join(',')}]}`,
    );
  });
});

/** The canonical text's length, computed without recursion (JSON.stringify would overflow on the deep shapes). */
const referenceLength = (shape: unknown): number => {
  let length = 0;
  const pending: unknown[] = [shape];
  while (pending.length) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      length += 2 + Math.max(0, value.length - 1);
      for (const item of value) pending.push(item);
    } else if (value && typeof value === 'object') {
      const keys = Object.keys(value);
      length += 2 + Math.max(0, keys.length - 1);
      for (const key of keys) {
        length += JSON.stringify(key).length + 1;
        pending.push((value as Record<string, unknown>)[key]);
      }
    } else length += JSON.stringify(value).length;
  }
  return length;
};

/** Depth and members of a parsed JSON value, counted on the value. */
const referenceShape = (root: unknown): { depth: number; members: number } => {
  let depth = 0;
  let members = 0;
  const pending: [unknown, number][] = [[root, 0]];
  while (pending.length) {
    const [value, level] = pending.pop() as [unknown, number];
    if (value === null || typeof value !== 'object') continue;
    depth = Math.max(depth, level + 1);
    const children = Object.values(value);
    members += children.length;
    for (const child of children) pending.push([child, level + 1]);
  }
  return { depth, members };
};

describe('the JSON limits scan (json-limits.ts)', () => {
  it('property: measures depth and members as the parsed value has them, whatever the strings hold', () => {
    const text = fc.oneof(fc.string(), fc.constantFrom('"', '\\', '\\"', '[', ']', '{', '}', ',', '\\\\"'));
    const json = fc.jsonValue({ maxDepth: 6, stringUnit: text as never });
    fc.assert(
      fc.property(json, fc.constantFrom(undefined, 2, '\t'), (value, indent) => {
        const serialized = JSON.stringify(value, null, indent);
        expect(jsonShape(serialized, { depth: 1000, members: 1_000_000 })).toEqual(
          referenceShape(JSON.parse(serialized)),
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('property: stops past a limit, and only past it', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.nat(6), fc.nat(30), (value, depth, members) => {
        const text = JSON.stringify(value);
        const real = referenceShape(value);
        const seen = jsonShape(text, { depth, members });
        expect(seen.depth > depth || seen.members > members).toBe(
          real.depth > depth || real.members > members,
        );
      }),
      { numRuns: 1000 },
    );
  });

  const MB = 5_500_000;
  const texts: [string, string][] = [
    ['deep arrays', `{"a":${'['.repeat(MB / 2)}${']'.repeat(MB / 2)}}`],
    ['deep objects', `${'{"a":'.repeat(MB / 6)}1${'}'.repeat(MB / 6)}`],
    [
      'deep and wide',
      `{"a":${'['.repeat(1_500)}${wide(MB / 2 - 1_500, () => 1).join(',')}${']'.repeat(1_500)}}`,
    ],
    ['wide', `[${wide(MB / 2, () => 1).join(',')}]`],
    ['many keys', `{${wide(MB / 10, (i) => `"k${i % 100_000}":1`).join(',')}}`],
    ['one long string', `{"a":"${'\\"['.repeat(MB / 3)}"}`],
    ['one long number', `[${'1'.repeat(MB)}]`],
    ['whitespace', `[${' '.repeat(MB)}]`],
    ['escapes', `{"a":"${'\\\\'.repeat(MB / 2)}"}`],
  ];
  // Relative to one plain pass over the same characters (coverage and a busy machine slow both alike):
  // linear, never the seconds a walk that copies paths or re-scans takes.
  const plainPass = (text: string) => {
    let n = 0;
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 34) n++;
    return n;
  };
  it.each(texts)('reads 5.5 MB in one linear pass: %s', (_, text) => {
    expect(fastest(() => jsonShape(text))).toBeLessThan(20 * fastest(() => plainPass(text)) + 100);
  });

  it('tells the issue’s body (1,500 levels, 40,000 numbers) apart from the bodies the schemas read', () => {
    const issue = `{"a":${'['.repeat(1_500)}${wide(40_000, () => 1).join(',')}${']'.repeat(1_500)}}`;
    expect(jsonShape(issue).depth).toBeGreaterThan(JSON_LIMITS.depth);
    const reply = {
      text: 't',
      attachedDocuments: [{ documentName: 'a', documentType: 'a/b', uploadId: 'u' }],
    };
    const ticket = {
      subject: 's',
      description: 'd',
      openedBy: { id: 'c' },
      status: { status: 'opened' },
      tags: wide(20, (i) => ({ tag: `t${i}` })),
      cc: wide(10, (i) => ({ id: `a${i}` })),
      customFields: wide(50, (i) => ({ name: `f${i}`, value: i })),
      replies: wide(20, () => reply),
      attachedDocuments: wide(10, () => reply.attachedDocuments[0]),
    };
    const { depth, members } = jsonShape(JSON.stringify(ticket));
    expect(depth).toBeLessThanOrEqual(JSON_LIMITS.depth);
    expect(members).toBeLessThan(JSON_LIMITS.members / 10);
  });
});

describe('the JSON limits middleware', () => {
  const run = (body: string, contentType: string, isBase64Encoded = false) =>
    jsonLimits().before?.({
      event: { body, isBase64Encoded, headers: { 'content-type': contentType } },
    } as never);
  const deep = `{"a":${'['.repeat(64)}${']'.repeat(64)}}`;

  it('answers 413 for a JSON body past a limit, as sent or base64-encoded, before it is parsed', async () => {
    for (const [body, encoded] of [
      [deep, false],
      [Buffer.from(deep).toString('base64'), true],
      [`[${wide(10_001, () => 0).join(',')}]`, false],
    ] as const) {
      const error = toHttpError(await thrown(() => run(body, 'application/json; charset=utf-8', encoded)));
      expect(error.status).toBe(413);
      expect(error.code).toBe('content-too-large');
    }
    expect(run(`{"a":${'['.repeat(63)}${']'.repeat(63)}}`, 'application/json')).toBeUndefined();
    expect(run(`[${wide(10_000, () => 0).join(',')}]`, 'application/vnd.api+json')).toBeUndefined();
  });

  it('leaves a body of another media type to the parser (its 415)', () => {
    expect(run(deep, 'text/plain')).toBeUndefined();
  });
});

describe('validation answers', () => {
  const errorsOf = (body: unknown) => {
    try {
      validate(customerInsert, body);
    } catch (error) {
      return (error as HttpError).errors ?? [];
    }
    throw new Error('valid');
  };

  it('name at most 20 fields, each path bounded, however many the body breaks', () => {
    const keys = manyKeys(
      10_000,
      () => ({}),
      (i) => `${'k'.repeat(300)}${i}`,
    );
    const errors = errorsOf({ name: 'n', email: 'e@example.com', customFields: keys });
    expect(errors.length).toBeLessThanOrEqual(20);
    expect(JSON.stringify(errors).length).toBeLessThan(20 * 700);
    const long = errorsOf({
      name: 'n',
      email: 'e@example.com',
      customFields: { ['k'.repeat(3_000_000)]: 1 },
    });
    expect(long.length).toBeGreaterThan(0);
    for (const { path } of long) expect(path.length).toBeLessThanOrEqual(501);
  });

  it('shows short paths as they are, long keys clipped (a pair never split)', () => {
    expect(fieldPath(['replies', 1, 'attachedDocuments', 0, 'documentName'])).toBe(
      'replies.1.attachedDocuments.0.documentName',
    );
    expect(fieldPath(['a\ud800'])).toBe('a\ufffd');
    expect(fieldPath([`${'x'.repeat(99)}😀`])).toBe(`${'x'.repeat(99)}…`);
    expect(fieldPath(wide(1_000, () => 'abcdefgh')).length).toBe(501);
  });
});

describe('document contents', () => {
  it('property: base64 is what the padded grammar says', () => {
    const GRAMMAR = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
    const char = fc.constantFrom(...'Aa0+/=\n-_'.split(''));
    fc.assert(
      fc.property(fc.string({ unit: char, maxLength: 12 }), (text) => {
        expect(isBase64(text)).toBe(GRAMMAR.test(text));
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['valid base64', 'abcd'.repeat(1_375_000), 'documentBase64'],
    ['base64 one character long', `${'abcd'.repeat(1_375_000)}a`, 'documentBase64'],
    ['padded base64', `${'abcd'.repeat(1_374_999)}ab==`, 'documentBase64'],
    ['hex', 'ab'.repeat(2_750_000), 'documentBlob'],
    ['odd hex', `${'ab'.repeat(2_749_999)}a`, 'documentBlob'],
  ])('checks 5.5 MB of %s without running out of stack', (_, text, field) => {
    const parsed = documentInput.safeParse({ documentName: 'a', documentType: 'a/b', [field]: text });
    expect(parsed.success).toBe(!_.includes('one character') && !_.includes('odd'));
  });
});
