import { randomBytes, scryptSync } from 'node:crypto';

/**
 * Customer portal passwords are chosen by people, so unlike API secrets they get a slow,
 * salted hash (scrypt, N=2^14). Stored as `scrypt$<salt>$<hash>`; never returned.
 */
export const hashPassword = (password: string): string => {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, 32, { N: 16_384, r: 8, p: 1 });
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
};
