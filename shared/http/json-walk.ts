/**
 * One value of a parsed JSON body as `walkJson` meets it: the key leading to it in its parent
 * (an array index, or an object key) and its parent's entry. A path is built from these links only
 * when one is asked for (`keysOf`): copying every value's path as the walk goes would cost
 * depth × width in time and memory, and a small body can be deep and wide at once.
 */
export interface JsonEntry {
  readonly value: unknown;
  readonly key: string | number;
  readonly parent: JsonEntry | undefined;
}

/**
 * Visits every value of `root` (the root, then each member, at any depth) once, in document
 * order: time and memory linear in the number of values; iterative, so depth costs no stack.
 * `visit` answers false to stop the walk.
 */
export const walkJson = (root: unknown, visit: (entry: JsonEntry) => boolean | undefined): void => {
  const pending: JsonEntry[] = [{ value: root, key: '', parent: undefined }];
  while (pending.length) {
    const entry = pending.pop() as JsonEntry;
    if (visit(entry) === false) return;
    const { value } = entry;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push({ value: value[i], key: i, parent: entry });
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        pending.push({ value: (value as Record<string, unknown>)[key], key, parent: entry });
      }
    }
  }
};

/** The keys from the root to `entry` (none for the root itself): O(depth), for the few entries reported. */
export const keysOf = (entry: JsonEntry): (string | number)[] => {
  const keys: (string | number)[] = [];
  for (let e: JsonEntry | undefined = entry; e?.parent; e = e.parent) keys.push(e.key);
  return keys.reverse();
};
