/**
 * A subscription's page in the dashboard, in real Chromium, in English and Spanish, on a phone's
 * width and a desktop's: its pending change, "Cancel at end of period" (the page then says the day
 * it ends and offers Resume), and Resume (it renews again, its next billing date back). Every page
 * passes axe-core (no serious or critical violation), nothing is wider than the window, and each
 * button lies whole within it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayDate } from '../../shared/core/display.ts';
import { pageChecks } from '../support/axe.ts';
import { launchBrowser } from '../support/browser.ts';
import { listCharges } from '../support/checkout.ts';
import { dashboardUrl } from '../support/dashboard.ts';
import { api, apiKey, newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';
import { subscribe } from '../support/subscriptions.ts';
import { newUser } from '../support/team.ts';

let browser: Browser;
let account: TestAccount;
let auth: string;
let planId: string;
let silverId: string;

beforeAll(async () => {
  useLocalEnvironment();
  [browser, account] = await Promise.all([launchBrowser(), newAccount('dashboard-subscriptions-browser')]);
  auth = apiKey(account.testKey);
  const plans = await Promise.all(
    [
      { name: 'Gold', amount: '10.50' },
      { name: 'Silver', amount: '5.00' },
    ].map((plan) =>
      api('POST', '/v1/plans/', {
        auth,
        body: { ...plan, currency: 'USD', interval: 'month', interval_count: 1 },
      }),
    ),
  );
  for (const plan of plans) expect(plan.status, plan.text).toBe(201);
  [planId, silverId] = plans.map((plan) => plan.json.data.id as string) as [string, string];
});

afterAll(async () => {
  await browser?.close();
});

/** What the page's controls read, in each language. */
const said = {
  en: {
    locale: 'en-US',
    email: 'E-mail address',
    password: 'Password',
    signIn: 'Sign in',
    next: 'Next billing date',
    endsOn: 'Ends on',
    atEnd: 'Cancel at end of period',
    until: (date: string) => `it stays active until ${date}, the end of the period already paid for`,
    now: 'Cancel now…',
    nowSaid: 'Cancel now: it ends at once and is never charged again',
    ends: (date: string) => `The subscription ends on ${date}. It will not be charged again`,
    resume: 'Resume',
    resumed: 'The subscription renews as before: it is no longer set to end.',
    pending: (date: string) => `Changes to Silver × 1 on ${date}`,
  },
  es: {
    locale: 'es-ES',
    email: 'Correo electrónico',
    password: 'Contraseña',
    signIn: 'Iniciar sesión',
    next: 'Próximo cobro',
    endsOn: 'Termina el',
    atEnd: 'Cancelar al final del periodo',
    until: (date: string) => `sigue activa hasta el ${date}, fin del periodo ya pagado`,
    now: 'Cancelar ahora…',
    nowSaid: 'Cancelar ahora: termina de inmediato y no se vuelve a cobrar',
    ends: (date: string) => `La suscripción termina el ${date}. No se volverá a cobrar`,
    resume: 'Reanudar',
    resumed: 'La suscripción se renueva como antes: ya no está previsto que termine.',
    pending: (date: string) => `Cambia a Silver × 1 el ${date}`,
  },
} as const;

const visibleText = (page: Page) => page.locator('body').innerText();

/** The whole of button `name` lies within the window's width. */
async function expectWithin(page: Page, name: string, width: number) {
  const box = await page.getByRole('button', { name, exact: true }).boundingBox();
  expect(box, name).not.toBeNull();
  expect(box?.x ?? -1, name).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? width + 1), name).toBeLessThanOrEqual(width);
}

describe("a subscription's end at the period's end, and Resume, in a browser", () => {
  for (const lang of ['en', 'es'] as const)
    for (const width of [390, 1280])
      it(`${lang} at ${width} px: the pending change shown, the end set with its day, Resume renews it again`, async () => {
        const words = said[lang];
        const subscription = await subscribe({ account, planId, anchor: new Date().toISOString() });
        const id = subscription.id;
        // A lower plan for the renewal, asked through the API: pending until the period's end.
        const put = await api('PUT', `/v1/subscriptions/${id}`, {
          auth,
          body: { plan_id: silverId, quantity: 1 },
        });
        expect(put.status, put.text).toBe(200);
        const view = async () => (await api('GET', `/v1/subscriptions/${id}`, { auth })).json;
        const end = put.json.current_period_end as string;
        const date = displayDate(end, lang);

        const context = await browser.newContext({ locale: words.locale, viewport: { width, height: 844 } });
        context.setDefaultTimeout(15_000);
        const page = await context.newPage();
        const { checked, check } = pageChecks(page);
        try {
          await page.goto(dashboardUrl('sign-in'));
          const user = await newUser(account.developerId, { role: 'support' });
          await page.getByLabel(words.email).fill(user.email);
          await page.getByLabel(words.password).fill(user.password);
          await Promise.all([
            page.waitForURL(dashboardUrl()),
            page.getByRole('button', { name: words.signIn, exact: true }).click(),
          ]);
          await page.goto(dashboardUrl(`subscriptions/${id}`));
          expect(await page.locator('html').getAttribute('lang')).toBe(lang);
          const offered = await visibleText(page);
          expect(offered).toContain(words.next);
          expect(offered).toContain(words.pending(displayDate(put.json.pending_change.effective_at, lang)));
          expect(offered).toContain(words.until(date));
          expect(offered).toContain(words.nowSaid);
          expect(offered.indexOf(words.atEnd)).toBeLessThan(offered.indexOf(words.now));
          await expectWithin(page, words.atEnd, width);
          await check('subscription');

          await Promise.all([
            page.waitForURL(/\?ending=1$/),
            page.getByRole('button', { name: words.atEnd, exact: true }).click(),
          ]);
          const ending = await visibleText(page);
          expect(ending).toContain(words.ends(date));
          expect(ending).toContain(words.endsOn);
          expect(await page.locator('time[data-ends]').innerText()).toBe(date);
          expect(ending).not.toContain(words.next);
          expect(ending).not.toContain(words.atEnd);
          expect(ending).toContain(words.now);
          await expectWithin(page, words.resume, width);
          await check('subscription, set to end');
          expect(await view()).toMatchObject({
            status: 'active',
            cancel_at_period_end: true,
            cancel_at: end,
          });

          await Promise.all([
            page.waitForURL(/\?resumed=1$/),
            page.getByRole('button', { name: words.resume, exact: true }).click(),
          ]);
          const renewing = await visibleText(page);
          expect(renewing).toContain(words.resumed);
          expect(renewing).toContain(words.next);
          expect(renewing).not.toContain(words.endsOn);
          expect(await page.getByRole('button', { name: words.resume, exact: true }).count()).toBe(0);
          await expectWithin(page, words.atEnd, width);
          await check('subscription, resumed');
          expect(await view()).toMatchObject({
            status: 'active',
            cancel_at_period_end: false,
            cancel_at: null,
          });
          expect(checked).toHaveLength(3);
        } finally {
          await context.close();
        }
        expect(
          (await listCharges(auth, 'limit=1000')).filter((charge) => charge.subscription_id === id),
        ).toEqual([]);
      });
});
