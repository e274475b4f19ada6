/**
 * The customer portal in real Chromium, from the failed-renewal notice to an active subscription: a
 * subscription paid with 4000 0000 0000 0341 (approved at checkout, declined on every renewal), its
 * renewal made due and declined by the billing step, the notice's portal link read from the SES
 * emulator and opened, "Replace card", a new card whose bank asks for 3-D Secure, the challenge
 * passed: the unpaid period is charged once, on the new card, and the subscription is active; the
 * saved card's page shows the new card and links back to the portal page. And the cancel at the
 * period's end, in English and Spanish, on a phone's width and a desktop's: the confirmation says the
 * day it ends, the page then says it and offers Resume, which makes it renew again.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayDate } from '../../shared/core/display.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { runBilling } from '../../shared/subscriptions/billing.ts';
import { simulatedAcquirer } from '../support/acquirer.ts';
import { launchBrowser } from '../support/browser.ts';
import { goodYear, listCharges, submitCard, testCards } from '../support/checkout.ts';
import { waitForMail } from '../support/mail.ts';
import { api, apiKey, newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';
import { subscribe } from '../support/subscriptions.ts';

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

/** What the cancel's controls read, in each language. */
const controls = {
  en: {
    locale: 'en-US',
    cancel: 'Cancel subscription',
    atEnd: 'Cancel at end of period',
    now: 'Cancel now',
    nowSaid: 'Or cancel now: it ends at once, and nothing already paid is refunded.',
    until: (date: string) => `it stays active until ${date}, the end of the period already paid for`,
    ends: (date: string) => `Your subscription ends on ${date}. You will not be charged for it again.`,
    endsOn: 'Ends on',
    resume: 'Resume',
    resumed: 'Your subscription continues as before: it is no longer set to end.',
    next: 'Next billing date',
  },
  es: {
    locale: 'es-ES',
    cancel: 'Cancelar suscripción',
    atEnd: 'Cancelar al final del periodo',
    now: 'Cancelar ahora',
    nowSaid: 'O cancélala ahora: termina de inmediato y no se reembolsa nada de lo ya pagado.',
    until: (date: string) => `sigue activa hasta el ${date}, fin del periodo ya pagado`,
    ends: (date: string) => `Tu suscripción termina el ${date}. No se te volverá a cobrar por ella.`,
    endsOn: 'Termina el',
    resume: 'Reanudar',
    resumed: 'Tu suscripción sigue como antes: ya no está previsto que termine.',
    next: 'Próximo cobro',
  },
} as const;

describe("cancel at the period's end, and Resume", () => {
  let planId: string;
  beforeAll(async () => {
    const plan = await api('POST', '/v1/plans/', {
      auth,
      body: { name: 'Gold', amount: '10.50', currency: 'USD', interval: 'month', interval_count: 1 },
    });
    expect(plan.status, plan.text).toBe(201);
    planId = plan.json.data.id as string;
  });

  /** The whole of button `name` lies within the page's width, and nothing is wider than the page. */
  async function expectWithin(page: Page, name: string, width: number) {
    const box = await page.getByRole('button', { name, exact: true }).boundingBox();
    expect(box, name).not.toBeNull();
    expect(box?.x ?? -1, name).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? width + 1), name).toBeLessThanOrEqual(width);
    const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(scrollWidth, `${name} at ${width} px`).toBeLessThanOrEqual(width);
  }

  for (const lang of ['en', 'es'] as const)
    for (const width of [390, 1280])
      it(`${lang} at ${width} px: the confirmation says the date, the end is set, Resume renews it again`, async () => {
        const said = controls[lang];
        const customer = await api('POST', '/v1/customers/', {
          auth,
          body: {
            first_name: 'Ada',
            last_name: 'Lovelace',
            email: `ending-${lang}-${width}-${Date.now()}@example.com`,
          },
        });
        expect(customer.status, customer.text).toBe(201);
        const subscription = await subscribe({
          account,
          planId,
          anchor: new Date().toISOString(),
          customerId: customer.json.data.id as string,
        });
        const view = async () => (await api('GET', `/v1/subscriptions/${subscription.id}`, { auth })).json;
        const end = (await view()).current_period_end as string;
        const date = displayDate(end, lang);
        const link = await api('POST', `/v1/customers/${customer.json.data.id}/portal/`, { auth });
        expect(link.status, link.text).toBe(201);

        const context = await browser.newContext({ locale: said.locale, viewport: { width, height: 844 } });
        context.setDefaultTimeout(15_000);
        const page = await context.newPage();
        try {
          await page.goto(link.json.url as string);
          expect(await page.locator('html').getAttribute('lang')).toBe(lang);
          expect(await visibleText(page)).toContain(said.next);
          await page.getByRole('button', { name: said.cancel, exact: true }).click();

          // The confirmation: the period's end first, with its date; cancelling now after it, as such.
          const atEnd = page.getByRole('button', { name: said.atEnd, exact: true });
          await atEnd.waitFor();
          const asked = await visibleText(page);
          expect(asked).toContain(said.until(date));
          expect(asked).toContain(said.nowSaid);
          expect(asked.indexOf(said.atEnd)).toBeLessThan(asked.indexOf(said.now));
          await expectWithin(page, said.atEnd, width);
          await expectWithin(page, said.now, width);
          await atEnd.click();

          // Set to end: the page says the day, and offers Resume.
          const resume = page.getByRole('button', { name: said.resume, exact: true });
          await resume.waitFor();
          const ending = await visibleText(page);
          expect(ending).toContain(said.ends(date));
          expect(ending).toContain(said.endsOn);
          expect(await page.locator('dd[data-ends]').innerText()).toBe(date);
          expect(ending).not.toContain(said.next);
          await expectWithin(page, said.resume, width);
          expect(await view()).toMatchObject({
            status: 'active',
            cancel_at_period_end: true,
            cancel_at: end,
          });

          // Resumed: it renews again, its next billing date back.
          await resume.click();
          await page.getByText(said.next, { exact: true }).waitFor();
          const renewing = await visibleText(page);
          expect(renewing).toContain(said.resumed);
          expect(renewing).not.toContain(said.endsOn);
          expect(await resume.count()).toBe(0);
          expect(await view()).toMatchObject({
            status: 'active',
            cancel_at_period_end: false,
            cancel_at: null,
          });
        } finally {
          await context.close();
        }
        expect(
          (await listCharges(auth, 'limit=1000')).filter(
            (charge) => charge.subscription_id === subscription.id,
          ),
        ).toEqual([]);
      });
});
