import type { ImportLineInput } from '../../shared/schemas/import';

/** What a converter makes of an export (local/import/*.ts): its import lines, and what it had to change. */
export interface Conversion {
  lines: ImportLineInput[];
  /** What could not be carried over as it was: each names its record. */
  warnings: string[];
}
