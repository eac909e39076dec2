import { openAsBlob } from 'node:fs';
import { createHelpdeskClient, HelpdeskError } from '../../client/src';

/**
 * `helpdesk import run <file>`: what an integrator does, through the API with the typed client
 * (client/): a job made, the file uploaded to its address and the job started, then followed
 * with a progress bar on stderr until it ends. Prints the job as it ended (one JSON line) and
 * each failed line (`{"line", "kind", "externalId", "problem"}`), one per line.
 * Exit 0: every line applied; 2: it completed with failed lines; 1: cancelled, failed, refused.
 */
export interface RunOptions {
  file: string;
  url: string;
  apiToken: string;
  /** How often the job is read (ms). */
  everyMs?: number;
}

const BAR = 30;

const bar = (progress: number): string => {
  const done = Math.round(progress * BAR);
  return `[${'#'.repeat(done)}${'.'.repeat(BAR - done)}] ${(progress * 100).toFixed(1).padStart(5)}%`;
};

const eta = (seconds: number | null): string =>
  seconds === null
    ? ''
    : ` about ${seconds >= 120 ? `${Math.round(seconds / 60)} min` : `${seconds} s`} left`;

export const runImport = async (options: RunOptions, print: (value: unknown) => void): Promise<number> => {
  const client = createHelpdeskClient({ baseUrl: options.url, apiToken: options.apiToken });
  const interactive = process.stderr.isTTY;
  try {
    const started = await client.imports.run(await openAsBlob(options.file));
    const jobId = started.data.id;
    process.stderr.write(`import ${jobId} started (${started.data.size} bytes)\n`);
    const job = await client.imports.wait(jobId, {
      everyMs: options.everyMs ?? 1000,
      onProgress: (j) => {
        const line = `${bar(j.progress)} ${j.linesRead} lines, ${j.totals.created} created, ${j.totals.skipped} skipped, ${j.totals.failed} failed${eta(j.etaSeconds)}`;
        process.stderr.write(interactive ? `\r${line}\u001b[K` : `${line}\n`);
      },
    });
    if (interactive) process.stderr.write('\n');
    const { uploadUrl: _u, expiresIn: _e, ...ended } = job;
    print(ended);
    for await (const failed of client.imports.errors(jobId)) print(failed);
    if (job.status !== 'completed') return 1;
    return job.totals.failed > 0 ? 2 : 0;
  } catch (error) {
    if (error instanceof HelpdeskError) {
      const { type, title, status, detail, errors, instance } = error;
      console.error(
        JSON.stringify({ type, title, status, detail, ...(errors.length ? { errors } : {}), instance }),
      );
      return 1;
    }
    throw error;
  }
};
