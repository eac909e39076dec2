/**
 * Runs `work` on every item with at most `limit` of them in flight (item order is the start
 * order): for sequences of independent store calls too long to send one at a time and too many
 * to send at once.
 */
export const inParallel = async <T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> => {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
};
