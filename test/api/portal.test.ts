/**
 * The customer portal through the local gateway: the link a merchant asks for, the page it opens
 * (only that customer's subscriptions and payments), its expiry and CSRF check, a cancel from it (at
 * the period's end, undone by Resume until then, or at once), and a card replaced through its card
 * check page: on an active subscription nothing is charged; on a past-due one the unpaid period is
 * charged once, however many submits and billing runs race it.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { newCharge } from '../../shared/charges/charge.ts';
import { chargeEntity } from '../../shared/charges/repository.ts';
import { checkoutKeys } from '../../shared/checkout/keys.ts';
import { displayDate } from '../../shared/core/display.ts';
import { prefixedId } from '../../shared/core/ids.ts';
import { putAll } from '../../shared/db/batch.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { portalKeys } from '../../shared/portal/keys.ts';
import { portalTokenHash } from '../../shared/portal/repository.ts';
import { stagePortalKeys } from '../../shared/portal/service.ts';
import { runBilling } from '../../shared/subscriptions/billing.ts';
import { subscriptionKeys } from '../../shared/subscriptions/keys.ts';
import { simulatedAcquirer } from '../support/acquirer.ts';
import {
  cardFields,
  csrfOf,
  listCharges,
  openPage,
  postForm,
  submitCard,
  testCards,
} from '../support/checkout.ts';
import { addFault, armedFaults, clearFaults } from '../support/faults.ts';
import { eventually } from '../support/ledger.ts';
import { sentMail, waitForMail } from '../support/mail.ts';
import { pipelineDrained } from '../support/pipeline.ts';
import { concurrently } from '../support/race.ts';
import {
  api,
  apiKey,
  localInfo,
  newAccount,
  type TestAccount,
  useLocalEnvironment,
} from '../support/stack.ts';
import { subscribe } from '../support/subscriptions.ts';
import { storedEventItems } from '../support/table.ts';

let account: TestAccount;
let other: TestAccount;
let auth: string;
let planId: string;
beforeAll(async () => {
  useLocalEnvironment();
  [account, other] = await Promise.all([newAccount('portal'), newAccount('portal-other')]);
  auth = apiKey(account.testKey);
  const plan = await api('POST', '/v1/plans/', {
    auth,
    body: { name: 'Gold', amount: '10.50', currency: 'USD', interval: 'month', interval_count: 1 },
  });
  expect(plan.status, plan.text).toBe(201);
  planId = plan.json.data.id as string;
});

const day = 86_400_000;
const billingDeps = () => ({ ...makeDeps(), acquirer: simulatedAcquirer() });

async function newCustomer(as = auth) {
  const email = `portal-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const created = await api('POST', '/v1/customers/', {
    auth: as,
    body: { first_name: 'Grace', last_name: 'Hopper', email },
  });
  expect(created.status, created.text).toBe(201);
  return { id: created.json.data.id as string, email };
}

async function portalOf(customerId: string, as = auth) {
  const answer = await api('POST', `/v1/customers/${customerId}/portal/`, { auth: as });
  expect(answer.status, answer.text).toBe(201);
  return answer.json as { url: string; expires_at: string };
}

/** An active subscription of `customerId` whose period 1 fell due a day ago, charged to `card`. */
const dueSubscription = (customerId: string, card: string = testCards.approved) =>
  subscribe({
    account,
    planId,
    anchor: new Date(Date.now() - 31 * day - day).toISOString(),
    customerId,
    card,
  });

/** A subscription whose renewal was declined: past due, its period 1 unpaid. */
async function pastDue(customerId: string) {
  const subscription = await dueSubscription(customerId, testCards.declinesWhenStored);
  await runBilling(billingDeps(), new Date(), { developerId: account.developerId });
  expect(await subscriptionStatus(subscription.id)).toBe('past_due');
  return subscription;
}

/** The events of `type` stored about subscription `id` (of `developerId`, the suite's account unless given). */
const eventsAbout = async (type: string, id: string, developerId = account.developerId) =>
  (await storedEventItems(developerId, 'test'))
    .map((item) => item.detail)
    .filter((detail) => detail.type === type && detail.data.object.subscription_id === id);

/** The subscription's item as stored. */
async function subscriptionItem(id: string) {
  const deps = makeDeps();
  const answer = await deps.db.send(
    new GetCommand({
      TableName: deps.table,
      Key: subscriptionKeys.subscription(account.developerId, 'test', id),
    }),
  );
  return answer.Item;
}

/** A checkout session's item as stored, by its page's URL. */
async function sessionItem(pageUrl: string) {
  const deps = makeDeps();
  const token = pageUrl.split('/').pop() as string;
  const answer = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: checkoutKeys.session(token) }),
  );
  return answer.Item;
}

const subscriptionStatus = async (id: string) =>
  (await api('GET', `/v1/subscriptions/${id}`, { auth })).json.status as string;

const chargesOf = async (subscriptionId: string) =>
  (await listCharges(auth, 'limit=1000')).filter((charge) => charge.subscription_id === subscriptionId);

