/**
 * The hosted checkout in real Chromium: the pay form without JavaScript, the declines of the test
 * cards, card checks, the 3-D Secure challenge, single use, expiry, the lock after five declines, a
 * phone-sized screen, and the headers that refuse framing. Payments are created through the API;
 * the merchant's return_url is a small HTTP server started here.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  Browser,
  BrowserContext,
  BrowserContextOptions,
  Locator,
  Page,
  Response,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { updateProfile } from '../../shared/accounts/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { launchBrowser } from '../support/browser.ts';
import {
  type CreatedPayment,
  cardFields,
  createPayment,
  expectUnpaid,
  goodYear,
  listCharges,
  paymentView,
} from '../support/checkout.ts';
import { eventually } from '../support/eventually.ts';
import { api, apiKey, newAccount, newMerchant, type TestAccount } from '../support/stack.ts';
import { setCheckout } from '../support/table.ts';

const merchantName = 'Blue Mug Roasters';
const description = 'Order 1001: two blue mugs';

/** The simulated acquirer's test cards as a cardholder types them (docs/design.md#test-cards). */
const cards = {
  approved: '4242 4242 4242 4242',
  challenge: '4000 0000 0000 3220',
  genericDecline: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  expiredCard: '4000 0000 0000 0069',
  incorrectCvc: '4000 0000 0000 0127',
  answerLost: '4000 0000 0000 7726',
  processingError: '4000 0000 0000 0119',
} as const;

/** The merchant's site: `/return` is the return_url, `/frame` embeds a URL in an iframe. */
interface Merchant {
  server: Server;
  origin: string;
}

function startMerchant(): Promise<Merchant> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/frame') {
      const src = (url.searchParams.get('src') ?? '').replace(/[&"<>]/g, '');
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><title>Shop</title><iframe id="checkout" title="Checkout" src="${src}"></iframe>` +
          '<iframe id="control" title="Control" src="/thanks"></iframe>',
      );
      return;
    }
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Thanks</title><p>thanks</p>');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, origin: `http://127.0.0.1:${port}` });
    });
  });
}

function stopMerchant(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

let browser: Browser;
let merchant: Merchant;
let account: TestAccount;
let auth: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  // Settled, not raced: whatever started is assigned, so afterAll stops it even when a sibling failed.
  const outcomes = await Promise.allSettled([
    launchBrowser().then((value) => {
      browser = value;
    }),
    startMerchant().then((value) => {
      merchant = value;
    }),
    newAccount('checkout').then((value) => {
      account = value;
    }),
  ]);
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
  auth = apiKey(account.testKey);
  await updateProfile(makeDeps(), account.developerId, { company_name: merchantName });
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  await browser?.close();
  if (merchant) await stopMerchant(merchant.server);
});

/** A pending USD 10.00 payment whose return_url is the merchant's server. */
function newPayment(credential = auth): Promise<CreatedPayment> {
  return createPayment(credential, { description, return_url: `${merchant.origin}/return?order=1001` });
}

/** A page in a fresh browser context. */
async function newPage(options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext(options);
  contexts.push(context);
  // Fail a step well before the test's own timeout, with Playwright's message.
  context.setDefaultTimeout(15_000);
  return context.newPage();
}

/** Opens a checkout page; answers its status. */
async function open(page: Page, url: string): Promise<number | undefined> {
  const response = await page.goto(url);
  return response?.status();
}

/** A new payment (of `credential`) whose checkout is open, answered 200, in a fresh page. */
async function openNewPayment(options: BrowserContextOptions = {}, credential = auth) {
  const payment = await newPayment(credential);
  const page = await newPage(options);
  expect(await open(page, payment.url)).toBe(200);
  return { payment, page };
}

interface Card {
  email?: string;
  name?: string;
  number: string;
  month?: string;
  year?: string;
  cvc?: string;
}

/** Types a card into the pay form through its labels. */
async function fillCard(page: Page, card: Card): Promise<void> {
  await page.getByLabel('Email').fill(card.email ?? 'ada@example.com');
  await page.getByLabel('Cardholder name').fill(card.name ?? 'Ada Lovelace');
  await page.getByLabel('Card number').fill(card.number);
  await page.getByLabel('Expiration month').fill(card.month ?? '12');
  await page.getByLabel('Expiration year').fill(card.year ?? goodYear);
  await page.getByLabel('Security code').fill(card.cvc ?? '123');
}

