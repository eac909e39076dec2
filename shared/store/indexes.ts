import { config } from '../config';
import {
  INDEX_MIGRATION_STEPS,
  type IndexSpec,
  indexesAtStep,
  LEGACY_SEARCH_INDEXES,
  SEARCH_INDEXES,
  type SearchSlot,
} from './table-schema';

/**
 * The indexes the table has now. Usually the current set; while an existing table is moved to it
 * one index per deployment (INDEX_MIGRATION_STEP, set by the stack), a slot whose new index does
 * not exist yet is served by its legacy one, and items keep that slot's legacy sort attribute
 * written for as long as the legacy index exists, so every step serves every search completely.
 */
const byStep = new Map<number, ReadonlySet<string>>();
/** Every write asks, once per search slot: the set is built once per step (config can change in tests). */
const present = (): ReadonlySet<string> => {
  const step = config().INDEX_MIGRATION_STEP ?? INDEX_MIGRATION_STEPS;
  let names = byStep.get(step);
  if (!names) {
    names = new Set(indexesAtStep(step).map((i) => i.name));
    byStep.set(step, names);
  }
  return names;
};

/** The index a search slot is read from. */
export const searchIndexOf = (slot: SearchSlot): IndexSpec =>
  present().has(SEARCH_INDEXES[slot].name) ? SEARCH_INDEXES[slot] : LEGACY_SEARCH_INDEXES[slot];

/** True while the slot's legacy index exists: items then carry its sort attribute as well. */
export const writesLegacySort = (slot: SearchSlot): boolean =>
  present().has(LEGACY_SEARCH_INDEXES[slot].name);
