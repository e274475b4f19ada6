/**
 * The hosted checkout of what recurs, in real Chromium: a subscription's page says the price per
 * interval ("/ month", the quantity's total), a trial's page says nothing is charged today and
 * when the first charge comes, with a "Start trial" button that starts it; a recurring payment
 * link's page says it is paid every month; a Spanish browser gets the page, and a decline, in
 * Spanish.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { displayDate } from '../../shared/core/display.ts';
import { launchBrowser } from '../support/browser.ts';
import { goodYear } from '../support/checkout.ts';
import { api, apiKey, newAccount, type TestAccount } from '../support/stack.ts';

let browser: Browser;
let account: TestAccount;
let auth: string;
const contexts: BrowserContext[] = [];
/** The merchant's site, where a paid checkout returns to (http: test mode allows it). */
let shop: Server;
let returnOrigin: string;

function startShop(): Promise<void> {
  shop = createServer((_, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Welcome</title><p>welcome</p>');
  });
  return new Promise((resolve, reject) => {
    shop.once('error', reject);
    shop.listen(0, '127.0.0.1', () => {
      returnOrigin = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
      resolve();
    });
  });
}

beforeAll(async () => {
  const outcomes = await Promise.allSettled([
    launchBrowser().then((value) => {
      browser = value;
    }),
    newAccount('recurring-browser').then((value) => {
      account = value;
    }),
    startShop(),
  ]);
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
  auth = apiKey(account.testKey);
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  await browser?.close();
  if (shop) {
    shop.closeAllConnections();
    await new Promise((resolve) => shop.close(resolve));
  }
});

/** A page in a browser whose language is `locale` (it sends Accept-Language from it). */
async function newPage(locale = 'en-US'): Promise<Page> {
  const context = await browser.newContext({ locale });
  contexts.push(context);
  context.setDefaultTimeout(15_000);
  return context.newPage();
}

async function newPlan(body: Record<string, unknown>): Promise<string> {
  const created = await api('POST', '/v1/plans/', {
    auth,
    body: { name: 'Basic', amount: '19.90', currency: 'USD', interval: 'month', interval_count: 1, ...body },
  });
  expect(created.status, created.text).toBe(201);
  return created.json.data.id as string;
}

async function subscribe(body: Record<string, unknown>) {
  const created = await api('POST', '/v1/subscriptions', {
    auth,
    body: { return_url: `${returnOrigin}/welcome`, ...body },
  });
  expect(created.status, created.text).toBe(201);
  return created.json.data as { subscription_id: string; checkout_url: string };
}

async function fillCard(page: Page): Promise<void> {
  await page.getByLabel('Email').fill(`payer-${Date.now()}@example.com`);
  await page.getByLabel('Cardholder name').fill('Ada Lovelace');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiration month').fill('12');
  await page.getByLabel('Expiration year').fill(goodYear);
  await page.getByLabel('Security code').fill('123');
}

/** The page's visible text on one line. */
const visibleText = async (page: Page) => (await page.locator('main').innerText()).replace(/\s+/g, ' ');

