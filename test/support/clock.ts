import { eventually } from './eventually.ts';

/**
 * Resolves once the clock reads later than it did when called. The stack dates records by the same
 * clock, so a record stored after this is dated later than every record stored before the call:
 * lists ordered by creation time then have one order to show.
 */
export async function clockMoved(): Promise<void> {
  const called = Date.now();
  await eventually('the clock to move', () => (Date.now() > called ? true : undefined), { interval: 1 });
}