/** The portal page's form action posting `action` on `subscriptionId`, with the page's CSRF token. */
async function act(url: string, action: string, subscriptionId: string, csrf?: string) {
  const page = await openPage(url);
  expect(page.status, page.html).toBe(200);
  return postForm(url, {
    csrf_token: csrf ?? csrfOf(page.html),
    action,
    subscription_id: subscriptionId,
  });
}

describe('the portal link', () => {
  it('is 201 {url, expires_at} an hour ahead, and opens that customer alone', async () => {
    const customer = await newCustomer();
    const before = Date.now();
    const answer = await api('POST', `/v1/customers/${customer.id}/portal/`, { auth });
    expect(answer.status, answer.text).toBe(201);
    expect(Object.keys(answer.json).sort()).toEqual(['expires_at', 'url']);
    const expires = Date.parse(answer.json.expires_at as string);
    expect(expires).toBeGreaterThanOrEqual(before + 3_600_000 - 5_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 3_600_000 + 5_000);
    const token = (answer.json.url as string).split('/').pop() as string;
    expect(token).toMatch(/^[A-Za-z0-9]{43}$/);
    const page = await openPage(answer.json.url as string);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Hello Grace');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it("is 404 for another account's customer, and for no customer at all", async () => {
    const theirs = await newCustomer(apiKey(other.testKey));
    const answer = await api('POST', `/v1/customers/${theirs.id}/portal/`, { auth });
    expect(answer.status, answer.text).toBe(404);
    const none = await api('POST', '/v1/customers/00000000000000000000000000000000/portal/', { auth });
    expect(none.status, none.text).toBe(404);
  });

  it('stores no token: its item is keyed by a hash that is not the token', async () => {
    const customer = await newCustomer();
    const { url } = await portalOf(customer.id);
    const token = url.split('/').pop() as string;
    const deps = makeDeps();
    const plain = await deps.db.send(new GetCommand({ TableName: deps.table, Key: portalKeys.link(token) }));
    expect(plain.Item).toBeUndefined();
  });

  it('shows 404 for an unknown token and 410 once expired', async () => {
    const unknown = await openPage(
      `${new URL((await portalOf((await newCustomer()).id)).url).origin}/portal/${'x'.repeat(43)}`,
    );
    expect(unknown.status).toBe(404);
    // An expired link: a link whose time ran out (written as the portal writes one, an hour ago).
    const customer = await newCustomer();
    const { url } = await portalOf(customer.id);
    const token = url.split('/').pop() as string;
    const deps = makeDeps();
    const key = await stagePortalKeys().sign();
    const stored = await deps.db.send(
      new GetCommand({ TableName: deps.table, Key: portalKeys.link(portalTokenHash(token, key)) }),
    );
    expect(stored.Item).toBeDefined();
    await deps.db.send(
      new PutCommand({ TableName: deps.table, Item: { ...stored.Item, expires_at_ms: Date.now() - 1000 } }),
    );
    const expired = await openPage(url);
    expect(expired.status, expired.html).toBe(410);
    expect(expired.html).toContain('expired');
  });
});

