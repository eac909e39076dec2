import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/config';
import { type CursorPayload, decodeCursor, encodeCursor } from '../../shared/store/cursor';
import { LEGACY_KID } from '../../shared/store/cursor-key';
import { InvalidCursor } from '../../shared/store/errors';
import { thrown } from './fixtures';

const SECRET = 'unit-test-cursor-secret-0123456789abcdef';

beforeAll(() => {
  process.env.CURSOR_SECRET = SECRET;
  delete process.env.CURSOR_SECRET_ARN;
  resetConfig();
});

const binding = { t: 'tenant1', r: 'TICKET', f: 'digest-of-the-filter' };
const payload: CursorPayload = {
  ...binding,
  p: 3,
  d: 'n',
  k: ['000000000001000#abc', 'T#tenant1#TICKET#abc', '#'],
};

/** Signs any text the way the API does: a forged cursor that passes the signature check. */
const signed = (json: string): string => {
  const data = Buffer.from(json, 'utf8').toString('base64url');
  return `${data}.${createHmac('sha256', SECRET).update(data).digest('base64url')}`;
};

const expectInvalid = async (cursor: string, expected = binding) => {
  const error = await thrown(() => decodeCursor(cursor, expected));
  expect(error).toBeInstanceOf(InvalidCursor);
  expect(error).toMatchObject({ code: 'bad-request' });
};

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('page cursors', () => {
  it('round-trip: what was encoded decodes, with or without a carried total', async () => {
    expect(await decodeCursor(await encodeCursor(payload), binding)).toEqual(payload);
    const carried = { ...payload, d: 'p' as const, c: 0 };
    expect(await decodeCursor(await encodeCursor(carried), binding)).toEqual(carried);
  });

  it('round-trip any well-formed payload', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            t: fc.string(),
            r: fc.string(),
            f: fc.string(),
            p: fc.integer({ min: 2, max: Number.MAX_SAFE_INTEGER }),
            d: fc.constantFrom('n' as const, 'p' as const),
            k: fc.tuple(fc.string(), fc.string(), fc.string()),
            c: fc.nat(),
          },
          { requiredKeys: ['t', 'r', 'f', 'p', 'd', 'k'] },
        ),
        async (p) => {
          expect(await decodeCursor(await encodeCursor(p), { t: p.t, r: p.r, f: p.f })).toEqual(p);
        },
      ),
    );
  });

  it('are text in two base64url parts', async () => {
    expect(await encodeCursor(payload)).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  });

  it('refuse any single altered character', async () => {
    const cursor = await encodeCursor(payload);
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: cursor.length - 1 }),
        fc.constantFrom(...BASE64URL, '.', '=', '+', '/'),
        async (at, replacement) => {
          fc.pre(cursor[at] !== replacement);
          await expectInvalid(cursor.slice(0, at) + replacement + cursor.slice(at + 1));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuse every other spelling of the last signature character (its spare bits too)', async () => {
    const cursor = await encodeCursor(payload);
    for (const c of BASE64URL) {
      if (c === cursor.at(-1)) continue;
      await expectInvalid(cursor.slice(0, -1) + c);
    }
  });

  it('refuse truncated, extended and empty cursors', async () => {
    const cursor = await encodeCursor(payload);
    const [data, mac] = cursor.split('.') as [string, string];
    for (const bad of [
      '',
      '.',
      data,
      `${data}.`,
      `.${mac}`,
      cursor.slice(0, -1),
      `${cursor}A`,
      `${cursor}.`,
      `${cursor}.${mac}`,
      `${data}=.${mac}`,
      `${mac}.${data}`,
      'A'.repeat(5000),
    ]) {
      await expectInvalid(bad);
    }
  });

  it('refuse a cursor bound to another tenant, resource or filter', async () => {
    const cursor = await encodeCursor(payload);
    await expectInvalid(cursor, { ...binding, t: 'tenant2' });
    await expectInvalid(cursor, { ...binding, r: 'CUSTOMER' });
    await expectInvalid(cursor, { ...binding, f: 'another-filter' });
  });

  it('refuse a cursor signed with another key', async () => {
    const data = Buffer.from(JSON.stringify(payload)).toString('base64url');
    const mac = createHmac('sha256', `${SECRET}x`).update(data).digest('base64url');
    await expectInvalid(`${data}.${mac}`);
    // The forging helper itself signs what the API accepts.
    expect(await decodeCursor(signed(JSON.stringify(payload)), binding)).toEqual(payload);
  });

  it('name the key that signed them (kid), signed along with the rest, and decode without it', async () => {
    const cursor = await encodeCursor(payload);
    const [data, mac] = cursor.split('.') as [string, string];
    const signedJson = JSON.parse(Buffer.from(data, 'base64url').toString('utf8'));
    expect(signedJson).toEqual({ ...payload, kid: LEGACY_KID });
    expect(await decodeCursor(cursor, binding)).not.toHaveProperty('kid');
    // Another kid under the same signature: refused, whether or not that kid is known.
    for (const kid of ['other', 'legacy2']) {
      const data2 = Buffer.from(JSON.stringify({ ...signedJson, kid })).toString('base64url');
      await expectInvalid(`${data2}.${mac}`);
    }
  });

  it('still verify cursors encoded before kids existed (no kid), with the plain key', async () => {
    const old = signed(JSON.stringify(payload));
    expect(JSON.parse(Buffer.from(old.split('.')[0] as string, 'base64url').toString())).not.toHaveProperty(
      'kid',
    );
    expect(await decodeCursor(old, binding)).toEqual(payload);
  });

  it('refuse a kid that is no key id, or names no key this instance has', async () => {
    const forged = (kid: unknown) => signed(JSON.stringify({ ...payload, kid }));
    for (const kid of [null, 5, '', 'has space', 'k'.repeat(33), ['legacy'], { id: 'legacy' }, 'unknown-kid'])
      await expectInvalid(forged(kid));
    expect(await decodeCursor(forged(LEGACY_KID), binding)).toEqual(payload);
  });

  it('refuse signed payloads that are malformed', async () => {
    const forged = (fields: Record<string, unknown>) => signed(JSON.stringify({ ...payload, ...fields }));
    const malformed = [
      signed('not json'),
      signed('null'),
      signed('[]'),
      signed('"text"'),
      forged({ p: 1 }),
      forged({ p: 0 }),
      forged({ p: 2.5 }),
      forged({ p: '3' }),
      forged({ p: 2 ** 53 }),
      forged({ d: 'x' }),
      forged({ d: undefined }),
      forged({ k: ['a', 'b'] }),
      forged({ k: ['a', 'b', 'c', 'd'] }),
      forged({ k: ['a', 'b', 3] }),
      forged({ k: 'abc' }),
      forged({ c: -1 }),
      forged({ c: 1.5 }),
      forged({ c: '7' }),
      forged({ t: undefined }),
    ];
    for (const cursor of malformed) await expectInvalid(cursor);
  });
});
