import { ALL_INDEXES, type IndexSpec } from '../shared/store/table-schema';

/**
 * Where a table's indexes (DescribeTable) differ from those shared/store/table-schema.ts
 * declares: a missing or extra index, other keys, another projection. The bench computes AWS
 * units for the table it measures, so a difference means the figures are not those of the
 * declared design (create-table.ts or the stack does not build it yet, or builds it otherwise).
 */
const projectionText = (p: IndexSpec['projection']) =>
  p === 'ALL' ? 'ALL' : p.length === 0 ? 'KEYS_ONLY' : `INCLUDE ${[...p].sort().join(', ')}`;

export const indexDifferences = (
  actual: readonly IndexSpec[],
  declared: readonly IndexSpec[] = ALL_INDEXES,
) => {
  const differences: string[] = [];
  for (const want of declared) {
    const have = actual.find((i) => i.name === want.name);
    if (!have) {
      differences.push(`index ${want.name} is declared but missing`);
      continue;
    }
    if (have.partition !== want.partition || have.sort !== want.sort)
      differences.push(
        `index ${want.name} has keys ${have.partition}/${have.sort}, declared ${want.partition}/${want.sort}`,
      );
    if (projectionText(have.projection) !== projectionText(want.projection))
      differences.push(
        `index ${want.name} projects ${projectionText(have.projection)}, declared ${projectionText(want.projection)}`,
      );
  }
  for (const have of actual)
    if (!declared.some((i) => i.name === have.name)) differences.push(`index ${have.name} is not declared`);
  return differences;
};
