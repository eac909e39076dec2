/**
 * One spelling per JSON value, for fingerprints: object keys sorted (by UTF-16 code units, at
 * every depth), numbers as JavaScript writes them once parsed (`1.0`, `1e0` and `1` are all `1`),
 * strings escaped by JSON.stringify (lone surrogates as `\udXXX`, never merged into U+FFFD).
 * Unlike JSON.stringify it keeps apart what JSON text can say but JSON.stringify cannot write:
 * `1e400` (Infinity) is not `null`. Arrays keep their order: it is part of their meaning.
 * Iterative and linear in the body's size, so a deep or wide body costs no stack.
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
      // Pushed last item first, so they pop in order; one push per item (a spread of a wide
      // array's items into one call would pass more arguments than the stack holds).
      out.push('[');
      pending.push({ text: ']' });
      for (let i = value.length - 1; i >= 0; i--) {
        pending.push({ value: value[i] });
        if (i) pending.push({ text: ',' });
      }
    } else if (typeof value === 'object') {
      const keys = Object.keys(value).sort();
      out.push('{');
      pending.push({ text: '}' });
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        pending.push({ value: (value as Record<string, unknown>)[key] });
        pending.push({ text: `${i ? ',' : ''}${JSON.stringify(key)}:` });
      }
    } else {
      // Not from JSON.parse (bigint, function, symbol): written so it cannot pass for JSON.
      out.push(`<${typeof value}:${String(value)}>`);
    }
  }
  return out.join('');
};
