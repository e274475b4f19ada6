/**
 * The dashboard's customers and subscriptions pages against the local stack: the API's search and
 * pages, a customer's own subscriptions and charges, another account's customer or subscription as
 * a 404 page, a portal link made from the page that opens the portal, and a cancel (after its
 * confirmation step) that changes the status once under a double submit, refused without the
 * session's CSRF token, and answered with the API's 409 the second time.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { openPage, payThroughCheckout } from '../support/checkout.ts';
import { DashboardClient, dashboardUrl, formToken, hiddenField } from '../support/dashboard.ts';
import { concurrently } from '../support/race.ts';
import { api, apiKey, newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';
import { subscribe } from '../support/subscriptions.ts';
import { storedEventItems } from '../support/table.ts';

let account: TestAccount;
let other: TestAccount;
let auth: string;
let planId: string;
let browser: DashboardClient;
const tag = Math.random().toString(36).slice(2, 8);

beforeAll(async () => {
  useLocalEnvironment();
  [account, other] = await Promise.all([newAccount('dash-customers'), newAccount('dash-customers-other')]);
  auth = apiKey(account.testKey);
  const plan = await api('POST', '/v1/plans/', {
    auth,
    body: {
      name: 'Gold <b>plan</b>',
      amount: '10.50',
      currency: 'USD',
      interval: 'month',
      interval_count: 1,
    },
  });
  expect(plan.status, plan.text).toBe(201);
  planId = plan.json.data.id as string;
  browser = await new DashboardClient().signedIn(account.testKey);
});

async function newCustomer(firstName: string, as = auth) {
  const email = `${firstName.toLowerCase()}-${tag}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const created = await api('POST', '/v1/customers/', {
    auth: as,
    body: { first_name: firstName, last_name: 'Tester', email },
  });
  expect(created.status, created.text).toBe(201);
  return { id: created.json.data.id as string, email };
}

const subscriptionOf = (customerId: string, as: TestAccount = account, plan = planId) =>
  subscribe({ account: as, planId: plan, anchor: new Date().toISOString(), customerId });

/** The portal link a page shows in its read-only field. */
const portalUrlOf = (html: string) => {
  const url = /<input id="portal_url" type="url" readonly value="([^"]+)"/.exec(html)?.[1];
  expect(url, html.slice(-1500)).toBeDefined();
  return url as string;
};

const statusOf = async (id: string) =>
  (await api('GET', `/v1/subscriptions/${id}`, { auth })).json.status as string;

