import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FileLine, readLines } from '../../shared/domain/import-file';

/**
 * An import job's place in its file is where its last line ended (domain/import-file.ts): read
 * chunk after chunk from there, any file comes back as exactly its lines, each once, numbered
 * from 1, whatever the chunk size, multi-byte characters and a missing last newline.
 */
const readAll = async (bytes: Buffer, chunkBytes: number, maxLineBytes?: number) => {
  const ranges: [number, number][] = [];
  const read = async (from: number, to: number) => {
    ranges.push([from, to]);
    return bytes.subarray(from, to);
  };
  const lines: FileLine[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const got = await readLines(read, {
      size: bytes.length,
      offset,
      firstNumber: lines.length + 1,
      chunkBytes,
      ...(maxLineBytes ? { maxLineBytes } : {}),
    });
    expect(got.length, `nothing read at ${offset}`).toBeGreaterThan(0);
    lines.push(...got);
    offset = (got.at(-1) as FileLine).end;
  }
  return { lines, ranges };
};

const text = fc.string({ unit: fc.constantFrom('a', 'é', '日', '😀', ' ', '{', '"'), maxLength: 40 });

describe('reading an import file in chunks', () => {
  it('gives every line once, in order, with where it ends, for any chunk size', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(text, { maxLength: 30 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 64 }),
        async (parts, lastNewline, chunk) => {
          const content = parts.join('\n') + (lastNewline && parts.length ? '\n' : '');
          const bytes = Buffer.from(content, 'utf8');
          const { lines, ranges } = await readAll(bytes, chunk);
          // A newline ends a line; the empty text after a last newline is no line.
          const expected = content === '' ? [] : content.split('\n');
          if (content.endsWith('\n')) expected.pop();
          expect(lines.map((l) => l.text?.replace(/\n$/, ''))).toEqual(expected);
          expect(lines.map((l) => l.number)).toEqual(expected.map((_, i) => i + 1));
          expect(lines.at(-1)?.end ?? 0).toBe(bytes.length);
          // Never a byte past the file.
          for (const [, to] of ranges) expect(to).toBeLessThanOrEqual(bytes.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('fails a line longer than the most it reads alone, and goes on after it', async () => {
    const bytes = Buffer.from(`{"a":1}\n${'x'.repeat(100)}\n{"b":2}\n${'y'.repeat(50)}`);
    const { lines } = await readAll(bytes, 8, 20);
    expect(lines.map((l) => [l.number, l.text])).toEqual([
      [1, '{"a":1}\n'],
      [2, undefined],
      [3, '{"b":2}\n'],
      [4, undefined],
    ]);
  });

  it('drops a byte-order mark at the start of the file', async () => {
    const { lines } = await readAll(Buffer.from('\uFEFF{"kind":"agent"}\n{"x":1}\n'), 1024);
    expect(lines.map((l) => l.text)).toEqual(['{"kind":"agent"}\n', '{"x":1}\n']);
  });
});
