/**
 * Two-factor sign-in set up from the profile in real Chromium: the bar says live mode needs it and
 * links to the profile; the set-up page draws the QR code as inline SVG (no script on the page, no
 * Content-Security-Policy violation, modules large enough for a camera) beside the key as text; a
 * code made by the tests' own RFC 6238 code turns it on; the bar's button then switches to live;
 * signed out, signing in asks for the code. Every page passes axe-core (no serious or critical
 * violation; test/support/axe.ts) and fits a phone's width.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageChecks } from '../support/axe.ts';
import { launchBrowser } from '../support/browser.ts';
import { dashboardUrl, signInAsOnPage } from '../support/dashboard.ts';
import { apiUrl, newAccount, type TestAccount } from '../support/stack.ts';
import { newUser } from '../support/team.ts';
import { totpCode } from '../support/totp.ts';

let browser: Browser;
let account: TestAccount;

beforeAll(async () => {
  [browser, account] = await Promise.all([launchBrowser(), newAccount('two-factor-browser')]);
});

afterAll(async () => {
  await browser?.close();
});

const visibleText = (page: Page) => page.locator('body').innerText();

/** The QR code as Chromium lays it out: its box, the view box's size, and what its ground and modules are painted with. */
async function drawnCode(page: Page) {
  return (await page.evaluate(`(() => {
    const svg = document.querySelector('svg.qr');
    const box = svg.getBoundingClientRect();
    return {
      width: box.width,
      height: box.height,
      right: box.right,
      modules: svg.viewBox.baseVal.width,
      ground: getComputedStyle(svg.querySelector('rect')).fill,
      dark: getComputedStyle(svg.querySelector('path')).fill,
      label: svg.getAttribute('aria-label'),
    };
  })()`)) as {
    width: number;
    height: number;
    right: number;
    modules: number;
    ground: string;
    dark: string;
    label: string;
  };
}

describe('two-factor sign-in in a browser', () => {
  it('is set up from the profile with its QR code, opens live mode, and is asked for at the next sign-in; every page passes axe', async () => {
    const user = await newUser(account.developerId, { role: 'developer' });
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    // Whatever the page's policy refuses (a script, an image) Chromium reports on the console.
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
    });
    const { checked, check } = pageChecks(page, { widths: [1280, 390] });
    try {
      await page.goto(dashboardUrl('sign-in'));
      await signInAsOnPage(page, user);

      // No second factor: the bar offers no live switch, and says where to set it up.
      expect(await page.getByRole('button', { name: 'Switch to live', exact: true }).count()).toBe(0);
      await page
        .getByRole('link', { name: 'Live mode needs two-factor sign-in: set it up in your profile.' })
        .click();
      await page.waitForURL(dashboardUrl('profile'));
      expect(await visibleText(page)).toContain(user.email);
      await expect.poll(() => page.locator('[data-two-factor]').innerText()).toBe('Off');
      await check('profile');

      // The set-up page: the QR code drawn inline, and the key as text, in groups of 4.
      await page.getByRole('button', { name: 'Set up two-factor sign-in', exact: true }).click();
      await page.waitForURL(dashboardUrl('profile/two-factor/start'));
      const qr = page.getByRole('img', {
        name: `QR code that adds cobro for ${user.email} to an authenticator app`,
      });
      expect(await qr.isVisible()).toBe(true);
      expect(await page.locator('script').count()).toBe(0);
      expect(await page.locator('img').count()).toBe(0);
      await page.setViewportSize({ width: 1280, height: 900 });
      const code = await drawnCode(page);
      // Square, a whole number of CSS pixels a module (3 at least), black on white.
      expect(code.width).toBe(code.height);
      expect(Number.isInteger(code.width / code.modules)).toBe(true);
      expect(code.width / code.modules).toBeGreaterThanOrEqual(3);
      expect(code.ground).toBe('rgb(255, 255, 255)');
      expect(code.dark).toBe('rgb(0, 0, 0)');
      const secret = (await page.locator('[data-totp-secret]').getAttribute('data-totp-secret')) as string;
      expect(secret).toMatch(/^[A-Z2-7]{32,}$/);
      expect((await page.locator('[data-totp-secret]').innerText()).trim()).toBe(
        secret.match(/.{1,4}/g)?.join(' '),
      );
      await check('two-factor set-up');
      // At a phone's width the code still fits.
      await page.setViewportSize({ width: 390, height: 844 });
      expect((await drawnCode(page)).right).toBeLessThanOrEqual(390);
      await page.setViewportSize({ width: 1280, height: 900 });

      // A code of the app's (the tests' own RFC 6238 code): on.
      await page.getByLabel('Code', { exact: true }).fill(totpCode(secret));
      await Promise.all([
        page.waitForURL(dashboardUrl('profile?two_factor=on')),
        page.getByRole('button', { name: 'Turn on two-factor sign-in', exact: true }).click(),
      ]);
      expect(await visibleText(page)).toContain('Two-factor sign-in is on. You can switch to live mode now.');
      expect(await page.locator('[data-two-factor]').innerText()).toBe('On');
      await check('profile, two-factor on');

      // The bar's button switches to live.
      await Promise.all([
        page.waitForURL(dashboardUrl('profile')),
        page.getByRole('button', { name: 'Switch to live', exact: true }).click(),
      ]);
      expect(await page.locator('[data-mode]').getAttribute('data-mode')).toBe('live');

      // Signed out, signing in asks for the code (the next step's: the set-up took this one's).
      await Promise.all([
        page.waitForURL(dashboardUrl('sign-in')),
        page.getByRole('button', { name: 'Sign out', exact: true }).click(),
      ]);
      await page.getByLabel('E-mail address').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByLabel('Code', { exact: true }).waitFor();
      await check('code step');
      await page.getByLabel('Code', { exact: true }).fill(totpCode(secret, new Date(), 1));
      await Promise.all([
        page.waitForURL(dashboardUrl()),
        page.getByRole('button', { name: 'Verify', exact: true }).click(),
      ]);
      expect(await page.locator('[data-mode]').getAttribute('data-mode')).toBe('test');
      await Promise.all([
        page.waitForURL(dashboardUrl()),
        page.getByRole('button', { name: 'Switch to live', exact: true }).click(),
      ]);
      expect(await page.locator('[data-mode]').getAttribute('data-mode')).toBe('live');
      expect(refused).toEqual([]);
      expect(new URL(page.url()).origin).toBe(new URL(apiUrl).origin);
    } finally {
      await context.close();
    }
    expect(checked).toEqual(['profile', 'two-factor set-up', 'profile, two-factor on', 'code step']);
  });
});
