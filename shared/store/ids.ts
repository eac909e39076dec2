import { randomBytes } from 'node:crypto';

/**
 * Record ids: 24 lowercase hex characters (the shape Deskero integrators know from its
 * ObjectId-style ids): 6 bytes of creation time in ms, then 6 random bytes. Opaque to clients.
 */
export const newId = (now = Date.now()): string =>
  now.toString(16).padStart(12, '0').slice(-12) + randomBytes(6).toString('hex');

const ID_PATTERN = /^[0-9a-f]{24}$/;

/** Anything else in a path can never name a record, so it is a 404 before any key is built. */
export const isId = (value: unknown): value is string => typeof value === 'string' && ID_PATTERN.test(value);
