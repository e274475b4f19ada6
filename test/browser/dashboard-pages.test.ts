/**
 * Every page of the dashboard in real Chromium, driven by the route table: one record of each kind
 * is made through the API (a charge with a refund, a customer, a subscription, a plan, a product, a
 * payment link, a webhook endpoint with a delivery, and so events), then every GET route under
 * /dashboard/ is opened signed in, `{id}` standing for the record of its section, in English and in
 * Spanish, at 1280 and 390 px wide. Each answers 200 where it was asked (no redirect), in the
 * language chosen (`html[lang]`), refusing to be framed, no wider than the window, and with no
 * serious or critical axe-core violation (test/support/axe.ts).
 *
 * A GET route of the dashboard whose section has no record here fails the test, so a new page
 * cannot go unvisited: the paths visited must be exactly the table's GET routes.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../shared/api/routes.ts';
import { seriousViolations } from '../support/axe.ts';
import { launchBrowser } from '../support/browser.ts';
import { payThroughCheckout, submitCard } from '../support/checkout.ts';
import { dashboardUrl, signInOnPage } from '../support/dashboard.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';
import { api, apiKey, apiUrl, newAccount, type TestAccount } from '../support/stack.ts';
import { linkFor, newInvitedUser } from '../support/team.ts';

/** The dashboard's pages: the GET rows of the assembled route table under /dashboard/. */
const pageRoutes = routes.filter((route) => route.method === 'GET' && route.path.startsWith('/dashboard/'));

/** The seeded record of each section (the path's segment after /dashboard/) a `{id}` stands for. */
const ids: Record<string, string> = {};

/** The query a page needs to be itself rather than another (the key rotation's confirmation asks which key). */
const queries: Record<string, string> = { '/dashboard/api-keys/rotate': '?type=test' };

let browser: Browser;
let account: TestAccount;
let receiver: Receiver;

/** POST to the API as the account; fails the test unless the answer is `status`. */
async function made(path: string, body: unknown, status = 201) {
  const answer = await api('POST', path, { auth: apiKey(account.testKey), body });
  expect(answer.status, `${path}: ${answer.text}`).toBe(status);
  return answer.json;
}