const payButton = (page: Page) => page.getByRole('button', { name: 'Pay', exact: true });

/**
 * Clicks a button that posts a form and waits until whatever it answered has loaded; answers the
 * POST's own response (a 303 when it redirected).
 */
async function submit(page: Page, button: Locator): Promise<Response> {
  const answered = page.waitForResponse(
    (response) => response.request().method() === 'POST' && response.request().isNavigationRequest(),
  );
  const loaded = page.waitForEvent('load');
  await button.click();
  const [response] = await Promise.all([answered, loaded]);
  return response;
}

/** Fills the pay form with a card, clicks Pay and waits for the answer. */
async function pay(page: Page, card: Card): Promise<Response> {
  await fillCard(page, card);
  return submit(page, payButton(page));
}

/** Asserts the browser landed on the return_url with the payment's id added to its query. */
async function expectReturned(page: Page, paymentId: string): Promise<void> {
  const landed = new URL(page.url());
  expect(landed.origin).toBe(merchant.origin);
  expect(landed.pathname).toBe('/return');
  expect(landed.searchParams.get('id_payment')).toBe(paymentId);
  expect(landed.searchParams.get('order')).toBe('1001');
  expect(await page.locator('body').innerText()).toContain('thanks');
}

/**
 * Asserts a submit answered 303 to the return_url and the payment is completed with the card
 * ending in `last4`; answers the payment's view.
 */
async function expectPaid(
  page: Page,
  response: Response,
  paymentId: string,
  last4: string,
  credential = auth,
) {
  expect(response.status()).toBe(303);
  await expectReturned(page, paymentId);
  const paid = await paymentView(credential, paymentId);
  expect(paid.status).toBe('completed');
  expect(paid.card_last4).toBe(last4);
  return paid;
}

/** Asserts the payment is still pending with no charge, in the API and in the charge list. */
const expectNothingCharged = (paymentId: string) => expectUnpaid(auth, paymentId);

/** The page's full width in CSS pixels (the project's TypeScript has no DOM types, so as an expression). */
const scrollWidth = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth');

const alertText = (page: Page) => page.getByRole('alert').innerText();

const csrfOf = async (page: Page) =>
  (await page.locator('input[type="hidden"][name="csrf_token"]').getAttribute('value')) ?? '';