describe('the portal page', () => {
  it("shows the customer's subscriptions and charges with their receipts, and refuses a form without its CSRF token", async () => {
    const customer = await newCustomer();
    const subscription = await dueSubscription(customer.id);
    await runBilling(billingDeps(), new Date(), { developerId: account.developerId });
    expect(await subscriptionStatus(subscription.id)).toBe('active');
    const { url } = await portalOf(customer.id);
    const page = await openPage(url);
    expect(page.html).toContain('Gold');
    expect(page.html).toContain('10.50 USD × 2 = 21.00 USD / month');
    expect(page.html).toContain('data-status="active"');
    expect(page.html).toContain('21.00 USD');
    // Each charge links its receipt: a receipt link made when asked for.
    const charge = (await chargesOf(subscription.id))[0] as { id: string };
    const toReceipt = await postForm(url, {
      csrf_token: csrfOf(page.html),
      action: 'receipt',
      charge_id: charge.id,
    });
    expect(toReceipt.status, toReceipt.html).toBe(303);
    expect(toReceipt.location).toMatch(/\/receipts\/[A-Za-z0-9]{43}$/);
    const receipt = await openPage(toReceipt.location as string);
    expect(receipt.status, receipt.html).toBe(200);
    expect(receipt.html).toContain(charge.id);
    // Another customer's charge is no receipt of this page's.
    const theirs = await newCustomer();
    const theirSubscription = await dueSubscription(theirs.id);
    await runBilling(billingDeps(), new Date(), { developerId: account.developerId });
    const theirCharge = (await chargesOf(theirSubscription.id))[0] as { id: string };
    const foreign = await postForm(url, {
      csrf_token: csrfOf(page.html),
      action: 'receipt',
      charge_id: theirCharge.id,
    });
    expect(foreign.status).toBe(400);
    const refused = await act(url, 'cancel', subscription.id, 'A'.repeat(32));
    expect(refused.status).toBe(403);
    expect(await subscriptionStatus(subscription.id)).toBe('active');
  });

  it("cancels now only once confirmed, with the confirmation's own token, once; the notice says so", async () => {
    const customer = await newCustomer();
    const subscription = await dueSubscription(customer.id);
    const { url } = await portalOf(customer.id);
    const pageCsrf = csrfOf((await openPage(url)).html);
    // The first post only asks: the period's end, or now (stated as such), and "Keep it"; nothing changes.
    const asked = await act(url, 'cancel', subscription.id);
    expect(asked.status, asked.html).toBe(200);
    expect(asked.html).toContain('Cancel Gold × 2?');
    expect(asked.html).toContain('>Cancel at end of period</button>');
    expect(asked.html).toContain('Or cancel now: it ends at once, and nothing already paid is refunded.');
    expect(asked.html).toContain('Keep it');
    expect(await subscriptionStatus(subscription.id)).toBe('active');
    const confirm = csrfOf(asked.html);
    expect(confirm).not.toBe(pageCsrf);
    // The page's token is not the confirmation's: it cancels nothing.
    const withPageToken = await postForm(url, {
      csrf_token: pageCsrf,
      action: 'confirm_cancel',
      subscription_id: subscription.id,
    });
    expect(withPageToken.status).toBe(403);
    expect(await subscriptionStatus(subscription.id)).toBe('active');
    // "Cancel now" posted twice at once: its token is spent once, and the subscription canceled once.
    const yes = { csrf_token: confirm, action: 'confirm_cancel', subscription_id: subscription.id };
    const [first, second] = await Promise.all([postForm(url, yes), postForm(url, yes)]);
    const statuses = [first.status, second.status].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    expect(await subscriptionStatus(subscription.id)).toBe('canceled');
    const done = first.status === 200 ? first : second;
    expect(done.html).toContain('Your subscription was canceled');
    // Posted again: spent, and the subscription is already canceled.
    expect((await postForm(url, yes)).status).toBe(409);
    const events = await eventsAbout('subscription.canceled', subscription.id);
    expect(events.map((detail) => detail.data.reason)).toEqual(['customer_requested']);
    const notice = await waitForMail(customer.email);
    expect(notice?.body.text).toContain('As you asked');
  });

  it('asks in Spanish, and "Keep it" changes nothing', async () => {
    const customer = await newCustomer();
    const subscription = await dueSubscription(customer.id);
    const { url } = await portalOf(customer.id);
    const page = await fetch(url, { headers: { 'Accept-Language': 'es' } });
    const csrf = csrfOf(await page.text());
    const asked = await fetch(url, {
      method: 'POST',
      body: new URLSearchParams({ csrf_token: csrf, action: 'cancel', subscription_id: subscription.id }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': 'es' },
    });
    const html = await asked.text();
    expect(asked.status, html).toBe(200);
    expect(html).toContain('¿Cancelar Gold × 2?');
    expect(html).toContain('>Cancelar al final del periodo</button>');
    expect(html).toContain('O cancélala ahora: termina de inmediato y no se reembolsa nada de lo ya pagado.');
    expect(html).toContain('>Cancelar ahora</button>');
    const keep = /<a href="([^"]+)">Conservarla<\/a>/.exec(html)?.[1];
    expect(keep).toBe(url);
    const back = await openPage(keep as string);
    expect(back.status).toBe(200);
    expect(await subscriptionStatus(subscription.id)).toBe('active');
  });

  it("will not act on another customer's subscription", async () => {
    const mine = await newCustomer();
    const theirs = await newCustomer();
    const subscription = await dueSubscription(theirs.id);
    await dueSubscription(mine.id); // so that the page has forms, and their CSRF token
    const { url } = await portalOf(mine.id);
    const answer = await act(url, 'cancel', subscription.id);
    expect(answer.status).toBe(400);
    expect(await subscriptionStatus(subscription.id)).toBe('active');
  });

  it("shows the customer's own charges however many newer ones the account's other customers have", async () => {
    const customer = await newCustomer();
    const subscription = await dueSubscription(customer.id);
    await runBilling(billingDeps(), new Date(), { developerId: account.developerId });
    const own = (await chargesOf(subscription.id))[0] as { id: string };
    // 250 charges of another customer, all newer than the customer's own.
    const crowd = await newCustomer();
    const theirs = Array.from({ length: 250 }, (_, i) =>
      newCharge({
        id: prefixedId('ch'),
        developerId: account.developerId,
        mode: 'test',
        source: 'checkout',
        paymentId: null,
        attemptId: prefixedId('att'),
        customerId: crowd.id,
        amount: 700,
        currency: 'USD',
        description: 'Crowd',
        statementDescription: 'CROWD',
        card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2099, country: 'US' },
        acquirerReference: `crowd-${i}`,
        now: new Date(Date.now() + 60_000 + i),
      }),
    );
    await putAll(makeDeps(), theirs.map(chargeEntity.item));
    const { html } = await openPage((await portalOf(customer.id)).url);
    expect(html).toContain(own.id);
    expect(theirs.filter((charge) => html.includes(charge.id))).toEqual([]);
    // The other customer's page lists their newest 50, newest first.
    const crowded = (await openPage((await portalOf(crowd.id)).url)).html;
    const shown = theirs.filter((charge) => crowded.includes(charge.id));
    expect(shown.map((charge) => charge.id)).toEqual(theirs.slice(-50).map((charge) => charge.id));
    const positions = shown.map((charge) => crowded.indexOf(charge.id));
    expect(positions).toEqual([...positions].sort((a, b) => b - a));
  });
});

