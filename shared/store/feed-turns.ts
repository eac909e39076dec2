import { assertTimeForRetry, transactions } from './attempt-budget';
import { timeLeft } from './deadline';
import type { ItemKey } from './keys';
import { itemId, type WriteOp } from './write-ops';

/**
 * Writers of one ticket in this process take turns: each stamps its events, sends its
 * transaction and hears the answer before the next one stamps. Concurrent writers of a ticket
 * otherwise stamp in one order and commit in another, and each one overtaken fails the ticket's
 * feed clock (`FeedClockAhead`, store/events.ts) and goes again: through `npm start`, a hundred
 * replies at once cost several hundred transactions and ran into the deadline. A Lambda
 * instance serves one request at a time, so there a turn is always free; between instances the
 * clock and the retries (domain/commit.ts) keep the order.
 *
 * A writer waits for its turn only while the deadline leaves time for its transaction after it;
 * then it gives the turn up with `refused()`, nothing sent (store/attempt-budget.ts).
 */
const turns = new Map<string, Promise<void>>();

/** The key of the item an element writes, as one string. */
const writtenItem = ({ item: { Put, Update, Delete } }: WriteOp): string => {
  const key = Put?.Item ?? Update?.Key ?? Delete?.Key;
  return key ? itemId(key as ItemKey) : '';
};

/** Resolves when `before` does, or rejects with `refused()` once waiting longer would leave no time to send. */
const turnOrRefusal = (before: Promise<void>, refused: () => Error): Promise<void> => {
  const patience = timeLeft() - transactions.estimate();
  if (!Number.isFinite(patience)) return before;
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(refused()), Math.max(0, patience));
  });
  return Promise.race([before, giveUp]).finally(() => clearTimeout(timer));
};

/** Runs `write` in its turn among this process's writers of the same feed-ordered items. */
export const inFeedTurn = async <T>(
  ops: readonly WriteOp[],
  refused: () => Error,
  write: () => Promise<T>,
): Promise<T> => {
  const key = ops
    .filter((op) => op.feedOrdered)
    .map(writtenItem)
    .sort()
    .join('\n');
  if (!key) return write();
  const before = turns.get(key);
  let done!: () => void;
  const mine = new Promise<void>((resolve) => {
    done = resolve;
  });
  // The next writer waits for this one and for everyone ahead of it, even one that gave up.
  const tail = before ? before.then(() => mine) : mine;
  turns.set(key, tail);
  void tail.then(() => {
    if (turns.get(key) === tail) turns.delete(key);
  });
  try {
    if (before) {
      await turnOrRefusal(before, refused);
      assertTimeForRetry(refused);
    }
    return await write();
  } finally {
    done();
  }
};
