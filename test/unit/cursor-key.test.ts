import { createHmac, randomBytes } from 'node:crypto';
import type { SecretsManagerRotationEventStep } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as rotationStep } from '../../functions/cursor-key-rotation';
import { logger } from '../../shared/http/logger';
import type { CursorPayload } from '../../shared/store/cursor';
import {
  EARLY_REFRESH_MS,
  KEY_TTL_MS,
  LEGACY_KID,
  parseKeyValue,
  SIGNING_DELAY_MS,
} from '../../shared/store/cursor-key';
import { FakeSecretsManager } from '../helpers/fake-secrets-manager';

/**
 * Cursor keys across rotations, as Lambda instances see them: each `instance()` is a fresh module
 * graph (its own config, key cache and SDK client) talking to one fake Secrets Manager, which the
 * real rotation function (functions/cursor-key-rotation.ts) rotates. Time is the test's.
 */
const ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:CursorSecret-AbCdEf';
const LEGACY_VALUE = 'legacyPlainCursorKeyOfSixtyFourLettersAndDigits0123456789abcdefgh';
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const binding = { t: 'tenant1', r: 'TICKET', f: 'digest-of-the-filter' };
const payload: CursorPayload = { ...binding, p: 2, d: 'n', k: ['a', 'b', 'c'] };
const ENV_KEYS = ['CURSOR_SECRET', 'CURSOR_SECRET_PREVIOUS', 'CURSOR_SECRET_ARN'] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));

let sm: FakeSecretsManager;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
  for (const k of ENV_KEYS) delete process.env[k];
  process.env.CURSOR_SECRET_ARN = ARN;
  sm = new FakeSecretsManager(ARN, LEGACY_VALUE);
  sm.install();
  vi.spyOn(logger, 'info').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const k of ENV_KEYS) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
});

const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);

/** A fresh Lambda instance of a list function: encodes and decodes cursors with its own key cache. */
const instance = async () => {
  vi.resetModules();
  const { encodeCursor, decodeCursor } = await import('../../shared/store/cursor');
  return { encode: () => encodeCursor(payload), decode: (cursor: string) => decodeCursor(cursor, binding) };
};

/** A rotation as Secrets Manager runs it: the placeholder version, then the four steps in order. */
const rotate = async (
  steps: SecretsManagerRotationEventStep[] = ['createSecret', 'setSecret', 'testSecret', 'finishSecret'],
  token = sm.startRotation(),
): Promise<string> => {
  for (const Step of steps) await rotationStep({ SecretId: ARN, ClientRequestToken: token, Step });
  return token;
};
const kidOfNewest = () => parseKeyValue(sm.valueOf('AWSCURRENT') as string).kid;

const kidIn = (cursor: string): unknown =>
  JSON.parse(Buffer.from(cursor.split('.')[0] as string, 'base64url').toString('utf8')).kid;

/** A cursor signed with any key under any kid (omitted: encoded the way cursors were before kids). */
const signedWith = (key: string, kid?: string, body: object = payload): string => {
  const data = Buffer.from(JSON.stringify(kid === undefined ? body : { ...body, kid }), 'utf8').toString(
    'base64url',
  );
  return `${data}.${createHmac('sha256', key).update(data).digest('base64url')}`;
};

/** Refused as today: InvalidCursor, a 400 bad-request. */
const expectRefused = async (attempt: Promise<unknown>) => {
  await expect(attempt).rejects.toMatchObject({
    code: 'bad-request',
    message: expect.stringMatching(/cursor is invalid/),
  });
};

const describes = () => sm.calls.filter((c) => c === 'DescribeSecret').length;