describe("cancel at the period's end, and Resume (D19)", () => {
  /** A merchant of its own: a billing run at a later date then meets only its subscriptions. */
  async function merchant() {
    const own = await newAccount('portal-ending');
    const key = apiKey(own.testKey);
    const plan = await api('POST', '/v1/plans/', {
      auth: key,
      body: { name: 'Gold', amount: '10.50', currency: 'USD', interval: 'month', interval_count: 1 },
    });
    expect(plan.status, plan.text).toBe(201);
    return { account: own, auth: key, planId: plan.json.data.id as string };
  }
  type Merchant = Awaited<ReturnType<typeof merchant>>;

  /**
   * A subscription of a new customer of `of` (the suite's account unless given), paid for its first
   * period, which starts at `anchor` (now unless given), or in its trial until then; and its portal.
   */
  async function started(of?: Merchant, options: { anchor?: Date; trial?: boolean } = {}) {
    const as = of ?? { account, auth, planId };
    const customer = await newCustomer(as.auth);
    const subscription = await subscribe({
      account: as.account,
      planId: as.planId,
      anchor: (options.anchor ?? new Date()).toISOString(),
      customerId: customer.id,
      ...(options.trial ? { trial: true } : {}),
    });
    const { url } = await portalOf(customer.id, as.auth);
    return { subscription, url };
  }

  const viewOf = async (id: string, as = auth) =>
    (await api('GET', `/v1/subscriptions/${id}`, { auth: as })).json;
  const chargesFor = async (id: string, as: string) =>
    (await listCharges(as, 'limit=1000')).filter((charge) => charge.subscription_id === id);

  /** The cancel's confirmation asked for from `url`, and its choice `action` posted with its token. */
  async function choose(url: string, id: string, action: 'cancel_at_period_end' | 'confirm_cancel') {
    const asked = await act(url, 'cancel', id);
    expect(asked.status, asked.html).toBe(200);
    return postForm(url, { csrf_token: csrfOf(asked.html), action, subscription_id: id });
  }

  it('at the end of the period: sets cancel_at_period_end and cancel_at, charges nothing, says the date; Resume clears it, and it renews', async () => {
    const own = await merchant();
    const { subscription, url } = await started(own);
    const id = subscription.id;
    const end = (await viewOf(id, own.auth)).current_period_end as string;
    const date = displayDate(end, 'en');
    const pageCsrf = csrfOf((await openPage(url)).html);
    const asked = await act(url, 'cancel', id);
    expect(asked.html).toContain(
      `At the end of the period: it stays active until ${date}, the end of the period already paid for, and then ends. Nothing more is charged.`,
    );
    const confirm = csrfOf(asked.html);
    // Neither the page's token nor none at all is the confirmation's: nothing changes.
    for (const csrf of [pageCsrf, '']) {
      const refused = await postForm(url, {
        csrf_token: csrf,
        action: 'cancel_at_period_end',
        subscription_id: id,
      });
      expect(refused.status, refused.html).toBe(403);
      expect(refused.html).toContain('This form expired');
    }
    expect(await viewOf(id, own.auth)).toMatchObject({ cancel_at_period_end: false, cancel_at: null });

    const chosen = { csrf_token: confirm, action: 'cancel_at_period_end', subscription_id: id };
    const set = await postForm(url, chosen);
    expect(set.status, set.html).toBe(200);
    expect(set.html).toContain(`Your subscription ends on ${date}. You will not be charged for it again.`);
    expect(set.html).toContain(`<dt>Ends on</dt><dd data-ends="${end}">${date}</dd>`);
    expect(set.html).toContain('value="resume">Resume</button>');
    expect(set.html).not.toContain('Next billing date');
    expect(await viewOf(id, own.auth)).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
      cancel_at: end,
    });
    const developerId = own.account.developerId;
    const updated = await eventsAbout('subscription.updated', id, developerId);
    expect(updated.map((detail) => detail.data.previous_attributes)).toEqual([
      { cancel_at_period_end: false, cancel_at: null },
    ]);
    // Its token posted again changes nothing more, and says the same.
    const again = await postForm(url, chosen);
    expect(again.status, again.html).toBe(200);
    expect(again.html).toContain(`Your subscription ends on ${date}.`);
    expect(await eventsAbout('subscription.updated', id, developerId)).toHaveLength(1);
    expect(await chargesFor(id, own.auth)).toEqual([]);

    // Resume takes the page's token: none, or the confirmation's, is refused and changes nothing.
    for (const csrf of ['', confirm]) {
      const refused = await postForm(url, { csrf_token: csrf, action: 'resume', subscription_id: id });
      expect(refused.status, refused.html).toBe(403);
    }
    expect((await viewOf(id, own.auth)).cancel_at_period_end).toBe(true);
    const resumed = await act(url, 'resume', id);
    expect(resumed.status, resumed.html).toBe(200);
    expect(resumed.html).toContain('Your subscription continues as before: it is no longer set to end.');
    expect(resumed.html).toContain('<dt>Next billing date</dt>');
    expect(resumed.html).not.toContain('Ends on');
    expect(resumed.html).not.toContain('value="resume"');
    expect(await viewOf(id, own.auth)).toMatchObject({
      status: 'active',
      cancel_at_period_end: false,
      cancel_at: null,
    });
    expect(
      (await eventsAbout('subscription.updated', id, developerId)).map(
        (detail) => detail.data.previous_attributes,
      ),
    ).toEqual([
      { cancel_at_period_end: false, cancel_at: null },
      { cancel_at_period_end: true, cancel_at: end },
    ]);
    // At the period's end it renews, as before.
    const run = await runBilling(billingDeps(), new Date(Date.parse(end) + 1000), { developerId });
    expect(run).toMatchObject({ renewed: 1, canceled: 0 });
    expect((await chargesFor(id, own.auth)).map((charge) => charge.amount)).toEqual([21]);
  });

  it("ends at the period's end instead of charging; a Resume afterwards says it has ended (409), changing nothing", async () => {
    const own = await merchant();
    const { subscription, url } = await started(own);
    const id = subscription.id;
    const pageCsrf = csrfOf((await openPage(url)).html);
    expect((await choose(url, id, 'cancel_at_period_end')).status).toBe(200);
    const end = (await viewOf(id, own.auth)).cancel_at as string;
    const developerId = own.account.developerId;
    const run = await runBilling(billingDeps(), new Date(Date.parse(end) + 1000), { developerId });
    expect(run).toMatchObject({ canceled: 1, renewed: 0 });
    expect((await viewOf(id, own.auth)).status).toBe('canceled');
    const canceled = await eventsAbout('subscription.canceled', id, developerId);
    expect(canceled.map((detail) => detail.data.reason)).toEqual(['period_ended']);
    expect(await chargesFor(id, own.auth)).toEqual([]);
    // The page left open before it ended: its Resume.
    const resumed = await postForm(url, { csrf_token: pageCsrf, action: 'resume', subscription_id: id });
    expect(resumed.status, resumed.html).toBe(409);
    expect(resumed.html).toContain('This subscription has already ended: it can no longer be resumed.');
    expect(resumed.html).toContain('data-status="canceled"');
    expect((await viewOf(id, own.auth)).status).toBe('canceled');
    expect(await eventsAbout('subscription.updated', id, developerId)).toHaveLength(1);
  });

  it('once its day has come, before the billing step ended it, offers no Resume, and a Resume says it has ended', async () => {
    const own = await merchant();
    // Its first period ended a day ago; the merchant set it to end then.
    const { subscription, url } = await started(own, { anchor: new Date(Date.now() - 32 * day) });
    const id = subscription.id;
    const pageCsrf = csrfOf((await openPage(url)).html);
    const put = await api('PUT', `/v1/subscriptions/${id}`, {
      auth: own.auth,
      body: { cancel_at_period_end: true },
    });
    expect(put.status, put.text).toBe(200);
    const page = await openPage(url);
    expect(page.html).toContain('<dt>Ends on</dt>');
    expect(page.html).not.toContain('value="resume"');
    const resumed = await postForm(url, { csrf_token: pageCsrf, action: 'resume', subscription_id: id });
    expect(resumed.status, resumed.html).toBe(409);
    expect(resumed.html).toContain('This subscription has already ended: it can no longer be resumed.');
    expect(await viewOf(id, own.auth)).toMatchObject({ cancel_at_period_end: true });
    // The billing step ends it, charging nothing.
    const run = await runBilling(billingDeps(), new Date(), { developerId: own.account.developerId });
    expect(run).toMatchObject({ canceled: 1, renewed: 0 });
    expect(await chargesFor(id, own.auth)).toEqual([]);
  });

  it('on a canceled one: a Resume says it has ended, a cancel at the end that it is canceled (409 both)', async () => {
    const { subscription, url } = await started();
    const id = subscription.id;
    const pageCsrf = csrfOf((await openPage(url)).html);
    const asked = await act(url, 'cancel', id);
    // The merchant cancels it while the confirmation is open.
    expect((await api('DELETE', `/v1/subscriptions/${id}`, { auth })).status).toBe(200);
    const ended = await postForm(url, {
      csrf_token: csrfOf(asked.html),
      action: 'cancel_at_period_end',
      subscription_id: id,
    });
    expect(ended.status, ended.html).toBe(409);
    expect(ended.html).toContain('This subscription is already canceled.');
    const resumed = await postForm(url, { csrf_token: pageCsrf, action: 'resume', subscription_id: id });
    expect(resumed.status, resumed.html).toBe(409);
    expect(resumed.html).toContain('This subscription has already ended: it can no longer be resumed.');
    expect(await viewOf(id)).toMatchObject({ status: 'canceled', cancel_at_period_end: false });
    expect(await eventsAbout('subscription.updated', id)).toEqual([]);
  });

  it('now, from the same confirmation, cancels at once as before', async () => {
    const { subscription, url } = await started();
    const done = await choose(url, subscription.id, 'confirm_cancel');
    expect(done.status, done.html).toBe(200);
    expect(done.html).toContain('Your subscription was canceled');
    expect(await viewOf(subscription.id)).toMatchObject({ status: 'canceled', cancel_at_period_end: false });
    const events = await eventsAbout('subscription.canceled', subscription.id);
    expect(events.map((detail) => detail.data.reason)).toEqual(['customer_requested']);
  });

  it('in a trial, ends at the trial’s end, the date the confirmation says', async () => {
    const { subscription, url } = await started(undefined, {
      anchor: new Date(Date.now() + 7 * day),
      trial: true,
    });
    const trialEnd = (await viewOf(subscription.id)).trial_end as string;
    const asked = await act(url, 'cancel', subscription.id);
    expect(asked.html).toContain(
      `your trial goes on until ${displayDate(trialEnd, 'en')} and then the subscription ends`,
    );
    const set = await postForm(url, {
      csrf_token: csrfOf(asked.html),
      action: 'cancel_at_period_end',
      subscription_id: subscription.id,
    });
    expect(set.status, set.html).toBe(200);
    expect(await viewOf(subscription.id)).toMatchObject({
      status: 'trialing',
      cancel_at_period_end: true,
      cancel_at: trialEnd,
    });
  });

  it('past due: offers cancelling now alone; a cancel at the end posted anyway is 409 and changes nothing', async () => {
    const customer = await newCustomer();
    const subscription = await pastDue(customer.id);
    const { url } = await portalOf(customer.id);
    const asked = await act(url, 'cancel', subscription.id);
    expect(asked.html).toContain('>Cancel now</button>');
    expect(asked.html).not.toContain('cancel_at_period_end');
    const forced = await postForm(url, {
      csrf_token: csrfOf(asked.html),
      action: 'cancel_at_period_end',
      subscription_id: subscription.id,
    });
    expect(forced.status, forced.html).toBe(409);
    expect(forced.html).toContain('While a payment is overdue, this subscription can only be canceled now.');
    expect(await viewOf(subscription.id)).toMatchObject({ status: 'past_due', cancel_at_period_end: false });
  });

  it('speaks Spanish: the date, Resume and what each did', async () => {
    const { subscription, url } = await started();
    const id = subscription.id;
    const end = (await viewOf(id)).current_period_end as string;
    const date = displayDate(end, 'es');
    const spanish = async (fields: Record<string, string>) => {
      const answer = await fetch(url, {
        method: 'POST',
        body: new URLSearchParams(fields),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': 'es' },
      });
      return { status: answer.status, html: await answer.text() };
    };
    const pageCsrf = csrfOf(await (await fetch(url, { headers: { 'Accept-Language': 'es' } })).text());
    const asked = await spanish({ csrf_token: pageCsrf, action: 'cancel', subscription_id: id });
    expect(asked.html).toContain(
      `Al final del periodo: sigue activa hasta el ${date}, fin del periodo ya pagado, y entonces termina. No se cobra nada más.`,
    );
    const set = await spanish({
      csrf_token: csrfOf(asked.html),
      action: 'cancel_at_period_end',
      subscription_id: id,
    });
    expect(set.status, set.html).toBe(200);
    expect(set.html).toContain(`Tu suscripción termina el ${date}. No se te volverá a cobrar por ella.`);
    expect(set.html).toContain(`<dt>Termina el</dt><dd data-ends="${end}">${date}</dd>`);
    expect(set.html).toContain('value="resume">Reanudar</button>');
    const resumed = await spanish({ csrf_token: pageCsrf, action: 'resume', subscription_id: id });
    expect(resumed.status, resumed.html).toBe(200);
    expect(resumed.html).toContain('Tu suscripción sigue como antes: ya no está previsto que termine.');
    expect(resumed.html).toContain('<dt>Próximo cobro</dt>');
    expect((await viewOf(id)).cancel_at_period_end).toBe(false);
  });
});