describe('what a recurring checkout says it charges', () => {
  it('a trial: "0.00 USD today", the price per month from the trial\'s end, and "Start trial" starts it', async () => {
    const planId = await newPlan({ trial_period_days: 14 });
    const created = await subscribe({ plan_id: planId });
    const page = await newPage();
    await page.goto(created.checkout_url);
    const text = await visibleText(page);
    expect(text).toContain('14-day free trial');
    expect(text).toContain('0.00 USD today');
    const firstCharge = displayDate(new Date(Date.now() + 14 * 86_400_000).toISOString(), 'en');
    expect(text).toContain(`then 19.90 USD / month from ${firstCharge}`);
    expect(await page.getByRole('button', { name: 'Pay', exact: true }).count()).toBe(0);

    await fillCard(page);
    await Promise.all([
      page.waitForURL(`${returnOrigin}/welcome?**`),
      page.getByRole('button', { name: 'Start trial', exact: true }).click(),
    ]);
    expect(new URL(page.url()).searchParams.get('subscription_id')).toBe(created.subscription_id);
    const view = (await api('GET', `/v1/subscriptions/${created.subscription_id}`, { auth })).json;
    expect(view.status).toBe('trialing');
    // Nothing was charged today, as the page said.
    const charges = (await api('GET', '/v1/payments/', { auth })).json as unknown as {
      subscription_id: string;
    }[];
    expect(charges.filter((charge) => charge.subscription_id === created.subscription_id)).toHaveLength(0);
  });

  it('a monthly plan with quantity 2: "Basic × 2" and "39.80 USD / month", paid with "Pay"', async () => {
    const planId = await newPlan({});
    const created = await subscribe({ plan_id: planId, quantity: 2 });
    const page = await newPage();
    await page.goto(created.checkout_url);
    const text = await visibleText(page);
    expect(text).toContain('Basic × 2');
    expect(text).toContain('39.80 USD / month');
    expect(text).not.toContain('today');
    await fillCard(page);
    await Promise.all([
      page.waitForURL(`${returnOrigin}/welcome?**`),
      page.getByRole('button', { name: 'Pay', exact: true }).click(),
    ]);
    // The first period's charge is what the page said: 19.90 × 2.
    const charges = (await api('GET', '/v1/payments/', { auth })).json as unknown as {
      subscription_id: string;
      amount: number;
    }[];
    expect(charges.filter((charge) => charge.subscription_id === created.subscription_id)).toEqual([
      expect.objectContaining({ amount: 39.8 }),
    ]);
  });

  it('a plan billed every 3 months says so', async () => {
    const planId = await newPlan({ interval_count: 3 });
    const page = await newPage();
    await page.goto((await subscribe({ plan_id: planId })).checkout_url);
    expect(await visibleText(page)).toContain('19.90 USD every 3 months');
  });

  it('a recurring payment link says "/ month"; a one-off link shows the amount alone', async () => {
    const created = await api('POST', '/v1/payment-links/', {
      auth,
      body: { description: 'Piano lessons', amount: '45.00', currency: 'EUR' },
    });
    expect(created.status, created.text).toBe(201);
    const { id, link } = created.json.data as { id: string; link: string };
    const page = await newPage();
    await page.goto(link);
    expect(await visibleText(page)).toContain('45.00 EUR');
    expect(await visibleText(page)).not.toContain('/ month');
    const updated = await api('PUT', `/v1/payment-links/${id}/`, { auth, body: { recurring: true } });
    expect(updated.status, updated.text).toBe(200);
    await page.goto(link);
    expect(await visibleText(page)).toContain('45.00 EUR / month');
  });

  it('a Spanish browser gets the trial in Spanish, with "Iniciar prueba"', async () => {
    const planId = await newPlan({ trial_period_days: 7, interval: 'year' });
    const page = await newPage('es-ES');
    await page.goto((await subscribe({ plan_id: planId })).checkout_url);
    const text = await visibleText(page);
    expect(text).toContain('Prueba gratuita de 7 días');
    expect(text).toContain('0,00 USD hoy');
    expect(text).toMatch(/luego 19,90 USD \/ año a partir del \d+ \p{L}+ \d{4}/u);
    expect(await page.getByLabel('Número de tarjeta').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Iniciar prueba', exact: true }).count()).toBe(1);
    expect(await page.locator('html').getAttribute('lang')).toBe('es');

    // A declined card comes back with the reason in Spanish, and the form to try again.
    await page.getByLabel('Correo electrónico').fill(`pagador-${Date.now()}@example.com`);
    await page.getByLabel('Nombre del titular').fill('Ana Mora');
    await page.getByLabel('Número de tarjeta').fill('4000 0000 0000 0002');
    await page.getByLabel('Mes de vencimiento').fill('12');
    await page.getByLabel('Año de vencimiento').fill(goodYear);
    await page.getByLabel('Código de seguridad').fill('123');
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST'),
      page.getByRole('button', { name: 'Iniciar prueba', exact: true }).click(),
    ]);
    expect(answer.status()).toBe(402);
    await page.waitForLoadState('load');
    expect(await page.getByRole('alert').innerText()).toBe(
      'Tu tarjeta fue rechazada. Prueba con otra tarjeta.',
    );
    expect(await page.getByRole('button', { name: 'Iniciar prueba', exact: true }).count()).toBe(1);
  });
});