describe('cursor keys across rotations (Secrets Manager)', () => {
  it('a cursor of key A verifies after the rotation to B, and is refused after the next one to C', async () => {
    const lambda = await instance();
    const ofA = await lambda.encode();
    expect(kidIn(ofA)).toBe(LEGACY_KID);

    advance(60 * 60_000);
    await rotate();
    const kidB = kidOfNewest();
    advance(KEY_TTL_MS);
    expect(await lambda.decode(ofA)).toEqual(payload);
    const ofB = await lambda.encode();
    expect(kidIn(ofB)).toBe(kidB);

    advance(90 * 86_400_000);
    await rotate();
    advance(KEY_TTL_MS);
    await expectRefused(lambda.decode(ofA));
    expect(await lambda.decode(ofB)).toEqual(payload);
    expect(kidIn(await lambda.encode())).toBe(kidOfNewest());
  });

  it('cursors minted before kids existed verify with the plain (legacy) key while it is current or previous', async () => {
    const old = signedWith(LEGACY_VALUE);
    expect(kidIn(old)).toBeUndefined();
    const lambda = await instance();
    expect(await lambda.decode(old)).toEqual(payload);
    await rotate();
    advance(KEY_TTL_MS);
    expect(await lambda.decode(old)).toEqual(payload);
    await rotate();
    advance(KEY_TTL_MS);
    await expectRefused(lambda.decode(old));
  });

  it('a new key signs only once every instance can learn it: cursors crossing instances mid-rotation all verify', async () => {
    const i = await instance();
    await i.decode(await i.encode()); // instance I reads the keys at T0

    advance(30_000);
    await rotate();
    const kidB = kidOfNewest();
    advance(10_000);
    const j = await instance(); // instance J reads after the rotation: B current, A previous
    const early = await j.encode();
    expect(kidIn(early), 'B is too new to sign with').toBe(LEGACY_KID);
    expect(await i.decode(early)).toEqual(payload);

    advance(SIGNING_DELAY_MS);
    const late = await j.encode();
    expect(kidIn(late)).toBe(kidB);
    // I read the keys before the rotation, more than EARLY_REFRESH_MS ago: B's kid earns it one read.
    sm.calls.length = 0;
    expect(await i.decode(late)).toEqual(payload);
    expect(sm.calls).toEqual(['DescribeSecret', 'GetSecretValue']);
  });

  it('an instance that read the secret during a rotation already knows the new key (AWSPENDING)', async () => {
    const token = await rotate(['createSecret']);
    const i = await instance();
    await i.encode(); // reads AWSCURRENT (A) and AWSPENDING (B)
    await rotate(['setSecret', 'testSecret', 'finishSecret'], token);
    advance(SIGNING_DELAY_MS);
    const j = await instance();
    const ofB = await j.encode();
    expect(kidIn(ofB)).toBe(kidOfNewest());
    sm.calls.length = 0;
    expect(await i.decode(ofB)).toEqual(payload);
    expect(sm.calls).toEqual([]);
  });

  it('reads the secret once per KEY_TTL_MS, one call when no version is new, and fetches each version once', async () => {
    const lambda = await instance();
    const cursor = await lambda.encode();
    expect(sm.calls).toEqual(['DescribeSecret', 'GetSecretValue']);
    for (let n = 0; n < 50; n++) await lambda.decode(cursor);
    await Promise.all(Array.from({ length: 50 }, () => lambda.encode()));
    advance(KEY_TTL_MS - 1);
    await lambda.encode();
    expect(sm.calls).toHaveLength(2);
    advance(1);
    await Promise.all(Array.from({ length: 50 }, () => lambda.encode()));
    expect(sm.calls).toEqual(['DescribeSecret', 'GetSecretValue', 'DescribeSecret']);
  });

  it('a flood of forged kids costs at most one early read per EARLY_REFRESH_MS, never one per request', async () => {
    const lambda = await instance();
    const genuine = await lambda.encode();
    const forged = () => signedWith(randomBytes(32).toString('hex'), randomBytes(6).toString('base64url'));
    const flood = async (n: number) => {
      for (let k = 0; k < n; k++) await expectRefused(lambda.decode(forged()));
    };
    sm.calls.length = 0;

    await flood(500); // within a minute of the first read: no read at all
    expect(sm.calls).toEqual([]);
    advance(EARLY_REFRESH_MS);
    await Promise.all(Array.from({ length: 200 }, () => expectRefused(lambda.decode(forged()))));
    await flood(500);
    expect(describes()).toBe(1);
    advance(EARLY_REFRESH_MS - 1);
    await flood(500);
    expect(describes()).toBe(1);
    advance(1);
    await flood(500);
    expect(describes()).toBe(2);
    expect(sm.calls.filter((c) => c === 'GetSecretValue')).toEqual([]);
    expect(await lambda.decode(genuine)).toEqual(payload);
  });

  it('an outage keeps the keys in hand and retries after EARLY_REFRESH_MS; without keys each request fails and retries', async () => {
    const lambda = await instance();
    const cursor = await lambda.encode();
    sm.failing = new Error('Secrets Manager is down');
    advance(KEY_TTL_MS);
    expect(await lambda.decode(cursor)).toEqual(payload);
    expect(describes()).toBe(2);
    advance(EARLY_REFRESH_MS - 1);
    await lambda.encode();
    expect(describes()).toBe(2);
    advance(1);
    await lambda.encode();
    expect(describes()).toBe(3);

    const cold = await instance();
    await expect(cold.encode()).rejects.toThrow(/down/);
    await expect(cold.encode()).rejects.toThrow(/down/);
    expect(describes()).toBe(5);
    sm.failing = undefined;
    expect(await cold.decode(await cold.encode())).toEqual(payload);
  });

  it('skips an AWSPENDING version rotation has not filled yet, and looks at it again on the next read', async () => {
    const token = sm.startRotation();
    const lambda = await instance();
    await lambda.encode();
    expect(sm.calls).toEqual(['DescribeSecret', 'GetSecretValue', 'GetSecretValue']);
    await rotate(['createSecret'], token);
    advance(KEY_TTL_MS);
    sm.calls.length = 0;
    await lambda.encode();
    expect(sm.calls).toEqual(['DescribeSecret', 'GetSecretValue']);
  });

  it('fails clearly on a secret without AWSCURRENT or with an unusable current value', async () => {
    const current = sm.labelled('AWSCURRENT') as string;
    (sm.versions.get(current) as { value?: string }).value = 'too short';
    await expect((await instance()).encode()).rejects.toThrow(/at least 32/);
    sm.versions.get(current)?.stages.clear();
    await expect((await instance()).encode()).rejects.toThrow(/no AWSCURRENT/);
  });

  it('refuses to sign with a version it found unusable earlier once someone labels it AWSCURRENT', async () => {
    const broken = sm.startRotation();
    (sm.versions.get(broken) as { value?: string }).value = 'not a key';
    const lambda = await instance();
    const cursor = await lambda.encode(); // the unusable AWSPENDING is skipped
    sm.versions.get(sm.labelled('AWSCURRENT') as string)?.stages.delete('AWSCURRENT');
    sm.versions.get(broken)?.stages.add('AWSCURRENT');
    advance(KEY_TTL_MS);
    // The read fails; the keys in hand stay in use (and the cursor still verifies).
    expect(await lambda.decode(cursor)).toEqual(payload);
    await expect((await instance()).encode()).rejects.toThrow(
      /AWSCURRENT version is not a usable key|at least 32/,
    );
  });
});

