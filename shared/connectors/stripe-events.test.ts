/**
 * A refused Stripe event is seen by an operator: a WARN line naming the account and why, and the
 * ConnectorEventsRefused metric, besides the 400 Stripe gets (the gateway tests check that answer).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { simulatedAcquirer } from '../../test/support/acquirer.ts';
import { teeOutput } from '../../test/support/output.ts';
import { newAccount, useLocalEnvironment } from '../../test/support/stack.ts';
import { Invalid } from '../core/errors.ts';
import { publishMetrics } from '../core/metrics.ts';
import { makeDeps } from '../db/deps.ts';
import { receiveStripeEvent } from './stripe-events.ts';

beforeAll(() => useLocalEnvironment());

let restore: (() => void) | undefined;
afterEach(() => restore?.());

/** The JSON lines this process writes while `run` runs (metrics published at its end). */
async function linesOf(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const chunks: string[] = [];
  restore = teeOutput((chunk) => chunks.push(chunk));
  await run().catch((error) => {
    expect(error).toBeInstanceOf(Invalid);
  });
  publishMetrics();
  restore();
  restore = undefined;
  return chunks
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const deps = () => ({ ...makeDeps(), acquirer: simulatedAcquirer(), baseUrl: 'http://localhost' });

describe('a refused Stripe event', () => {
  it('is logged with its account and reason, and counted', async () => {
    const account = await newAccount('stripe-event-refused');
    const body = JSON.stringify({ id: 'evt_1', type: 'payout.paid', data: { object: { id: 'po_1' } } });
    const lines = await linesOf(() =>
      receiveStripeEvent(deps(), String(account.developerId), body, 't=1,v1=00'),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'WARN',
        message: 'a Stripe event was refused',
        account: String(account.developerId),
        why: 'not_connected',
      }),
    );
    const counted = lines.filter((line) => line.ConnectorEventsRefused !== undefined);
    expect(counted.map((line) => line.ConnectorEventsRefused)).toEqual([1]);
    // Nothing of the posted body or its signature is written.
    expect(JSON.stringify(lines)).not.toContain('t=1,v1=00');
  });

  it('an account id that is not one is refused the same way, cut short in the log', async () => {
    const lines = await linesOf(() => receiveStripeEvent(deps(), 'x'.repeat(300), '{}', undefined));
    const warned = lines.find((line) => line.message === 'a Stripe event was refused');
    expect(warned).toMatchObject({ why: 'not_connected', account: 'x'.repeat(16) });
  });
});