describe('the failed-renewal notice', () => {
  it('e-mails the payer once per declined renewal, with a portal link valid 7 days', async () => {
    const customer = await newCustomer();
    await pastDue(customer.id);
    const notice = await waitForMail(customer.email, 'Test portal: your payment for "Gold" failed');
    expect(notice, 'the notice').toBeDefined();
    expect(notice?.body.text).toContain('We could not charge 21.00 USD');
    expect(notice?.body.html).toContain('/portal/');
    const url = /(https?:\/\/\S+\/portal\/[A-Za-z0-9]{43})/.exec(notice?.body.text ?? '')?.[1] as string;
    expect(url).toBeDefined();
    const page = await openPage(url);
    expect(page.status, page.html).toBe(200);
    expect(page.html).toContain('data-status="past_due"');
    // Valid 7 days: the stored link's expiry.
    const deps = makeDeps();
    const token = url.split('/').pop() as string;
    const key = await stagePortalKeys().sign();
    const stored = await deps.db.send(
      new GetCommand({ TableName: deps.table, Key: portalKeys.link(portalTokenHash(token, key)) }),
    );
    const expires = stored.Item?.expires_at_ms as number;
    expect(expires).toBeGreaterThan(Date.now() + 7 * day - 120_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 7 * day);
    // Once: the event delivered again sends nothing more.
    await pipelineDrained(localInfo, account.developerId);
    const notices = (await sentMail()).filter(
      (mail) => mail.destination.to.includes(customer.email) && mail.subject.includes('failed'),
    );
    expect(notices).toHaveLength(1);
  });
});