/** Waits until the endpoint's deliveries, read through the API, list at least one attempt. */
async function deliveryListed(endpointId: string): Promise<void> {
  const until = Date.now() + 20_000;
  for (;;) {
    const answer = await api('GET', `/v1/webhook-endpoints/${endpointId}/deliveries/`, {
      auth: apiKey(account.testKey),
    });
    expect(answer.status, answer.text).toBe(200);
    const rows = Array.isArray(answer.json) ? answer.json : (answer.json.results ?? answer.json.data ?? []);
    if (rows.length > 0) return;
    expect(Date.now(), `a delivery of ${endpointId} listed`).toBeLessThan(until);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  [browser, account, receiver] = await Promise.all([
    launchBrowser(),
    newAccount('dashboard-pages'),
    startReceiver(),
  ]);
  // The endpoint first, so the events the rest makes are delivered to it.
  ids.webhooks = (await made('/v1/webhook-endpoints/', { url: `${receiver.url}/pages-hook` })).data.id;
  const customer = await made('/v1/customers/', {
    first_name: 'Paz',
    last_name: 'Pages',
    email: `paz-${Date.now()}@example.com`,
  });
  ids.customers = customer.data.id;
  // A one-time link's form: an invited user's set-password link (opening it uses nothing up).
  const invited = await newInvitedUser(account.developerId);
  ids.users = invited.user_id;
  ids.connectors = 'live';
  ids.access = (await linkFor(invited)).split('/').at(-1) as string;
  const auth = apiKey(account.testKey);
  const { chargeId } = await payThroughCheckout(auth, {
    payment: { amount: '30.00', description: 'Pages mug' },
  });
  ids.charges = chargeId;
  await made('/v1/refunds/', { charge_id: chargeId, amount: '5.00', reason: 'requested_by_customer' });
  const plan = await made('/v1/plans/', {
    name: 'Pages gold',
    currency: 'USD',
    amount: '10.50',
    interval: 'month',
    interval_count: 1,
  });
  ids.plans = plan.data.id;
  ids.products = (
    await made('/v1/products/', { name: 'Pages mug', price: '12.00', currency: 'USD' })
  ).data.id;
  const link = await made('/v1/payment-links/', {
    description: 'Pages lesson',
    amount: '20.00',
    currency: 'USD',
  });
  ids.links = (Array.isArray(link.data) ? link.data[0] : link.data).id;
  const subscription = await made('/v1/subscriptions', {
    plan_id: ids.plans,
    customer_id: ids.customers,
    return_url: 'https://shop.example.com/thanks',
  });
  ids.subscriptions = subscription.data.subscription_id;
  const paid = await submitCard(subscription.data.checkout_url as string);
  expect(paid.status, paid.html).toBe(303);
  const active = await api('GET', `/v1/subscriptions/${ids.subscriptions}`, { auth });
  expect(active.json.status).toBe('active');
  const events = await api('GET', '/v1/events/?page_size=1', { auth });
  expect(events.status, events.text).toBe(200);
  ids.events = events.json.results[0].id;
  await deliveryListed(ids.webhooks as string);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

/** The URL a page route is opened at, or undefined when no record of its section was made. */
function urlOf(path: string): string | undefined {
  let concrete = path;
  const parameter = /\{[a-z_]+\}/.exec(path)?.[0];
  if (parameter) {
    const id = ids[path.split('/')[2] ?? ''];
    if (!id) return undefined;
    concrete = path.replace(parameter, encodeURIComponent(id));
  }
  return `${apiUrl}${concrete}${queries[path] ?? ''}`;
}

/** Whether an answer's headers forbid framing the page anywhere. */
function refusesFraming(headers: Record<string, string>): boolean {
  const csp = headers['content-security-policy'] ?? '';
  return (
    (headers['x-frame-options'] ?? '').toUpperCase() === 'DENY' ||
    /(^|;)\s*frame-ancestors 'none'\s*(;|$)/.test(csp)
  );
}

/**
 * Opens `url` in `page` and checks it in `lang` at both widths; answers what is wrong (nothing: []).
 */
async function checkPage(page: Page, path: string, url: string, lang: 'en' | 'es'): Promise<string[]> {
  const problems: string[] = [];
  const name = `${path} (${lang})`;
  await page.setViewportSize({ width: 1280, height: 900 });
  const response = await page.goto(url);
  if (!response) return [`${name}: no answer`];
  if (response.status() !== 200) problems.push(`${name}: status ${response.status()}`);
  if (page.url() !== url) problems.push(`${name}: landed on ${page.url()}`);
  if (!refusesFraming(response.headers())) problems.push(`${name}: may be framed`);
  const htmlLang = await page.locator('html').getAttribute('lang');
  if (htmlLang !== lang) problems.push(`${name}: html lang ${htmlLang}`);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const { scroll, inner } = (await page.evaluate(
      '({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })',
    )) as { scroll: number; inner: number };
    if (scroll > inner) problems.push(`${name} at ${width} px: ${scroll} px wide`);
    for (const violation of await seriousViolations(page))
      problems.push(`${name} at ${width} px: ${violation}`);
  }
  return problems;
}

describe('every dashboard page in a browser', () => {
  it('opens every GET page of the route table, in English and Spanish, at 1280 and 390 px: 200, its language, not framable, no overflow, axe clean', async () => {
    // The table has the dashboard's pages (a filter that matched nothing would prove nothing).
    expect(pageRoutes.map((route) => route.path)).toEqual(
      expect.arrayContaining([
        '/dashboard/',
        '/dashboard/sign-in',
        '/dashboard/charges/{id}',
        '/dashboard/events/{id}',
      ]),
    );
    const unseeded = pageRoutes.filter((route) => urlOf(route.path) === undefined).map((route) => route.path);
    expect(unseeded, 'GET dashboard routes with no seeded record of their section').toEqual([]);

    const context = await browser.newContext({ locale: 'en-US' });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const problems: string[] = [];
    const visited: Record<'en' | 'es', string[]> = { en: [], es: [] };
    try {
      await page.goto(dashboardUrl('sign-in'));
      await signInOnPage(page, account.testKey);
      for (const lang of ['en', 'es'] as const) {
        if (lang === 'es') {
          // The language switch, as a merchant uses it; every page after it speaks Spanish.
          await Promise.all([
            page.waitForURL(dashboardUrl()),
            page.getByRole('button', { name: 'Español', exact: true }).click(),
          ]);
        }
        for (const route of pageRoutes) {
          const url = urlOf(route.path) as string;
          problems.push(...(await checkPage(page, route.path, url, lang)));
          visited[lang].push(route.path);
        }
        // Back where the switch is, for the next language.
        await page.goto(dashboardUrl());
      }
      // Still signed in after it all: the pages were the signed-in ones, not the sign-in form.
      expect(new URL(page.url()).pathname).toBe('/dashboard/');
    } finally {
      await context.close();
    }
    expect(problems).toEqual([]);
    const expected = pageRoutes.map((route) => route.path).sort();
    expect([...visited.en].sort()).toEqual(expected);
    expect([...visited.es].sort()).toEqual(expected);
  }, 300_000);
});
