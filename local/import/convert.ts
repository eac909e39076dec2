import { existsSync, statSync } from 'node:fs';
import { importLine } from '../../shared/schemas/import';
import type { Conversion } from './conversion';
import { convertDeskero } from './deskero';
import { convertZendesk } from './zendesk';

/** The converters by the source they read. */
export const CONVERTERS: Record<string, (dir: string) => Conversion> = {
  zendesk: convertZendesk,
  deskero: convertDeskero,
};

/**
 * `helpdesk import convert <zendesk|deskero> <dir>`: the export's import lines on stdout, one JSON line
 * each, only lines the import format accepts (shared/schemas/import.ts); on stderr what could not
 * be carried over as it was, each line refused with its problems, and a count by kind. Exit 1
 * when the directory is missing or nothing could be converted.
 */
export const convertToLines = (source: string, dir: string, print: (value: unknown) => void): number => {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    console.error(`helpdesk: ${dir} is not a directory`);
    return 1;
  }
  const convert = CONVERTERS[source];
  if (!convert) throw new Error(`no converter for ${source}`);
  const { lines, warnings } = convert(dir);
  for (const warning of warnings) console.error(`warning: ${warning}`);
  const counts: Record<string, number> = {};
  let refused = 0;
  for (const line of lines) {
    const checked = importLine.safeParse(line);
    if (!checked.success) {
      refused++;
      const problems = checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      console.error(`refused: ${line.kind} ${line.externalId}: ${problems}`);
      continue;
    }
    counts[line.kind] = (counts[line.kind] ?? 0) + 1;
    // As the format reads it: what it does not know dropped, names normalised (`onhold`).
    print(checked.data);
  }
  console.error(JSON.stringify({ lines: counts, warnings: warnings.length, refused }));
  return Object.keys(counts).length > 0 ? 0 : 1;
};
