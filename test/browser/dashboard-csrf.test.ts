/**
 * The dashboard's forms refuse what the merchant did not send, in real Chromium:
 * - a hostile page on another origin that posts the refund form of a real charge while the merchant
 *   is signed in in the same browser: from the same site (the session cookie goes along) the CSRF
 *   token it cannot know refuses it, 403; from another site the SameSite=Strict cookie does not go
 *   along, so it lands on the sign-in form. Either way no refund is made (read through the API);
 * - the refund form and the cancel confirmation with their hidden `csrf_token` changed before they
 *   are submitted: 403, nothing changed, and the same forms untouched then work;
 * - the sign-in form with its CSRF cookie removed: refused, no session cookie;
 * - a hostile page that frames the dashboard: Chromium shows nothing of it.
 */

import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardWords } from '../../shared/dashboard/words.ts';
import { launchBrowser } from '../support/browser.ts';
import { payThroughCheckout, submitCard } from '../support/checkout.ts';
import { DashboardClient, dashboardUrl, formToken, signInOnPage } from '../support/dashboard.ts';
import { api, apiKey, apiUrl, newAccount, type TestAccount } from '../support/stack.ts';
import { newUser } from '../support/team.ts';

const expired = dashboardWords.en.formExpired;

let browser: Browser;
let account: TestAccount;
let auth: string;
let chargeId: string;
let subscriptionId: string;

/** The attacker's site: pages by path, served from loopback (reached as 127.0.0.1 or as localhost). */
const hostilePages = new Map<string, string>();
let hostile: Server;
let hostilePort: number;

function startHostile(): Promise<void> {
  hostile = createServer((request, response) => {
    const page = hostilePages.get(request.url ?? '/');
    response.writeHead(page ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(page ?? 'not here');
  });
  return new Promise((resolve, reject) => {
    hostile.once('error', reject);
    hostile.listen(0, '127.0.0.1', () => {
      hostilePort = (hostile.address() as AddressInfo).port;
      resolve();
    });
  });
}

beforeAll(async () => {
  [browser, account] = await Promise.all([
    launchBrowser(),
    newAccount('dashboard-csrf-browser'),
    startHostile(),
  ]).then(([launched, made]) => [launched, made] as const);
  auth = apiKey(account.testKey);
  ({ chargeId } = await payThroughCheckout(auth, {
    payment: { amount: '40.00', description: 'Guarded mug' },
  }));
  const plan = await api('POST', '/v1/plans/', {
    auth,
    body: { name: 'Guarded', amount: '9.00', currency: 'USD', interval: 'month', interval_count: 1 },
  });
  expect(plan.status, plan.text).toBe(201);
  const subscription = await api('POST', '/v1/subscriptions', {
    auth,
    body: { plan_id: plan.json.data.id, return_url: 'https://shop.example.com/thanks' },
  });
  expect(subscription.status, subscription.text).toBe(201);
  subscriptionId = subscription.json.data.subscription_id as string;
  expect((await submitCard(subscription.json.data.checkout_url as string)).status).toBe(303);
  expect(await subscriptionStatus()).toBe('active');
});

afterAll(async () => {
  await browser?.close();
  if (hostile) {
    hostile.closeAllConnections();
    await new Promise((resolve) => hostile.close(resolve));
  }
});

/** The charge's refunds' amounts, read through the API. */
async function refundsOf(): Promise<string[]> {
  const answer = await api('GET', `/v1/refunds/?charge_id=${chargeId}`, { auth });
  expect(answer.status, answer.text).toBe(200);
  return (answer.json as unknown as { amount: string }[]).map((refund) => refund.amount);
}

async function subscriptionStatus(): Promise<string> {
  const answer = await api('GET', `/v1/subscriptions/${subscriptionId}`, { auth });
  expect(answer.status, answer.text).toBe(200);
  return answer.json.status as string;
}

/** A browser context signed in to the dashboard, and its page. */
async function signedInPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  await page.goto(dashboardUrl('sign-in'));
  await signInOnPage(page, account.testKey);
  return { context, page };
}

/** The answer to the next POST of `page` to the dashboard path `path`. */
const nextPost = (page: Page, path: string): Promise<Response> =>
  page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' && new URL(response.url()).pathname === `/dashboard/${path}`,
  );

