/**
 * The Stripe stand-in (infra/local/stripe), driven as cobro's Stripe connector drives Stripe, with the
 * real `stripe` package pointed at it (stripe-standin-harness.ts): accounts, objects and idempotent
 * answers kept in its state file across a restart. Nothing here needs the cobro stack that vitest's
 * global setup starts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { startStripeStandIn } from '../../infra/local/stripe/stand-in.ts';
import {
  client,
  control,
  controlToken,
  type Json,
  merchant,
  paymentSession,
  useStandIn,
} from './stripe-standin-harness.ts';

useStandIn();

describe('persistence', () => {
  it('keeps accounts, objects and idempotent answers in its state file across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stripe-standin-state-'));
    const stateFile = join(dir, 'stripe.json');
    try {
      const before = await startStripeStandIn({ controlToken, stateFile });
      const shop = await merchant('Persistente', before);
      const session = await paymentSession(shop.test, {
        payment_intent_data: { metadata: { cobro_attempt: 'att_p' } },
      });
      await control(
        'POST',
        `/_standin/checkout/sessions/${session.id}/pay`,
        { card: '4242424242424242' },
        before,
      );
      const customer = await shop.test.customers.create(
        { email: 'kept@example.com' },
        { idempotencyKey: 'cust-1' },
      );
      const waiting = await paymentSession(shop.test);
      await before.stop();

      const after = await startStripeStandIn({ controlToken, stateFile });
      try {
        const again = client(shop.keys.test_key, after);
        expect((await again.accounts.retrieveCurrent()).id).toBe(shop.id);
        const read = await again.checkout.sessions.retrieve(session.id, { expand: ['payment_intent'] });
        expect(read.status).toBe('complete');
        expect((read.payment_intent as Stripe.PaymentIntent).metadata).toEqual({ cobro_attempt: 'att_p' });
        const replayed = await again.customers.create(
          { email: 'kept@example.com' },
          { idempotencyKey: 'cust-1' },
        );
        expect(replayed.id).toBe(customer.id);
        expect(replayed.lastResponse.headers['idempotent-replayed']).toBe('true');
        expect((await again.events.list({ type: 'checkout.session.completed' })).data.length).toBe(1);
        // An open session's page is where the stand-in listens now.
        const open = await again.checkout.sessions.retrieve(waiting.id);
        expect(open.url).toBe(`${after.url}/pay/${waiting.id}`);
        expect((await fetch(open.url as string)).status).toBe(200);
        expect(
          (await control('GET', '/_standin/accounts', undefined, after)).body.data.map((a: Json) => a.id),
        ).toEqual([shop.id]);
      } finally {
        await after.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
