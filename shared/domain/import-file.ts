/**
 * An import file read as lines, a chunk at a time (domain/import-run.ts): where each line ends
 * (past its newline) is what a job records as its place, so a job goes on from exactly there.
 * Pure over a byte reader: the run reads S3 ranges, the tests a buffer.
 */
export interface FileLine {
  /** From 1. */
  number: number;
  /** The byte after it (its newline included). */
  end: number;
  /** Its text (a leading byte-order mark dropped); undefined when longer than MAX_LINE_BYTES. */
  text?: string;
}

/** The longest line read (a ticket with inline files); a longer one fails, alone. */
export const MAX_LINE_BYTES = 16 << 20;

const NEWLINE = 0x0a;
const BOM = '\uFEFF';

/** Reads bytes `from` to `to` (exclusive) of the file. */
export type ByteReader = (from: number, to: number) => Promise<Buffer>;

/**
 * The lines from `offset` on, about a chunk of them: every whole line of the chunk, the last one
 * too when the chunk reaches the end of the file. A line longer than the chunk is read alone (up
 * to MAX_LINE_BYTES); a longer one is returned without its text, its end found by reading on.
 * Never empty while `offset < size`.
 */
export const readLines = async (
  read: ByteReader,
  file: { size: number; offset: number; firstNumber: number; chunkBytes: number; maxLineBytes?: number },
): Promise<FileLine[]> => {
  const { size, offset, firstNumber, chunkBytes } = file;
  const maxLine = file.maxLineBytes ?? MAX_LINE_BYTES;
  const upTo = (bytes: number) => Math.min(size, offset + bytes);
  let buffer = await read(offset, upTo(chunkBytes));
  let cut = buffer.lastIndexOf(NEWLINE);
  if (cut < 0 && offset + buffer.length < size) {
    // One line longer than a chunk: read it alone.
    buffer = await read(offset, upTo(maxLine + 1));
    cut = buffer.indexOf(NEWLINE);
    if (cut < 0 && offset + buffer.length < size) {
      // Too long: find its end, and fail it.
      let from = offset + buffer.length;
      for (;;) {
        const more = await read(from, Math.min(size, from + chunkBytes));
        const at = more.indexOf(NEWLINE);
        if (at >= 0) return [{ number: firstNumber, end: from + at + 1 }];
        from += more.length;
        if (from >= size || more.length === 0) return [{ number: firstNumber, end: size }];
      }
    }
    if (cut >= 0) buffer = buffer.subarray(0, cut + 1);
  }
  const atEnd = offset + buffer.length >= size;
  const usable = atEnd ? buffer.length : cut + 1;
  const lines: FileLine[] = [];
  let start = 0;
  while (start < usable) {
    const at = buffer.indexOf(NEWLINE, start);
    const stop = at < 0 || at >= usable ? usable : at + 1;
    const number = firstNumber + lines.length;
    const text = buffer.subarray(start, stop).toString('utf8');
    lines.push({
      number,
      end: offset + stop,
      text: number === 1 && text.startsWith(BOM) ? text.slice(1) : text,
    });
    start = stop;
  }
  return lines;
};
