import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERASED, identifiersOf, redactDeep, redactorOf } from '../../shared/domain/redaction';

/** domain/redaction.ts: what an erasure leaves of the text it keeps. */
const word = fc.stringMatching(/^[A-Za-zÀ-ÿ0-9.@+_-]{3,20}$/);
const separator = fc.constantFrom(' ', ', ', '\n', ' (', ') ', ': ', '"', ' <', '> ', '! ');

describe('redaction', () => {
  it('leaves no identifier standing between non-letters, in any case, and keeps every other word', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(word, { minLength: 1, maxLength: 4 }),
        fc.array(fc.tuple(fc.boolean(), fc.nat(), word, separator), { maxLength: 20 }),
        (identifiers, parts) => {
          const redact = redactorOf(
            identifiersOf({
              name: identifiers[0],
              email: identifiers[1],
              phoneNumber: identifiers[2],
              address: identifiers[3],
            }),
          );
          const pieces = parts.map(([useId, i, w, sep]) => {
            const id = identifiers[i % identifiers.length] as string;
            const text = useId ? (i % 2 ? id.toUpperCase() : id) : w;
            return `${text}${sep}`;
          });
          const out = redact(pieces.join(''));
          const tokens = out.split(/[\s,():"<>!]+/).filter(Boolean);
          for (const token of tokens)
            for (const id of identifiers) expect(token.toLowerCase() === id.toLowerCase()).toBe(false);
          // A word holding no identifier stays as it was.
          for (const [useId, , w] of parts) {
            const holdsOne = identifiers.some((id) => w.toLowerCase().includes(id.toLowerCase()));
            if (!useId && !holdsOne) expect(tokens).toContain(w);
          }
        },
      ),
    );
  });

  it('takes the longest identifier first and does not cut words that merely contain one', () => {
    const redact = redactorOf(identifiersOf({ name: 'Ann Lee', email: 'ann.lee@example.com' }));
    expect(redact('Mail ann.lee@example.com or ANN LEE; Annual report, Lee-side.')).toBe(
      `Mail ${ERASED} or ${ERASED}; Annual report, Lee-side.`,
    );
  });

  it('ignores identifiers too short to find safely, and walks objects and arrays', () => {
    expect(identifiersOf({ name: 'Al', email: 'al@x.io' })).toEqual(['al@x.io']);
    const redact = redactorOf(['al@x.io']);
    expect(redactDeep({ a: ['to al@x.io', 3, null], b: { c: 'AL@X.IO' } }, redact)).toEqual({
      a: [`to ${ERASED}`, 3, null],
      b: { c: ERASED },
    });
  });
});
