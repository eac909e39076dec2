import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `npm start` (local/start.ts) in a process of its own, as a developer runs it, with a data
 * directory of its own. `env` is added to the tests' environment (`undefined` removes a name):
 * without DYNAMODB_ENDPOINT it starts its own DynamoDB Local on disk, as a developer's does.
 */
export interface NpmStart {
  /** The URL it announces (`listening on …`). */
  readonly url: string;
  /** Everything it printed so far (the demo client's credentials among it). */
  output(): string;
  /** SIGTERM, as Ctrl-C does, and its data directory removed. */
  stop(): Promise<void>;
}

const repoRoot = new URL('../../', import.meta.url).pathname;

export const npmStart = async (env: Record<string, string | undefined>): Promise<NpmStart> => {
  const dir = mkdtempSync(join(tmpdir(), 'helpdesk-npm-start-'));
  const childEnv: NodeJS.ProcessEnv = { ...process.env, HELPDESK_DATA_DIR: dir };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete childEnv[name];
    else childEnv[name] = value;
  }
  const child: ChildProcess = spawn(join(repoRoot, 'node_modules/.bin/tsx'), ['local/start.ts'], {
    cwd: repoRoot,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const listen = (chunk: Buffer) => {
    out += chunk.toString('utf8');
  };
  child.stdout?.on('data', listen);
  child.stderr?.on('data', listen);
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not start:\n${out}`)), 90_000);
      child.stdout?.on('data', () => {
        const found = /listening on (http:\/\/\S+)/.exec(out);
        if (found?.[1]) {
          clearTimeout(timer);
          resolve(found[1]);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`npm start exited (${code}):\n${out}`));
      });
    });
    return { url, output: () => out, stop };
  } catch (error) {
    await stop();
    throw error;
  }
};