describe('customers', () => {
  it("lists with the API's search and pages, and a blank search is the API's 400", async () => {
    const names = [`Zelda${tag}`, `Zora${tag}`, `Zane${tag}`];
    for (const name of names) await newCustomer(name);
    const all = await browser.get(`customers?search=${tag}&page_size=2`);
    expect(all.status, all.html).toBe(200);
    expect(all.html).toContain('3 customers');
    expect(all.html).toContain('Page 1 of 2');
    expect(all.html).toContain(`page=2&amp;page_size=2&amp;search=${tag}`);
    // The API's list under the same query: the same customers on each page.
    for (const page of [1, 2]) {
      const query = `search=${tag}&page=${page}&page_size=2`;
      const listed = await api('GET', `/v1/customers/?${query}`, { auth });
      expect(listed.status).toBe(200);
      const shown = page === 1 ? all : await browser.get(`customers?${query}`);
      for (const name of names) {
        const inApi = listed.json.results.some((c: { first_name: string }) => c.first_name === name);
        expect(shown.html.includes(`${name} Tester`), `${name} on page ${page}`).toBe(inApi);
      }
    }
    // An empty search field is no search; a blank one is refused as the API refuses it.
    const unfiltered = await browser.get('customers?search=');
    expect(unfiltered.status).toBe(200);
    expect(unfiltered.html).toContain(`Zane${tag}`);
    const blank = await browser.get('customers?search=%20%20');
    expect(blank.status).toBe(400);
    expect((await api('GET', '/v1/customers/?search=%20%20', { auth })).status).toBe(400);
    // A page past the last is the API's 404, on the page.
    expect((await browser.get(`customers?page=9&page_size=2&search=${tag}`)).status).toBe(404);
  });

  it('shows a customer with their own subscriptions and charges, each charge linking to its page', async () => {
    const customer = await newCustomer('Ada');
    const neighbour = await newCustomer('Bea');
    const { chargeId } = await payThroughCheckout(auth, {
      payment: { amount: '7.25', description: 'A <script>mug</script>' },
      card: { email: customer.email },
    });
    const theirs = await payThroughCheckout(auth, { card: { email: neighbour.email } });
    const subscription = await subscriptionOf(customer.id);
    await subscriptionOf(neighbour.id);

    const page = await browser.get(`customers/${customer.id}`);
    expect(page.status, page.html).toBe(200);
    expect(page.html).toContain('Customer Ada Tester');
    expect(page.html).toContain(customer.email);
    expect(page.html).toContain(`href="${dashboardUrl(`charges/${chargeId}`)}"`);
    expect(page.html).toContain('A &lt;script&gt;mug&lt;/script&gt;');
    expect(page.html).not.toContain('<script>');
    expect(page.html).toContain(`href="${dashboardUrl(`subscriptions/${subscription.id}`)}"`);
    expect(page.html).toContain('10.50 USD × 2 = 21.00 USD / month');
    expect(page.html).not.toContain(theirs.chargeId);
    // The charge's link opens the charges page of the same session.
    expect((await browser.get(`charges/${chargeId}`)).status).toBe(200);
  });

  it("pages a customer's charges on their own, newest first", async () => {
    const customer = await newCustomer('Cleo');
    const charges: string[] = [];
    for (let n = 0; n < 21; n += 1) {
      charges.push(
        (await payThroughCheckout(auth, { payment: { amount: '1.00' }, card: { email: customer.email } }))
          .chargeId,
      );
    }
    const first = await browser.get(`customers/${customer.id}`);
    expect(first.html).toContain(charges[20]);
    expect(first.html).not.toContain(charges[0]);
    expect(first.html).toContain('subscriptions_page=1&amp;charges_page=2');
    const second = await browser.get(`customers/${customer.id}?charges_page=2`);
    expect(second.status).toBe(200);
    expect(second.html).toContain(charges[0]);
    expect(second.html).not.toContain(charges[20]);
    expect((await browser.get(`customers/${customer.id}?charges_page=0`)).status).toBe(400);
  }, 60_000);

  it("another account's customer, or no customer, is the 404 page, and makes no portal link", async () => {
    const theirs = await newCustomer('Dora', apiKey(other.testKey));
    for (const path of [
      `customers/${theirs.id}`,
      'customers/not-a-uuid',
      `customers/${crypto.randomUUID()}`,
    ]) {
      const page = await browser.get(path);
      expect(page.status, path).toBe(404);
      expect(page.html).toContain('The customer could not be found.');
    }
    const home = await browser.get('customers');
    const made = await browser.post(`customers/${theirs.id}/portal`, {
      csrf_token: formToken(home.html),
      idempotency_key: 'k'.repeat(32),
    });
    expect(made.status).toBe(404);
    expect(made.html).not.toContain('/portal/');
  });

  it('makes a portal link that opens the portal of that customer; without the CSRF token it makes none', async () => {
    const customer = await newCustomer('Grace');
    const page = await browser.get(`customers/${customer.id}`);
    const key = hiddenField(page.html, 'idempotency_key');
    const refused = await browser.post(`customers/${customer.id}/portal`, {
      csrf_token: 'x'.repeat(32),
      idempotency_key: key,
    });
    expect(refused.status).toBe(403);
    expect(refused.html).not.toMatch(/\/portal\/[A-Za-z0-9]{43}/);

    const before = Date.now();
    const made = await browser.post(`customers/${customer.id}/portal`, {
      csrf_token: formToken(page.html),
      idempotency_key: key,
    });
    expect(made.status, made.html).toBe(200);
    const url = portalUrlOf(made.html);
    expect(url).toMatch(/\/portal\/[A-Za-z0-9]{43}$/);
    const expires = Date.parse(/<time datetime="([^"]+)">/.exec(made.html)?.[1] ?? '');
    expect(expires).toBeGreaterThanOrEqual(before + 3_600_000 - 5_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 3_600_000 + 5_000);
    const portal = await openPage(url);
    expect(portal.status).toBe(200);
    expect(portal.html).toContain('Hello Grace');
  });

  it('makes one link for a form submitted twice; the second submit shows no link', async () => {
    const customer = await newCustomer('Hedy');
    const page = await browser.get(`customers/${customer.id}`);
    const fields = {
      csrf_token: formToken(page.html),
      idempotency_key: hiddenField(page.html, 'idempotency_key'),
    };
    const racing = await concurrently(2, () => browser.post(`customers/${customer.id}/portal`, fields));
    // One makes the link and shows it; the other makes none and says the form made one (409).
    expect(racing.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const shown = racing.find((answer) => answer.status === 200);
    expect(portalUrlOf(shown?.html ?? '')).toMatch(/\/portal\/[A-Za-z0-9]{43}$/);
    const again = await browser.post(`customers/${customer.id}/portal`, fields);
    expect(again.status).toBe(409);
    expect(again.html).toContain('This form already made a portal link');
    expect(again.html).not.toMatch(/\/portal\/[A-Za-z0-9]{43}/);
    // A new page's form makes a new link.
    const next = await browser.get(`customers/${customer.id}`);
    const another = await browser.post(`customers/${customer.id}/portal`, {
      csrf_token: formToken(next.html),
      idempotency_key: hiddenField(next.html, 'idempotency_key'),
    });
    expect(another.status).toBe(200);
    expect(portalUrlOf(another.html)).not.toBe(portalUrlOf(shown?.html ?? ''));
    const noKey = await browser.post(`customers/${customer.id}/portal`, { csrf_token: fields.csrf_token });
    expect(noKey.status).toBe(400);
  });
});