describe('cursor keys from the environment (local runs and tests)', () => {
  const KEY_A = 'local-plain-cursor-key-A-0123456789abcdefghij';
  const KEY_B = 'local-json-cursor-key-B-0123456789abcdefghijk';
  beforeEach(() => {
    delete process.env.CURSOR_SECRET_ARN;
  });

  it('CURSOR_SECRET alone is one key under the fixed legacy kid, and nothing calls Secrets Manager', async () => {
    process.env.CURSOR_SECRET = KEY_A;
    const lambda = await instance();
    const cursor = await lambda.encode();
    expect(kidIn(cursor)).toBe(LEGACY_KID);
    expect(await lambda.decode(signedWith(KEY_A))).toEqual(payload);
    await expectRefused(lambda.decode(signedWith(KEY_B, 'b')));
    expect(sm.calls).toEqual([]);
  });

  it('CURSOR_SECRET_PREVIOUS: cursors of the previous key still verify, new ones are signed with CURSOR_SECRET', async () => {
    process.env.CURSOR_SECRET = JSON.stringify({ kid: 'b', key: KEY_B });
    process.env.CURSOR_SECRET_PREVIOUS = KEY_A;
    const lambda = await instance();
    expect(kidIn(await lambda.encode())).toBe('b');
    expect(await lambda.decode(signedWith(KEY_A))).toEqual(payload);
    expect(await lambda.decode(signedWith(KEY_A, LEGACY_KID))).toEqual(payload);
    expect(await lambda.decode(signedWith(KEY_B, 'b'))).toEqual(payload);
    await expectRefused(lambda.decode(signedWith(KEY_A, 'b')));
    await expectRefused(lambda.decode(signedWith(KEY_B, LEGACY_KID)));
  });

  it('refuses two keys under one kid, and malformed key values, without quoting them', async () => {
    process.env.CURSOR_SECRET = KEY_B;
    process.env.CURSOR_SECRET_PREVIOUS = KEY_A;
    await expect((await instance()).encode()).rejects.toThrow(/another kid/);
    for (const bad of [
      '{"kid":"b"}',
      '{"kid":"no spaces","key":"x"}',
      '{oops',
      `{"kid":"b","key":"short"}`,
    ]) {
      expect(() => parseKeyValue(bad)).toThrow(/^Cursor key: /);
      try {
        parseKeyValue(bad);
      } catch (error) {
        expect((error as Error).message).not.toContain(bad);
      }
    }
  });
});
