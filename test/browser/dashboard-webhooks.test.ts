/**
 * The dashboard's webhooks, events and API keys pages in real Chromium: an endpoint added pointing
 * at a loopback receiver, an event triggered and its delivery seen, redelivered and the second
 * delivery seen, the secret rotated and the deletion asked, the events list and an event in
 * Spanish, the pages at a phone's width, and the session's own key rotated, which signs out.
 * Every page passes axe-core (no serious or critical violation; test/support/axe.ts).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageChecks } from '../support/axe.ts';
import { launchBrowser } from '../support/browser.ts';
import { signInOnPage } from '../support/dashboard.ts';
import { type Receiver, startReceiver, verify } from '../support/receiver.ts';
import { api, apiKey, apiUrl, newAccount, type TestAccount } from '../support/stack.ts';

let browser: Browser;
let account: TestAccount;
let receiver: Receiver;

beforeAll(async () => {
  [browser, account, receiver] = await Promise.all([
    launchBrowser(),
    newAccount('dashboard-webhooks-browser'),
    startReceiver(),
  ]);
});

afterAll(async () => {
  await browser?.close();
});

const visibleText = (page: Page) => page.locator('body').innerText();

/** An event of the account: a plan made and deleted (`plan.deleted`); its id. */
async function planDeleted(): Promise<string> {
  const auth = apiKey(account.testKey);
  const plan = await api('POST', '/v1/plans/', {
    auth,
    body: { name: 'Browser hooks', currency: 'USD', amount: '5.00', interval: 'month', interval_count: 1 },
  });
  expect(plan.status, plan.text).toBe(201);
  expect((await api('DELETE', `/v1/plans/${plan.json.data.id}/`, { auth })).status).toBe(200);
  const events = await api('GET', '/v1/events/?type=plan.deleted&page_size=1', { auth });
  return events.json.results[0].id as string;
}

/** Reloads the page until `count` Redeliver buttons of the event are listed (the attempts recorded). */
async function waitForRows(page: Page, eventId: string, count: number) {
  const button = page.getByRole('button', { name: `Redeliver ${eventId}`, exact: true });
  const until = Date.now() + 15_000;
  while ((await button.count()) < count) {
    expect(Date.now(), `${count} deliveries of ${eventId} listed`).toBeLessThan(until);
    await page.reload();
  }
}

