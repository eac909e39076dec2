import { createHmac, timingSafeEqual } from 'node:crypto';
import { cursorKey } from './cursor-key';
import { InvalidCursor } from './errors';

/**
 * Opaque page cursors: `<payload>.<HMAC-SHA256>` in base64url. The payload binds the cursor to
 * the tenant, the resource and the exact filter; anything altered or replayed elsewhere is a 400.
 * `k` is the index position (index sort value, table pk, table sk) to continue from, and `d`
 * the direction: `n` continues after it (older records), `p` before it (newer records).
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

const sign = (key: Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest();

export const encodeCursor = async (payload: CursorPayload): Promise<string> => {
  const data = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${data}.${sign(await cursorKey(), data).toString('base64url')}`;
};

const invalid = () => new InvalidCursor('The cursor is invalid, was altered or belongs to another query.');

export const decodeCursor = async (
  cursor: string,
  expected: Pick<CursorPayload, 't' | 'r' | 'f'>,
): Promise<CursorPayload> => {
  const [data, mac, extra] = cursor.split('.');
  if (!data || !mac || extra !== undefined || cursor.length > 4096) throw invalid();
  // Compared as text: base64url decoding ignores the spare bits of the last character, so a
  // decoded comparison would accept altered spellings of the same signature.
  const given = Buffer.from(mac, 'utf8');
  const wanted = Buffer.from(sign(await cursorKey(), data).toString('base64url'), 'utf8');
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) throw invalid();
  let payload: CursorPayload;
  try {
    payload = JSON.parse(Buffer.from(data, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof payload !== 'object' || payload === null) throw invalid();
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
