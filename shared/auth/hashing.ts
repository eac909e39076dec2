import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Secrets and tokens are 256-bit random values, so a single SHA-256 is a sound at-rest hash
 * for them (no dictionary to attack); only hashes are stored, and every comparison is constant-time.
 */
export const sha256 = (value: string): string => hash('sha256', value, 'hex');

export const randomSecret = (bytes = 32): string => randomBytes(bytes).toString('base64url');

export const sameHash = (a: string, b: string): boolean => {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
};