const visibleText = (page: Page) => page.locator('body').innerText();

describe('CSRF in the dashboard, in a browser', () => {
  it('a hostile page posting the refund form refunds nothing, from the same site (token refused) or another (no session)', async () => {
    // What the attacker can build: the refund form's fields, well formed (the form key is 32 letters
    // and digits), with any token but the session's.
    hostilePages.set(
      '/refund',
      `<!doctype html><html lang="en"><title>Win a prize</title>
<form method="post" action="${apiUrl}/dashboard/charges/${chargeId}/refunds">
<input type="hidden" name="amount" value="40.00">
<input type="hidden" name="reason" value="requested_by_customer">
<input type="hidden" name="idempotency_key" value="${randomUUID().replaceAll('-', '')}">
<input type="hidden" name="csrf_token" value="${'A'.repeat(43)}">
</form><script>document.forms[0].submit()</script>`,
    );
    // The stack is served as 127.0.0.1: the same host on another port is the same site, localhost another.
    expect(new URL(apiUrl).hostname).toBe('127.0.0.1');
    const before = await refundsOf();
    const { context, page } = await signedInPage();
    try {
      // Another port of the same host: another origin, the same site, so the session cookie goes along.
      const sameSite = await context.newPage();
      const refused = nextPost(sameSite, `charges/${chargeId}/refunds`);
      await sameSite.goto(`http://127.0.0.1:${hostilePort}/refund`);
      const answer = await refused;
      expect((await answer.request().allHeaders()).cookie ?? '').toMatch(/(^|; )cobro_dashboard=/);
      expect(answer.status()).toBe(403);
      await sameSite.waitForLoadState('load');
      expect(await visibleText(sameSite)).toContain(expired);
      expect(await refundsOf()).toEqual(before);

      // Another site (localhost is not 127.0.0.1): the session cookie stays home, the form meets the sign-in.
      const crossSite = await context.newPage();
      const redirected = nextPost(crossSite, `charges/${chargeId}/refunds`);
      await crossSite.goto(`http://localhost:${hostilePort}/refund`);
      const toSignIn = await redirected;
      expect((await toSignIn.request().allHeaders()).cookie ?? '').not.toMatch(/(^|; )cobro_dashboard=/);
      expect(toSignIn.status()).toBe(303);
      expect(toSignIn.headers().location).toBe(dashboardUrl('sign-in'));
      await crossSite.waitForURL(dashboardUrl('sign-in'));
      expect(await refundsOf()).toEqual(before);

      // The merchant is still signed in, and the charge still has all of its 40.00 to refund.
      await page.goto(dashboardUrl(`charges/${chargeId}`));
      expect(await visibleText(page)).toContain('Amount to refund (empty: all that is left, 40.00 USD)');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('the refund and cancel forms with their csrf_token changed: 403 and nothing changed; untouched they work', async () => {
    // A real token, of another session of the same account: still not this session's.
    const other = await new DashboardClient().signedIn(account.testKey);
    const othersToken = formToken((await other.get(`charges/${chargeId}`)).html);
    const { context, page } = await signedInPage();
    // Sets the hidden csrf_token of the form `form` (a selector) as a script in the page could.
    const setToken = async (form: string, value: string) => {
      const set = await page.evaluate(`(() => {
        const field = document.querySelector(${JSON.stringify(`${form} input[name="csrf_token"]`)});
        if (!field) return false;
        field.value = ${JSON.stringify(value)};
        return true;
      })()`);
      expect(set, `a csrf_token in ${form}`).toBe(true);
    };
    try {
      const before = await refundsOf();
      await page.goto(dashboardUrl(`charges/${chargeId}`));
      await page.getByLabel(/Amount to refund/).fill('3.00');
      await setToken('form[action$="/refunds"]', othersToken);
      let answer = nextPost(page, `charges/${chargeId}/refunds`);
      await page.getByRole('button', { name: 'Refund', exact: true }).click();
      expect((await answer).status()).toBe(403);
      await page.waitForLoadState('load');
      expect(await visibleText(page)).toContain(expired);
      expect(await refundsOf()).toEqual(before);

      // The same form as served refunds.
      await page.goto(dashboardUrl(`charges/${chargeId}`));
      await page.getByLabel(/Amount to refund/).fill('3.00');
      await Promise.all([
        page.waitForURL(/\?refunded=/),
        page.getByRole('button', { name: 'Refund', exact: true }).click(),
      ]);
      expect(await refundsOf()).toEqual([...before, '3.00']);

      const cancel = dashboardUrl(`subscriptions/${subscriptionId}/cancel`);
      await page.goto(cancel);
      await setToken(`form[action="${cancel}"]`, '');
      answer = nextPost(page, `subscriptions/${subscriptionId}/cancel`);
      await page.getByRole('button', { name: 'Yes, cancel the subscription', exact: true }).click();
      expect((await answer).status()).toBe(403);
      await page.waitForLoadState('load');
      expect(await visibleText(page)).toContain(expired);
      expect(await subscriptionStatus()).toBe('active');

      await page.goto(cancel);
      await Promise.all([
        page.waitForURL(/\?canceled=1$/),
        page.getByRole('button', { name: 'Yes, cancel the subscription', exact: true }).click(),
      ]);
      expect(await subscriptionStatus()).toBe('canceled');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('the sign-in form without its CSRF cookie is refused and sets no session; with it, signs in', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    try {
      await page.goto(dashboardUrl('sign-in'));
      expect((await context.cookies()).map((cookie) => cookie.name)).toContain('cobro_dashboard_signin');
      await context.clearCookies({ name: 'cobro_dashboard_signin' });
      const user = await newUser(account.developerId);
      await page.getByLabel('E-mail address').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      const answer = nextPost(page, 'sign-in');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      const refused = await answer;
      expect(refused.status()).toBe(403);
      expect((await refused.headerValues('set-cookie')).join('\n')).not.toMatch(/(^|\n)cobro_dashboard=/);
      await page.waitForLoadState('load');
      expect(await visibleText(page)).toContain(expired);
      expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('cobro_dashboard');
      await page.goto(dashboardUrl());
      expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');

      // The form as served again (its cookie set anew) signs in.
      await signInOnPage(page, account.testKey);
      expect((await context.cookies()).map((cookie) => cookie.name)).toContain('cobro_dashboard');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a hostile page framing the dashboard shows nothing of it', async () => {
    hostilePages.set('/inner', '<!doctype html><html lang="en"><title>Inner</title><p>framed fine</p>');
    hostilePages.set(
      '/frame',
      `<!doctype html><html lang="en"><title>Click here</title>
<iframe id="victim" title="victim" src="${dashboardUrl()}"></iframe>
<iframe id="control" title="control" src="/inner"></iframe>`,
    );
    const { context, page } = await signedInPage();
    try {
      const attack = await context.newPage();
      const refusals: string[] = [];
      attack.on('console', (message) => refusals.push(message.text()));
      const dashboardAnswer = attack.waitForResponse((response) => response.url() === dashboardUrl());
      await attack.goto(`http://127.0.0.1:${hostilePort}/frame`);
      const framed = await dashboardAnswer;
      // The dashboard was asked for, and answered, in the frame: the browser refused to show it.
      expect(framed.status()).toBe(200);
      // The control frame shows its page: a frame of this hostile page would be seen.
      const control = await (await attack.locator('#control').elementHandle())?.contentFrame();
      await expect.poll(() => control?.locator('body').innerText()).toContain('framed fine');
      const victim = await (await attack.locator('#victim').elementHandle())?.contentFrame();
      expect(victim).toBeTruthy();
      await expect.poll(() => victim?.url()).toMatch(/^chrome-error:/);
      const shown = await victim?.evaluate("document.body ? document.body.innerText : ''").catch(() => '');
      expect(shown).not.toContain('Test dashboard-csrf-browser');
      expect(shown).not.toContain('Sign out');
      await expect.poll(() => refusals.join('\n')).toMatch(/frame-ancestors 'none'|X-Frame-Options/);
      // The merchant's own tab still shows the dashboard.
      await page.reload();
      expect(await visibleText(page)).toContain('Test dashboard-csrf-browser');
    } finally {
      await context.close();
    }
  }, 60_000);
});
