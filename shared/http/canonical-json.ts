/**
 * One spelling per JSON value, for fingerprints: object keys sorted (by UTF-16 code units, at
 * every depth), numbers as JavaScript writes them once parsed (`1.0`, `1e0` and `1` are all `1`),
 * strings escaped by JSON.stringify (lone surrogates as `\udXXX`, never merged into U+FFFD).
 * Unlike JSON.stringify it keeps apart what JSON text can say but JSON.stringify cannot write:
 * `1e400` (Infinity) is not `null`. Arrays keep their order: it is part of their meaning.
 * Iterative, so a deeply nested body costs no stack.
 */
export const canonicalJson = (root: unknown): string => {
  const out: string[] = [];
  // Either a value still to write, or literal text (a bracket, a comma, a key) to emit as is.
  const pending: ({ value: unknown } | { text: string })[] = [{ value: root }];
  while (pending.length) {
    const next = pending.pop() as { value: unknown } | { text: string };
    if ('text' in next) {
      out.push(next.text);
      continue;
    }
    const { value } = next;
    if (value === null || value === undefined) out.push('null');
    else if (typeof value === 'number')
      out.push(Number.isFinite(value) ? JSON.stringify(value) : String(value));
    else if (typeof value === 'string' || typeof value === 'boolean') out.push(JSON.stringify(value));
    else if (Array.isArray(value)) {
      const parts: ({ value: unknown } | { text: string })[] = [{ text: '[' }];
      value.forEach((item, i) => {
        if (i) parts.push({ text: ',' });
        parts.push({ value: item });
      });
      parts.push({ text: ']' });
      pending.push(...parts.reverse());
    } else if (typeof value === 'object') {
      const keys = Object.keys(value).sort();
      const parts: ({ value: unknown } | { text: string })[] = [{ text: '{' }];
      keys.forEach((key, i) => {
        parts.push({ text: `${i ? ',' : ''}${JSON.stringify(key)}:` });
        parts.push({ value: (value as Record<string, unknown>)[key] });
      });
      parts.push({ text: '}' });
      pending.push(...parts.reverse());
    } else {
      // Not from JSON.parse (bigint, function, symbol): written so it cannot pass for JSON.
      out.push(`<${typeof value}:${String(value)}>`);
    }
  }
  return out.join('');
};