describe('subscriptions', () => {
  it("lists with the API's filters and pages; an unknown status is the API's 400", async () => {
    const customer = await newCustomer('Edna');
    const subscriptions = [await subscriptionOf(customer.id), await subscriptionOf(customer.id)];
    const page = await browser.get(`subscriptions?plan_id=${planId}&status=&page_size=1`);
    expect(page.status, page.html).toBe(200);
    const api1 = await api('GET', `/v1/subscriptions?plan_id=${planId}&page_size=1`, { auth });
    const first = api1.json.results[0].subscription_id as string;
    expect(page.html).toContain(first);
    expect(page.html).toContain(`Page 1 of ${api1.json.total_pages}`);
    expect(page.html).toContain(`href="${dashboardUrl(`customers/${customer.id}`)}"`);
    expect(subscriptions.map((s) => s.id)).toContain(first);
    const canceled = await browser.get(`subscriptions?status=canceled&plan_id=${planId}`);
    expect(canceled.html).not.toContain(first);
    expect((await browser.get('subscriptions?status=sleeping')).status).toBe(400);
    expect((await api('GET', '/v1/subscriptions?status=sleeping', { auth })).status).toBe(400);
  });

  it('shows one subscription: plan, quantity, amount per interval, status, period, card, customer', async () => {
    const customer = await newCustomer('Fay');
    const subscription = await subscriptionOf(customer.id);
    const page = await browser.get(`subscriptions/${subscription.id}`);
    expect(page.status, page.html).toBe(200);
    for (const text of [
      'Gold',
      '10.50 USD × 2 = 21.00 USD / month',
      'data-status="active"',
      'Visa •••• 4242',
      `href="${dashboardUrl(`customers/${customer.id}`)}"`,
      `href="${dashboardUrl(`subscriptions/${subscription.id}/cancel`)}"`,
    ])
      expect(page.html).toContain(text);
  });

  it("another account's subscription is 404, to see, to confirm and to cancel, and stays active", async () => {
    const theirs = await subscriptionOf((await newCustomer('Gia', apiKey(other.testKey))).id, other);
    for (const path of [
      `subscriptions/${theirs.id}`,
      `subscriptions/${theirs.id}/cancel`,
      'subscriptions/sub_nope',
    ]) {
      const page = await browser.get(path);
      expect(page.status, path).toBe(404);
      expect(page.html).toContain('The id matches no subscription.');
    }
    const home = await browser.get('subscriptions');
    const cancel = await browser.post(`subscriptions/${theirs.id}/cancel`, {
      csrf_token: formToken(home.html),
    });
    expect(cancel.status).toBe(404);
    const stored = await api('GET', `/v1/subscriptions/${theirs.id}`, { auth: apiKey(other.testKey) });
    expect(stored.json.status).toBe('active');
  });

  it('cancels after the confirmation step, once under a double submit; a wrong CSRF token changes nothing', async () => {
    const customer = await newCustomer('Hana');
    const subscription = await subscriptionOf(customer.id);
    const confirm = await browser.get(`subscriptions/${subscription.id}/cancel`);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain('Yes, cancel the subscription');
    // Seeing the confirmation cancels nothing.
    expect(await statusOf(subscription.id)).toBe('active');

    const refused = await browser.post(`subscriptions/${subscription.id}/cancel`, { csrf_token: 'nope' });
    expect(refused.status).toBe(403);
    expect(await statusOf(subscription.id)).toBe('active');

    const csrf = formToken(confirm.html);
    const answers = await concurrently(2, () =>
      browser.post(`subscriptions/${subscription.id}/cancel`, { csrf_token: csrf }),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([303, 409]);
    const done = answers.find((answer) => answer.status === 303);
    expect(done?.location).toBe(dashboardUrl(`subscriptions/${subscription.id}?canceled=1`));
    const conflict = answers.find((answer) => answer.status === 409);
    expect(conflict?.html).toContain('The subscription was canceled before.');
    expect(await statusOf(subscription.id)).toBe('canceled');
    const events = (await storedEventItems(account.developerId, 'test'))
      .map((item) => item.detail)
      .filter(
        (detail) =>
          detail.type === 'subscription.canceled' && detail.data.object.subscription_id === subscription.id,
      );
    expect(events).toHaveLength(1);
    expect(events[0].data.reason).toBe('requested');

    const shown = await browser.get(done?.location as string);
    expect(shown.html).toContain('The subscription was canceled.');
    expect(shown.html).toContain('data-status="canceled"');
    expect(shown.html).not.toContain('/cancel"');
    // A second cancel, later: the API's 409, on the subscription's page.
    const again = await browser.post(`subscriptions/${subscription.id}/cancel`, { csrf_token: csrf });
    expect(again.status).toBe(409);
    expect(again.html).toContain('The subscription was canceled before.');
    expect((await api('DELETE', `/v1/subscriptions/${subscription.id}`, { auth })).status).toBe(409);
  });

  it('speaks Spanish on the subscription page', async () => {
    const subscription = await subscriptionOf((await newCustomer('Inés')).id);
    const spanish = new DashboardClient({ 'Accept-Language': 'es' });
    await spanish.signedIn(account.testKey);
    const page = await spanish.get(`subscriptions/${subscription.id}`);
    expect(page.html).toContain('10,50 USD × 2 = 21,00 USD / mes');
    expect(page.html).toContain('Visa •••• 4242');
    expect(page.html).toContain('Cancelar ahora…');
  });

  it('a page or a form without a session answers 303 to the sign-in form and cancels nothing', async () => {
    const subscription = await subscriptionOf((await newCustomer('Jo')).id);
    const stranger = new DashboardClient();
    for (const path of ['customers', 'subscriptions', `subscriptions/${subscription.id}/cancel`]) {
      const page = await stranger.get(path);
      expect(page.status).toBe(303);
      expect(page.location).toBe(dashboardUrl('sign-in'));
    }
    const cancel = await stranger.post(`subscriptions/${subscription.id}/cancel`, { csrf_token: 'x' });
    expect(cancel.status).toBe(303);
    expect(await statusOf(subscription.id)).toBe('active');
  });
});
