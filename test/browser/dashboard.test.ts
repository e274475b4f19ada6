/**
 * The merchant dashboard in real Chromium: signing in with a test key, the charges list, a charge,
 * a partial refund, the Spanish switch and signing out, with an accessibility check of every page
 * by axe-core (no serious or critical violation; test/support/axe.ts).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageChecks, seriousViolations } from '../support/axe.ts';
import { launchBrowser } from '../support/browser.ts';
import { payThroughCheckout } from '../support/checkout.ts';
import { pipelineDrained } from '../support/pipeline.ts';
import { api, apiKey, apiUrl, localInfo, newAccount, type TestAccount } from '../support/stack.ts';
import { newUser } from '../support/team.ts';

let browser: Browser;
let account: TestAccount;
let chargeId: string;

beforeAll(async () => {
  [browser, account] = await Promise.all([launchBrowser(), newAccount('dashboard-browser')]);
  ({ chargeId } = await payThroughCheckout(apiKey(account.testKey), {
    payment: { amount: '12.00', description: 'Two blue mugs' },
  }));
  // The overview's counters are kept from the charge's event: once the pipeline carried it.
  await pipelineDrained(localInfo, account.developerId);
});

/**
 * The overview's charts at a width: every chart an image inside the page's width, the page not
 * wider than the window, and today's volume bar drawn (the charge of 12.00).
 */
async function chartsAt(page: Page, width: number) {
  await page.setViewportSize({ width, height: 900 });
  const layout = (await page.evaluate(`(() => {
    const charts = [...document.querySelectorAll('svg[role="img"]')].map((svg) => {
      const box = svg.getBoundingClientRect();
      return { left: box.left, right: box.right, width: box.width, height: box.height, title: svg.querySelector('title')?.textContent };
    });
    const bars = [...document.querySelectorAll('#volume-USD-title ~ rect.bar')].map((rect) => rect.getBoundingClientRect().height);
    return { charts, bars, scroll: document.documentElement.scrollWidth, inner: window.innerWidth };
  })()`)) as {
    charts: { left: number; right: number; width: number; height: number; title: string }[];
    bars: number[];
    scroll: number;
    inner: number;
  };
  expect(layout.scroll, `page wider than ${width} px`).toBeLessThanOrEqual(layout.inner);
  expect(layout.charts).toHaveLength(5);
  for (const chart of layout.charts) {
    expect(chart.left, chart.title).toBeGreaterThanOrEqual(0);
    expect(chart.right, chart.title).toBeLessThanOrEqual(width);
    expect(chart.width, chart.title).toBeGreaterThan(width >= 1280 ? 200 : 100);
    expect(chart.height, chart.title).toBeGreaterThan(20);
  }
  expect(layout.bars).toHaveLength(30);
  expect(layout.bars.at(-1)).toBeGreaterThan(100);
  expect(layout.bars.slice(0, -1).every((height) => height === 0)).toBe(true);
}

afterAll(async () => {
  await browser?.close();
});

const visibleText = (page: Page) => page.locator('body').innerText();

