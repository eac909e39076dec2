import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { readCells } from './counters';
import { db } from './dynamo';
import { baseQuery, type PageSource, partitionsOf } from './page-source';
import type { Item } from './pages';
import type { CountCell } from './write-ops';

/** Counting what no counter holds: the entries of a range, or of a whole source, with key-only COUNT queries. */
/**
 * No counter can hold "entries from X on" for every X, so a range is counted with key-only
 * COUNT queries, from both ends at once, one page each in turn: whichever side ends first gives
 * the answer (inside, or the partition's counter minus outside). Cost: twice the smaller side.
 * Each COUNT query stops at 1 MB of entries read; every side follows LastEvaluatedKey to its end.
 */
export const rangeCount = async (src: PageSource, all: readonly CountCell[]): Promise<number> => {
  if (!src.range || !('from' in src.range)) throw new Error('rangeCount counts a range from a sort value');
  const inside = counting(baseQuery(src));
  const outside = counting(baseQuery(src, { sort: { lt: [src.index.sort, src.range.from] } }));
  for (;;) {
    await inside.step();
    if (inside.done()) return inside.total();
    await outside.step();
    if (outside.done()) return Math.max(0, (await readCells(all)) - outside.total());
  }
};

/** Every entry of a source, counted with key-only COUNT queries (one per MB of entries). */
export const countEntries = async (src: PageSource): Promise<number> => {
  const counts = await Promise.all(
    partitionsOf(src).map(async (part) => {
      const all = counting(baseQuery(part));
      while (!all.done()) await all.step();
      return all.total();
    }),
  );
  return counts.reduce((a, b) => a + b, 0);
};

const counting = (query: QueryCommandInput) => {
  let total = 0;
  let start: Item | undefined;
  let done = false;
  return {
    total: () => total,
    done: () => done,
    step: async () => {
      const out = await db().send(
        new QueryCommand({
          ...query,
          Select: 'COUNT',
          ExclusiveStartKey: start,
        }),
      );
      total += out.Count ?? 0;
      start = out.LastEvaluatedKey;
      done = !start;
    },
  };
};
