/**
 * The Stripe stand-in (infra/local/stripe), driven as cobro's Stripe connector drives Stripe, with the
 * real `stripe` package pointed at it (stripe-standin-harness.ts): signed webhook deliveries that
 * stripe.webhooks.constructEvent verifies, retried when they fail. Nothing here needs the cobro stack
 * that vitest's global setup starts.
 */
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { startReceiver } from '../support/receiver.ts';
import { control, type Json, merchant, pay, paymentSession, useStandIn } from './stripe-standin-harness.ts';

useStandIn();

describe('webhooks', () => {
  it('delivers signed events that stripe.webhooks.constructEvent verifies, retrying a failed delivery', async () => {
    const shop = await merchant();
    const receiver = await startReceiver();
    const endpoint = await shop.test.webhookEndpoints.create({
      url: `${receiver.url}/stripe`,
      enabled_events: ['checkout.session.completed', 'refund.created'],
    });
    expect(endpoint).toMatchObject({ object: 'webhook_endpoint', status: 'enabled', livemode: false });
    expect(endpoint.id).toMatch(/^we_/);
    expect(endpoint.secret).toMatch(/^whsec_/);
    const everything = await shop.live.webhookEndpoints.create({
      url: `${receiver.url}/live`,
      enabled_events: ['*'],
    });
    const listed = await shop.test.webhookEndpoints.list();
    expect(listed.data.map((e) => e.id)).toEqual([endpoint.id]);
    expect(listed.data[0]?.secret).toBeUndefined();

    receiver.answer('/stripe', 500);
    const session = await paymentSession(shop.test);
    await pay(session.id, '4242424242424242');
    const delivered = await receiver.waitFor(
      (r) => r.path === '/stripe' && r.json.type === 'checkout.session.completed',
      2,
    );
    expect(delivered.length).toBe(2);
    const last = delivered[1];
    if (!last) throw new Error('no delivery');
    const event = Stripe.webhooks.constructEvent(
      last.body,
      String(last.headers['stripe-signature']),
      endpoint.secret as string,
    );
    expect(event.type).toBe('checkout.session.completed');
    expect((event.data.object as Stripe.Checkout.Session).id).toBe(session.id);
    expect(event.livemode).toBe(false);
    expect(event.id).toMatch(/^evt_/);
    expect(String(last.headers['stripe-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(() =>
      Stripe.webhooks.constructEvent(
        last.body.replace(session.id, 'cs_test_tampered'),
        String(last.headers['stripe-signature']),
        endpoint.secret as string,
      ),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError);
    const refund = await shop.test.refunds.create({
      payment_intent: (await shop.test.checkout.sessions.retrieve(session.id)).payment_intent as string,
    });
    const refunded = await receiver.waitFor((r) => r.path === '/stripe' && r.json.type === 'refund.created');
    expect(refunded.map((r) => r.json.data.object.id)).toEqual([refund.id]);
    // Only the types it asked for, and nothing of the other mode.
    expect(new Set(receiver.received.filter((r) => r.path === '/stripe').map((r) => r.json.type))).toEqual(
      new Set(['checkout.session.completed', 'refund.created']),
    );
    expect(receiver.received.filter((r) => r.path === '/live')).toEqual([]);

    const attempts = await control('GET', `/_standin/deliveries?account=${shop.id}&event=${event.id}`);
    expect(attempts.body.data.map((a: Json) => [a.attempt, a.status, a.type, a.url])).toEqual([
      [1, 500, 'checkout.session.completed', `${receiver.url}/stripe`],
      [2, 200, 'checkout.session.completed', `${receiver.url}/stripe`],
    ]);
    const stored = await shop.test.events.retrieve(event.id);
    expect(stored.pending_webhooks).toBe(0);

    const resent = await control('POST', `/_standin/events/${event.id}/resend`, {});
    expect(resent.body).toEqual({ event: event.id, endpoints: [endpoint.id] });
    const again = await receiver.waitFor((r) => r.path === '/stripe' && r.json.id === event.id, 3);
    expect(again.length).toBe(3);

    const removed = await shop.test.webhookEndpoints.del(endpoint.id);
    expect(removed).toMatchObject({ id: endpoint.id, deleted: true });
    expect((await shop.test.webhookEndpoints.list()).data).toEqual([]);
    expect((await shop.live.webhookEndpoints.list()).data.map((e) => e.id)).toEqual([everything.id]);
  });
});
