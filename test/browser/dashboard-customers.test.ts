/**
 * The dashboard's customers and subscriptions pages in real Chromium: searching a customer, opening
 * them, making a portal link (and opening it), opening their subscription and canceling it after
 * the confirmation step, the Spanish switch, and the subscriptions list. Every page passes axe-core
 * (no serious or critical violation) and fits a 390 px wide screen as well as a 1280 px one.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageChecks } from '../support/axe.ts';
import { launchBrowser } from '../support/browser.ts';
import { payThroughCheckout } from '../support/checkout.ts';
import { signInOnPage } from '../support/dashboard.ts';
import { api, apiKey, apiUrl, newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';
import { subscribe } from '../support/subscriptions.ts';

let browser: Browser;
let account: TestAccount;
let chargeId: string;
let subscriptionId: string;
const firstName = `Quinn${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  useLocalEnvironment();
  [browser, account] = await Promise.all([launchBrowser(), newAccount('dashboard-customers-browser')]);
  const auth = apiKey(account.testKey);
  const email = `${firstName.toLowerCase()}@example.com`;
  const created = await api('POST', '/v1/customers/', {
    auth,
    body: { first_name: firstName, last_name: 'Lovelace', email },
  });
  expect(created.status, created.text).toBe(201);
  const customerId = created.json.data.id as string;
  // Another customer, who the search leaves out.
  await api('POST', '/v1/customers/', {
    auth,
    body: { first_name: 'Other', last_name: 'Person', email: `other-${Date.now()}@example.org` },
  });
  ({ chargeId } = await payThroughCheckout(auth, {
    payment: { amount: '12.00', description: 'Three green mugs' },
    card: { email },
  }));
  const plan = await api('POST', '/v1/plans/', {
    auth,
    body: { name: 'Gold', amount: '10.50', currency: 'USD', interval: 'month', interval_count: 1 },
  });
  expect(plan.status, plan.text).toBe(201);
  ({ id: subscriptionId } = await subscribe({
    account,
    planId: plan.json.data.id as string,
    anchor: new Date().toISOString(),
    customerId,
  }));
});

afterAll(async () => {
  await browser?.close();
});

const visibleText = (page: Page) => page.locator('body').innerText();

describe('customers and subscriptions in a browser', () => {
  it('searches a customer, opens them, makes a portal link, cancels their subscription; every page passes axe', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    // Readable on a phone and at 1280 px, no serious axe violation.
    const { checked, check } = pageChecks(page, { widths: [390, 1280] });
    try {
      await page.goto(`${apiUrl}/dashboard/sign-in`);
      await signInOnPage(page, account.testKey);

      await page.getByRole('link', { name: 'Customers', exact: true }).click();
      await page.waitForURL(`${apiUrl}/dashboard/customers`);
      expect(await visibleText(page)).toContain('Other Person');
      await check('customers');

      await page.getByLabel('Search customers').fill(firstName.toUpperCase());
      await Promise.all([
        page.waitForURL(/\/dashboard\/customers\?search=/),
        page.getByRole('button', { name: 'Search', exact: true }).click(),
      ]);
      const found = await visibleText(page);
      expect(found).toContain(`${firstName} Lovelace`);
      expect(found).not.toContain('Other Person');
      await check('customers, searched');

      await page.getByRole('link', { name: `${firstName} Lovelace`, exact: true }).click();
      await page.waitForURL(/\/dashboard\/customers\/[0-9a-f-]{36}$/);
      const customerUrl = page.url();
      const shown = await visibleText(page);
      expect(shown).toContain(`Customer ${firstName} Lovelace`);
      expect(shown).toContain('Three green mugs');
      expect(shown).toContain(subscriptionId);
      await check('customer');

      await page.getByRole('button', { name: 'Make a portal link', exact: true }).click();
      await page.waitForURL(`${customerUrl}/portal`);
      const field = page.getByLabel('Portal link', { exact: true });
      expect(await field.getAttribute('readonly')).not.toBeNull();
      const portalUrl = await field.inputValue();
      expect(portalUrl).toMatch(/\/portal\/[A-Za-z0-9]{43}$/);
      expect(await visibleText(page)).toContain('Opens until');
      await check('portal link');
      const portal = await context.newPage();
      await portal.goto(portalUrl);
      expect(await visibleText(portal)).toContain(`Hello ${firstName}`);
      await portal.close();

      await page.getByRole('link', { name: 'Back to the customer', exact: true }).click();
      await page.waitForURL(customerUrl);
      await page.getByRole('link', { name: chargeId, exact: true }).click();
      await page.waitForURL(`${apiUrl}/dashboard/charges/${chargeId}`);
      expect(await visibleText(page)).toContain('Three green mugs');
      await page.goBack();

      await page.getByRole('link', { name: subscriptionId, exact: true }).click();
      await page.waitForURL(`${apiUrl}/dashboard/subscriptions/${subscriptionId}`);
      const subscription = await visibleText(page);
      expect(subscription).toContain('10.50 USD × 2 = 21.00 USD / month');
      expect(subscription).toContain('Visa •••• 4242');
      expect(subscription).toContain('Active');
      await check('subscription');

      await page.getByRole('link', { name: 'Cancel now…', exact: true }).click();
      await page.waitForURL(`${apiUrl}/dashboard/subscriptions/${subscriptionId}/cancel`);
      expect(await visibleText(page)).toContain('This cannot be undone.');
      await check('cancel, confirmation');
      await Promise.all([
        page.waitForURL(/\?canceled=1$/),
        page.getByRole('button', { name: 'Yes, cancel the subscription', exact: true }).click(),
      ]);
      const canceled = await visibleText(page);
      expect(canceled).toContain('The subscription was canceled.');
      expect(canceled).toContain('This subscription is canceled.');
      await check('subscription, canceled');
      const stored = await api('GET', `/v1/subscriptions/${subscriptionId}`, {
        auth: apiKey(account.testKey),
      });
      expect(stored.json.status).toBe('canceled');

      await Promise.all([
        page.waitForURL(`${apiUrl}/dashboard/subscriptions/${subscriptionId}`),
        page.getByRole('button', { name: 'Español', exact: true }).click(),
      ]);
      const spanish = await visibleText(page);
      expect(spanish).toContain('Esta suscripción está cancelada.');
      expect(spanish).toContain('Visa •••• 4242');
      expect(await page.locator('html').getAttribute('lang')).toBe('es');
      await check('subscription, Spanish');

      await page.getByRole('link', { name: 'Suscripciones', exact: true }).click();
      await page.waitForURL(`${apiUrl}/dashboard/subscriptions`);
      await page.getByLabel('Estado').selectOption('canceled');
      await Promise.all([
        page.waitForURL(/status=canceled/),
        page.getByRole('button', { name: 'Filtrar', exact: true }).click(),
      ]);
      const list = await visibleText(page);
      expect(list).toContain(subscriptionId);
      expect(list).toContain('Cancelada');
      await check('subscriptions, Spanish');
      expect(checked).toHaveLength(9);
    } finally {
      await context.close();
    }
  }, 120_000);
});
