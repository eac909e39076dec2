import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * The records of an export directory, by what their files are named after: `users.json`,
 * `tickets.ndjson`, `tickets-2.json`, `comments/4711.json`… A file is one JSON document (an
 * array, or an object holding the records under the kind's key: an API page such as
 * `{"tickets": […], "next_page": …}`), or NDJSON (one record, or one such page, per line).
 */
export type Json = Record<string, unknown>;

/**
 * The records of one file's text: the array under `key` wherever pages hold one, else the objects
 * themselves (all of them without a `key`).
 */
export const recordsOf = (text: string, key?: string): Json[] => {
  const fromValue = (value: unknown): Json[] => {
    if (Array.isArray(value)) return value.filter(isObject);
    if (!isObject(value)) return [];
    const inner = key === undefined ? undefined : value[key];
    return Array.isArray(inner) ? inner.filter(isObject) : [value];
  };
  const trimmed = text.trim();
  if (trimmed === '') return [];
  try {
    return fromValue(JSON.parse(trimmed));
  } catch {
    // Not one document: NDJSON.
  }
  return trimmed
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => fromValue(JSON.parse(line)));
};

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const JSON_FILE = /\.(nd)?json$/;

/** The JSON files of `dir` whose name starts with `prefix` (`tickets.json`, `tickets-2.ndjson`), sorted. */
export const filesNamed = (dir: string, prefix: string): string[] =>
  readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && JSON_FILE.test(f) && statSync(join(dir, f)).isFile())
    .sort()
    .map((f) => join(dir, f));

/** The records of one file (`recordsOf`); a file that is not JSON is named in the error. */
export const fileRecords = (file: string, key?: string): Json[] => {
  try {
    return recordsOf(readFileSync(file, 'utf8'), key);
  } catch (error) {
    throw new Error(`${file} is neither JSON nor NDJSON: ${(error as Error).message}`);
  }
};

/** Every record of the files of `dir` named after `prefix`, found under `key` in their pages. */
export const readRecords = (dir: string, prefix: string, key = prefix): Json[] =>
  filesNamed(dir, prefix).flatMap((file) => fileRecords(file, key));

/** The files of a subdirectory (`comments/4711.json`), by their base name; none if it is absent. */
export const subdirFiles = (dir: string, sub: string): Map<string, string> => {
  const path = join(dir, sub);
  if (!existsSync(path) || !statSync(path).isDirectory()) return new Map();
  return new Map(
    readdirSync(path)
      .filter((f) => JSON_FILE.test(f))
      .map((f) => [basename(f).replace(JSON_FILE, ''), join(path, f)]),
  );
};
