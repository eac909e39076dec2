/**
 * Response sizes as Lambda counts them. Its 6 000 000-byte limit applies to the payload the
 * runtime sends back: `{statusCode, headers, body}` serialised as JSON, where the body (our JSON)
 * is a string, escaped a second time: a `"` in the body costs 2 bytes, a control character 7
 * (`\u0001` becomes `\\u0001`). Records are measured that way, on the views about to be sent,
 * never on what the store holds: the text of a record is a poor guide to its JSON.
 */

/** Bytes a JSON value adds to Lambda's response payload as part of a body. */
export const payloadBytes = (value: unknown): number =>
  Buffer.byteLength(JSON.stringify(JSON.stringify(value)), 'utf8') - 2;

/** Bytes of the first `count` of `sizes` as elements of one JSON array: their sizes and the commas between. */
export const arrayBytes = (sizes: readonly number[], count = sizes.length): number => {
  let bytes = 0;
  for (let i = 0; i < count; i++) bytes += (sizes[i] ?? 0) + (i > 0 ? 1 : 0);
  return bytes;
};

/**
 * How many of `sizes`, taken in order, fit in `budget` bytes as elements of one JSON array;
 * never fewer than `atLeast` (a page always carries one record: no record can reach the budget
 * alone, see docs/decisions.md).
 */
export const fitCount = (sizes: readonly number[], budget: number, atLeast = 0): number => {
  let used = 0;
  for (let i = 0; i < sizes.length; i++) {
    used += (sizes[i] ?? 0) + (i > 0 ? 1 : 0);
    if (used > budget) return Math.min(sizes.length, Math.max(i, atLeast));
  }
  return sizes.length;
};

/**
 * Shares `room` bytes between two lists (sizes newest first) that both want the most recent
 * elements: each may use half of it, and what one does not need the other may use. Returns how
 * many of each are kept, newest first.
 */
export const shareRoom = (room: number, a: readonly number[], b: readonly number[]): [number, number] => {
  if (room <= 0) return [0, 0];
  const keptA = fitCount(a, Math.max(room / 2, room - arrayBytes(b)));
  const keptB = fitCount(b, room - arrayBytes(a, keptA));
  return [keptA, keptB];
};
