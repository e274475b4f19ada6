/** Work over many items, a few at once. */

/**
 * Runs `work` on every item, at most `lanes` at a time, taking the items in order as lanes free up;
 * resolves when all are done. An error `work` throws rejects the whole, so `work` catches what it
 * counts itself.
 */
export async function eachInLanes<T>(
  items: Iterable<T>,
  lanes: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const iterator = items[Symbol.iterator]();
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let next = iterator.next(); !next.done; next = iterator.next()) await work(next.value);
    }),
  );
}
