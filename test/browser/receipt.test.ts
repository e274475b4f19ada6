/**
 * A receipt as its payer meets it, in real Chromium: the receipt e-mail (as the SES emulator took
 * it) opened, its link followed to the hosted receipt page, the page's PDF button pressed, and the
 * downloaded PDF's first page rendered to an image whose text says who was paid, how much, for what,
 * with which card and under which reference.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateProfile } from '../../shared/accounts/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { launchBrowser } from '../support/browser.ts';
import { cardFields, payThroughCheckout, testCards } from '../support/checkout.ts';
import { waitForMail } from '../support/mail.ts';
import { renderFirstPage } from '../support/pdf.ts';
import { apiUrl, type Merchant, newMerchant, useLocalEnvironment } from '../support/stack.ts';

let browser: Browser;
let merchant: Merchant;

beforeAll(async () => {
  useLocalEnvironment();
  [browser, merchant] = await Promise.all([launchBrowser(), newMerchant('receipt-browser')]);
  await updateProfile(makeDeps(), merchant.account.developerId, { company_name: 'Lupe & <Sons>' });
});

afterAll(async () => {
  await browser?.close();
});

const visibleText = (page: Page) => page.locator('body').innerText();

describe('a receipt opened from its e-mail', () => {
  it('the e-mail links the receipt page, whose PDF downloads and draws the same receipt', async () => {
    const email = `receipt-browser-${process.pid}-${Date.now()}@example.com`;
    const paid = await payThroughCheckout(merchant.auth, {
      payment: { amount: '48.50', description: 'Two <b>mugs</b>' },
      card: cardFields({ email, card_number: testCards.approved }),
    });
    const mail = await waitForMail(email, 'Lupe & <Sons>: your receipt for "Two <b>mugs</b>"');
    expect(mail, 'the receipt e-mail').toBeDefined();

    const context = await browser.newContext({ locale: 'en-US', acceptDownloads: true });
    try {
      const page = await context.newPage();
      // The e-mail as a mail client shows it: its HTML part, with the receipt's link to click.
      await page.setContent(mail?.body.html ?? '');
      expect(await visibleText(page)).toContain('Lupe & <Sons>');
      const link = page.getByRole('link', { name: 'View or download this receipt (PDF)' });
      const href = await link.getAttribute('href');
      expect(href).toMatch(new RegExp(`^${apiUrl.replace(/[.]/g, '\\.')}/receipts/[A-Za-z0-9]{43}$`));
      await Promise.all([page.waitForURL(href as string), link.click()]);

      // The hosted receipt page: every field, the hostile names shown as text.
      const shown = await visibleText(page);
      for (const value of ['Lupe & <Sons>', '48.50', 'USD', 'Two <b>mugs</b>', '4242', paid.chargeId]) {
        expect(shown).toContain(value);
      }
      expect(await page.locator('b').count()).toBe(0);

      // Its PDF button downloads the same receipt as a PDF.
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('a.pdf').click()]);
      expect(download.suggestedFilename()).toBe(`receipt-${paid.chargeId}.pdf`);
      const bytes = new Uint8Array(await readFile((await download.path()) as string));
      expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');

      // Its first page drawn as a reader draws it: the values are there, in ink.
      const rendered = await renderFirstPage(bytes, 1.5);
      for (const value of ['Lupe & <Sons>', '48.50 USD', 'Two <b>mugs</b>', paid.chargeId]) {
        expect(rendered.text).toContain(value);
      }
      expect(rendered.text).toMatch(/4242/);
      const amount = rendered.items.find((item) => item.text.includes('48.50'));
      expect(amount, rendered.items.map((item) => item.text).join(' | ')).toBeDefined();
      expect(rendered.darkShare(amount?.box ?? { x: 0, y: 0, width: 1, height: 1 })).toBeGreaterThan(0.05);
    } finally {
      await context.close();
    }
  });
});
