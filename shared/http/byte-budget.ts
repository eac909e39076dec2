import { objectSlot } from './object-slot';

/**
 * Response sizes as Lambda counts them. Its 6 000 000-byte limit applies to the payload the
 * runtime sends back: `{statusCode, headers, body}` serialised as JSON, where the body (our JSON)
 * is a string, escaped a second time: a `"` in the body costs 2 bytes, a control character 7
 * (`\u0001` becomes `\\u0001`). Records are measured that way, on the views about to be sent,
 * never on what the store holds: the text of a record is a poor guide to its JSON.
 */

/**
 * The JSON text of every view measured so far, kept with the view object (object-slot.ts): a view
 * is serialised once, for its size, and its response reuses that text (`responseJson`). Views are
 * plain data, never changed once built (a change after measuring would not reach the response).
 */
const measured = objectSlot<object, string>('JSON text');

/** JSON.stringify of a value, kept when it is an object (see `measured`). */
export const jsonText = (value: unknown): string => {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  let text = measured.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    measured.set(value, text);
  }
  return text;
};

/** Bytes a JSON value adds to Lambda's response payload as part of a body. */
export const payloadBytes = (value: unknown): number =>
  Buffer.byteLength(JSON.stringify(jsonText(value)), 'utf8') - 2;

/**
 * An upper bound of `payloadBytes` without its second pass: in JSON.stringify's output no unit
 * takes more than 3 bytes (3 of UTF-8; a `"` or `\` 1 plus its escape; control characters and
 * lone surrogates are escaped into ASCII already, and a surrogate pair is 4 bytes for 2 units).
 */
export const payloadBound = (value: unknown): number => 3 * jsonText(value).length;

/** How deep `responseJson` looks for measured views inside a response (`{ ticket: { records: [view] } }`). */
const WRAPPER_DEPTH = 3;

/**
 * The JSON text of a response body, as JSON.stringify writes it for plain data, with the text of
 * every view measured already used as is: objects and arrays within WRAPPER_DEPTH levels are
 * written here, everything below them (or with a toJSON) by JSON.stringify.
 */
export const responseJson = (value: unknown, depth = WRAPPER_DEPTH): string | undefined => {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const known = measured.get(value);
  if (known !== undefined) return known;
  if (depth === 0 || typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return JSON.stringify(value);
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (const item of value) items.push(responseJson(item, depth - 1) ?? 'null');
    return `[${items.join(',')}]`;
  }
  const members: string[] = [];
  for (const key of Object.keys(value)) {
    const text = responseJson((value as Record<string, unknown>)[key], depth - 1);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
};

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
  const keptA = fitCount(a, Math.max(room / 2, room - arrayBytes(b)));
  const keptB = fitCount(b, room - arrayBytes(a, keptA));
  return [keptA, keptB];
};