describe('hosted checkout in Chromium', { timeout: 60_000 }, () => {
  it('shows what is paid and takes an approved card with JavaScript disabled', async () => {
    const { payment, page } = await openNewPayment({ javaScriptEnabled: false });

    expect(await page.getByRole('heading', { name: merchantName }).count()).toBe(1);
    const text = await page.locator('body').innerText();
    expect(text).toContain(description);
    expect(text).toMatch(/10\.00\s*USD/);

    const paid = await expectPaid(page, await pay(page, { number: cards.approved }), payment.id, '4242');
    expect(paid.charge_id).toMatch(/^ch_/);
  });

  const declines = [
    { number: cards.genericDecline, reason: 'generic_decline', text: /declined/i },
    { number: cards.insufficientFunds, reason: 'insufficient_funds', text: /insufficient funds/i },
    { number: cards.expiredCard, reason: 'expired_card', text: /expired/i },
    { number: cards.incorrectCvc, reason: 'incorrect_cvc', text: /security code/i },
    { number: cards.processingError, reason: 'processing_error', text: /could not be processed/i },
  ];

  it.each(declines)('re-renders the form with 402 on $reason ($number)', async ({ number, text }) => {
    const { payment, page } = await openNewPayment();

    const response = await pay(page, { number, name: 'Grace Hopper' });
    expect(response.status()).toBe(402);
    expect(new URL(page.url()).pathname).toBe(new URL(payment.url).pathname);
    expect(await alertText(page)).toMatch(text);
    expect(await page.getByLabel('Card number').inputValue()).toBe('');
    expect(await page.getByLabel('Security code').inputValue()).toBe('');
    expect(await page.getByLabel('Cardholder name').inputValue()).toBe('Grace Hopper');
    expect(await payButton(page).isVisible()).toBe(true);

    await expectNothingCharged(payment.id);
  });

  const invalid = [
    { what: 'a number that fails Luhn', card: { number: '4242 4242 4242 4241' }, text: /card number/i },
    { what: 'a past expiry', card: { number: cards.approved, month: '1', year: '2020' }, text: /expired/i },
    { what: 'a 2-digit CVC', card: { number: cards.approved, cvc: '12' }, text: /security code/i },
  ];

  it.each(invalid)('answers 400 with a message for $what and charges nothing', async ({ card, text }) => {
    const { payment, page } = await openNewPayment();

    const response = await pay(page, card);
    expect(response.status()).toBe(400);
    expect(await alertText(page)).toMatch(text);
    expect(await page.getByLabel('Card number').inputValue()).toBe('');
    expect(await payButton(page).isVisible()).toBe(true);

    await expectNothingCharged(payment.id);
  });

  it('pays after the cardholder completes the 3-D Secure challenge', async () => {
    const { payment, page } = await openNewPayment();

    const challenged = await pay(page, { number: cards.challenge });
    expect(challenged.status()).toBe(200);
    const complete = page.getByRole('button', { name: 'Complete authentication' });
    expect(await complete.isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Fail authentication' }).isVisible()).toBe(true);
    expect(await payButton(page).count()).toBe(0);

    await expectPaid(page, await submit(page, complete), payment.id, '3220');
  });

  it('says a payment whose answer was lost could not be confirmed, asks for no other, then shows it paid', async () => {
    const { payment, page } = await openNewPayment({ javaScriptEnabled: false });

    const unconfirmed = await pay(page, { number: cards.answerLost });
    expect(unconfirmed.status()).toBe(202);
    expect(await page.getByRole('heading', { name: 'Payment not confirmed yet' }).count()).toBe(1);
    expect(await page.locator('body').innerText()).toContain('Do not pay again');
    expect(await payButton(page).count()).toBe(0);
    // Recovery records the charge the acquirer made; the page reloads itself (no script) and says so.
    await page.getByRole('heading', { name: 'Payment complete' }).waitFor({ timeout: 30_000 });
    const paid = await paymentView(auth, payment.id);
    expect(paid).toMatchObject({ status: 'completed', card_last4: '7726' });
    expect(await listCharges(auth, 'limit=1000')).toEqual(
      expect.arrayContaining([expect.objectContaining({ payment_id: payment.id })]),
    );
  });

  it('re-renders the form with 402 when the challenge fails, then takes another card', async () => {
    const { payment, page } = await openNewPayment();
    expect((await pay(page, { number: cards.challenge, name: 'Grace Hopper' })).status()).toBe(200);

    const failed = await submit(page, page.getByRole('button', { name: 'Fail authentication' }));
    expect(failed.status()).toBe(402);
    expect(await alertText(page)).toMatch(/authentication.*failed/i);
    expect(await page.getByLabel('Card number').inputValue()).toBe('');
    expect(await page.getByLabel('Cardholder name').inputValue()).toBe('Grace Hopper');
    await expectNothingCharged(payment.id);

    await expectPaid(page, await pay(page, { number: cards.approved }), payment.id, '4242');
  });

  it('is single use: once paid it says so, and the old form answers 409 charging nothing', async () => {
    const { auth: ownAuth } = await newMerchant('checkout-twice');
    const { payment, page } = await openNewPayment({}, ownAuth);
    // A second tab holds the form as it was before the payment.
    const stale = await page.context().newPage();
    expect(await open(stale, payment.url)).toBe(200);

    const response = await pay(page, { number: cards.approved });
    const paid = await expectPaid(page, response, payment.id, '4242', ownAuth);

    expect(await open(page, payment.url)).toBe(200);
    expect(await page.locator('body').innerText()).toMatch(/payment complete|been made|already paid/i);
    expect(await payButton(page).count()).toBe(0);
    expect(await page.getByLabel('Card number').count()).toBe(0);

    const again = await pay(stale, { number: cards.approved });
    expect(again.status()).toBe(409);
    expect(await stale.locator('body').innerText()).toMatch(/already/i);
    expect(await payButton(stale).count()).toBe(0);

    // The browser's back button to the form (re-fetched: the pages are no-store) shows it paid, too.
    await page.goBack();
    await page.goBack();
    expect(await payButton(page).count()).toBe(0);

    const charges = await listCharges(ownAuth);
    expect(charges).toHaveLength(1);
    expect(charges[0]?.id).toBe(paid.charge_id);
    expect(charges[0]?.payment_id).toBe(payment.id);
    expect((await paymentView(ownAuth, payment.id)).charge_id).toBe(paid.charge_id);
  });

  it('answers 410 once the session has expired', async () => {
    const { payment, page } = await openNewPayment();

    await setCheckout(payment.token, { expires_at_ms: Date.now() - 60_000 });

    // The form already on screen is refused, and so is opening the link again.
    const response = await pay(page, { number: cards.approved });
    expect(response.status()).toBe(410);
    expect(await page.locator('body').innerText()).toMatch(/expired/i);
    expect(await open(page, payment.url)).toBe(410);
    expect(await page.locator('body').innerText()).toMatch(/expired/i);
    expect(await payButton(page).count()).toBe(0);
    await expectNothingCharged(payment.id);
  });

  it('locks after 5 declines: later requests answer 423', async () => {
    const { payment, page } = await openNewPayment();
    const csrf = await csrfOf(page);

    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      statuses.push((await pay(page, { number: cards.genericDecline })).status());
    }
    // Every decline answers 402 with its reason; the fifth offers no form to try again.
    expect(statuses).toEqual([402, 402, 402, 402, 402]);
    const fifth = await page.locator('body').innerText();
    expect(fifth).toMatch(/declined/i);
    expect(fifth).toMatch(/too many/i);
    expect(await payButton(page).count()).toBe(0);

    expect(await open(page, payment.url)).toBe(423);
    expect(await page.locator('body').innerText()).toMatch(/locked|too many/i);
    expect(await payButton(page).count()).toBe(0);

    // Even a good card posted with the form's token is refused now.
    const posted = await page.request.post(payment.url, {
      form: { csrf_token: csrf, ...cardFields({ email: 'ada@example.com', card_number: cards.approved }) },
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(423);
    await expectNothingCharged(payment.id);
  });

  it('fits a 375×667 phone screen without horizontal scrolling', async () => {
    const { page } = await openNewPayment({
      viewport: { width: 375, height: 667 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });

    const button = payButton(page);
    expect(await button.isVisible()).toBe(true);
    await button.scrollIntoViewIfNeeded();
    const box = await button.boundingBox();
    expect(box).not.toBeNull();
    expect(box?.x).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);

    // Still fits with an error message on the page.
    expect((await pay(page, { number: cards.genericDecline })).status()).toBe(402);
    expect(await payButton(page).isVisible()).toBe(true);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  });

  it('keeps each expiry label on one line on a 390 px wide phone, and on a wide screen', async () => {
    const payment = await newPayment();
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      const page = await newPage({ viewport, deviceScaleFactor: 2 });
      expect(await open(page, payment.url)).toBe(200);
      for (const id of ['exp_month', 'exp_year']) {
        // Lines = the label's height over its line height (no DOM types here, so as an expression).
        const lines = await page.evaluate<number>(
          `(() => { const label = document.querySelector('label[for=${id}]');
            return label.getBoundingClientRect().height / parseFloat(getComputedStyle(label).lineHeight); })()`,
        );
        expect(lines, `${id} at ${viewport.width} px`).toBe(1);
      }
      expect(await scrollWidth(page)).toBeLessThanOrEqual(viewport.width);
    }
  });

  it('loads with no request answered 404 (the favicon is inline) and no console error', async () => {
    const payment = await newPayment();
    const page = await newPage();
    const failures: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') failures.push(`console: ${message.text()}`);
    });
    // Chromium's own /favicon.ico request (made after load when a page names no icon) reaches
    // Playwright only as a console error; the DevTools protocol sees it as a request like any other.
    const devtools = await page.context().newCDPSession(page);
    const running = new Set<string>();
    devtools.on('Network.requestWillBeSent', (sent) => running.add(sent.requestId));
    devtools.on('Network.responseReceived', ({ response }) => {
      if (response.status >= 400) failures.push(`${response.status} ${response.url}`);
    });
    devtools.on('Network.loadingFinished', (done) => running.delete(done.requestId));
    devtools.on('Network.loadingFailed', (failed) => {
      running.delete(failed.requestId);
      failures.push(`failed: ${failed.errorText}`);
    });
    await devtools.send('Network.enable');
    expect(await open(page, payment.url)).toBe(200);
    // Quiet for 500 ms after load (an icon request starts at load), and every request it made done.
    await page.waitForLoadState('networkidle');
    await expect.poll(() => running.size).toBe(0);
    expect(failures).toEqual([]);
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
  });

  it('shows the page, not JSON, when the cardholder opens the challenge address with GET', async () => {
    const { payment, page } = await openNewPayment();
    expect((await pay(page, { number: cards.challenge })).status()).toBe(200);
    expect(await open(page, `${payment.url}/challenge`)).toBe(200);
    expect(await page.getByRole('button', { name: 'Complete authentication' }).isVisible()).toBe(true);

    // After a failed challenge the address bar shows /challenge; entering it again shows the pay form.
    const failed = await submit(page, page.getByRole('button', { name: 'Fail authentication' }));
    expect(failed.status()).toBe(402);
    expect(new URL(page.url()).pathname).toBe(`${new URL(payment.url).pathname}/challenge`);
    expect(await open(page, page.url())).toBe(200);
    expect(await payButton(page).isVisible()).toBe(true);
    expect(await page.getByLabel('Card number').isVisible()).toBe(true);

    const response = await pay(page, { number: cards.approved });
    expect(response.status()).toBe(303);
    await expectReturned(page, payment.id);
  });

  it('sends a CSP with frame-ancestors none and X-Frame-Options DENY, and cannot be framed', async () => {
    const payment = await newPayment();
    const page = await newPage();
    const response = await page.goto(payment.url);
    expect(response?.status()).toBe(200);
    const headers = response?.headers() ?? {};
    expect(headers['content-security-policy']).toMatch(/(^|;)\s*frame-ancestors 'none'\s*(;|$)/);
    expect(headers['x-frame-options']).toBe('DENY');

    const frame = await page.goto(`${merchant.origin}/frame?src=${encodeURIComponent(payment.url)}`);
    expect(frame?.status()).toBe(200);
    // The control frame from the merchant's own site loads; the checkout frame does not.
    const control = await page.locator('#control').contentFrame().locator('body').innerText();
    expect(control).toContain('thanks');
    const checkoutFrame = page.locator('#checkout').contentFrame();
    expect(await checkoutFrame.getByLabel('Card number').count()).toBe(0);
    expect(await checkoutFrame.getByRole('button', { name: 'Pay' }).count()).toBe(0);
    // Chromium swaps a frame it refused for its error page.
    const frames = page.frames().map((each) => each.url());
    expect(frames).toContain('chrome-error://chromewebdata/');
    expect(frames).not.toContain(payment.url);
  });

  it('starts a subscription: the plan on the page, Pay, back with subscription_id, then active', async () => {
    const plan = await api('POST', '/v1/plans/', {
      auth,
      body: { name: 'Coffee club', amount: '12.00', currency: 'USD', interval: 'month', interval_count: 1 },
    });
    const created = await api('POST', '/v1/subscriptions', {
      auth,
      body: { plan_id: plan.json.data.id, return_url: `${merchant.origin}/return?order=club` },
    });
    expect(created.status, created.text).toBe(201);
    const { subscription_id: id, checkout_url: url } = created.json.data as Record<string, string>;
    const page = await newPage({ javaScriptEnabled: false });
    expect(await open(page, url as string)).toBe(200);
    const shown = await page.locator('body').innerText();
    expect(shown).toContain('Coffee club');
    expect(shown).toContain('12.00');
    const response = await pay(page, { number: cards.approved });
    expect(response.status()).toBe(303);
    const landed = new URL(page.url());
    expect(landed.pathname).toBe('/return');
    expect(landed.searchParams.get('subscription_id')).toBe(id);
    await eventually(
      'the subscription to be active',
      async () =>
        (await api('GET', `/v1/subscriptions/${id}`, { auth })).json.status === 'active' ? true : undefined,
      10_000,
    );
    expect((await api('GET', `/v1/subscriptions/${id}`, { auth })).json.status).toBe('active');
  });

  it('never puts the card number or CVC into the page after a decline', async () => {
    const { page } = await openNewPayment();

    const response = await pay(page, { number: cards.genericDecline, cvc: '7391' });
    expect(response.status()).toBe(402);
    const html = await page.content();
    expect(html).not.toContain(cards.genericDecline);
    expect(html).not.toContain(cards.genericDecline.replaceAll(' ', ''));
    expect(html).not.toContain('7391');
    expect(await page.getByLabel('Card number').inputValue()).toBe('');
    expect(await page.getByLabel('Security code').inputValue()).toBe('');
  });
});
