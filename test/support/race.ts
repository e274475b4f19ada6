/** Racing requests: N of them at once, and what they answered. */

/** Starts `count` requests at once and answers their answers in order; `request` gets the index. */
export function concurrently<T>(count: number, request: (index: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => request(index)));
}

/** How many answers came with each status. */
export function statusCounts(answers: { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}
