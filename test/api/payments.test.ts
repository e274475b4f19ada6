/**
 * Payments through the local gateway and the hosted checkout, over plain HTTP: create (202 with the
 * checkout URL), the single view, the checkout page and every way a submit ends (approval,
 * declines, card checks, CSRF, 3-D Secure, lock, expiry, single use, a racing double submit),
 * customers by e-mail, the payments list (every charge, a bare array, newest first) and
 * Idempotency-Key. There is no public events endpoint, so the events a payment records are not
 * checked here.
 */
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeDeps } from '../../shared/db/deps.ts';
import { errorFields, expect400, expectEnvelope, expectMessage, expectReplayed } from '../support/answers.ts';
import {
  type Charge,
  cardFields,
  createPayment,
  csrfOf,
  expectUnpaid,
  goodYear,
  listCharges,
  openPage,
  type PageAnswer,
  paymentBody,
  paymentPath,
  paymentsPath,
  paymentView,
  payThroughCheckout,
  postForm,
  submitCard,
  testCards,
} from '../support/checkout.ts';
import { clockMoved } from '../support/clock.ts';
import { hostileRequest } from '../support/hostile.ts';
import { concurrently, statusCounts } from '../support/race.ts';
import { chargeListViewKeys, isoTime, randomAlnum } from '../support/shapes.ts';
import {
  api,
  apiKey,
  apiUrl,
  basic,
  newAccount,
  newMerchant,
  suiteMerchant,
  type TestAccount,
  useLocalEnvironment,
} from '../support/stack.ts';
import { setCheckout } from '../support/table.ts';

/** The payment's single view: its documented fields plus `charge_id` (null until paid). */
const singleViewKeys = [
  'amount',
  'card_brand',
  'card_last4',
  'charge_id',
  'created_at',
  'currency',
  'customer_email',
  'description',
  'id',
  'items',
  'metadata',
  'payment_method',
  'return_url',
  'status',
  'test',
  'updated_at',
];

const declineTexts = {
  generic: 'Your card was declined. Try another card.',
  insufficient: 'Your card has insufficient funds. Try another card.',
  expired: 'Your card has expired. Try another card.',
  cvc: 'The security code is incorrect. Check it and try again.',
  authentication: 'The authentication with your bank failed. Try again or use another card.',
};

