/**
 * The dashboard's plans, products and payment links pages in real Chromium: a plan created (after a
 * refused form), listed and deleted through its confirmation step; a product created and deleted; a
 * payment link created whose URL, read from its read-only field, opens the hosted checkout; one page
 * in Spanish; and axe-core on every page (no serious or critical violation).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageChecks } from '../support/axe.ts';
import { launchBrowser } from '../support/browser.ts';
import { signInOnPage } from '../support/dashboard.ts';
import { api, apiKey, apiUrl, newAccount, type TestAccount } from '../support/stack.ts';

let browser: Browser;
let account: TestAccount;

beforeAll(async () => {
  [browser, account] = await Promise.all([launchBrowser(), newAccount('dashboard-catalog-browser')]);
});

afterAll(async () => {
  await browser?.close();
});

const visibleText = (page: Page) => page.locator('body').innerText();

/** Clicks a button that posts its form and waits for the page it lands on. */
async function submit(page: Page, name: string): Promise<void> {
  const loaded = page.waitForEvent('load');
  await page.getByRole('button', { name, exact: true }).click();
  await loaded;
}

describe('the catalog pages in a browser', () => {
  it('creates, lists and deletes a plan, a product and a payment link; opens the link; Spanish; axe on every page', async () => {
    const auth = apiKey(account.testKey);
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 } });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const { checked, check } = pageChecks(page);
    try {
      await page.goto(`${apiUrl}/dashboard/sign-in`);
      await signInOnPage(page, account.testKey);

      // Plans: the list (empty), a refused form, then the plan.
      await page.getByRole('link', { name: 'Plans', exact: true }).click();
      await page.waitForURL(`${apiUrl}/dashboard/plans`);
      expect(await visibleText(page)).toContain('No plans yet.');
      await check('plans');
      await page.getByLabel('Name', { exact: true }).last().fill('Browser gold');
      await page.getByLabel('Amount').fill('19.999');
      await page.getByLabel('Number of intervals between charges').fill('2');
      await page.getByLabel('Trial days').fill('14');
      await submit(page, 'Create');
      expect(await visibleText(page)).toMatch(/decimal/i);
      expect(await page.getByLabel('Amount').getAttribute('aria-invalid')).toBe('true');
      await check('plans, refused');
      await page.getByLabel('Amount').fill('19.90');
      await submit(page, 'Create');
      expect(page.url()).toMatch(/\/dashboard\/plans\?created=/);
      const listed = await visibleText(page);
      expect(listed).toContain('Created “Browser gold”.');
      expect(listed).toContain('19.90 USD every 2 months');
      expect(listed).toContain('14 days');
      await check('plans, created');
      const plans = await api('GET', '/v1/plans/', { auth });
      expect(
        plans.json.results.map((plan: { information: { name: string } }) => plan.information.name),
      ).toEqual(['Browser gold']);

      await page.getByRole('link', { name: 'Delete: Browser gold' }).click();
      await page.waitForURL(/\/dashboard\/plans\/[0-9a-f-]+\/delete$/);
      expect(await visibleText(page)).toContain('Deleting a plan is for good');
      await check('plan, delete');
      await submit(page, 'Delete the plan');
      expect(page.url()).toBe(`${apiUrl}/dashboard/plans?deleted=1`);
      expect(await visibleText(page)).toContain('The plan was deleted.');
      expect((await api('GET', '/v1/plans/', { auth })).json.count).toBe(0);

      // Products: created from the text fields, deleted after confirming.
      await page.getByRole('link', { name: 'Products', exact: true }).click();
      await page.waitForURL(`${apiUrl}/dashboard/products`);
      expect(await visibleText(page)).toContain('Images are added through the API');
      await check('products');
      await page.getByLabel('Name', { exact: true }).last().fill('Browser mug');
      await page.getByLabel('Price').fill('8.00');
      await page.getByLabel('SKU', { exact: true }).last().fill('MUG-B');
      await submit(page, 'Create');
      expect(await visibleText(page)).toContain('Created “Browser mug”.');
      await check('products, created');
      await page.getByRole('link', { name: 'Delete: Browser mug' }).click();
      await page.waitForURL(/\/dashboard\/products\/[0-9a-f-]+\/delete$/);
      await check('product, delete');
      await submit(page, 'Delete the product');
      expect((await api('GET', '/v1/products/', { auth })).json.count).toBe(0);

      // Payment links: created, its URL read from the read-only field, then in Spanish, deleted.
      await page.getByRole('link', { name: 'Payment links', exact: true }).click();
      await page.waitForURL(`${apiUrl}/dashboard/links`);
      await check('links');
      await page.getByLabel('Description').fill('Browser workshop');
      await page.getByLabel('Amount').fill('30.00');
      await page.getByLabel('Currency').selectOption('EUR');
      await submit(page, 'Create');
      expect(page.url()).toMatch(/\/dashboard\/links\?created=/);
      const field = page.locator('#made_link_url');
      expect(await field.getAttribute('readonly')).not.toBeNull();
      const url = await field.inputValue();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      expect(await visibleText(page)).toContain('30.00 EUR');
      await check('links, created');

      const payer = await context.newPage();
      expect((await payer.goto(url))?.status()).toBe(200);
      const checkout = await visibleText(payer);
      expect(checkout).toContain('Browser workshop');
      expect(checkout).toContain('30.00');
      expect(await payer.getByLabel('Card number').count()).toBe(1);
      await payer.close();

      await Promise.all([
        page.waitForURL(/\/dashboard\/links/),
        page.getByRole('button', { name: 'Español', exact: true }).click(),
      ]);
      const spanish = await visibleText(page);
      expect(spanish).toContain('Enlaces de pago');
      expect(spanish).toContain('Nuevo enlace de pago');
      expect(spanish).toContain('30,00 EUR');
      expect(await page.locator('html').getAttribute('lang')).toBe('es');
      await check('links, Spanish');
      await page.getByRole('link', { name: 'Eliminar: Browser workshop' }).click();
      await page.waitForURL(/\/dashboard\/links\/[0-9a-f-]+\/delete$/);
      expect(await visibleText(page)).toContain('deja de aceptar pagos');
      await check('link, delete, Spanish');
      await submit(page, 'Eliminar el enlace de pago');
      expect((await api('GET', '/v1/payment-links/', { auth })).json.count).toBe(0);
      expect(
        (
          await payer
            .context()
            .newPage()
            .then((again) => again.goto(url))
        )?.status(),
      ).not.toBe(200);

      // A record this account does not have: the 404 page.
      const absent = await page.goto(`${apiUrl}/dashboard/plans/00000000-0000-4000-8000-000000000000/delete`);
      expect(absent?.status()).toBe(404);
      await check('plan, not found');
      expect(checked).toHaveLength(12);

      // Wide: the lists read at 1280 px too.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${apiUrl}/dashboard/plans`);
      await check('plans, 1280 px');
    } finally {
      await context.close();
    }
  }, 120_000);
});
