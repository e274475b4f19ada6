/**
 * Paying a payment link in real Chromium, on the hosted checkout: the link's page shows the
 * description and the amount, takes a card (through a 3-D Secure challenge too) and answers with a
 * receipt; the link is then paid, and two browsers paying a recurring link's period at once pay it
 * once.
 */
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeDeps } from '../../shared/db/deps.ts';
import { runLinkBilling } from '../../shared/payment-links/billing.ts';
import { launchBrowser } from '../support/browser.ts';
import { goodYear } from '../support/checkout.ts';
import { api, basic, newAccount, type TestAccount } from '../support/stack.ts';

let browser: Browser;
let account: TestAccount;
let auth: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  const outcomes = await Promise.allSettled([
    launchBrowser().then((value) => {
      browser = value;
    }),
    newAccount('link-browser').then((value) => {
      account = value;
    }),
  ]);
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
  auth = basic(account.testKey);
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  await browser?.close();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  context.setDefaultTimeout(15_000);
  return context.newPage();
}

async function createLink(body: Record<string, unknown>) {
  const created = await api('POST', '/v1/payment-links/', { auth, body });
  expect(created.status, created.text).toBe(201);
  return created.json.data as { id: string; link: string };
}

const linkView = async (id: string) => (await api('GET', `/v1/payment-links/${id}/`, { auth })).json;

async function fillCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Email').fill('buyer@example.com');
  await page.getByLabel('Cardholder name').fill('Ada Lovelace');
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiration month').fill('12');
  await page.getByLabel('Expiration year').fill(goodYear);
  await page.getByLabel('Security code').fill('123');
}

/** Clicks a button that posts its form; answers the POST's response once the answer has loaded. */
async function submit(page: Page, name: string): Promise<Response> {
  const answered = page.waitForResponse(
    (response) => response.request().method() === 'POST' && response.request().isNavigationRequest(),
  );
  const loaded = page.waitForEvent('load');
  await page.getByRole('button', { name, exact: true }).click();
  const [response] = await Promise.all([answered, loaded]);
  return response;
}

describe('a payment link in the browser', () => {
  it('shows what is paid, passes a 3-D Secure challenge, and answers with a receipt', async () => {
    const link = await createLink({ description: 'Guitar lesson, 1 hour', amount: '45.00', currency: 'EUR' });
    const page = await newPage();
    expect((await page.goto(link.link))?.status()).toBe(200);
    const text = await page.locator('body').innerText();
    expect(text).toContain('Guitar lesson, 1 hour');
    expect(text).toContain('45.00');
    expect(text).toContain('EUR');

    await fillCard(page, '4000 0000 0000 3220');
    const challenged = await submit(page, 'Pay');
    expect(challenged.status()).toBe(200);
    const receipt = await submit(page, 'Complete authentication');
    expect(receipt.status()).toBe(200);
    expect(await page.getByRole('heading', { name: 'Payment received' }).isVisible()).toBe(true);
    const receiptText = await page.locator('body').innerText();
    expect(receiptText).toContain('Visa •••• 3220');
    expect(receiptText).toMatch(/ch_[A-Za-z0-9]+/);

    const view = await linkView(link.id);
    expect(view.status).toBe('paid');
    expect(receiptText).toContain(view.payment_logs[0].charge_id);
    // Opened again, the page says it is paid and offers no form.
    await page.goto(link.link);
    expect(await page.locator('body').innerText()).toContain('Payment complete');
    expect(await page.getByLabel('Card number').count()).toBe(0);
  });

  it('lets two browsers race for one period of a recurring link: one pays, the other is told it is paid', async () => {
    const link = await createLink({ description: 'Monthly dues', amount: '10.00' });
    expect(
      (
        await api('PUT', `/v1/payment-links/${link.id}/`, {
          auth,
          body: { recurring: true, next_date_of_payment: '2033-06-01 00:00:00' },
        })
      ).status,
    ).toBe(200);
    const first = await newPage();
    await first.goto(link.link);
    await fillCard(first, '4242 4242 4242 4242');
    expect((await submit(first, 'Pay')).status()).toBe(200);
    await runLinkBilling(makeDeps(), new Date('2033-06-01T00:00:00.000Z'), {
      developerId: account.developerId,
    });
    expect((await linkView(link.id)).status).toBe('pending_period');

    const [one, two] = [await newPage(), await newPage()];
    await Promise.all([one.goto(link.link), two.goto(link.link)]);
    await Promise.all([fillCard(one, '4242 4242 4242 4242'), fillCard(two, '5555 5555 5555 4444')]);
    const answers = await Promise.all([submit(one, 'Pay'), submit(two, 'Pay')]);
    expect(answers.map((answer) => answer.status()).sort()).toEqual([200, 409]);
    const view = await linkView(link.id);
    expect(view.status).toBe('paid_period');
    expect(view.payment_logs.filter((log: { status: string }) => log.status === 'succeeded')).toHaveLength(2);
  });
});