/** Opens the card page of `subscriptionId` from the portal: its URL. */
async function cardPage(portal: string, subscriptionId: string) {
  const answer = await act(portal, 'card', subscriptionId);
  expect(answer.status, answer.html).toBe(303);
  return answer.location as string;
}

describe('replacing a card', () => {
  it('on an active subscription stores the new card and charges nothing', async () => {
    const customer = await newCustomer();
    const subscription = await dueSubscription(customer.id);
    await runBilling(billingDeps(), new Date(), { developerId: account.developerId });
    const before = await chargesOf(subscription.id);
    const { url } = await portalOf(customer.id);
    const card = await cardPage(url, subscription.id);
    const page = await openPage(card);
    expect(page.html).toContain('Save card');
    expect(page.html).not.toContain('name="email"');
    const saved = await submitCard(card, { card_number: '5555555555554444' });
    expect(saved.status, saved.html).toBe(303);
    const after = await openPage(saved.location as string);
    expect(after.html).toContain('Card updated');
    // The new card, as the subscription now stores it, and the way back to the portal page.
    expect(after.html).toContain('New card: Mastercard •••• 4444.');
    expect(after.html).toContain(`<a href="${url}">Back to your account</a>`);
    expect(after.html).not.toContain('overdue');
    const stored = await subscriptionItem(subscription.id);
    expect(stored?.card).toEqual({ brand: 'mastercard', last4: '4444' });
    expect(await chargesOf(subscription.id)).toHaveLength(before.length);
    expect(await subscriptionStatus(subscription.id)).toBe('active');
    const events = await eventsAbout('subscription.card_updated', subscription.id);
    expect(events.map((detail) => detail.data.card.last4)).toEqual(['4444']);
  });

  it('on a past-due one charges the unpaid period once and makes it active, two submits at once', async () => {
    const customer = await newCustomer();
    const subscription = await pastDue(customer.id);
    const { url } = await portalOf(customer.id);
    // Two card pages (two tabs), both submitted at once, each twice.
    const pages = [await cardPage(url, subscription.id), await cardPage(url, subscription.id)];
    const forms = await Promise.all(pages.map(async (page) => csrfOf((await openPage(page)).html)));
    const answers = await concurrently(4, (index) =>
      postForm(pages[index % 2] as string, { csrf_token: forms[index % 2] as string, ...cardFields() }),
    );
    const redirected = answers.filter((answer) => answer.status === 303);
    expect(redirected.length).toBeGreaterThanOrEqual(1);
    expect(await subscriptionStatus(subscription.id)).toBe('active');
    const after = await openPage(redirected[0]?.location as string);
    expect(after.html).toContain('The 21.00 USD that was overdue is paid with it.');
    const charges = await chargesOf(subscription.id);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ amount: 21, card_last4: '4242', refund: null });
    const view = (await api('GET', `/v1/subscriptions/${subscription.id}`, { auth })).json;
    expect(Date.parse(view.current_period_start as string)).toBeGreaterThan(
      Date.parse(subscription.anchor as string) + 27 * day,
    );
  });

  it('on a past-due one charges once while a billing run races it', async () => {
    const customer = await newCustomer();
    const subscription = await pastDue(customer.id);
    const { url } = await portalOf(customer.id);
    const card = await cardPage(url, subscription.id);
    const csrf = csrfOf((await openPage(card)).html);
    const runs = Array.from({ length: 3 }, (_, index) =>
      new Promise((resolve) => setTimeout(resolve, index * 40)).then(() =>
        runBilling(billingDeps(), new Date(), { developerId: account.developerId }),
      ),
    );
    const [saved] = await Promise.all([postForm(card, { csrf_token: csrf, ...cardFields() }), ...runs]);
    expect(saved.status, saved.html).toBe(303);
    await runBilling(billingDeps(), new Date(), { developerId: account.developerId });
    expect(await subscriptionStatus(subscription.id)).toBe('active');
    // Charged once: no second charge, not even one refunded.
    const charges = await chargesOf(subscription.id);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ refund: null });
  });

  it('on a past-due one whose charge loses its answer: charged once, recorded by the next billing run', async () => {
    const customer = await newCustomer();
    const subscription = await pastDue(customer.id);
    const { url } = await portalOf(customer.id);
    const card = await cardPage(url, subscription.id);
    // The acquirer charges the new card, then its answer never comes back to the stack.
    await addFault({ operation: 'chargeStored', effect: 'lose', merchant: account.developerId, times: 1 });
    try {
      const saved = await submitCard(card);
      expect(saved.status, saved.html).toBe(303);
      // The fault was met (spent), and with no answer nothing is recorded yet.
      const mine = (await armedFaults()).filter((fault) => fault.merchant === account.developerId);
      expect(mine).toEqual([]);
      expect(await subscriptionStatus(subscription.id)).toBe('past_due');
      expect(await chargesOf(subscription.id)).toEqual([]);
      // A run reaches the period's own attempt and asks under its key: the charge made is recorded,
      // never made again.
      await eventually('the lost charge to be recorded', async () => {
        await runBilling(billingDeps(), new Date(), { developerId: account.developerId });
        return (await subscriptionStatus(subscription.id)) === 'active' ? true : undefined;
      });
      await runBilling(billingDeps(), new Date(), { developerId: account.developerId });
      const charges = await chargesOf(subscription.id);
      expect(charges).toHaveLength(1);
      expect(charges[0]).toMatchObject({ amount: 21, card_last4: '4242', refund: null });
    } finally {
      await clearFaults(account.developerId);
    }
  });

  it('keeps the portal token sealed on the card page, and links back only while the portal link is valid', async () => {
    const customer = await newCustomer();
    const subscription = await dueSubscription(customer.id);
    const { url } = await portalOf(customer.id);
    const token = url.split('/').pop() as string;
    const card = await cardPage(url, subscription.id);
    // The table holds the token sealed, never in clear.
    const item = await sessionItem(card);
    expect(item?.from_portal?.sealed_token).toMatch(/^v1\./);
    expect(JSON.stringify(item)).not.toContain(token);
    // The portal link ran out while the card was typed in: the card is saved, and no link back.
    const deps = makeDeps();
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: checkoutKeys.session(card.split('/').pop() as string),
        UpdateExpression: 'SET from_portal.until_ms = :past',
        ExpressionAttributeValues: { ':past': Date.now() - 1000 },
      }),
    );
    const saved = await submitCard(card);
    expect(saved.status, saved.html).toBe(303);
    const after = await openPage(saved.location as string);
    expect(after.html).toContain('New card: Visa •••• 4242.');
    expect(after.html).not.toContain('Back to your account');
    expect(after.html).not.toContain('/portal/');
  });

  it('on a past-due one whose new card the acquirer refuses to charge: still past due, nothing charged, the page says so; a later attempt charges once', async () => {
    const customer = await newCustomer();
    const subscription = await pastDue(customer.id);
    const { url } = await portalOf(customer.id);
    const card = await cardPage(url, subscription.id);
    // The new card passes its check, then the charge of the unpaid period is refused.
    await addFault({ operation: 'chargeStored', effect: 'refuse', merchant: account.developerId, times: 1 });
    try {
      const saved = await submitCard(card);
      expect(saved.status, saved.html).toBe(303);
      expect((await armedFaults()).filter((fault) => fault.merchant === account.developerId)).toEqual([]);
      expect(await subscriptionStatus(subscription.id)).toBe('past_due');
      expect(await chargesOf(subscription.id)).toEqual([]);
      const stored = await subscriptionItem(subscription.id);
      expect(stored?.card).toEqual({ brand: 'visa', last4: '4242' });
      expect(stored?.failed_attempts).toBe(2);
      // The card page says the card is saved but the overdue payment was declined, and when it is tried next.
      const after = await openPage(saved.location as string);
      expect(after.html).toContain('New card: Visa •••• 4242.');
      expect(after.html).toContain('The 21.00 USD that was overdue could not be charged to it');
      expect(after.html).toContain('nothing was charged');
      expect(after.html).not.toContain('is paid with it');
      expect(after.html).toContain(`<a href="${url}">Back to your account</a>`);
      // So does the portal page it links back to.
      const portal = await openPage(url);
      expect(portal.html).toContain('data-status="past_due"');
      expect(portal.html).toContain('Payment failed: 21.00 USD due since');
      // The next attempt (the billing step at its retry time) charges the new card, once.
      const retryAt = new Date(Date.parse(stored?.next_action_at as string));
      await runBilling(billingDeps(), retryAt, { developerId: account.developerId });
      await runBilling(billingDeps(), retryAt, { developerId: account.developerId });
      expect(await subscriptionStatus(subscription.id)).toBe('active');
      const charges = await chargesOf(subscription.id);
      expect(charges).toHaveLength(1);
      expect(charges[0]).toMatchObject({ amount: 21, card_last4: '4242', refund: null });
    } finally {
      await clearFaults(account.developerId);
    }
  });

  it('of a subscription canceled meanwhile charges nothing and keeps it canceled', async () => {
    const customer = await newCustomer();
    const subscription = await pastDue(customer.id);
    const { url } = await portalOf(customer.id);
    const card = await cardPage(url, subscription.id);
    const csrf = csrfOf((await openPage(card)).html);
    const [saved, canceled] = await Promise.all([
      postForm(card, { csrf_token: csrf, ...cardFields() }),
      api('DELETE', `/v1/subscriptions/${subscription.id}`, { auth }),
    ]);
    expect(canceled.status, canceled.text).toBe(200);
    expect([200, 303, 409]).toContain(saved.status);
    expect(await subscriptionStatus(subscription.id)).toBe('canceled');
    const kept = (await chargesOf(subscription.id)).filter((charge) => charge.refund === null);
    expect(kept).toHaveLength(0);
  });
});