/** Payments and checkout sessions stored for an account, read straight from the table. */
async function storedPaymentItems(account: TestAccount): Promise<number> {
  useLocalEnvironment();
  const deps = makeDeps();
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const result = await deps.db.send(
      new ScanCommand({
        TableName: deps.table,
        FilterExpression: 'developer_id = :id AND (entity = :payment OR entity = :checkout)',
        ExpressionAttributeValues: {
          ':id': account.developerId,
          ':payment': 'payment',
          ':checkout': 'checkout',
        },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    count += result.Items?.length ?? 0;
    start = result.LastEvaluatedKey;
  } while (start);
  return count;
}

/**
 * POSTs a create `body` for a fresh account; asserts a 400 envelope and that nothing was stored or
 * charged; answers the 400 for the test's own checks.
 */
async function refusedCreate(label: string, body: unknown) {
  const { account: fresh, auth: freshAuth } = await newMerchant(label);
  const response = await api('POST', paymentsPath, { auth: freshAuth, body });
  expect400(response);
  expect(await listCharges(freshAuth)).toEqual([]);
  expect(await storedPaymentItems(fresh)).toBe(0);
  return response;
}

/** A Content-Security-Policy as directive name → its sources. */
function directivesOf(csp: string | null): Map<string, string> {
  const parts = (csp ?? '').split(';').map((part) => part.trim());
  return new Map(
    parts.filter(Boolean).map((part) => {
      const [name = '', ...sources] = part.split(/\s+/);
      return [name, sources.join(' ')];
    }),
  );
}

/** The CSP directives every checkout page sends, and no others. */
const pageDirectives = ['default-src', 'style-src', 'img-src', 'form-action', 'frame-ancestors', 'base-uri'];

/** Asserts a checkout page answer: status, HTML, and that no card number leaked into it. */
function expectPage(answer: PageAnswer, status: number, ...texts: string[]) {
  expect(answer.status, answer.html).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
  for (const text of texts) expect(answer.html).toContain(text);
  for (const number of Object.values(testCards)) expect(answer.html).not.toContain(number);
}

describe('POST /v1/payments/', () => {
  const shop = suiteMerchant('pay-create');

  it('answers 202 with a pay_ id and the checkout URL, and nothing is charged yet', async () => {
    const response = await api('POST', paymentsPath, { auth: shop.auth, body: paymentBody() });
    expectEnvelope(response, 202, {
      title: 'Payment created',
      content: 'Send the cardholder to the redirect URL to pay.',
      type: 'success',
      data: {
        id_payment: expect.stringMatching(/^pay_[A-Za-z0-9]+$/),
        redirect: expect.stringMatching(/\/checkout\/[A-Za-z0-9]{40}$/),
      },
    });
    expect(response.json.data.redirect.startsWith(`${apiUrl}/checkout/`)).toBe(true);
    expect((await openPage(response.json.data.redirect)).status).toBe(200);
    expect(await listCharges(shop.auth)).toEqual([]);

    const second = await api('POST', paymentsPath, { auth: shop.auth, body: paymentBody() });
    expect(second.status).toBe(202);
    expect(second.json.data.id_payment).not.toBe(response.json.data.id_payment);
    expect(second.json.data.redirect).not.toBe(response.json.data.redirect);
  });

  /** A form-encoded create body; `encodeBrackets` says how the item keys are written. */
  const formBody = (encodeBrackets: boolean) => {
    const fields = new URLSearchParams({
      amount: '12.50',
      description: 'Form order [gift]',
      currency: 'eur',
      'items[0]': 'Tea',
      'items[1]': 'Cake',
      return_url: 'http://localhost:8080/done',
    }).toString();
    // URLSearchParams (like browsers, qs, Python's urlencode) writes `[` and `]` as %5B and %5D.
    return encodeBrackets ? fields : fields.replace(/%5B/g, '[').replace(/%5D/g, ']');
  };

  it.each([
    ['literal brackets (items[0]=…)', false],
    ['percent-encoded brackets, as URLSearchParams and form libraries send them (items%5B0%5D=…)', true],
  ])('takes a form-encoded body with Basic credentials, items as bracketed keys: %s', async (_, encoded) => {
    const response = await api('POST', paymentsPath, {
      auth: basic(shop.account.testKey),
      rawBody: formBody(encoded),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status, response.text).toBe(202);
    const view = await paymentView(shop.auth, response.json.data.id_payment);
    expect(view).toMatchObject({
      amount: '12.50',
      currency: 'EUR',
      description: 'Form order [gift]',
      items: ['Tea', 'Cake'],
      return_url: 'http://localhost:8080/done',
    });
  });

  it.each([
    ['amount', 'amount'],
    ['description', 'description'],
    ['currency', 'currency'],
    ['items', 'items'],
    ['return_url', 'return_url'],
  ])('a body without %s is 400 naming the field, and stores nothing', async (_, field) => {
    const body = paymentBody();
    delete body[field];
    expect(errorFields(await refusedCreate('pay-missing', body))).toContain(field);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['items that are not an array', { items: 'Blue mug' }, 'items'],
    ['an item that is not text', { items: ['Mug', 7] }, 'items.1'],
    ['an unsupported currency', { currency: 'XYZ' }, 'currency'],
    ['an amount that is not a number', { amount: 'ten' }, 'amount'],
    ['a negative amount', { amount: '-5.00' }, 'amount'],
    ['a zero amount', { amount: '0' }, 'amount'],
    ['a return_url that is not absolute', { return_url: '/shop/return' }, 'return_url'],
    ['a return_url of another scheme', { return_url: 'ftp://shop.example.com/return' }, 'return_url'],
    ['an unknown field', { coupon: 'FREE' }, 'coupon'],
  ])('%s is 400 naming the field, and stores nothing', async (_, overrides, field) => {
    expect(errorFields(await refusedCreate('pay-invalid', paymentBody(overrides)))).toContain(field);
  });

  /** What the 400 says of an amount with more decimals than its currency has (never rounded), or too small. */
  const tooPrecise = { type: 'danger', title: 'Price validation error' };
  const tooSmall = { title: 'Amount too small', content: expect.stringContaining('1.00 USD') };

  it.each([
    ['more decimals than its currency allows: USD with 3 decimals', 'USD', '10.001', tooPrecise],
    ['more decimals than its currency allows: JPY with decimals', 'JPY', '1000.5', tooPrecise],
    ['more decimals than its currency allows: KWD with 4 decimals', 'KWD', '1.0001', tooPrecise],
    ['below the USD 1.00 equivalent: 0.99 USD', 'USD', '0.99', tooSmall],
    ['below the USD 1.00 equivalent: 153 JPY (0.9987 USD)', 'JPY', '153', tooSmall],
    ['below the USD 1.00 equivalent: 0.85 EUR (0.988 USD)', 'EUR', '0.85', tooSmall],
  ])('an amount with %s is 400 saying so, and stores nothing', async (_, currency, amount, says) => {
    const response = await refusedCreate('pay-amount', paymentBody({ currency, amount }));
    expect(response.json).toMatchObject(says);
  });

  it.each([
    ['1.00 USD', 'USD', '1.00', '1.00'],
    ['154 JPY', 'JPY', '154', '154'],
    ['0.87 EUR', 'EUR', '0.87', '0.87'],
    ['1.5 KWD', 'kwd', '1.5', '1.500'],
  ])(
    'an amount at or above the minimum (%s) is accepted at the currency precision',
    async (_, currency, amount, shown) => {
      const created = await createPayment(shop.auth, { currency, amount });
      const view = await paymentView(shop.auth, created.id);
      expect(view.amount).toBe(shown);
      expect(view.currency).toBe(currency.toUpperCase());
    },
  );

  it('return_url: http is 400 with a live key, https is fine live, http is fine in test mode', async () => {
    const fresh = await newAccount('pay-return-url');
    const live = apiKey(fresh.liveKey);
    const refused = await api('POST', paymentsPath, {
      auth: live,
      body: paymentBody({ return_url: 'http://shop.example.com/return' }),
    });
    expect400(refused);
    expect(refused.json.data.errors[0].field).toBe('return_url');
    expect(refused.json.content).toContain('https');
    expect(await storedPaymentItems(fresh)).toBe(0);

    const liveHttps = await createPayment(live, { return_url: 'https://shop.example.com/return' });
    expect((await paymentView(live, liveHttps.id)).test).toBe(false);
    const testHttp = await createPayment(apiKey(fresh.testKey), { return_url: 'http://localhost:3000/back' });
    const view = await paymentView(apiKey(fresh.testKey), testHttp.id);
    expect(view.return_url).toBe('http://localhost:3000/back');
    expect(view.test).toBe(true);
    expect(await storedPaymentItems(fresh)).toBe(4);
  });

  it.each([
    ['user info', 'https://user:pw@evil.com/return'],
    ['an empty user info', 'https://@evil.com/return'],
    ['a user name that looks like the shop', 'https://shop.example.com@evil.com/return'],
    ['a ; in the host', 'https://evil.com;script-src/return'],
    ['a * in the host', 'https://*.example.com/return'],
    ['an = in the host', 'https://a=b.example.com/return'],
    ['an underscore in the host', 'https://shop_1.example.com/return'],
    ['a label ending in a hyphen', 'https://shop-.example.com/return'],
  ])('a return_url with %s is 400 naming return_url, and stores nothing', async (_, returnUrl) => {
    const fresh = await newAccount('pay-return-host');
    for (const key of [fresh.testKey, fresh.liveKey]) {
      const response = await api('POST', paymentsPath, {
        auth: apiKey(key),
        body: paymentBody({ return_url: returnUrl }),
      });
      expect400(response);
      expect(response.json.data.errors).toEqual([
        expect.objectContaining({ field: 'return_url', message: expect.stringContaining('return_url') }),
      ]);
      expect(response.json.content).toMatch(/host/);
    }
    expect(await storedPaymentItems(fresh)).toBe(0);
  });

  it('a return_url with a quote, in the host or anywhere, is 400: no URL has one as typed', async () => {
    const fresh = await newAccount('pay-return-quote');
    for (const returnUrl of ["https://evil.com'/return", 'https://shop.example.com/"return']) {
      const response = await api('POST', paymentsPath, {
        auth: apiKey(fresh.testKey),
        body: paymentBody({ return_url: returnUrl }),
      });
      expect400(response);
      expect(response.json.data.errors).toEqual([
        {
          field: 'return_url',
          message: expect.stringContaining('without spaces, quotes or control characters'),
        },
      ]);
    }
    expect(await storedPaymentItems(fresh)).toBe(0);
  });

  it.each([
    ['an IPv4 address', 'http://127.0.0.1:8080/back', 'http://127.0.0.1:8080'],
    ['an IPv6 address', 'https://[::1]:8443/back', 'https://[::1]:8443'],
    ['an internationalized name', 'https://münchen.example/zurück', 'https://xn--mnchen-3ya.example'],
    ['a name in capitals', 'https://Shop.Example.com/Done', 'https://shop.example.com'],
  ])(
    'a return_url with %s is accepted, and the page allows exactly its origin as form-action',
    async (_, returnUrl, origin) => {
      const created = await createPayment(shop.auth, { return_url: returnUrl });
      const page = await openPage(created.url);
      expect(page.status, page.html).toBe(200);
      expect(directivesOf(page.headers.get('content-security-policy')).get('form-action')).toBe(
        `'self' ${origin}`,
      );
    },
  );

  it('a body that is not an object, or no credentials, is refused and stores nothing', async () => {
    const { account: fresh, auth: freshAuth } = await newMerchant('pay-body');
    expect400(await api('POST', paymentsPath, { auth: freshAuth, body: [paymentBody()] }));
    expect400(
      await api('POST', paymentsPath, {
        auth: freshAuth,
        rawBody: '{"amount":',
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    expect((await api('POST', paymentsPath, { body: paymentBody() })).status).toBe(401);
    expect(await storedPaymentItems(fresh)).toBe(0);
  });
});

describe('GET /v1/payments/{id}', () => {
  let owner: TestAccount;
  let auth: string;
  beforeAll(async () => {
    owner = await newAccount('pay-get');
    auth = apiKey(owner.testKey);
  });

  it('answers the single view: pending with nulls before paying, completed with the card after', async () => {
    const before = Date.now();
    const created = await createPayment(auth, {
      amount: '25.5',
      description: 'Two mugs',
      items: ['Mug', 'Mug'],
      return_url: 'https://shop.example.com/return?order=7',
    });
    const pending = await paymentView(auth, created.id);
    expect(Object.keys(pending).sort()).toEqual(singleViewKeys);
    expect(pending).toEqual({
      id: created.id,
      amount: '25.50',
      currency: 'USD',
      description: 'Two mugs',
      status: 'pending',
      items: ['Mug', 'Mug'],
      customer_email: null,
      return_url: 'https://shop.example.com/return?order=7',
      payment_method: null,
      card_last4: null,
      card_brand: null,
      charge_id: null,
      created_at: expect.stringMatching(isoTime),
      updated_at: expect.stringMatching(isoTime),
      test: true,
      metadata: null,
    });
    expect(Date.parse(pending.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(pending.created_at)).toBeLessThanOrEqual(Date.now() + 1000);

    const paid = await submitCard(created.url, {
      email: 'Grace@Example.com',
      cardholder_name: 'Grace Hopper',
    });
    expect(paid.status, paid.html).toBe(303);
    expect(paid.location).toBe(`https://shop.example.com/return?order=7&id_payment=${created.id}`);

    const completed = await paymentView(auth, created.id);
    expect(Object.keys(completed).sort()).toEqual(singleViewKeys);
    // Only what paying fills in changes (id, amount, created_at, test … stay as they were).
    expect(completed).toEqual({
      ...pending,
      status: 'completed',
      customer_email: 'grace@example.com',
      payment_method: 'card',
      card_last4: '4242',
      card_brand: 'visa',
      charge_id: expect.stringMatching(/^ch_/),
      updated_at: expect.stringMatching(isoTime),
    });
    expect(Date.parse(completed.updated_at)).toBeGreaterThanOrEqual(Date.parse(pending.updated_at));
    const [charge] = await listCharges(auth);
    expect(charge?.id).toBe(completed.charge_id);
    expect(charge?.payment_id).toBe(created.id);
  });

  it.each([
    ['an unknown pay_ id', () => `pay_${randomAlnum(24)}`],
    ['a malformed id', () => 'not-a-payment'],
  ])('%s is 404: message envelope titled "Payments not found", type danger', async (_, id) => {
    const response = await api('GET', paymentPath(id()), { auth });
    expectEnvelope(response, 404, { title: 'Payments not found', type: 'danger' });
  });

  it("another account's payment is 404, and test and live payments are invisible to each other", async () => {
    const other = await newAccount('pay-get-other');
    const created = await createPayment(auth);
    for (const response of [
      await api('GET', paymentPath(created.id), { auth: apiKey(other.testKey) }),
      await api('GET', paymentPath(created.id), { auth: apiKey(owner.liveKey) }),
    ]) {
      expectMessage(response, 404, { title: 'Payments not found', type: 'danger' });
    }
    const live = await createPayment(apiKey(owner.liveKey));
    expect((await api('GET', paymentPath(live.id), { auth })).status).toBe(404);
    expect((await paymentView(apiKey(owner.liveKey), live.id)).test).toBe(false);
    expect((await paymentView(auth, created.id)).id).toBe(created.id);
  });
});

describe('the checkout page', () => {
  let auth: string;
  beforeAll(async () => {
    ({ auth } = await newMerchant('checkout-page'));
  });

  it('shows what is paid and to whom, with a labelled form and a Pay button', async () => {
    const created = await createPayment(auth, {
      amount: '10.00',
      currency: 'usd',
      description: 'Mugs & <cups>',
      items: ['Blue mug', 'Gift wrap'],
    });
    const page = await openPage(created.url);
    expectPage(page, 200, 'Test checkout-page', '10.00', 'USD', 'Blue mug', 'Gift wrap');
    expect(page.html).toContain('Mugs &amp; &lt;cups&gt;');
    expect(page.html).not.toContain('<cups>');
    expect(page.html).toContain(`<form method="post" action="${created.url}"`);
    expect(csrfOf(page.html)).toMatch(/^[A-Za-z0-9]+$/);
    for (const [id, label] of [
      ['email', 'Email'],
      ['cardholder_name', 'Cardholder name'],
      ['card_number', 'Card number'],
      ['exp_month', 'Expiration month'],
      ['exp_year', 'Expiration year'],
      ['cvc', 'Security code'],
    ]) {
      expect(page.html).toContain(`<label for="${id}">${label}</label>`);
      expect(page.html).toMatch(new RegExp(`<input id="${id}" name="${id}"`));
    }
    expect(page.html).toMatch(/<button type="submit">Pay<\/button>/);
  });

  it('sends a strict CSP, refuses framing and is never cached', async () => {
    const created = await createPayment(auth);
    const page = await openPage(created.url);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it("builds the CSP's form-action from the return_url's parsed origin: a stored URL adds no directive", async () => {
    const created = await createPayment(auth);
    const sent = directivesOf((await openPage(created.url)).headers.get('content-security-policy'));
    expect([...sent.keys()]).toEqual(pageDirectives);
    expect(sent.get('form-action')).toBe("'self' https://shop.example.com");

    // A session stored before return_url was checked this strictly (or written by other means).
    await setCheckout(created.token, { return_url: "https://evil.com;script-src/'unsafe-inline'" });
    const page = await openPage(created.url);
    expect(page.status, page.html).toBe(200);
    const directives = directivesOf(page.headers.get('content-security-policy'));
    expect([...directives.keys()]).toEqual(pageDirectives);
    expect(directives.get('form-action')).toBe("'self'");
  });

  it('GET of the challenge address shows the page, not JSON: the pending challenge, else the pay form', async () => {
    const created = await createPayment(auth);
    const before = await openPage(`${created.url}/challenge`);
    expectPage(before, 200, 'Card number');
    expect(before.html).toContain(`<form method="post" action="${created.url}"`);

    const challenge = await submitCard(created.url, { card_number: testCards.challenge });
    expectPage(challenge, 200, 'Complete authentication');
    const reopened = await openPage(`${created.url}/challenge`);
    expectPage(reopened, 200, 'Complete authentication', 'Fail authentication');
    expect(reopened.html).toContain(`<form method="post" action="${created.url}/challenge">`);
    expect(reopened.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    const passed = await postForm(`${created.url}/challenge`, {
      csrf_token: csrfOf(reopened.html),
      outcome: 'pass',
    });
    expect(passed.status, passed.html).toBe(303);
    expectPage(await openPage(`${created.url}/challenge`), 200, 'Payment complete');
    expectPage(await openPage(`${apiUrl}/checkout/${randomAlnum(40)}/challenge`), 404, 'Checkout not found');
  });

  it('shows a JPY amount without decimals', async () => {
    const created = await createPayment(auth, { currency: 'JPY', amount: 1500 });
    const page = await openPage(created.url);
    expectPage(page, 200, '1,500 JPY');
    expect(page.html).not.toContain('1,500.00');
  });

  it('an unknown or malformed token is 404 to GET and POST', async () => {
    for (const token of [randomAlnum(40), 'short', `${randomAlnum(40)}x`]) {
      const url = `${apiUrl}/checkout/${token}`;
      expectPage(await openPage(url), 404);
      expectPage(await postForm(url, { csrf_token: 'x', ...cardFields() }), 404);
    }
  });
});

describe('submitting the checkout', () => {
  let auth: string;
  beforeAll(async () => {
    ({ auth } = await newMerchant('checkout-submit'));
  });

  it('an approved card: 303 to return_url with id_payment, and one charge in the list view', async () => {
    const { auth: freshAuth } = await newMerchant('checkout-approved');
    const created = await createPayment(freshAuth);
    const paid = await submitCard(created.url);
    expect(paid.status, paid.html).toBe(303);
    expect(paid.location).toBe(`https://shop.example.com/return?order=1001&id_payment=${created.id}`);
    expect(paid.headers.get('cache-control')).toBe('no-store');
    // An empty redirect claims no JSON body.
    expect(paid.headers.get('content-type')).toBeNull();
    expect(paid.html).toBe('');

    const view = await paymentView(freshAuth, created.id);
    for (const path of [paymentsPath, '/v1/payments/internal']) {
      const charges = await listCharges(freshAuth, '', path);
      expect(charges).toHaveLength(1);
      const charge = charges[0] as Charge;
      expect(Object.keys(charge).sort()).toEqual(chargeListViewKeys);
      expect(charge).toEqual({
        id: view.charge_id,
        payment_id: created.id,
        subscription_id: null,
        payment_link_id: null,
        amount_refunded: 0,
        product: null,
        customer: expect.any(String),
        amount: 10,
        fee: 0.59,
        net: 9.41,
        currency: 'usd',
        description: 'Order 1001',
        statement_description: expect.any(String),
        status: 'succeeded',
        capture: true,
        created_on: expect.stringMatching(isoTime),
        refund: null,
        captured: null,
        test: true,
        card_last4: '4242',
        card_exp_month: '12',
        card_exp_year: goodYear,
        card_country: 'US',
        card_brand: 'visa',
        exchange_usd_to_payout: 1,
        exchange_original_payout_to_usd: 1,
        exchange_usd_to_local: 1,
        exchange_original_local_to_usd: 1,
        currency_local: 'usd',
        net_currency: 'usd',
      });
      expect(charge.id).toMatch(/^ch_/);
    }
    // The page now says it is paid.
    expectPage(await openPage(created.url), 200, 'Payment complete');
  });

  it('fee (2.9% + USD 0.30 converted, rounded once) and net in another currency: 1000 JPY pays a fee of 75', async () => {
    const { auth: freshAuth } = await newMerchant('checkout-jpy');
    await payThroughCheckout(freshAuth, { payment: { currency: 'JPY', amount: '1000' } });
    const [charge] = await listCharges(freshAuth);
    expect(charge).toMatchObject({ amount: 1000, fee: 75, net: 925, currency: 'jpy', currency_local: 'jpy' });
  });

  it.each([
    ['4000 0000 0000 0002 (generic decline)', testCards.genericDecline, declineTexts.generic],
    ['4000 0000 0000 9995 (insufficient funds)', testCards.insufficientFunds, declineTexts.insufficient],
    ['4000 0000 0000 0069 (expired card)', testCards.expiredCard, declineTexts.expired],
    ['4000 0000 0000 0127 (incorrect CVC)', testCards.incorrectCvc, declineTexts.cvc],
  ])('%s: 402 page with the reason, the payment stays pending', async (_, number, reason) => {
    const created = await createPayment(auth);
    const declined = await submitCard(created.url, { card_number: number, cardholder_name: 'Kept Name' });
    expectPage(declined, 402, reason);
    expect(declined.location).toBeNull();
    // The form comes back, keeping the name but never the card.
    expect(declined.html).toContain('value="Kept Name"');
    expect(csrfOf(declined.html)).toMatch(/^[A-Za-z0-9]+$/);
    await expectUnpaid(auth, created.id);
  });

  it('a card spaced as printed is accepted', async () => {
    const created = await createPayment(auth);
    const paid = await submitCard(created.url, { card_number: '4242 4242 4242 4242', exp_month: '03' });
    expect(paid.status, paid.html).toBe(303);
  });

  it.each([
    ['a number failing Luhn', { card_number: '4242424242424241' }, 'Enter a valid card number.'],
    [
      'a past expiry',
      { exp_month: '1', exp_year: String(new Date().getUTCFullYear() - 1) },
      'The card has expired.',
    ],
    ['a 2-digit CVC', { cvc: '12' }, 'Enter the 3 or 4 digit security code.'],
    ['a month of 13', { exp_month: '13' }, 'Enter the expiration month (1 to 12).'],
    ['no cardholder name', { cardholder_name: '' }, 'Enter the cardholder name.'],
    ['no e-mail', { email: '' }, 'Enter a valid email address.'],
    ['an invalid e-mail', { email: 'buyer@' }, 'Enter a valid email address.'],
  ])('%s: 400 page saying why; the session stays payable', async (_, fields, reason) => {
    const created = await createPayment(auth);
    const refused = await submitCard(created.url, fields);
    expectPage(refused, 400, reason);
    await expectUnpaid(auth, created.id);
    // A validation error is not a decline: even several of them leave the session open.
    for (let i = 0; i < 5; i++) expect((await submitCard(created.url, fields)).status).toBe(400);
    expect((await submitCard(created.url)).status).toBe(303);
  });

  it('a wrong or missing CSRF token is 403 and charges nothing', async () => {
    const created = await createPayment(auth);
    expectPage(await postForm(created.url, { csrf_token: randomAlnum(43), ...cardFields() }), 403);
    expectPage(await postForm(created.url, cardFields()), 403);
    await expectUnpaid(auth, created.id);
    expect((await submitCard(created.url)).status).toBe(303);
  });

  it('a 3-D Secure challenge card: 200 challenge page; passing it pays (303)', async () => {
    const { auth: freshAuth } = await newMerchant('checkout-3ds');
    const created = await createPayment(freshAuth);
    const challenge = await submitCard(created.url, { card_number: testCards.challenge });
    expectPage(challenge, 200, 'Complete authentication', 'Fail authentication');
    expect(challenge.html).toMatch(
      /<button type="submit" name="outcome" value="pass">Complete authentication<\/button>/,
    );
    expect(challenge.html).toMatch(
      /<button type="submit" name="outcome" value="fail"[^>]*>Fail authentication<\/button>/,
    );
    expect(challenge.html).toContain(`action="${created.url}/challenge"`);
    await expectUnpaid(freshAuth, created.id);
    // Reloading the page shows the pending challenge again.
    expectPage(await openPage(created.url), 200, 'Complete authentication');

    const csrf = csrfOf(challenge.html);
    expectPage(
      await postForm(`${created.url}/challenge`, { csrf_token: randomAlnum(43), outcome: 'pass' }),
      403,
    );
    const passed = await postForm(`${created.url}/challenge`, { csrf_token: csrf, outcome: 'pass' });
    expect(passed.status, passed.html).toBe(303);
    expect(passed.location).toBe(`https://shop.example.com/return?order=1001&id_payment=${created.id}`);
    const view = await paymentView(freshAuth, created.id);
    expect(view).toMatchObject({ status: 'completed', card_last4: '3220', card_brand: 'visa' });
    const charges = await listCharges(freshAuth);
    expect(charges.map((charge) => charge.id)).toEqual([view.charge_id]);
  });

  it('failing the challenge is 402 with the reason; the payment stays pending and can be paid again', async () => {
    const created = await createPayment(auth);
    const challenge = await submitCard(created.url, { card_number: testCards.challenge });
    expect(challenge.status).toBe(200);
    const failed = await postForm(`${created.url}/challenge`, {
      csrf_token: csrfOf(challenge.html),
      outcome: 'fail',
    });
    expectPage(failed, 402, declineTexts.authentication);
    await expectUnpaid(auth, created.id);
    // No challenge is pending any more.
    const again = await postForm(`${created.url}/challenge`, {
      csrf_token: csrfOf(failed.html),
      outcome: 'pass',
    });
    expect(again.status).toBe(409);
    await expectUnpaid(auth, created.id);
    expect((await submitCard(created.url)).status).toBe(303);
  });

  it('each of 5 declines re-renders the form with 402; then the session is locked (423)', async () => {
    const created = await createPayment(auth);
    const csrf = csrfOf((await openPage(created.url)).html);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const declined = await postForm(created.url, {
        csrf_token: csrf,
        ...cardFields({ card_number: testCards.genericDecline }),
      });
      statuses.push(declined.status);
      if (declined.status === 402) expect(declined.html).toContain(declineTexts.generic);
    }
    // A decline re-renders the form with the reason (402); the lock applies after the fifth.
    expect(statuses, 'answers to the five declined submits').toEqual([402, 402, 402, 402, 402]);
    expectPage(await postForm(created.url, { csrf_token: csrf, ...cardFields() }), 423, 'Checkout locked');
    expectPage(await openPage(created.url), 423, 'Checkout locked');
    await expectUnpaid(auth, created.id);
  });

  it('after 5 declines of any kind the next submit and GET are 423, even with a good card', async () => {
    const created = await createPayment(auth);
    const csrf = csrfOf((await openPage(created.url)).html);
    const cards = [
      testCards.genericDecline,
      testCards.insufficientFunds,
      testCards.expiredCard,
      testCards.incorrectCvc,
    ];
    for (const number of cards) {
      const answer = await postForm(created.url, {
        csrf_token: csrf,
        ...cardFields({ card_number: number }),
      });
      expect(answer.status, answer.html).toBe(402);
    }
    // The fifth decline is a failed 3-D Secure challenge.
    const challenge = await postForm(created.url, {
      csrf_token: csrf,
      ...cardFields({ card_number: testCards.challenge }),
    });
    expect(challenge.status).toBe(200);
    const fifth = await postForm(`${created.url}/challenge`, { csrf_token: csrf, outcome: 'fail' });
    expect([402, 423]).toContain(fifth.status);
    expectPage(await postForm(created.url, { csrf_token: csrf, ...cardFields() }), 423, 'Checkout locked');
    expectPage(await openPage(created.url), 423, 'Checkout locked');
    await expectUnpaid(auth, created.id);
  });

  it('paying twice: the second submit is 409 and charges nothing more', async () => {
    const { auth: freshAuth } = await newMerchant('checkout-twice');
    const created = await createPayment(freshAuth);
    const csrf = csrfOf((await openPage(created.url)).html);
    const first = await postForm(created.url, { csrf_token: csrf, ...cardFields() });
    expect(first.status, first.html).toBe(303);
    const second = await postForm(created.url, {
      csrf_token: csrf,
      ...cardFields({ card_number: '5555555555554444', email: 'other@example.com' }),
    });
    expectPage(second, 409, 'Already paid');
    const charges = await listCharges(freshAuth);
    expect(charges).toHaveLength(1);
    expect(charges[0]?.card_last4).toBe('4242');
    const view = await paymentView(freshAuth, created.id);
    expect(view).toMatchObject({ customer_email: 'buyer@example.com', card_last4: '4242' });
  });

  it('an expired session (24 h) is 410 to GET and POST and charges nothing', async () => {
    const created = await createPayment(auth);
    const csrf = csrfOf((await openPage(created.url)).html);
    await setCheckout(created.token, { expires_at_ms: Date.now() - 1000 });
    expectPage(await openPage(created.url), 410, 'Checkout expired');
    expectPage(await postForm(created.url, { csrf_token: csrf, ...cardFields() }), 410);
    expectPage(await postForm(`${created.url}/challenge`, { csrf_token: csrf, outcome: 'pass' }), 410);
    await expectUnpaid(auth, created.id);
  });
});

describe('URLs on the configured base URL, whatever Host and X-Forwarded-Proto say', () => {
  let auth: string;
  beforeAll(async () => {
    auth = apiKey((await newAccount('base-url')).testKey);
  });

  it('the payment redirect, the pay form, its re-render and the challenge form', async () => {
    const created = await hostileRequest('POST', paymentsPath, {
      headers: { Authorization: auth },
      body: paymentBody(),
    });
    expect(created.status, created.text).toBe(202);
    const redirect = created.json.data.redirect as string;
    const path = new URL(redirect).pathname;
    expect(redirect).toBe(`${apiUrl}${path}`);
    expect(path).toMatch(/^\/checkout\/[A-Za-z0-9]{40}$/);

    const page = await hostileRequest('GET', path, { headers: { Accept: 'text/html' } });
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain(`<form method="post" action="${redirect}"`);
    const csrf = csrfOf(page.text);
    const refused = await hostileRequest('POST', path, {
      form: { csrf_token: csrf, ...cardFields({ cvc: '12' }) },
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.text).toContain(`<form method="post" action="${redirect}"`);
    const challenge = await hostileRequest('POST', path, {
      form: { csrf_token: csrf, ...cardFields({ card_number: testCards.challenge }) },
    });
    expect(challenge.status, challenge.text).toBe(200);
    expect(challenge.text).toContain(`<form method="post" action="${redirect}/challenge">`);
    const reopened = await hostileRequest('GET', `${path}/challenge`);
    expect(reopened.text).toContain(`<form method="post" action="${redirect}/challenge">`);

    for (const answer of [created, page, refused, challenge, reopened]) {
      expect(answer.text).not.toContain('evil.example');
      expect(answer.text).not.toContain('javascript:');
    }
  });
});

describe('a racing double submit', () => {
  it('10 concurrent approved submits of one session: one 303, nine 409, one charge', async () => {
    const { auth } = await newMerchant('checkout-race');
    const created = await createPayment(auth);
    const csrf = csrfOf((await openPage(created.url)).html);
    const answers = await concurrently(10, (i) =>
      postForm(created.url, { csrf_token: csrf, ...cardFields({ email: `racer${i}@example.com` }) }),
    );
    expect(statusCounts(answers)).toEqual({ 303: 1, 409: 9 });
    const charges = await listCharges(auth);
    expect(charges).toHaveLength(1);
    const view = await paymentView(auth, created.id);
    expect(view.status).toBe('completed');
    expect(charges[0]?.id).toBe(view.charge_id);
  });
});

describe('customers at the checkout', () => {
  it('are created or reused by e-mail, whatever its case', async () => {
    const { auth } = await newMerchant('checkout-customers');
    await payThroughCheckout(auth, { card: { email: 'Repeat.Buyer@Example.com' } });
    await payThroughCheckout(auth, { card: { email: 'repeat.buyer@example.COM' } });
    await payThroughCheckout(auth, { card: { email: 'someone.else@example.com' } });
    const charges = await listCharges(auth);
    expect(charges).toHaveLength(3);
    const [other, second, first] = charges;
    expect(first?.customer).toEqual(expect.any(String));
    expect(second?.customer).toBe(first?.customer);
    expect(other?.customer).toEqual(expect.any(String));
    expect(other?.customer).not.toBe(first?.customer);
  });
});

describe('the payments list: every charge of the account and mode, newest first', () => {
  let account: TestAccount;
  let auth: string;
  /** Charge ids oldest first, of 11.00, 12.00 and 13.00 USD. */
  const ids: string[] = [];
  beforeAll(async () => {
    account = await newAccount('pay-list');
    auth = apiKey(account.testKey);
    for (const amount of ['11.00', '12.00', '13.00']) {
      ids.push((await payThroughCheckout(auth, { payment: { amount } })).chargeId);
      await clockMoved();
    }
  });

  const idsOf = (charges: Charge[]) => charges.map((charge) => charge.id);

  it('is a bare array of the charges, newest first, the same at /v1/payments/internal', async () => {
    const newestFirst = [...ids].reverse();
    const charges = await listCharges(auth);
    expect(idsOf(charges)).toEqual(newestFirst);
    expect(charges.map((charge) => charge.amount)).toEqual([13, 12, 11]);
    expect(charges.map((charge) => charge.fee)).toEqual([0.68, 0.65, 0.62]);
    expect(charges.map((charge) => charge.net)).toEqual([12.32, 11.35, 10.38]);
    expect(idsOf(await listCharges(auth, '', '/v1/payments/internal'))).toEqual(newestFirst);
  });

  it('limit takes the newest; created_before pages back', async () => {
    const newestFirst = [...ids].reverse();
    expect(idsOf(await listCharges(auth, 'limit=1'))).toEqual([newestFirst[0]]);
    expect(idsOf(await listCharges(auth, 'limit=2'))).toEqual(newestFirst.slice(0, 2));
    expect(idsOf(await listCharges(auth, 'limit=1000'))).toEqual(newestFirst);
    expect(idsOf(await listCharges(auth, 'limit=5000'))).toEqual(newestFirst);

    const all = await listCharges(auth);
    const newestTime = all[0]?.created_on as string;
    const middleTime = all[1]?.created_on as string;
    const oldestTime = all[2]?.created_on as string;
    expect(idsOf(await listCharges(auth, `created_before=${encodeURIComponent(newestTime)}`))).toEqual(
      newestFirst.slice(1),
    );
    expect(
      idsOf(await listCharges(auth, `limit=1&created_before=${encodeURIComponent(newestTime)}`)),
    ).toEqual([newestFirst[1]]);
    expect(idsOf(await listCharges(auth, `created_before=${encodeURIComponent(middleTime)}`))).toEqual([
      newestFirst[2],
    ]);
    expect(await listCharges(auth, `created_before=${encodeURIComponent(oldestTime)}`)).toEqual([]);
    expect(idsOf(await listCharges(auth, 'created_before=2999-01-01T00:00:00Z'))).toEqual(newestFirst);
  });

  it('status=succeeded lists every charge; another status lists none', async () => {
    expect(idsOf(await listCharges(auth, 'status=succeeded'))).toEqual([...ids].reverse());
    expect(idsOf(await listCharges(auth, 'status=succeeded', '/v1/payments/internal'))).toEqual(
      [...ids].reverse(),
    );
    for (const status of ['pending', 'refunded', 'failed']) {
      expect(await listCharges(auth, `status=${status}`)).toEqual([]);
    }
  });

  it.each(['limit=abc', 'limit=0', 'limit=-1', 'limit=1.5', 'created_before=yesterday'])(
    '%s is 400',
    async (query) => {
      expect400(await api('GET', `${paymentsPath}?${query}`, { auth }));
    },
  );

  it('another account and the other mode see none of them', async () => {
    const other = await newAccount('pay-list-other');
    expect(await listCharges(apiKey(other.testKey))).toEqual([]);
    expect(await listCharges(apiKey(account.liveKey))).toEqual([]);
  });

  it('limit defaults to 100', { timeout: 180_000 }, async () => {
    const { auth: many } = await newMerchant('pay-list-100');
    const total = 101;
    let next = 0;
    const worker = async () => {
      while (next < total) {
        next += 1;
        const created = await createPayment(many);
        const paid = await submitCard(created.url);
        expect(paid.status, paid.html).toBe(303);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    const page = await listCharges(many);
    expect(page).toHaveLength(100);
    const everything = await listCharges(many, 'limit=1000');
    expect(everything).toHaveLength(total);
    expect(idsOf(page)).toEqual(idsOf(everything).slice(0, 100));
    const times = everything.map((charge) => Date.parse(charge.created_on as string));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const last = page[99]?.created_on as string;
    const rest = await listCharges(many, `created_before=${encodeURIComponent(last)}`);
    expect(idsOf(rest)).toEqual(
      idsOf(everything).filter((_, i) => Date.parse(everything[i]?.created_on as string) < Date.parse(last)),
    );
    expect(rest.length).toBeGreaterThanOrEqual(1);
  });
});

describe('Idempotency-Key on POST /v1/payments/', () => {
  const post = (auth: string, key: string, body: Record<string, unknown>) =>
    api('POST', paymentsPath, { auth, body, headers: { 'Idempotency-Key': key } });

  it('the same key and body replays the first answer: the same payment, marked replayed', async () => {
    const { account, auth } = await newMerchant('pay-idem');
    const key = `pay-${randomUUID()}`;
    const first = await post(auth, key, paymentBody());
    const second = await post(auth, key, paymentBody());
    expectReplayed(first, second, 202);
    expect(second.json.data.id_payment).toBe(first.json.data.id_payment);
    expect(await storedPaymentItems(account)).toBe(2);
  });

  it('the same key with another body is 409 and creates nothing', async () => {
    const { account, auth } = await newMerchant('pay-idem-409');
    const key = `pay-${randomUUID()}`;
    expect((await post(auth, key, paymentBody())).status).toBe(202);
    const conflict = await post(auth, key, paymentBody({ amount: '20.00' }));
    expectMessage(conflict, 409);
    expect(await storedPaymentItems(account)).toBe(2);
  });
});
