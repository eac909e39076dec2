import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Route, routeKey, routes } from '../../shared/routes';

/**
 * SECURITY.md states each guarantee once, with the test that proves it: its access row is the
 * route table's, and every test it names exists, so the document cannot drift from the code.
 */
const doc = readFileSync('SECURITY.md', 'utf8');
const lines = doc.split('\n');
const cells = (line: string) =>
  line
    .slice(1, -1)
    .split(' | ')
    .map((c) => c.trim());
const rows = lines.filter((l) => l.startsWith('| ') && !l.startsWith('| guarantee')).map(cells);

const testFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
const sources = new Map<string, string[]>();
for (const file of testFiles('test'))
  sources.set(basename(file), [...(sources.get(basename(file)) ?? []), readFileSync(file, 'utf8')]);

const keysOf = (text: string) => [...text.matchAll(/`((?:GET|POST|PUT|DELETE) \/[^`]*)`/g)].map((m) => m[1]);
const keysWith = (auth: Route['auth']) => routes.filter((r) => r.auth === auth).map(routeKey);

describe('SECURITY.md', () => {
  it('states every guarantee once, each table started on its own', () => {
    const guarantees = rows.map((r) => r[0]);
    expect(guarantees.filter((g, i) => guarantees.indexOf(g) !== i)).toEqual([]);
    lines.forEach((line, i) => {
      if (line.startsWith('| guarantee')) expect(lines[i - 1], `line ${i + 1}`).toBe('');
    });
  });

  it('names exactly the public and the Basic routes of shared/routes.ts; every other route is Bearer', () => {
    const access = rows.find((r) => r[0]?.startsWith('Who may call what:'))?.[0] ?? '';
    const [open = '', basic = '', rest = ''] = access.split('; ');
    expect(open).toMatch(/need no credentials$/);
    expect(keysOf(open).sort()).toEqual(keysWith('none').sort());
    expect(basic).toMatch(/\(Basic\)$/);
    expect(keysOf(basic)).toEqual(keysWith('basic'));
    expect(rest).toMatch(/^every other route a Bearer access token and its `clientId`/);
    // No other kind of authentication exists.
    expect(new Set(routes.map((r) => r.auth))).toEqual(new Set(['none', 'basic', 'bearer']));
  });

  it('names as proof only test files and test names that exist', () => {
    const missing: string[] = [];
    for (const [guarantee, , proof = ''] of rows) {
      let files: string[] = [];
      for (const m of proof.matchAll(/`([^`]+\.test\.ts)`|"([^"]+)"/g)) {
        if (m[1]) {
          files = sources.get(basename(m[1])) ?? [];
          if (files.length === 0) missing.push(`${m[1]} (${guarantee?.slice(0, 40)}…)`);
        } else {
          const name = (m[2] as string).replace(/…$/, '');
          if (!files.some((source) => source.includes(name))) missing.push(`"${name}"`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
