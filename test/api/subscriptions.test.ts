/**
 * Subscriptions through the local gateway and bus: creation, the hosted checkout (a first charge, or
 * a card check for a trial) that activates them in its own transaction, the views, cancellation and
 * the plan-deletion cascade, with the e-mails the customer gets.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeDeps } from '../../shared/db/deps.ts';
import { runBilling } from '../../shared/subscriptions/billing.ts';
import { requestPlanCancellations } from '../../shared/subscriptions/service.ts';
import { simulatedAcquirer } from '../support/acquirer.ts';
import { cardFields, csrfOf, openPage, postForm, submitCard, testCards } from '../support/checkout.ts';
import { sentMail, waitForMail } from '../support/mail.ts';
import { pipelineDrained } from '../support/pipeline.ts';
import {
  api,
  apiKey,
  localInfo,
  newAccount,
  type TestAccount,
  useLocalEnvironment,
} from '../support/stack.ts';
import { storedEventItems } from '../support/table.ts';

let account: TestAccount;
let auth: string;
beforeAll(async () => {
  useLocalEnvironment();
  account = await newAccount('subscriptions');
  auth = apiKey(account.testKey);
});

async function newPlan(overrides: Record<string, unknown> = {}): Promise<string> {
  const created = await api('POST', '/v1/plans/', {
    auth,
    body: {
      name: 'Gold',
      amount: '10.50',
      currency: 'USD',
      interval: 'month',
      interval_count: 1,
      ...overrides,
    },
  });
  expect(created.status, created.text).toBe(201);
  return created.json.data.id as string;
}

async function subscribe(body: Record<string, unknown>) {
  const created = await api('POST', '/v1/subscriptions', {
    auth,
    body: { return_url: 'https://shop.example/welcome?from=cobro', ...body },
  });
  expect(created.status, created.text).toBe(201);
  return created.json.data as { subscription_id: string; checkout_url: string; test: boolean };
}

const view = async (id: string) => (await api('GET', `/v1/subscriptions/${id}`, { auth })).json;

/** Polls the subscription until its status is `status` (a cancellation by plan deletion runs on the bus). */
async function statusBecomes(id: string, status: string) {
  for (let i = 0; i < 200; i++) {
    const current = await view(id);
    if (current.status === status) return current;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return view(id);
}

const planCount = async (planId: string) =>
  (await api('GET', `/v1/plans/${planId}/`, { auth })).json.information.count as number;

describe('a subscription from creation to cancellation', () => {
  it('is created pending, paid through the checkout, activated, listed, charged once, and canceled', async () => {
    const planId = await newPlan();
    const email = `subscriber-${Date.now()}@example.com`;
    const created = await subscribe({ plan_id: planId, quantity: 2 });
    expect(created).toMatchObject({ subscription_id: expect.stringMatching(/^sub_/), test: true });
    expect(await view(created.subscription_id)).toMatchObject({
      status: 'pending',
      customer_id: null,
      next_billing_date: null,
      trial_end: null,
    });
    const csrf = csrfOf((await openPage(created.checkout_url)).html);
    // Five submits at once (two browsers, a double click): a session is single-use, so one pays and
    // the others are 409.
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        postForm(created.checkout_url, { csrf_token: csrf, ...cardFields({ email }) }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409, 409, 409, 409]);
    const paid = answers.find((answer) => answer.status === 303) as (typeof answers)[number];
    const back = new URL(paid.location as string);
    expect(back.origin + back.pathname).toBe('https://shop.example/welcome');
    expect(back.searchParams.get('subscription_id')).toBe(created.subscription_id);
    expect(back.searchParams.get('from')).toBe('cobro');

    // Activated in the checkout's own transaction: active as soon as the payer is redirected.
    const active = await view(created.subscription_id);
    expect(active).toMatchObject({ status: 'active', customer_id: expect.any(String), trial_end: null });
    const start = Date.parse(active.current_period_start);
    expect(Math.abs(start - Date.now())).toBeLessThan(60_000);
    expect(active.next_billing_date).toBe(String(active.current_period_end).slice(0, 10));
    expect(await planCount(planId)).toBe(1);
    const charges = (await api('GET', '/v1/payments/', { auth })).json as unknown as {
      amount: number;
      payment_id: string | null;
      subscription_id: string | null;
      description: string;
    }[];
    // The first period's charge says what it pays for (subscription_id; payment_id null).
    expect(charges.filter((charge) => charge.subscription_id === created.subscription_id)).toEqual([
      expect.objectContaining({ description: 'Gold', amount: 21, payment_id: null }),
    ]);
    expect((await waitForMail(email))?.subject).toContain('Gold');

    const listed = await api('GET', `/v1/subscriptions?plan_id=${planId}&status=active`, { auth });
    expect(listed.json).toMatchObject({ count: 1, current_page: 1, total_pages: 1 });
    expect(listed.json.results[0]).toEqual({
      subscription_id: created.subscription_id,
      plan_id: planId,
      customer_id: active.customer_id,
      status: 'active',
      next_billing_date: active.next_billing_date,
      test: true,
    });
    const byPlan = await api('GET', `/v1/subscriptions/${planId}`, { auth });
    expect(byPlan.json).toEqual([
      {
        subscription_id: created.subscription_id,
        customer_id: active.customer_id,
        status: 'active',
        next_billing_date: active.next_billing_date,
        test: true,
      },
    ]);

    const canceled = await api('DELETE', `/v1/subscriptions/${created.subscription_id}`, { auth });
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.json).toMatchObject({ code: 200, subscription_id: created.subscription_id });
    expect((await view(created.subscription_id)).status).toBe('canceled');
    expect(await planCount(planId)).toBe(0);
    expect((await api('DELETE', `/v1/subscriptions/${created.subscription_id}`, { auth })).status).toBe(409);
    const notice = await waitForMail(email, 'Test subscriptions: your subscription to "Gold" was canceled');
    expect(notice?.body.html).toContain('Gold');
    // It says why: the merchant canceled it (DELETE through the API), as the event says.
    expect(notice?.body.text).toContain('Test subscriptions canceled your subscription to "Gold" on');
    expect(notice?.body.text).toContain('Reason: Canceled by Test subscriptions');
    expect(notice?.body.html).toContain('Canceled by Test subscriptions');
    const canceledEvents = (await storedEventItems(account.developerId, 'test'))
      .map((item) => item.detail)
      .filter((detail) => detail.type === 'subscription.canceled')
      .filter((detail) => detail.data.object.subscription_id === created.subscription_id);
    expect(canceledEvents.map((detail) => detail.data.reason)).toEqual(['requested']);
  });

  it("a trial checks the card, charges nothing, and the billing step charges at the trial's end", async () => {
    const planId = await newPlan({ trial_period_days: 3 });
    const created = await subscribe({ plan_id: planId, trial_days: 7 }); // the body's trial wins over the plan's
    const page = await submitCard(created.checkout_url, { email: `trial-${Date.now()}@example.com` });
    expect(page.status, page.html).toBe(303);
    const trialing = await statusBecomes(created.subscription_id, 'trialing');
    const trialEnd = Date.parse(trialing.trial_end);
    expect(Math.abs(trialEnd - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000);
    expect(trialing.next_billing_date).toBe(String(trialing.trial_end).slice(0, 10));
    // The trial is the current period: from the checkout's payment to trial_end, 7 days exactly.
    expect(trialing.current_period_end).toBe(trialing.trial_end);
    expect(trialEnd - Date.parse(trialing.current_period_start)).toBe(7 * 86_400_000);
    const before = ((await api('GET', '/v1/payments/', { auth })).json as unknown as unknown[]).length;
    await runBilling({ ...makeDeps(), acquirer: simulatedAcquirer() }, new Date(trialEnd), {
      developerId: account.developerId,
    });
    expect(await view(created.subscription_id)).toMatchObject({ status: 'active' });
    expect((await api('GET', '/v1/payments/', { auth })).json).toHaveLength(before + 1);
  });

  it('a trial canceled keeps the trial as its last period: no period it never reached', async () => {
    const planId = await newPlan({ trial_period_days: 14 });
    const created = await subscribe({ plan_id: planId });
    const page = await submitCard(created.checkout_url, { email: `trial-cancel-${Date.now()}@example.com` });
    expect(page.status, page.html).toBe(303);
    const trialing = await statusBecomes(created.subscription_id, 'trialing');
    expect((await api('DELETE', `/v1/subscriptions/${created.subscription_id}`, { auth })).status).toBe(200);
    const canceled = await view(created.subscription_id);
    expect(canceled).toMatchObject({
      status: 'canceled',
      current_period_start: trialing.current_period_start,
      current_period_end: trialing.trial_end,
      next_billing_date: null,
    });
  });

  it('deleting a plan cancels its subscriptions and tells each customer once', async () => {
    const planId = await newPlan({ name: 'Bronze' });
    const email = `cascade-${Date.now()}@example.com`;
    const created = await subscribe({ plan_id: planId });
    expect((await submitCard(created.checkout_url, { email })).status).toBe(303);
    await statusBecomes(created.subscription_id, 'active');
    expect((await api('DELETE', `/v1/plans/${planId}/`, { auth })).status).toBe(200);
    expect((await statusBecomes(created.subscription_id, 'canceled')).status).toBe('canceled');
    const subject = 'Test subscriptions: the plan "Bronze" was discontinued';
    const mail = await waitForMail(email, subject);
    expect(mail?.body.text).toContain('Bronze');
    // It says why: the plan is no longer offered (the event says `plan_deleted`).
    expect(mail?.body.text).toContain('Test subscriptions no longer offers the plan "Bronze"');
    const canceledEvents = (await storedEventItems(account.developerId, 'test'))
      .map((item) => item.detail)
      .filter((detail) => detail.type === 'subscription.canceled')
      .filter((detail) => detail.data.object.subscription_id === created.subscription_id);
    expect(canceledEvents.map((detail) => detail.data.reason)).toEqual(['plan_deleted']);
    // plan.deleted handled again (at-least-once): nothing left to cancel, nobody e-mailed twice.
    const scope = { developerId: account.developerId, mode: 'test' as const };
    expect(await requestPlanCancellations(makeDeps(), scope, planId)).toBe(0);
    // Every event of the account has reached its e-mail function by now.
    await pipelineDrained(localInfo, account.developerId);
    const sent = (await sentMail()).filter(
      (each) => each.destination.to.includes(email) && each.subject === subject,
    );
    expect(sent).toHaveLength(1);
  });
});

