/**
 * The hosted checkout's forms are bounded (the review's finding: a 450 KB cardholder name with the
 * 3-D Secure card answered 500 and held the page for a minute; 350 KB was stored; 3 MB was echoed
 * in a 3 MB page). Every field has a length limit checked before anything is claimed, stored or
 * shown again, and a form body over 16 KB is 413: a small answer, nothing kept, and the real payer
 * can pay at once.
 */
import { describe, expect, it } from 'vitest';
import { payFormLimits } from '../../shared/checkout/schemas.ts';
import {
  cardFields,
  createPayment,
  csrfOf,
  expectUnpaid,
  openPage,
  postForm,
  submitCard,
  testCards,
} from '../support/checkout.ts';
import { api, suiteMerchant } from '../support/stack.ts';

/** The pay form of a fresh page with `fields` changed; the page's own CSRF token unless given. */
async function submitWith(url: string, fields: Record<string, string>) {
  const page = await openPage(url);
  expect(page.status, page.html).toBe(200);
  return postForm(url, { csrf_token: csrfOf(page.html), ...cardFields(fields) });
}

/** The alert sentence a page shows, or undefined. */
const alertOf = (html: string) => /<p class="error" role="alert">([^<]*)<\/p>/.exec(html)?.[1];

describe('the checkout pay form', () => {
  const merchant = suiteMerchant('checkout-forms');

  it('a name over 200 characters with the 3-D Secure card is 400, shown nowhere, and the page stays open', async () => {
    const payment = await createPayment(merchant.auth);
    const name = `N${'x'.repeat(10_000)}`;
    const answer = await submitWith(payment.url, { card_number: testCards.challenge, cardholder_name: name });
    expect(answer.status).toBe(400);
    expect(alertOf(answer.html)).toBe('The cardholder name takes at most 200 characters.');
    expect(answer.html).not.toContain('xxxxxxxxxx');
    expect(answer.html.length).toBeLessThan(20_000);
    // Nothing was claimed: the payer gets the challenge at once, not "payment in progress".
    const real = await submitWith(payment.url, { card_number: testCards.challenge });
    expect(real.status, real.html).toBe(200);
    expect(real.html).toContain('Complete authentication');
  });

  it('a name of exactly 200 characters is taken', async () => {
    const payment = await createPayment(merchant.auth);
    const answer = await submitWith(payment.url, { cardholder_name: `A ${'b'.repeat(198)}` });
    expect(answer.status, answer.html).toBe(303);
  });

  it.each([
    ['email', `${'e'.repeat(250)}@x.co`, 'The email address takes at most 254 characters.'],
    ['card_number', '4242 4242 4242 4242 4242', 'The card number takes at most 23 characters.'],
    ['exp_month', '012', 'The expiration month takes at most 2 characters.'],
    ['exp_year', '02030', 'The expiration year takes at most 4 characters.'],
    ['cvc', '12345', 'The security code takes at most 4 characters.'],
  ])('%s over its limit is 400 saying so, and charges nothing', async (field, value, message) => {
    const payment = await createPayment(merchant.auth);
    const answer = await submitWith(payment.url, { [field]: value });
    expect(answer.status, answer.html).toBe(400);
    expect(alertOf(answer.html)).toBe(message);
    if (field === 'email') expect(answer.html).not.toContain('eeeeeeeeee');
    // The other values are kept, over-long ones never.
    expect(answer.html).toContain('value="Ada Lovelace"');
    await expectUnpaid(merchant.auth, payment.id);
  });

  it('a CSRF token of another length is a wrong one: 403, nothing claimed or shown', async () => {
    const payment = await createPayment(merchant.auth);
    const page = await openPage(payment.url);
    const csrf = csrfOf(page.html);
    const answer = await postForm(payment.url, {
      ...cardFields({ card_number: testCards.challenge }),
      csrf_token: `${csrf}${'c'.repeat(5000)}`,
    });
    expect(answer.status).toBe(403);
    expect(answer.html).not.toContain('ccccc');
    // Nothing was claimed: the real payer gets the challenge at once.
    const real = await submitWith(payment.url, { card_number: testCards.challenge });
    expect(real.status, real.html).toBe(200);
    expect(real.html).toContain('Complete authentication');
  });

  it('says every field over its limit at once', async () => {
    const payment = await createPayment(merchant.auth);
    const answer = await submitWith(payment.url, { cardholder_name: 'n'.repeat(201), cvc: '12345' });
    expect(answer.status).toBe(400);
    expect(alertOf(answer.html)).toBe(
      'The cardholder name takes at most 200 characters. The security code takes at most 4 characters.',
    );
  });

  it('a name with a control character or a lone surrogate is 400 and not shown again', async () => {
    const payment = await createPayment(merchant.auth);
    for (const name of ['Ada\u0000Lovelace', 'Ada\u001b[31m', 'Ada\nLovelace']) {
      const answer = await submitWith(payment.url, {
        cardholder_name: name,
        card_number: testCards.challenge,
      });
      expect(answer.status, name).toBe(400);
      expect(alertOf(answer.html)).toBe('Enter the cardholder name as plain text on one line.');
      expect(answer.html).toContain(
        'name="cardholder_name" autocomplete="cc-name" required maxlength="200" value=""',
      );
    }
    await expectUnpaid(merchant.auth, payment.id);
  });

  it('the inputs carry their limits, so a browser never sends more', async () => {
    const payment = await createPayment(merchant.auth);
    const page = await openPage(payment.url);
    for (const [field, limit] of Object.entries(payFormLimits)) {
      expect(page.html).toMatch(new RegExp(`name="${field}"[^>]*maxlength="${limit}"`));
    }
  });

  it('a form body over 16 KB is 413 in a small answer, stores nothing and keeps the page payable', async () => {
    const payment = await createPayment(merchant.auth);
    for (const size of [17 * 1024, 450 * 1024, 3 * 1024 * 1024]) {
      const answer = await submitWith(payment.url, {
        card_number: testCards.challenge,
        cardholder_name: 'x'.repeat(size),
      });
      expect(answer.status).toBe(413);
      expect(answer.html.length).toBeLessThan(1_000);
      expect(JSON.parse(answer.html)).toMatchObject({
        code: 413,
        content: 'The request body is larger than 16 KB.',
      });
    }
    await expectUnpaid(merchant.auth, payment.id);
    const real = await submitWith(payment.url, { card_number: testCards.challenge });
    expect(real.status, real.html).toBe(200);
    expect(real.html).toContain('Complete authentication');
  });

  it('a payment link page is bounded the same way', async () => {
    const created = await api('POST', '/v1/payment-links/', {
      auth: merchant.auth,
      body: { description: 'Bounded link', amount: '5.00' },
    });
    expect(created.status, created.text).toBe(201);
    const url = created.json.data.link as string;
    const answer = await submitWith(url, { cardholder_name: 'L'.repeat(300) });
    expect(answer.status).toBe(400);
    expect(alertOf(answer.html)).toBe('The cardholder name takes at most 200 characters.');
    const paid = await submitCard(url);
    expect(paid.status, paid.html).toBe(200);
  });
});

