/**
 * How an answer names a field of the request: its path's keys joined by `.` (array indexes as
 * numbers), as well-formed text. A client chooses its keys, and a key can be megabytes long: each
 * key is shown up to MAX_SEGMENT characters and the whole path up to MAX_PATH (then `…`), so a
 * problem's body stays small whatever was sent.
 */
const MAX_SEGMENT = 100;
const MAX_PATH = 500;

/** Field errors an answer lists at most: enough to show what is wrong, never the whole body echoed. */
export const MAX_FIELD_ERRORS = 20;

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;

/** At most `max` characters, a pair never split; ill-formed code units shown as U+FFFD. */
const clipped = (text: string, max: number): string => {
  if (text.length <= max) return text.toWellFormed();
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end).toWellFormed()}…`;
};

export const fieldPath = (segments: readonly PropertyKey[]): string => {
  let path = '';
  for (const segment of segments) {
    path += `${path ? '.' : ''}${clipped(String(segment), MAX_SEGMENT)}`;
    if (path.length > MAX_PATH) break;
  }
  return clipped(path, MAX_PATH);
};
