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
 * `fitCount`'s rule, one element at a time: each call offers the next element's size and answers
 * whether it is kept. Elements are kept while their sizes and the commas between them fit in
 * `budget`, and the first `atLeast` always; once one is refused, every later one is too. For
 * elements whose size is only known once they are built (a page's records, built in order).
 */
export const arrayBudget = (budget: number, atLeast = 0): ((size: number) => boolean) => {
  let used = 0;
  let kept = 0;
  let full = false;
  return (size) => {
    if (full) return false;
    used += size + (kept > 0 ? 1 : 0);
    if (used > budget && kept >= atLeast) {
      full = true;
      return false;
    }
    kept++;
    return true;
  };
};

/**
 * How many of `sizes`, taken in order, fit in `budget` bytes as elements of one JSON array;
 * never fewer than `atLeast` (a page always carries one record: no record can reach the budget
 * alone, see docs/decisions.md).
 */
export const fitCount = (sizes: readonly number[], budget: number, atLeast = 0): number => {
  const fits = arrayBudget(budget, atLeast);
  let kept = 0;
  while (kept < sizes.length && fits(sizes[kept] ?? 0)) kept++;
  return kept;
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