describe('the 3-D Secure challenge form', () => {
  const merchant = suiteMerchant('checkout-challenge-forms');

  it('an over-long CSRF token is 403, an over-long outcome 400; neither answers, the real answer still pays', async () => {
    const payment = await createPayment(merchant.auth);
    const challenged = await submitWith(payment.url, { card_number: testCards.challenge });
    expect(challenged.status, challenged.html).toBe(200);
    const csrf = csrfOf(challenged.html);
    const challengeUrl = `${payment.url}/challenge`;
    for (const [fields, status] of [
      [{ csrf_token: csrf, outcome: `pass${'s'.repeat(5000)}` }, 400],
      [{ csrf_token: `${csrf}${'c'.repeat(5000)}`, outcome: 'pass' }, 403],
    ] as const) {
      const answer = await postForm(challengeUrl, fields);
      expect(answer.status).toBe(status);
      expect(answer.html).toContain('Complete authentication');
      expect(answer.html).not.toMatch(/sssss|ccccc/);
    }
    const tooLarge = await postForm(challengeUrl, { csrf_token: csrf, outcome: 'p'.repeat(20_000) });
    expect(tooLarge.status).toBe(413);
    const passed = await postForm(challengeUrl, { csrf_token: csrf, outcome: 'pass' });
    expect(passed.status, passed.html).toBe(303);
  });
});