describe('a subscription made for a known customer', () => {
  it('stays with that customer when the pay form posts another e-mail', async () => {
    const planId = await newPlan();
    const owner = await api('POST', '/v1/customers/', {
      auth,
      body: { first_name: 'Olga', last_name: 'Ruiz', email: `owner-${Date.now()}@example.com` },
    });
    expect(owner.status, owner.text).toBe(201);
    const created = await subscribe({ plan_id: planId, customer_id: owner.json.data.id });
    const csrf = csrfOf((await openPage(created.checkout_url)).html);
    // The page asks no e-mail of a known customer; a crafted form sends one all the same.
    const intruder = `intruder-${Date.now()}@example.com`;
    const paid = await postForm(created.checkout_url, {
      csrf_token: csrf,
      ...cardFields({ email: intruder }),
    });
    expect(paid.status, paid.html).toBe(303);
    expect(await view(created.subscription_id)).toMatchObject({
      status: 'active',
      customer_id: owner.json.data.id,
    });
    const found = await api('GET', `/v1/customers/?search=${encodeURIComponent(intruder)}`, { auth });
    expect(found.status, found.text).toBe(404);
  });
});

describe('what is refused', () => {
  it('an absent, foreign or archived plan and bad return URLs are 400; unknown ids are 404', async () => {
    const other = await newAccount('subscriptions-other');
    const foreign = await api('POST', '/v1/plans/', {
      auth: apiKey(other.testKey),
      body: { name: 'Theirs', amount: '1.00', currency: 'USD', interval: 'month', interval_count: 1 },
    });
    const archived = await newPlan({ name: 'Old', active: false });
    const dear = await newPlan({ name: 'Dear', amount: '9999999999.00' });
    const planId = await newPlan();
    for (const body of [
      { plan_id: '00000000-0000-4000-8000-000000000000' },
      { plan_id: foreign.json.data.id },
      { plan_id: archived },
      { plan_id: planId, return_url: 'javascript:alert(1)' },
      { plan_id: planId, customer_id: '00000000-0000-4000-8000-000000000000' },
      { plan_id: planId, quantity: 0 },
      { plan_id: dear, quantity: 2 }, // amount × quantity past what can be charged
      { return_url: 'https://x.example' },
    ]) {
      const answer = await api('POST', '/v1/subscriptions', {
        auth,
        body: { return_url: 'https://shop.example/ok', ...body },
      });
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    const live = await api('POST', '/v1/subscriptions', {
      auth: apiKey(account.liveKey),
      body: { plan_id: planId, return_url: 'https://shop.example/ok' },
    });
    expect(live.status).toBe(400); // the test plan is not the live mode's
    const created = await subscribe({ plan_id: planId });
    expect(
      (await api('GET', `/v1/subscriptions/${created.subscription_id}`, { auth: apiKey(other.testKey) }))
        .status,
    ).toBe(404);
    expect((await api('GET', '/v1/subscriptions/sub_AAAAAAAAAAAAAAAAAAAAAAAA', { auth })).status).toBe(404);
    expect(
      (await api('GET', '/v1/subscriptions/00000000-0000-4000-8000-000000000000', { auth })).status,
    ).toBe(404);
    expect((await api('GET', '/v1/subscriptions/anything-else', { auth })).status).toBe(404);
    expect((await api('DELETE', '/v1/subscriptions/sub_AAAAAAAAAAAAAAAAAAAAAAAA', { auth })).status).toBe(
      404,
    );
    expect((await api('GET', '/v1/subscriptions?status=sleeping', { auth })).status).toBe(400);
    expect((await api('GET', '/v1/subscriptions?page=99', { auth })).status).toBe(404);
  });

  it('canceling a pending subscription closes its checkout: nothing can be paid for it', async () => {
    const created = await subscribe({ plan_id: await newPlan() });
    expect((await api('DELETE', `/v1/subscriptions/${created.subscription_id}`, { auth })).status).toBe(200);
    const page = await openPage(created.checkout_url);
    expect(page.status).toBe(410);
  });

  it('a declined card leaves the subscription pending, and the form says why', async () => {
    const created = await subscribe({ plan_id: await newPlan() });
    const declined = await submitCard(created.checkout_url, { card_number: testCards.genericDecline });
    expect(declined.status).toBe(402);
    expect((await view(created.subscription_id)).status).toBe('pending');
  });
});
