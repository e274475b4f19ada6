/**
 * The hosted checkout of a mode connected to Stripe, in real Chromium: cobro's page (no card field)
 * hands the payer to Stripe's Checkout page (the stack's stand-in of it), where the card is typed,
 * and back; for a payment, a subscription with a trial, a payment link, and a card replaced from the
 * customer portal. Test mode is connected here (live mode takes only https return URLs, and the
 * merchant's site is a small HTTP server started here); live mode goes the same way.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pageChecks } from '../support/axe.ts';
import { launchBrowser } from '../support/browser.ts';
import { createPayment, paymentView } from '../support/checkout.ts';
import { eventually } from '../support/eventually.ts';
import { api, apiKey, localInfo, newAccount, type TestAccount } from '../support/stack.ts';
import { connectStripe } from '../support/stripe.ts';

let browser: Browser;
let shop: { server: Server; origin: string };
let account: TestAccount;
let auth: string;
const contexts: BrowserContext[] = [];

function startShop(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Thanks</title><p>thanks</p>');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    );
  });
}

beforeAll(async () => {
  const outcomes = await Promise.allSettled([
    launchBrowser().then((value) => {
      browser = value;
    }),
    startShop().then((value) => {
      shop = value;
    }),
    newAccount('stripe-browser').then((value) => {
      account = value;
    }),
  ]);
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
  await connectStripe(account, 'test');
  auth = apiKey(account.testKey);
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await browser?.close();
  if (shop) {
    shop.server.closeAllConnections();
    await new Promise((resolve) => shop.server.close(resolve));
  }
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  context.setDefaultTimeout(15_000);
  return context.newPage();
}

/** On Stripe's (stood-in) page: the payer's details and a card, then its button. */
async function payOnStripe(page: Page, button: 'Pay' | 'Save card', card = '4242 4242 4242 4242') {
  expect(new URL(page.url()).origin).toBe(new URL(localInfo.stripe_url ?? '').origin);
  const email = page.getByLabel('Email');
  if (await email.isEditable()) await email.fill('ada@example.com');
  await page.getByLabel('Cardholder name').fill('Ada Lovelace');
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: button, exact: true }).click();
}

describe("a mode connected to Stripe, in a browser: cobro's page, Stripe's page, and back", () => {
  it("a payment: no card field on cobro's page, the card typed on Stripe's, then the shop with id_payment", async () => {
    const payment = await createPayment(auth, { return_url: `${shop.origin}/return?order=7` });
    const page = await newPage();
    await page.goto(payment.url);
    expect(await page.getByLabel('Card number').count()).toBe(0);
    await expect
      .poll(() => page.getByText("You enter your card on Stripe's secure page next").count())
      .toBe(1);
    await pageChecks(page, { widths: [1280, 390] });
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await payOnStripe(page, 'Pay');
    await page.waitForURL((url) => url.origin === shop.origin);
    const landed = new URL(page.url());
    expect(landed.pathname).toBe('/return');
    expect(landed.searchParams.get('id_payment')).toBe(payment.id);
    const view = await paymentView(auth, payment.id);
    expect(view).toMatchObject({ status: 'completed', card_last4: '4242' });
  });

  it("leaving Stripe's page unpaid (Back) shows the page to continue, which goes back to it", async () => {
    const payment = await createPayment(auth, { return_url: `${shop.origin}/return` });
    const page = await newPage();
    await page.goto(payment.url);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    const stripePage = page.url();
    await page.getByRole('link', { name: 'Back' }).click();
    await page.waitForURL(payment.url);
    await expect.poll(() => page.getByRole('button', { name: 'Continue to payment' }).count()).toBe(1);
    await pageChecks(page, { widths: [1280] });
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL(stripePage);
    await payOnStripe(page, 'Pay');
    await page.waitForURL((url) => url.origin === shop.origin);
    expect((await paymentView(auth, payment.id)).status).toBe('completed');
  });

  it('a subscription with a trial: "Start trial", the card saved on Stripe\'s page, nothing charged', async () => {
    const plan = await api('POST', '/v1/plans/', {
      auth,
      body: {
        name: 'Beans',
        amount: '9.90',
        currency: 'USD',
        interval: 'month',
        interval_count: 1,
        trial_period_days: 14,
      },
    });
    const started = await api('POST', '/v1/subscriptions', {
      auth,
      body: { plan_id: plan.json.data.id, return_url: `${shop.origin}/welcome` },
    });
    expect(started.status, started.text).toBe(201);
    const page = await newPage();
    await page.goto(started.json.data.checkout_url);
    await page.getByRole('button', { name: 'Start trial', exact: true }).click();
    await payOnStripe(page, 'Save card');
    await page.waitForURL((url) => url.origin === shop.origin);
    const subscription = await api('GET', `/v1/subscriptions/${started.json.data.subscription_id}`, { auth });
    expect(subscription.json.status).toBe('trialing');
    const charges = await api('GET', '/v1/payments/?limit=1000', { auth });
    expect(
      (charges.json as unknown as { subscription_id: string }[]).filter(
        (charge) => charge.subscription_id === started.json.data.subscription_id,
      ),
    ).toEqual([]);
  });

  it("a payment link: paid on Stripe's page, its receipt on cobro's", async () => {
    const created = await api('POST', '/v1/payment-links/', {
      auth,
      body: { amount: '15.00', currency: 'USD', description: 'Workshop seat' },
    });
    expect(created.status, created.text).toBe(201);
    const page = await newPage();
    await page.goto(created.json.data.link);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await payOnStripe(page, 'Pay');
    await page.waitForURL((url) => url.pathname.endsWith('/return'));
    await expect.poll(() => page.getByRole('heading', { name: 'Payment received' }).count()).toBe(1);
    await pageChecks(page, { widths: [390] });
  });

  it('a card replaced from the portal: Stripe saves it, cobro says so', async () => {
    const plan = await api('POST', '/v1/plans/', {
      auth,
      body: { name: 'Tea', amount: '5.00', currency: 'USD', interval: 'month', interval_count: 1 },
    });
    const started = await api('POST', '/v1/subscriptions', {
      auth,
      body: { plan_id: plan.json.data.id, return_url: `${shop.origin}/welcome` },
    });
    const page = await newPage();
    await page.goto(started.json.data.checkout_url);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await payOnStripe(page, 'Pay');
    await page.waitForURL((url) => url.origin === shop.origin);
    const subscription = await api('GET', `/v1/subscriptions/${started.json.data.subscription_id}`, { auth });
    const portal = await api('POST', `/v1/customers/${subscription.json.customer_id}/portal/`, { auth });
    expect(portal.status, portal.text).toBe(201);
    await page.goto(portal.json.url);
    await page.getByRole('button', { name: 'Replace card' }).first().click();
    await page.getByRole('button', { name: 'Save card', exact: true }).click();
    await payOnStripe(page, 'Save card', '5555 5555 5555 4444');
    await page.waitForURL((url) => url.pathname.endsWith('/return') || url.pathname.includes('/checkout/'));
    await expect.poll(() => page.getByRole('heading', { name: 'Card updated' }).count()).toBe(1);
    await eventually('the subscription to be charged to the new card', async () => {
      const events = await api('GET', '/v1/events/?page_size=100', { auth });
      const results = (events.json.results ?? []) as { type: string }[];
      return results.some((event) => event.type === 'subscription.card_updated') ? true : undefined;
    });
  });
});