describe('the dashboard in a browser', () => {
  it('signs in, lists the charges, refunds part of one, speaks Spanish and signs out; every page passes axe', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const { checked, check } = pageChecks(page);
    try {
      // Not signed in: the dashboard sends the browser to the sign-in form.
      await page.goto(`${apiUrl}/dashboard/`);
      expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
      await check('sign-in');
      const user = await newUser(account.developerId);
      await page.getByLabel('E-mail address').fill(user.email);
      await page.getByLabel('Password').fill(account.testKey);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      expect(await visibleText(page)).toContain('Wrong e-mail address or password.');
      await check('sign-in, refused');

      await page.getByLabel('Password').fill(user.password);
      await Promise.all([
        page.waitForURL(`${apiUrl}/dashboard/`),
        page.getByRole('button', { name: 'Sign in', exact: true }).click(),
      ]);
      const overview = await visibleText(page);
      expect(overview).toContain('Test dashboard-browser');
      expect(overview).toContain('TEST');
      expect(overview).toContain(chargeId);
      // The last 30 days: the charge in the volume chart and the count, each figure as text too.
      expect(overview).toContain('Last 30 days');
      expect(overview).toMatch(/Volume in USD\s+12\.00 USD/);
      expect(overview).toMatch(/Charges\s+1/);
      expect(overview).toMatch(/Declines\s+0/);
      expect(overview).toMatch(/Active subscriptions\s+0/);
      await chartsAt(page, 390);
      await chartsAt(page, 1280);
      await check('overview');

      await page.getByRole('link', { name: 'Payments and charges', exact: true }).click();
      await page.waitForURL(`${apiUrl}/dashboard/charges`);
      expect(await visibleText(page)).toContain('12.00 USD');
      await check('charges');
      // On a phone the charge's row reads as lines: its amount is in the window, not scrolled off
      // the card's edge, and the page is no wider than the window; the table stays accessible.
      await page.setViewportSize({ width: 390, height: 900 });
      const amount = page.locator('tr', { hasText: chargeId }).locator('td', { hasText: '12.00 USD' });
      const box = await amount.boundingBox();
      expect(box, 'the amount cell is shown').not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(390);
      expect(
        await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'),
        'page wider than 390 px',
      ).toBe(true);
      await check('charges at 390 px');
      await page.setViewportSize({ width: 1280, height: 900 });

      await page.getByRole('link', { name: chargeId, exact: true }).click();
      await page.waitForURL(`${apiUrl}/dashboard/charges/${chargeId}`);
      expect(await visibleText(page)).toContain('Two blue mugs');
      await check('charge');

      await page.getByLabel(/Amount to refund/).fill('2.50');
      await page.getByLabel('Reason').selectOption('requested_by_customer');
      await Promise.all([
        page.waitForURL(/\?refunded=/),
        page.getByRole('button', { name: 'Refund', exact: true }).click(),
      ]);
      const refunded = await visibleText(page);
      expect(refunded).toContain('Refunded 2.50 USD.');
      expect(refunded).toContain('9.50 USD');
      await check('charge, refunded');
      const refunds = await api('GET', `/v1/refunds/?charge_id=${chargeId}`, {
        auth: apiKey(account.testKey),
      });
      expect(refunds.json.map((refund: { amount: string }) => refund.amount)).toEqual(['2.50']);

      // More than is left: the API's refusal, on the page.
      await page.getByLabel(/Amount to refund/).fill('10.00');
      await page.getByRole('button', { name: 'Refund', exact: true }).click();
      await page.waitForLoadState('load');
      expect(await visibleText(page)).toContain('greater than what remains to refund');
      await check('charge, refusal');

      await Promise.all([
        page.waitForURL(`${apiUrl}/dashboard/charges/${chargeId}`),
        page.getByRole('button', { name: 'Español', exact: true }).click(),
      ]);
      const spanish = await visibleText(page);
      expect(spanish).toContain('Reembolsar este cargo');
      expect(spanish).toContain('Reembolsado');
      expect(await page.locator('html').getAttribute('lang')).toBe('es');
      await check('charge, Spanish');
      await page.getByRole('link', { name: 'Pagos y cargos', exact: true }).click();
      await page.waitForURL(`${apiUrl}/dashboard/charges`);
      expect(await visibleText(page)).toContain('Importe');

      await Promise.all([
        page.waitForURL(`${apiUrl}/dashboard/sign-in`),
        page.getByRole('button', { name: 'Cerrar sesión', exact: true }).click(),
      ]);
      expect(await visibleText(page)).toContain('Inicia sesión en el panel de cobro');
      await check('sign-in, Spanish');
      await page.goto(`${apiUrl}/dashboard/charges`);
      expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
      expect(checked).toHaveLength(10);
      // The check can fail: the sign-in form with its password field's label taken away is refused.
      await page.evaluate("document.querySelector('label[for=password]').remove()");
      expect((await seriousViolations(page)).join('\n')).toMatch(/^critical label:/m);
    } finally {
      await context.close();
    }
  }, 90_000);
});
