import * as crypto from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Spies on the two node:crypto calls whose arguments are the point: what an HMAC is keyed with.
vi.mock('node:crypto', async (original) => {
  const actual = await original<typeof import('node:crypto')>();
  return { ...actual, createHmac: vi.fn(actual.createHmac), createSecretKey: vi.fn(actual.createSecretKey) };
});

const { Sha256, sdkHashing } = await import('../../shared/aws/sha256');

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** The secret as Node's own HMAC is keyed with it (a string as UTF-8, binary as its bytes). */
const referenceKey = (secret: string | Uint8Array | ArrayBuffer) =>
  typeof secret === 'string'
    ? secret
    : Buffer.from(secret instanceof ArrayBuffer ? new Uint8Array(secret) : secret);

const bytes = fc.uint8Array({ maxLength: 96 });
/** A view into the middle of a larger buffer (as the SDK's are), an ArrayBuffer, or a string. */
const secret = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  bytes,
  fc.tuple(bytes, fc.nat(8), fc.nat(8)).map(([b, before, after]) => {
    const whole = new Uint8Array(before + b.length + after).fill(0xee);
    whole.set(b, before);
    return whole.subarray(before, before + b.length);
  }),
  bytes.map((b) => b.slice().buffer),
);
const chunks = fc.array(fc.oneof(fc.string({ unit: 'grapheme' }), bytes), { maxLength: 5 });

describe('Sha256 (the SDK clients’ SHA-256)', () => {
  afterEach(() => vi.clearAllMocks());

  it('digests exactly as node:crypto does: plain hashes and HMACs under any key', async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(secret, { nil: undefined }), chunks, async (key, parts) => {
        const ours = new Sha256(key);
        const reference =
          key === undefined ? crypto.createHash('sha256') : crypto.createHmac('sha256', referenceKey(key));
        for (const part of parts) {
          ours.update(part);
          reference.update(part);
        }
        expect(hex(await ours.digest())).toBe(reference.digest('hex'));
      }),
    );
  });

  it('keys an HMAC under binary bytes with a KeyObject, made once for the same key', async () => {
    const signingKey = crypto.randomBytes(32);
    const view = new Uint8Array(signingKey.buffer, signingKey.byteOffset, signingKey.byteLength);
    for (const data of ['one', 'two', 'three']) {
      const hmac = new Sha256(view);
      hmac.update(data);
      expect(hex(await hmac.digest())).toBe(
        crypto.createHmac('sha256', signingKey).update(data).digest('hex'),
      );
    }
    const keys = vi.mocked(crypto.createHmac).mock.calls.filter(([, key]) => key instanceof crypto.KeyObject);
    expect(keys).toHaveLength(3);
    expect(vi.mocked(crypto.createSecretKey)).toHaveBeenCalledTimes(1);
  });

  it('hands a string key to node:crypto as it is', async () => {
    const hmac = new Sha256('AWS4secret');
    hmac.update('date');
    await hmac.digest();
    expect(vi.mocked(crypto.createHmac)).toHaveBeenCalledWith('sha256', 'AWS4secret');
    expect(vi.mocked(crypto.createSecretKey)).not.toHaveBeenCalled();
  });

  it('behaves as the SDK’s own class: a plain hash reads and goes on, an HMAC ends at its digest, reset starts over', async () => {
    const hash = new Sha256();
    hash.update('ab');
    expect(hex(await hash.digest())).toBe(crypto.createHash('sha256').update('ab').digest('hex'));
    hash.update('c');
    expect(hex(await hash.digest())).toBe(crypto.createHash('sha256').update('abc').digest('hex'));

    const hmac = new Sha256(new Uint8Array([1, 2, 3]));
    hmac.update('x');
    await hmac.digest();
    expect(() => hmac.update('y')).toThrow('Attempted to update an already finished hash.');
    hmac.reset();
    hmac.update('y');
    expect(hex(await hmac.digest())).toBe(
      crypto
        .createHmac('sha256', Buffer.from([1, 2, 3]))
        .update('y')
        .digest('hex'),
    );
  });

  it('is what the store and queue clients sign with', async () => {
    const { db } = await import('../../shared/store/dynamo');
    const { sqs } = await import('../../shared/queue/sqs');
    expect(sdkHashing.sha256).toBe(Sha256);
    expect(db().config.sha256).toBe(Sha256);
    expect(sqs().config.sha256).toBe(Sha256);
  });
});
