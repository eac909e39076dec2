import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { JsonObject } from '../shared/http/openapi';

/**
 * The README's route table, written by `npm run openapi` from the OpenAPI document (its tags, in
 * their order, and each operation's summary) between two markers, so it lists every route and
 * never drifts from the route table (test/unit/openapi.test.ts compares).
 */
export const README_FILE = fileURLToPath(new URL('../README.md', import.meta.url));
const START = '<!-- routes: written by npm run openapi from the route table -->';
const END = '<!-- /routes -->';

type Operation = { summary: string; tags: string[]; security?: unknown[] };
type Document = { tags: { name: string }[]; paths: Record<string, Record<string, Operation>> };

const cell = (text: string) => text.replaceAll('|', '\\|');

/** The table: one row per operation, grouped by tag; public operations say so. Aligned as Biome formats it. */
export const routesTable = (document: JsonObject): string => {
  const { tags, paths } = document as unknown as Document;
  const rows: string[][] = [];
  for (const { name } of tags) {
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (operation.tags[0] !== name) continue;
        const open = operation.security?.length === 0 ? ' (public)' : '';
        rows.push([name, `\`${method.toUpperCase()} ${path}\``, `${cell(operation.summary)}${open}`]);
      }
    }
  }
  const header = ['area', 'route', 'what it does'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
};

/** The README with its route table replaced by the document's. */
export const readmeText = (document: JsonObject, readme = readFileSync(README_FILE, 'utf8')): string => {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} section`);
  return `${readme.slice(0, start + START.length)}\n${routesTable(document)}\n${readme.slice(end)}`;
};
