import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { KID_PATTERN, LEGACY_KID, signingKey, verificationKey } from './cursor-key';
import { InvalidCursor } from './errors';

/**
 * Opaque page cursors: `<payload>.<HMAC-SHA256>` in base64url. The payload binds the cursor to
 * the tenant, the resource and the exact filter; anything altered or replayed elsewhere is a 400.
 * `k` is the index position (index sort value, table pk, table sk) to continue from, and `d`
 * the direction: `n` continues after it (older records), `p` before it (newer records).
 * The signed JSON also names the signing key (`kid`, store/cursor-key.ts), so keys can rotate
 * without refusing cursors in flight; decoding strips it again.
 */
export interface CursorPayload {
  t: string;
  r: string;
  f: string;
  p: number;
  d: 'n' | 'p';
  k: [string, string, string];
  /** The list's total, carried for lists without a counter (range searches). */
  c?: number;
}

/**
 * Each key as the KeyObject an HMAC takes: handed a Buffer, createHmac makes one every call, which
 * costs four times the HMAC of a cursor (docs/performance.md, "Issue 27, seventh pass").
 */
const keyObjects = new WeakMap<Buffer, KeyObject>();

const sign = (key: Buffer, data: string): Buffer => {
  let keyObject = keyObjects.get(key);
  if (!keyObject) {
    keyObject = createSecretKey(key);
    keyObjects.set(key, keyObject);
  }
  return createHmac('sha256', keyObject).update(data).digest();
};

export const encodeCursor = async (payload: CursorPayload): Promise<string> => {
  const { kid, key } = await signingKey();
  const data = Buffer.from(JSON.stringify({ ...payload, kid }), 'utf8').toString('base64url');
  return `${data}.${sign(key, data).toString('base64url')}`;
};

const invalid = () => new InvalidCursor('The cursor is invalid, was altered or belongs to another query.');

export const decodeCursor = async (
  cursor: string,
  expected: Pick<CursorPayload, 't' | 'r' | 'f'>,
): Promise<CursorPayload> => {
  const [data, mac, extra] = cursor.split('.');
  if (!data || !mac || extra !== undefined || cursor.length > 4096) throw invalid();
  // The payload is read before its signature is checked only to learn which key to check it with.
  let signed: unknown;
  try {
    signed = JSON.parse(Buffer.from(data, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof signed !== 'object' || signed === null || Array.isArray(signed)) throw invalid();
  // No kid: minted before cursors named their key, by the plain (legacy) key.
  const { kid = LEGACY_KID, ...payload } = signed as CursorPayload & { kid?: unknown };
  if (typeof kid !== 'string' || !KID_PATTERN.test(kid)) throw invalid();
  const key = await verificationKey(kid);
  if (!key) throw invalid();
  // Compared as text: base64url decoding ignores the spare bits of the last character, so a
  // decoded comparison would accept altered spellings of the same signature.
  const given = Buffer.from(mac, 'utf8');
  const wanted = Buffer.from(sign(key, data).toString('base64url'), 'utf8');
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) throw invalid();
  const { t, r, f, p, d, k } = payload;
  const wellFormed =
    Number.isSafeInteger(p) &&
    p >= 2 &&
    (d === 'n' || d === 'p') &&
    Array.isArray(k) &&
    k.length === 3 &&
    k.every((part) => typeof part === 'string') &&
    (payload.c === undefined || (Number.isSafeInteger(payload.c) && payload.c >= 0));
  if (!wellFormed || t !== expected.t || r !== expected.r || f !== expected.f) throw invalid();
  return payload;
};