describe('the webhooks, events and API keys pages in a browser', () => {
  it('adds an endpoint, sees a delivery, redelivers it, reads the event in Spanish and rotates the key; every page passes axe', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const { checked, check } = pageChecks(page);
    try {
      await page.goto(`${apiUrl}/dashboard/sign-in`);
      await signInOnPage(page, account.testKey);

      // The endpoints, and one added pointing at the receiver, for plan.deleted only.
      await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
      await page.waitForURL(`${apiUrl}/dashboard/webhooks`);
      expect(await visibleText(page)).toContain('No webhook endpoints yet.');
      await check('endpoints');
      const path = '/browser-hook';
      await page.getByLabel('URL', { exact: true }).fill(`${receiver.url}${path}`);
      await page.getByLabel('plan.deleted', { exact: true }).check();
      await page.getByRole('button', { name: 'Add endpoint', exact: true }).click();
      await page.waitForLoadState('load');
      expect(await visibleText(page)).toContain('Endpoint added');
      const secret = (await page.locator('[data-secret]').innerText()).trim();
      expect(secret).toMatch(/^whsec_/);
      await check('endpoint added');

      // An event: its delivery arrives, signed with the secret shown, and is listed.
      const eventId = await planDeleted();
      const [first] = await receiver.waitFor((request) => request.path === path);
      expect(() => verify(secret, first as NonNullable<typeof first>)).not.toThrow();
      await page.getByRole('link', { name: 'Go to the endpoint', exact: true }).click();
      await page.waitForURL(/\/dashboard\/webhooks\/we_/);
      await waitForRows(page, eventId, 1);
      expect(await visibleText(page)).not.toContain(secret);
      await check('endpoint');

      // Redelivered: the second delivery arrives with the same webhook-id and is listed too.
      await Promise.all([
        page.waitForURL(/\?redelivered=/),
        page.getByRole('button', { name: `Redeliver ${eventId}`, exact: true }).click(),
      ]);
      expect(await visibleText(page)).toContain(`Event ${eventId} queued for redelivery (1).`);
      const both = await receiver.waitFor((request) => request.path === path, 2);
      expect(both.map((request) => request.headers['webhook-id'])).toEqual([eventId, eventId]);
      await waitForRows(page, eventId, 2);
      await check('endpoint, redelivered');

      // At a phone's width the page does not scroll sideways (wide tables scroll in their card).
      await page.setViewportSize({ width: 390, height: 844 });
      const wide = await page.evaluate(
        `[...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > 391 && !el.closest('.card table')).map((el) => el.tagName + '.' + el.className).slice(0, 5).join(' ')`,
      );
      expect(await page.evaluate('document.documentElement.scrollWidth'), String(wide)).toBeLessThanOrEqual(
        390,
      );
      await check('endpoint, 390 px');
      await page.setViewportSize({ width: 1280, height: 900 });

      // Rotating the secret and deleting each ask first.
      await page.getByRole('link', { name: 'Rotate the signing secret', exact: true }).click();
      await check('rotate secret, confirmation');
      await page.getByRole('button', { name: 'Rotate the secret', exact: true }).click();
      await page.waitForLoadState('load');
      const rotated = (await page.locator('[data-secret]').innerText()).trim();
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      await check('secret rotated');
      await page.getByRole('link', { name: 'Go to the endpoint', exact: true }).click();
      await page.getByRole('link', { name: 'Delete the endpoint', exact: true }).click();
      expect(await visibleText(page)).toContain('Delete this endpoint?');
      await check('delete, confirmation');
      await page.getByRole('link', { name: 'Cancel', exact: true }).click();
      await page.waitForURL(/\/dashboard\/webhooks\/we_[A-Za-z0-9]+$/);

      // The events, filtered by type, and the event's JSON, in Spanish.
      await page.getByRole('link', { name: 'Events', exact: true }).click();
      await page.waitForURL(`${apiUrl}/dashboard/events`);
      await page.getByLabel('Type').selectOption('plan.deleted');
      await Promise.all([
        page.waitForURL(/type=plan.deleted/),
        page.getByRole('button', { name: 'Show', exact: true }).click(),
      ]);
      expect(await visibleText(page)).toContain(eventId);
      await check('events');
      await page.getByRole('link', { name: eventId, exact: true }).click();
      await page.waitForURL(`${apiUrl}/dashboard/events/${eventId}`);
      await Promise.all([
        page.waitForURL(`${apiUrl}/dashboard/events/${eventId}`),
        page.getByRole('button', { name: 'Español', exact: true }).click(),
      ]);
      const spanish = await visibleText(page);
      expect(spanish).toContain(`Evento ${eventId}`);
      expect(spanish).toContain('"type": "plan.deleted"');
      expect(await page.locator('html').getAttribute('lang')).toBe('es');
      await check('event, Spanish');
      await page.getByRole('link', { name: 'Volver a los eventos', exact: true }).click();
      expect(await visibleText(page)).toContain('Los eventos se guardan 30 días.');
      await Promise.all([
        page.waitForURL(`${apiUrl}/dashboard/events`),
        page.getByRole('button', { name: 'English', exact: true }).click(),
      ]);

      // The keys, masked; rotating the session's own key shows the new one and signs out.
      await page.getByRole('link', { name: 'API keys', exact: true }).click();
      await page.waitForURL(`${apiUrl}/dashboard/api-keys`);
      expect(await visibleText(page)).not.toContain(account.testKey);
      await check('keys');
      await page.getByRole('link', { name: 'Rotate: Test key', exact: true }).click();
      expect(await visibleText(page)).toContain('your dashboard session goes on');
      await check('rotate key, confirmation');
      await page.getByRole('button', { name: 'Rotate the key', exact: true }).click();
      await page.waitForLoadState('load');
      const newKey = (await page.locator('[data-secret]').innerText()).trim();
      expect(newKey).toMatch(/^sk_test_/);
      await check('key rotated');
      // The session goes on after a rotation: sessions belong to users, not keys.
      await page.goto(`${apiUrl}/dashboard/webhooks`);
      expect(new URL(page.url()).pathname).toBe('/dashboard/webhooks');
      expect(checked).toHaveLength(13);
    } finally {
      await context.close();
    }
  }, 120_000);
});
