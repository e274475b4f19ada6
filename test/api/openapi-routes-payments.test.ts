/**
 * Every route that moves money answers the way GET /openapi.json says: payments through the hosted
 * checkout (with and without 3-D Secure), a charge's receipt, refunds, the legacy charge and the
 * Stripe connector's routes. Each test exercises exactly the routes openapi-routes.ts gives it, with
 * a merchant of its own.
 */
import { createHmac } from 'node:crypto';
import { describe, expect } from 'vitest';
import {
  cardFields,
  createPayment,
  csrfOf,
  openPage,
  paymentPath,
  payThroughCheckout,
  postForm,
  submitCard,
  testCards,
} from '../support/checkout.ts';
import { waitForMail } from '../support/mail.ts';
import { api, apiKey, apiUrl } from '../support/stack.ts';
import { connectStripe, payStripeSession, sessionIdOf, stripeApi } from '../support/stripe.ts';
import { type Answered, routeSuite } from './openapi-routes.ts';

describe('every route answers as the document says', () => {
  const suite = routeSuite('payments');
  const { routeTest, expectAnswer, expectError } = suite;

  routeTest(
    'payments through the hosted checkout, with and without a 3-D Secure challenge',
    async ({ auth }) => {
      const first = await api('POST', '/v1/payments/', {
        auth,
        body: {
          amount: '25.00',
          description: 'Order 1',
          currency: 'USD',
          items: ['Mug'],
          return_url: 'https://shop.example.com/return',
        },
      });
      expectAnswer('POST', '/v1/payments/', first);
      const url = first.json.data.redirect as string;
      const page = await openPage(url);
      const asAnswer = (answer: Awaited<ReturnType<typeof openPage>>): Answered => ({
        status: answer.status,
        headers: answer.headers,
        text: answer.html,
      });
      expectAnswer('GET', '/checkout/{token}', asAnswer(page));
      const paid = await postForm(url, {
        csrf_token: csrfOf(page.html),
        email: 'buyer@example.com',
        cardholder_name: 'Ada Lovelace',
        card_number: testCards.approved,
        exp_month: '12',
        exp_year: String(new Date().getUTCFullYear() + 3),
        cvc: '123',
      });
      expectAnswer('POST', '/checkout/{token}', asAnswer(paid));
      expect(paid.status).toBe(303);

      const second = await createPayment(auth);
      const challenge = await submitCard(second.url, { card_number: testCards.challenge });
      expectAnswer('POST', '/checkout/{token}', asAnswer(challenge));
      expect(challenge.status).toBe(200);
      expectAnswer('GET', '/checkout/{token}/challenge', asAnswer(await openPage(`${second.url}/challenge`)));
      const passed = await postForm(`${second.url}/challenge`, {
        csrf_token: csrfOf(challenge.html),
        outcome: 'pass',
      });
      expectAnswer('POST', '/checkout/{token}/challenge', asAnswer(passed));
      expect(passed.status).toBe(303);

      const view = await api('GET', paymentPath(first.json.data.id_payment), { auth });
      expectAnswer('GET', '/v1/payments/{id}', view);
      expectError(
        'GET',
        '/v1/payments/{id}',
        await api('GET', paymentPath(`pay_${'x'.repeat(24)}`), { auth }),
        404,
      );
      for (const path of ['/v1/payments/', '/v1/payments/internal'] as const) {
        const list = await api('GET', `${path}?status=succeeded`, { auth });
        expectAnswer('GET', path, list);
        expect(list.json).toHaveLength(2);
      }
    },
  );

  routeTest("a charge's receipt: the page and the PDF its e-mail links to", async ({ auth, account }) => {
    const email = `openapi-receipt-${account.developerId}@example.com`;
    await payThroughCheckout(auth, { card: { ...cardFields({ email }) } });
    const mail = await waitForMail(email, 'Test openapi: your receipt for "Order 1001"');
    const url = /^\S+\/receipts\/[A-Za-z0-9]+$/m.exec(mail?.body.text ?? '')?.[0] ?? '';
    const asAnswered = async (response: Response): Promise<Answered> => ({
      status: response.status,
      headers: response.headers,
      text: response.headers.get('content-type')?.startsWith('application/pdf')
        ? `${(await response.arrayBuffer()).byteLength} bytes`
        : await response.text(),
    });
    expectAnswer('GET', '/receipts/{token}', await asAnswered(await fetch(url)));
    const pdf = await asAnswered(await fetch(`${url}.pdf`));
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expectAnswer('GET', '/receipts/{token}', pdf);
    // An unknown token is the documented 404, an HTML page, for either form.
    for (const suffix of ['', '.pdf']) {
      const unknown = await fetch(`${apiUrl}/receipts/${'A'.repeat(43)}${suffix}`);
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('content-type')).toMatch(/^text\/html/);
    }
    expect(suite.doc.paths['/receipts/{token}'].get.responses['404'].content['text/html']).toBeDefined();
  });

  routeTest('refunds of a charge', async ({ auth }) => {
    const { chargeId } = await payThroughCheckout(auth);
    const refund = await api('POST', '/v1/refunds/', {
      auth,
      body: { charge_id: chargeId, amount: '5.00', reason: 'requested_by_customer' },
    });
    expectAnswer('POST', '/v1/refunds/', refund);
    const tooMuch = await api('POST', '/v1/refunds/', {
      auth,
      body: { charge_id: chargeId, amount: '500.00', reason: 'duplicate' },
    });
    expectError('POST', '/v1/refunds/', tooMuch, 400);
    const list = await api('GET', `/v1/refunds/?charge_id=${chargeId}`, { auth });
    expectAnswer('GET', '/v1/refunds/', list);
    expect(list.json).toHaveLength(1);
    const path = '/v1/refunds/{refund_id}/';
    expectAnswer('GET', path, await api('GET', `/v1/refunds/${refund.json.provider_refund_id}/`, { auth }));
    expectError('GET', path, await api('GET', `/v1/refunds/${'x'.repeat(24)}/`, { auth }), 404);
    const charge = await api('GET', `/v1/charges/${chargeId}/`, { auth });
    expectAnswer('GET', '/v1/charges/{charge_id}/', charge);
    expect(charge.json).toMatchObject({
      id: chargeId,
      amount_refunded: 5,
      refund: { amount: 5, refunded: false },
    });
    expectError(
      'GET',
      '/v1/charges/{charge_id}/',
      await api('GET', `/v1/charges/ch_${'x'.repeat(24)}/`, { auth }),
      404,
    );
  });

  routeTest('the deprecated legacy charge, from multipart fields', async ({ auth }) => {
    const charge = async (number: string) => {
      const form = new FormData();
      const fields = {
        amount: '10.00',
        currency: 'usd',
        description: 'Legacy order',
        credit_card_number: number,
        credit_card_security_code_number: '123',
        exp_month: '12',
        exp_year: String(new Date().getUTCFullYear() + 3),
      };
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      const response = await fetch(`${apiUrl}/v1/charges/simple/create/`, {
        method: 'POST',
        headers: { Authorization: auth },
        body: form,
      });
      return { status: response.status, headers: response.headers, text: await response.text() };
    };
    expectAnswer('POST', '/v1/charges/simple/create/', await charge(testCards.approved));
    expectError('POST', '/v1/charges/simple/create/', await charge(testCards.genericDecline), 402);
  });

  routeTest(
    "the Stripe connector's routes: the return from Stripe's page, and Stripe's events",
    async ({ account }) => {
      const stripe = await connectStripe(account, 'live');
      const created = await api('POST', '/v1/payments/', {
        auth: apiKey(account.liveKey),
        body: {
          amount: '12.00',
          currency: 'USD',
          description: 'Tea',
          items: ['Tea'],
          return_url: 'https://shop.example/',
        },
      });
      expectAnswer('POST', '/v1/payments/', created);
      const url = created.json.data.redirect as string;
      const page = await openPage(url);
      expectAnswer('GET', '/checkout/{token}', {
        status: page.status,
        text: page.html,
        headers: page.headers,
      });
      const submitted = await postForm(url, { csrf_token: csrfOf(page.html) });
      expectAnswer('POST', '/checkout/{token}', {
        status: submitted.status,
        text: submitted.html,
        headers: submitted.headers,
      });
      await payStripeSession(sessionIdOf(submitted.location as string));
      const back = await openPage(`${url}/return`);
      expect(back.status).toBe(303);
      expectAnswer('GET', '/checkout/{token}/return', {
        status: back.status,
        text: back.html,
        headers: back.headers,
      });
      // Stripe's events: an unsigned one is refused; a signed copy of one Stripe sent is a duplicate.
      const path = `/v1/connectors/stripe/${account.developerId}/events/`;
      const unsigned = await api('POST', path, {
        rawBody: '{}',
        headers: { 'Content-Type': 'application/json' },
      });
      expectError('POST', '/v1/connectors/stripe/{account_id}/events/', unsigned, 400);
      const { json: events } = await stripeApi(stripe.live_key, 'GET', '/v1/events?limit=1');
      const body = JSON.stringify(events.data[0]);
      const at = Math.floor(Date.now() / 1000);
      const signature = `t=${at},v1=${createHmac('sha256', stripe.live_webhook_secret).update(`${at}.${body}`).digest('hex')}`;
      const taken = await api('POST', path, {
        rawBody: body,
        headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
      });
      expectAnswer('POST', '/v1/connectors/stripe/{account_id}/events/', taken);
    },
  );
});
