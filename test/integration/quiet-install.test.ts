import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * A newcomer's first command: `npm ci` on the Node they have (this machine's, not the bundled
 * Node 24 the npm scripts run on) prints what it did, no warnings (the dev tools' engine
 * warnings were 35 lines on Node 20). A dry run of the committed package files: no download.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'quiet-install-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The environment without what `npm run` passes down of its own configuration (the copied .npmrc decides). */
const npmless = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(env).filter(([name]) => !/^npm_config_(loglevel|fund)$/i.test(name)));

describe('npm ci on a fresh clone', () => {
  it('says what it installed and nothing else, on the Node npm runs on', async () => {
    for (const file of ['package.json', 'package-lock.json', '.npmrc'])
      copyFileSync(join(root, file), join(dir, file));
    // The shell's own Node and npm: not node_modules/.bin, which npm scripts put first.
    const PATH = (process.env.PATH ?? '')
      .split(delimiter)
      .filter((p) => !p.includes('node_modules'))
      .join(delimiter);
    const { stdout, stderr } = await promisify(execFile)('npm', ['ci', '--dry-run', '--ignore-scripts'], {
      cwd: dir,
      env: { ...npmless(process.env), PATH },
      timeout: 120_000,
    });
    // A dry run lists each package ("add <name> <version>"); the rest is what a real run prints.
    const said = `${stdout}${stderr}`
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('add '));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^added \d+ packages in /);
  }, 150_000);
});
