import { randomBytes } from 'node:crypto';

/**
 * Record ids: 24 lowercase hex characters (the shape Deskero integrators know from its
 * ObjectId-style ids): 6 bytes of creation time in ms, then 6 random bytes. Opaque to clients.
 */
export const newId = (now = Date.now()): string =>
  now.toString(16).padStart(12, '0').slice(-12) + randomBytes(6).toString('hex');

/**
 * New ids for records made at `dates`, in their order: by time, and ties (records sent together
 * share their instant) in the order given. A child's sort key ends in its id, so this is the order
 * they are listed in; ids of one instant alone would fall in the order of their random bytes.
 */
export const idsInOrder = (dates: readonly number[]): string[] => {
  const order = dates.map((date, i) => ({ date, i })).sort((a, b) => a.date - b.date || a.i - b.i);
  const ids = order.map(({ date }) => newId(date)).sort();
  const byIndex: string[] = new Array(dates.length);
  order.forEach(({ i }, k) => {
    byIndex[i] = ids[k] as string;
  });
  return byIndex;
};

const ID_PATTERN = /^[0-9a-f]{24}$/;

/** Anything else in a path can never name a record, so it is a 404 before any key is built. */
export const isId = (value: unknown): value is string => typeof value === 'string' && ID_PATTERN.test(value);
