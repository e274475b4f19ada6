/**
 * The customer portal in real Chromium, from the failed-renewal notice to an active subscription: a
 * subscription paid with 4000 0000 0000 0341 (approved at checkout, declined on every renewal), its
 * renewal made due and declined by the billing step, the notice's portal link read from the SES
 * emulator and opened, "Replace card", a new card whose bank asks for 3-D Secure, the challenge
 * passed: the unpaid period is charged once, on the new card, and the subscription is active; the
 * saved card's page shows the new card and links back to the portal page.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDeps } from '../../shared/db/deps.ts';
import { runBilling } from '../../shared/subscriptions/billing.ts';
import { simulatedAcquirer } from '../support/acquirer.ts';
import { launchBrowser } from '../support/browser.ts';
import { goodYear, listCharges, submitCard, testCards } from '../support/checkout.ts';
import { waitForMail } from '../support/mail.ts';
import { api, apiKey, newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';

let browser: Browser;
let account: TestAccount;
let auth: string;

beforeAll(async () => {
  useLocalEnvironment();
  [browser, account] = await Promise.all([launchBrowser(), newAccount('portal-browser')]);
  auth = apiKey(account.testKey);
});

afterAll(async () => {
  await browser?.close();
});

const day = 86_400_000;
const visibleText = (page: Page) => page.locator('body').innerText();

describe('a failed renewal, mended from the portal', () => {
  it('the notice links the portal; a new card with a 3-D Secure challenge pays the period once', async () => {
    const email = `mended-${Date.now()}@example.com`;
    const customer = await api('POST', '/v1/customers/', {
      auth,
      body: { first_name: 'Ada', last_name: 'Lovelace', email },
    });
    expect(customer.status, customer.text).toBe(201);
    const plan = await api('POST', '/v1/plans/', {
      auth,
      body: { name: 'Studio', amount: '12.00', currency: 'USD', interval: 'month', interval_count: 1 },
    });
    expect(plan.status, plan.text).toBe(201);
    const created = await api('POST', '/v1/subscriptions', {
      auth,
      body: {
        plan_id: plan.json.data.id,
        customer_id: customer.json.data.id,
        return_url: 'https://shop.example/welcome',
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.data.subscription_id as string;
    // Paid at checkout with the card whose renewals decline.
    const paid = await submitCard(created.json.data.checkout_url as string, {
      card_number: testCards.declinesWhenStored,
    });
    expect(paid.status, paid.html).toBe(303);

    // A month and a bit later the renewal falls due and is declined: past due.
    const later = new Date(Date.now() + 32 * day);
    const billed = await runBilling({ ...makeDeps(), acquirer: simulatedAcquirer() }, later, {
      developerId: account.developerId,
    });
    expect(billed.payment_failed).toBe(1);
    const view = async () => (await api('GET', `/v1/subscriptions/${id}`, { auth })).json;
    expect((await view()).status).toBe('past_due');

    // The notice, as the SES emulator took it, and its portal link.
    const notice = await waitForMail(email, `Test portal-browser: your payment for "Studio" failed`);
    expect(notice, 'the failed-renewal notice').toBeDefined();
    const link = /https?:\/\/\S+\/portal\/[A-Za-z0-9]{43}/.exec(notice?.body.text ?? '')?.[0];
    expect(link, notice?.body.text).toBeDefined();
    expect(notice?.body.html).toContain(link);

    const context = await browser.newContext({ locale: 'en-US' });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    try {
      await page.goto(link as string);
      const portal = await visibleText(page);
      expect(portal).toContain('Studio');
      expect(portal).toContain('12.00 USD / month');
      expect(portal).toContain('Payment overdue');
      expect(portal).toContain('Payment failed: 12.00 USD due since');
      expect(portal).toContain('the 12.00 USD due is charged to the new card right away');
      await Promise.all([
        page.waitForURL(/\/checkout\//),
        page.getByRole('button', { name: 'Replace card', exact: true }).click(),
      ]);
      expect(await page.title()).toBe('Update your card for Test portal-browser');
      expect(await visibleText(page)).toContain('12.00 USD / month');
      // The customer is known: the page does not ask for an e-mail.
      expect(await page.getByLabel('Email').count()).toBe(0);
      await page.getByLabel('Cardholder name').fill('Ada Lovelace');
      await page.getByLabel('Card number').fill('4000 0000 0000 3220');
      await page.getByLabel('Expiration month').fill('12');
      await page.getByLabel('Expiration year').fill(goodYear);
      await page.getByLabel('Security code').fill('123');
      await Promise.all([
        page.waitForResponse((response) => response.request().method() === 'POST'),
        page.getByRole('button', { name: 'Save card', exact: true }).click(),
      ]);
      await page.waitForLoadState('load');
      expect(await visibleText(page)).toContain(
        'Your bank asks you to confirm this card (nothing is charged now)',
      );
      await Promise.all([
        page.waitForURL((url) => !url.pathname.endsWith('/challenge')),
        page.getByRole('button', { name: 'Complete authentication', exact: true }).click(),
      ]);
      const saved = await visibleText(page);
      expect(saved).toContain('Card updated');
      expect(saved).toContain('New card: Visa •••• 3220.');
      expect(saved).toContain('The 12.00 USD that was overdue is paid with it.');
      // Back to the portal page the card page was opened from: the subscription active again.
      await Promise.all([
        page.waitForURL(link as string),
        page.getByRole('link', { name: 'Back to your account', exact: true }).click(),
      ]);
      const back = await visibleText(page);
      expect(back).toContain('Active');
      expect(back).not.toContain('Payment failed');
    } finally {
      await context.close();
    }

    // The unpaid period charged once, on the new card; the subscription active, its period advanced.
    const after = await view();
    expect(after.status).toBe('active');
    const charges = (await listCharges(auth, 'limit=1000')).filter((charge) => charge.subscription_id === id);
    expect(charges.map((charge) => [charge.amount, charge.card_last4])).toEqual([
      [12, '3220'],
      [12, '0341'],
    ]);
    // Another billing run at the same time charges nothing more.
    const again = await runBilling({ ...makeDeps(), acquirer: simulatedAcquirer() }, later, {
      developerId: account.developerId,
    });
    expect(again.renewed + again.payment_failed).toBe(0);
    expect(
      (await listCharges(auth, 'limit=1000')).filter((charge) => charge.subscription_id === id),
    ).toHaveLength(2);
  }, 60_000);
});
