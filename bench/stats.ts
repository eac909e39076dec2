/** Small numeric and console helpers shared by the benchmark sections. */

export const median = (values: readonly number[]): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

export const percentile = (values: readonly number[], p: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
};

/** Rounds for display and JSON (results are measurements, not exact values). */
export const round = (value: number, digits = 2): number => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

/** Milliseconds since an arbitrary origin, sub-millisecond resolution. */
export const nowMs = (): number => performance.now();

export const timed = async <T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> => {
  const start = nowMs();
  const value = await work();
  return { ms: nowMs() - start, value };
};

/** A one-line progress indicator on stderr (rewritten in place on a terminal). */
export const progress = (label: string) => {
  const tty = process.stderr.isTTY;
  let last = 0;
  return {
    update(done: number, total: number, extra = '') {
      const now = Date.now();
      if (done < total && now - last < (tty ? 200 : 5000)) return;
      last = now;
      const line = `  ${label}: ${done}/${total}${extra ? ` ${extra}` : ''}`;
      process.stderr.write(tty ? `\r${line}\x1b[K` : `${line}\n`);
    },
    done(message: string) {
      process.stderr.write(`${tty ? '\r\x1b[K' : ''}  ${label}: ${message}\n`);
    },
  };
};

export const log = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

/** Runs `work(i)` for i in [0, count) with at most `concurrency` in flight. */
export const pool = async (
  count: number,
  concurrency: number,
  work: (i: number) => Promise<void>,
): Promise<void> => {
  let next = 0;
  const worker = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
};
