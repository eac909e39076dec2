import { describe, expect, it } from 'vitest';
import { indexDifferences } from '../../bench/index-differences';

const declared = [
  { name: 'list', partition: 'listpk', sort: 'listsk', projection: 'ALL' as const },
  { name: 'search1v2', partition: 's1pk', sort: 'listsk', projection: ['openedBy', 'type'] },
];

describe('indexDifferences', () => {
  it('finds nothing when the table has the declared indexes (INCLUDE attributes in any order)', () => {
    const actual = [declared[0], { ...declared[1], projection: ['type', 'openedBy'] }] as typeof declared;
    expect(indexDifferences(actual, declared)).toEqual([]);
  });

  it('names missing and undeclared indexes, other keys and other projections', () => {
    const actual = [
      { name: 'list', partition: 'listpk', sort: 'other', projection: [] },
      { name: 'search1', partition: 's1pk', sort: 's1sk', projection: 'ALL' as const },
    ];
    expect(indexDifferences(actual, declared)).toEqual([
      'index list has keys listpk/other, declared listpk/listsk',
      'index list projects KEYS_ONLY, declared ALL',
      'index search1v2 is declared but missing',
      'index search1 is not declared',
    ]);
  });
});
