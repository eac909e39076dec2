import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ticketEntity } from '../../shared/store/entities/ticket';
import { counterNames, keys } from '../../shared/store/keys';
import { LEGACY_OWN_COUNTS } from '../../shared/store/migrations/legacy';
import { indexMismatch, parsePosition, positionOf } from '../../shared/store/migrations/reindex';
import { searchTarget } from '../../shared/store/search-targets';
import { ALL_INDEXES } from '../../shared/store/table-schema';
import { TENANT } from './fixtures';

/** The pure parts of store/migrations/: what the legacy cells are, and the names reindex reads back. */
describe('legacy counts', () => {
  it('are each a declared search counted elsewhere now, read beside (never instead of) the current cell', () => {
    for (const param of LEGACY_OWN_COUNTS.TICKET ?? []) {
      const search = ticketEntity.searches?.[param];
      expect(search, param).toBeDefined();
      expect(search && 'count' in search && search.count?.on, param).toMatch(/^(total|reference)$/);
      const [current, legacy, ...rest] = searchTarget(ticketEntity, TENANT, { param, value: 'v' }).count;
      expect(rest, param).toEqual([]);
      expect(legacy?.key, param).toEqual(keys.counter(TENANT, counterNames.search('TICKET', param, 'v')));
      // Reading the same cell twice would count every record twice.
      expect(legacy?.key, param).not.toEqual(current?.key);
    }
  });
});

describe('indexMismatch', () => {
  const current = ALL_INDEXES.map((index) => ({ name: index.name, active: true }));

  it('lets a reindex run on a table with exactly the indexes the code uses, all active', () => {
    expect(indexMismatch(current)).toBeUndefined();
    expect(indexMismatch([...current].reverse())).toBeUndefined();
  });

  it('refuses one with an index more or less (another migration step), or one being built or deleted', () => {
    expect(indexMismatch([...current, { name: 'search1', active: true }])).toMatch(/INDEX_MIGRATION_STEP/);
    expect(indexMismatch(current.slice(1))).toMatch(/INDEX_MIGRATION_STEP/);
    expect(indexMismatch([...current.slice(1), { name: 'list', active: false }])).toMatch(
      /being created or deleted/,
    );
  });
});

describe('names reindex reads back', () => {
  const field = fc.constantFrom('status', 'priority', 'assignedTo._id', 'tags', 'externalId1', 'name');
  const value = fc.string({ unit: 'grapheme', maxLength: 40 });

  it('a search partition and a counter name give back the field and value they were built from', () => {
    fc.assert(
      fc.property(field, value, (f, v) => {
        expect(keys.searchOf(TENANT, 'TICKET', keys.search(TENANT, 'TICKET', f, v))).toEqual({
          field: f,
          value: v,
        });
        expect(counterNames.searchOf(counterNames.search('AGENT', f, v))).toEqual({
          kind: 'AGENT',
          field: f,
          value: v,
        });
      }),
    );
  });

  it('other partitions and counters are none', () => {
    expect(keys.searchOf(TENANT, 'TICKET', keys.range(TENANT, 'TICKET', 'managedDate'))).toBeUndefined();
    expect(keys.searchOf(TENANT, 'TICKET', keys.search(TENANT, 'AGENT', 'name', 'x'))).toBeUndefined();
    expect(keys.searchOf('other', 'TICKET', keys.search(TENANT, 'TICKET', 'status', 'x'))).toBeUndefined();
    for (const name of [
      counterNames.total('TICKET'),
      counterNames.sequence('TICKET', 2026),
      'TICKET#x',
      'NOPE#a=b',
    ])
      expect(counterNames.searchOf(name), name).toBeUndefined();
  });

  it('a position is read back as written; anything else is not one', () => {
    const tenantId = 'a'.repeat(24);
    for (const after of ['', `${'0'.repeat(15)}#${'b'.repeat(24)}`]) {
      const position = { tenantId, kind: 'TICKET' as const, after };
      expect(parsePosition(positionOf(position))).toEqual(position);
    }
    for (const text of [
      '',
      'x',
      `${tenantId}/TICKET`,
      `${tenantId}/NOPE/`,
      `acme/TICKET/`,
      `${tenantId}/TICKET/a/b`,
    ])
      expect(parsePosition(text), text).toBeUndefined();
  });
});
