/**
 * `metadata` on POST /v1/payments/ (decision D19): the customers' rules, kept on the payment, shown
 * on its view and carried by its events; bad metadata is 400.
 */
import { describe, expect, it } from 'vitest';
import { expectMessage } from '../support/answers.ts';
import { paymentBody, paymentsPath, paymentView, payThroughCheckout } from '../support/checkout.ts';
import { api, apiKey, newAccount } from '../support/stack.ts';

describe('metadata on a payment', () => {
  it('is kept as given, shown on the view and carried by payment.succeeded; bad metadata is 400', async () => {
    const owner = await newAccount('pay-metadata');
    const auth = apiKey(owner.testKey);
    const metadata = { order_id: 'A-1001', note: 'gift wrap\nplease', nested: { channel: 'web' } };
    const paid = await payThroughCheckout(auth, { payment: { metadata } });
    expect((await paymentView(auth, paid.id)).metadata).toEqual(metadata);
    const events = await api('GET', '/v1/events/?type=payment.succeeded', { auth });
    expect(events.status, events.text).toBe(200);
    const succeeded = (events.json.results as { data: { object: { id: string; metadata: unknown } } }[]).find(
      (event) => event.data.object.id === paid.id,
    );
    expect(succeeded?.data.object.metadata).toEqual(metadata);

    for (const bad of [['an', 'array'], 'text', { '': 'empty key' }, { big: 'x'.repeat(11_000) }]) {
      const refused = await api('POST', paymentsPath, { auth, body: paymentBody({ metadata: bad }) });
      expectMessage(refused, 400);
      expect(refused.text).toContain('metadata');
    }
  });
});
