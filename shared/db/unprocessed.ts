/**
 * DynamoDB's batch calls may leave part of a call unprocessed under load: that part is sent again,
 * after a short wait that grows each time, until nothing is left.
 */

/**
 * Sends `items` with `send`, which answers what DynamoDB left unprocessed, and sends that again
 * until none is left; throws `gaveUp` when ten calls still leave some.
 */
export async function sendUntilProcessed<T>(
  items: T[],
  send: (pending: T[]) => Promise<T[]>,
  gaveUp: string,
): Promise<void> {
  let pending = items;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)));
    pending = await send(pending);
    if (attempt > 8 && pending.length) throw new Error(gaveUp);
  }
}
