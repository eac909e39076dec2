import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceStack } from '../../shared/observability/source-stack';
import { bundleLikeAFunction } from '../helpers/bundle';

/**
 * Functions start without --enable-source-maps; an error log line maps its stack through the map
 * beside the bundle. A bundle built the way the stack builds one throws from a known line, in a
 * plain node process (vitest's own process maps stacks by itself).
 */
const logger = fileURLToPath(new URL('../../shared/http/logger.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'source-stack-'));
let raw: string;
let logged: string;

beforeAll(async () => {
  mkdirSync(join(dir, 'shared'));
  const thrower = [
    'export const handler = (): never => {',
    "  const why = 'boom';",
    '  throw new Error(why);',
    '};',
  ];
  writeFileSync(join(dir, 'shared', 'thrower.ts'), `${thrower.join('\n')}\n`);
  await bundleLikeAFunction(
    dir,
    [
      `import { errorFields } from ${JSON.stringify(logger)};`,
      "import { handler } from './shared/thrower';",
      'try {',
      '  handler();',
      '} catch (error) {',
      '  process.stdout.write(JSON.stringify({ raw: (error as Error).stack, logged: errorFields(error).stack }));',
      '}',
    ].join('\n'),
  );
  const out = execFileSync(process.execPath, [join(dir, 'index.mjs')], {
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
  });
  ({ raw, logged } = JSON.parse(out) as { raw: string; logged: string });
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('source stacks', () => {
  it('without --enable-source-maps the raw stack names the minified bundle only', () => {
    expect(raw).toMatch(/index\.mjs:\d+:\d+/);
    expect(raw).not.toContain('thrower.ts');
  });

  it('an error log line maps the stack to the source file, line and column', () => {
    expect(logged).toMatch(/shared\/thrower\.ts:3:\d+/);
    expect(logged).not.toMatch(/index\.mjs:\d+:\d+/);
  });

  it('leaves frames without a map as they are', () => {
    const stack = 'Error: x\n    at f (/nowhere/else.js:1:2)\n    at node:internal/process/task_queues:105:5';
    expect(sourceStack(stack)).toBe(stack);
  });
});
