/**
 * The one way tests wait: on a condition, never for a time. Every wait on the stack (a record
 * stored, an e-mail sent, a delivery received, a process gone) goes through `eventually`.
 *
 * The polling is vitest's own (`vi.waitUntil`); `eventually` adds what its callers here need:
 * - it names what it waits for (`timed out waiting for …`), where a bare timeout says nothing;
 * - its default timeout is sized for the stack on a busy two-core machine (vitest's is 1 s);
 * - a check answers `undefined` for "not yet" and anything else (false and 0 included) for "here it
 *   is", which `eventually` answers: the check reads what the test then asserts on;
 * - an error thrown by a check fails the wait at once, as it would outside the wait: a check that
 *   expects errors while the thing is not ready (a stack restarting refuses connections) says so
 *   where it calls, with a `.catch`.
 */
import { vi } from 'vitest';

/** How long to wait (a number is the timeout), and how often to check (100 ms unless given). */
export type Patience = number | { timeout?: number; interval?: number };

/**
 * Calls `check` every `interval` until it answers something other than undefined, and answers that;
 * fails with `timed out waiting for ${what}` after `timeout` (20 s unless given).
 */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  patience: Patience = {},
): Promise<T> {
  const { timeout = 20_000, interval = 100 } =
    typeof patience === 'number' ? { timeout: patience } : patience;
  const found = await vi.waitUntil(
    async () => {
      const value = await check();
      return value === undefined ? undefined : { value };
    },
    { timeout, interval, message: `timed out waiting for ${what}` },
  );
  return found.value;
}
