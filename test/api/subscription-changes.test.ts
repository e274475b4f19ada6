/**
 * D19 through the local gateway: `PUT /v1/subscriptions/{id}` (plan, quantity, cancel at the
 * period's end, metadata), the view's new fields, `subscription.updated` with its
 * `previous_attributes`, an upgrade's prorated charge (a D15 attempt: keyed, declined, below the
 * minimum), a downgrade or another interval waiting as `pending_change` for the renewal, which
 * applies it once, and the billing step ending a subscription at its period's end instead of
 * charging it. The races are in subscription-change-races.test.ts.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getCharge } from '../../shared/charges/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { runBilling } from '../../shared/subscriptions/billing.ts';
import { prorate } from '../../shared/subscriptions/change.ts';
import { periodAt } from '../../shared/subscriptions/periods.ts';
import { simulatedAcquirer } from '../support/acquirer.ts';
import { submitCard, testCards } from '../support/checkout.ts';
import { expectBooksAgree } from '../support/ledger.ts';
import { api, apiKey, newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';
import { storedEventItems } from '../support/table.ts';

const since = new Date(Date.now() - 60_000);
let account: TestAccount;
let auth: string;

beforeAll(() => useLocalEnvironment());

// Each case bills its own account: a billing run of one account does no other case's renewals.
beforeEach(async () => {
  account = await newAccount('d19-changes');
  auth = apiKey(account.testKey);
});

const scope = () => ({ developerId: account.developerId, mode: 'test' as const });

async function newPlan(overrides: Record<string, unknown> = {}): Promise<string> {
  const created = await api('POST', '/v1/plans/', {
    auth,
    body: {
      name: 'Gold',
      amount: '30.00',
      currency: 'USD',
      interval: 'month',
      interval_count: 1,
      ...overrides,
    },
  });
  expect(created.status, created.text).toBe(201);
  return created.json.data.id as string;
}

/** A subscription to `planId` paid through its checkout (active), or in a trial of `trialDays`. */
async function started(
  planId: string,
  body: Record<string, unknown> = {},
  card: string = testCards.approved,
) {
  const created = await api('POST', '/v1/subscriptions', {
    auth,
    body: { plan_id: planId, return_url: 'https://shop.example/welcome', ...body },
  });
  expect(created.status, created.text).toBe(201);
  const paid = await submitCard(created.json.data.checkout_url, { card_number: card });
  expect(paid.status, paid.html).toBe(303);
  return created.json.data.subscription_id as string;
}

const view = async (id: string) => {
  const answer = await api('GET', `/v1/subscriptions/${id}`, { auth });
  expect(answer.status, answer.text).toBe(200);
  return answer.json;
};

const change = (id: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api('PUT', `/v1/subscriptions/${id}`, { auth, body, headers });

/** The `subscription.updated` events stored for subscription `id`, oldest first. */
async function updates(id: string) {
  const items = await storedEventItems(account.developerId, 'test');
  return items
    .map((item) => item.detail)
    .filter((detail) => detail.type === 'subscription.updated' && detail.data.object.subscription_id === id)
    .sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
}

/** Every charge of subscription `id` in minor units, with whether it was refunded in full. */
async function chargesOf(id: string) {
  const items = await storedEventItems(account.developerId, 'test');
  const ids = items
    .map((item) => item.detail)
    .filter((detail) => detail.type === 'charge.succeeded' && detail.data.object.subscription_id === id)
    .map((detail) => detail.data.object.id as string);
  const charges = await Promise.all(ids.map((chargeId) => getCharge(makeDeps(), scope(), chargeId)));
  return charges.map((charge) => ({
    id: charge?.id,
    amount: charge?.amount,
    refunded: charge?.refunded === charge?.amount,
    description: charge?.description,
  }));
}

const billing = () => ({ ...makeDeps(), acquirer: simulatedAcquirer() });
const runAt = (at: string | Date) =>
  runBilling(billing(), new Date(at), { developerId: account.developerId });

describe('PUT /v1/subscriptions/{id}', () => {
  it('shows the new fields; takes metadata at creation and on PUT; refuses unknown fields and bad metadata', async () => {
    const plan = await newPlan();
    const id = await started(plan, { metadata: { order: 'A-1' } });
    expect(await view(id)).toMatchObject({
      quantity: 1,
      cancel_at_period_end: false,
      cancel_at: null,
      pending_change: null,
      metadata: { order: 'A-1' },
    });
    const unknown = await change(id, { at_period_end: true });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('at_period_end');
    expect((await change(id, { metadata: ['not', 'an object'] })).status).toBe(400);
    const set = await change(id, { metadata: { order: 'A-2', note: 'gift' } });
    expect(set.status, set.text).toBe(200);
    expect(set.json.metadata).toEqual({ order: 'A-2', note: 'gift' });
    const [event] = await updates(id);
    expect(event?.data.previous_attributes).toEqual({ metadata: { order: 'A-1' } });
    // Nothing asked, nothing changed: no event.
    expect((await change(id, {})).status).toBe(200);
    expect(await updates(id)).toHaveLength(1);
  });

  it('answers 409 for a canceled subscription, and for a past-due one to all but metadata', async () => {
    const plan = await newPlan();
    const canceled = await started(plan);
    expect((await api('DELETE', `/v1/subscriptions/${canceled}`, { auth })).status).toBe(200);
    expect((await change(canceled, { metadata: { a: '1' } })).status).toBe(409);
    const overdue = await started(plan, {}, testCards.declinesWhenStored);
    const due = (await view(overdue)).current_period_end as string;
    await runAt(new Date(Date.parse(due) + 1000));
    expect((await view(overdue)).status).toBe('past_due');
    for (const body of [{ quantity: 2 }, { cancel_at_period_end: true }, { plan_id: plan }])
      expect((await change(overdue, body)).status, JSON.stringify(body)).toBe(409);
    expect((await change(overdue, { metadata: { dunning: 'yes' } })).status).toBe(200);
  });

  it('refuses a plan of another currency, an absent or archived one, and a quantity over the limit (400)', async () => {
    const plan = await newPlan();
    const id = await started(plan);
    const euros = await newPlan({ currency: 'EUR' });
    const archived = await newPlan({ amount: '50.00' });
    expect((await api('PUT', `/v1/plans/${archived}/`, { auth, body: { active: false } })).status).toBe(200);
    expect((await change(id, { plan_id: euros })).status).toBe(400);
    expect((await change(id, { plan_id: archived })).status).toBe(400);
    expect((await change(id, { plan_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(400);
    expect((await change(id, { quantity: 10_001 })).status).toBe(400);
    expect(await updates(id)).toEqual([]);
  });
});

describe('cancel at the period’s end', () => {
  it('keeps the subscription until its period ends, then the billing step cancels it, charging nothing', async () => {
    const plan = await newPlan();
    const id = await started(plan);
    const set = await change(id, { cancel_at_period_end: true });
    expect(set.status, set.text).toBe(200);
    expect(set.json).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
      cancel_at: set.json.current_period_end,
    });
    const [event] = await updates(id);
    expect(event?.data.previous_attributes).toEqual({ cancel_at_period_end: false, cancel_at: null });
    const end = set.json.current_period_end as string;
    const summary = await runAt(new Date(Date.parse(end) + 1000));
    expect(summary).toMatchObject({ canceled: 1, renewed: 0 });
    expect(await view(id)).toMatchObject({
      status: 'canceled',
      cancel_at_period_end: false,
      cancel_at: null,
    });
    const canceled = (await storedEventItems(account.developerId, 'test'))
      .map((item) => item.detail)
      .find((detail) => detail.type === 'subscription.canceled' && detail.data.object.subscription_id === id);
    expect(canceled?.data.reason).toBe('period_ended');
    expect((await chargesOf(id)).map((charge) => charge.amount)).toEqual([3000]);
  });

  it('undone before the end, the subscription renews', async () => {
    const plan = await newPlan();
    const id = await started(plan);
    await change(id, { cancel_at_period_end: true });
    const undone = await change(id, { cancel_at_period_end: false });
    expect(undone.json).toMatchObject({ cancel_at_period_end: false, cancel_at: null });
    expect((await updates(id)).at(-1)?.data.previous_attributes).toEqual({
      cancel_at_period_end: true,
      cancel_at: undone.json.current_period_end,
    });
    const summary = await runAt(new Date(Date.parse(undone.json.current_period_end) + 1000));
    expect(summary).toMatchObject({ renewed: 1, canceled: 0 });
  });

  it('in a trial, ends at the trial’s end without charging', async () => {
    const plan = await newPlan({ trial_period_days: 7 });
    const id = await started(plan);
    const set = await change(id, { cancel_at_period_end: true });
    expect(set.json).toMatchObject({ status: 'trialing', cancel_at: set.json.trial_end });
    await runAt(new Date(Date.parse(set.json.trial_end) + 1000));
    expect((await view(id)).status).toBe('canceled');
    expect(await chargesOf(id)).toEqual([]);
  });
});

describe('an upgrade applies at once with a prorated charge', () => {
  it('charges (new − old) × seconds left ÷ seconds in the period, rounded half up; the period keeps its dates', async () => {
    const gold = await newPlan();
    const platinum = await newPlan({ name: 'Platinum', amount: '75.00' });
    const id = await started(gold);
    const before = await view(id);
    const period = {
      index: 0,
      start: new Date(before.current_period_start),
      end: new Date(before.current_period_end),
    };
    const asked = new Date();
    const upgraded = await change(id, { plan_id: platinum, quantity: 2 });
    const answered = new Date();
    expect(upgraded.status, upgraded.text).toBe(200);
    expect(upgraded.json).toMatchObject({
      plan_id: platinum,
      quantity: 2,
      pending_change: null,
      current_period_start: before.current_period_start,
      current_period_end: before.current_period_end,
    });
    const [event] = await updates(id);
    expect(event?.data.previous_attributes).toEqual({ plan_id: gold, quantity: 1 });
    const charges = await chargesOf(id);
    expect(charges).toHaveLength(2);
    const prorated = charges.find((charge) => charge.id === event?.data.charge_id);
    // The request was decided between `asked` and `answered`: the amount is the formula's at a second in between.
    const low = prorate(3000, 15000, period, answered);
    const high = prorate(3000, 15000, period, asked);
    expect(prorated?.amount).toBeGreaterThanOrEqual(low);
    expect(prorated?.amount).toBeLessThanOrEqual(high);
    expect(prorated).toMatchObject({ refunded: false, description: 'Platinum (prorated)' });
    // The renewal charges the new amount.
    await runAt(new Date(Date.parse(before.current_period_end) + 1000));
    expect((await chargesOf(id)).map((charge) => charge.amount)).toContain(15000);
    await expectBooksAgree(account.developerId, since);
  });

  it('a declined difference is 402 payment_failed and changes nothing', async () => {
    const gold = await newPlan();
    const platinum = await newPlan({ name: 'Platinum', amount: '75.00' });
    const id = await started(gold, {}, testCards.declinesWhenStored);
    const declined = await change(id, { plan_id: platinum, metadata: { upgraded: 'yes' } });
    expect(declined.status, declined.text).toBe(402);
    expect(declined.json.error).toMatchObject({ type: 'payment_failed', decline_reason: expect.any(String) });
    expect(await view(id)).toMatchObject({ plan_id: gold, quantity: 1, metadata: null });
    expect(await updates(id)).toEqual([]);
  });

  it('a difference worth less than USD 0.50 applies at once and charges nothing', async () => {
    const gold = await newPlan();
    const tiny = await newPlan({ name: 'Gold+', amount: '30.40' });
    const id = await started(gold);
    const upgraded = await change(id, { plan_id: tiny });
    expect(upgraded.json.plan_id).toBe(tiny);
    expect((await chargesOf(id)).map((charge) => charge.amount)).toEqual([3000]);
    expect((await updates(id))[0]?.data.charge_id).toBeUndefined();
  });

  it('sent again with its Idempotency-Key, answers the same and charges once', async () => {
    const gold = await newPlan();
    const platinum = await newPlan({ name: 'Platinum', amount: '75.00' });
    const id = await started(gold);
    const headers = { 'Idempotency-Key': `upgrade-${id}` };
    const first = await change(id, { plan_id: platinum }, headers);
    const again = await change(id, { plan_id: platinum }, headers);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(first.json);
    expect(await chargesOf(id)).toHaveLength(2);
  });

  it('while trialing, applies at once and charges nothing; the trial’s end charges the new amount', async () => {
    const gold = await newPlan({ trial_period_days: 7 });
    const platinum = await newPlan({ name: 'Platinum', amount: '75.00' });
    const id = await started(gold);
    const changed = await change(id, { plan_id: platinum, quantity: 3 });
    expect(changed.json).toMatchObject({ status: 'trialing', plan_id: platinum, quantity: 3 });
    expect(await chargesOf(id)).toEqual([]);
    await runAt(new Date(Date.parse(changed.json.trial_end) + 1000));
    expect((await chargesOf(id)).map((charge) => charge.amount)).toEqual([22500]);
  });
});

describe('a downgrade or another interval waits for the period’s end', () => {
  it('is pending_change until the renewal, which charges and applies it once', async () => {
    const gold = await newPlan();
    const silver = await newPlan({ name: 'Silver', amount: '10.00' });
    const id = await started(gold);
    const asked = await change(id, { plan_id: silver, quantity: 2 });
    expect(asked.json).toMatchObject({
      plan_id: gold,
      quantity: 1,
      pending_change: { plan_id: silver, quantity: 2, effective_at: asked.json.current_period_end },
    });
    expect((await updates(id))[0]?.data.previous_attributes).toEqual({ pending_change: null });
    const end = Date.parse(asked.json.current_period_end);
    expect(await runAt(new Date(end + 1000))).toMatchObject({ renewed: 1 });
    const renewed = await view(id);
    expect(renewed).toMatchObject({ plan_id: silver, quantity: 2, pending_change: null, status: 'active' });
    // The renewal's charge is the new plan's, in its amount and in its name (the receipt's words).
    expect((await chargesOf(id)).map(({ amount, description }) => [amount, description])).toEqual([
      [3000, 'Gold'],
      [2000, 'Silver'],
    ]);
    const applied = (await updates(id)).at(-1);
    expect(applied?.data.previous_attributes).toMatchObject({
      plan_id: gold,
      quantity: 1,
      pending_change: { plan_id: silver, quantity: 2 },
    });
    // Run again at the same time: nothing more.
    expect(await runAt(new Date(end + 2000))).toMatchObject({ renewed: 0 });
    await expectBooksAgree(account.developerId, since);
  });

  it('asking for the current plan and quantity clears it; a later change replaces it', async () => {
    const gold = await newPlan();
    const silver = await newPlan({ name: 'Silver', amount: '10.00' });
    const bronze = await newPlan({ name: 'Bronze', amount: '5.00' });
    const id = await started(gold);
    await change(id, { plan_id: silver });
    const replaced = await change(id, { plan_id: bronze });
    expect(replaced.json.pending_change.plan_id).toBe(bronze);
    const cleared = await change(id, { plan_id: gold, quantity: 1 });
    expect(cleared.json.pending_change).toBeNull();
    expect(
      (await updates(id)).map((event) => event.data.previous_attributes.pending_change?.plan_id ?? null),
    ).toEqual([null, silver, bronze]);
  });

  it('another interval starts the new plan’s periods at the renewal, and they renew on', async () => {
    const monthly = await newPlan();
    const yearly = await newPlan({ name: 'Yearly', amount: '20.00', interval: 'year' });
    const id = await started(monthly);
    const asked = await change(id, { plan_id: yearly });
    expect(asked.json.pending_change?.plan_id).toBe(yearly);
    const boundary = new Date(asked.json.current_period_end);
    expect(await runAt(new Date(boundary.getTime() + 1000))).toMatchObject({ renewed: 1 });
    const year = periodAt(boundary, 'year', 1, 0);
    expect(await view(id)).toMatchObject({
      plan_id: yearly,
      current_period_start: year.start.toISOString(),
      current_period_end: year.end.toISOString(),
    });
    // A year on: renewed again at the yearly amount (its attempt never meets the monthly ones).
    expect(await runAt(new Date(year.end.getTime() + 1000))).toMatchObject({ renewed: 1 });
    expect((await chargesOf(id)).map((charge) => charge.amount)).toEqual([3000, 2000, 2000]);
    await expectBooksAgree(account.developerId, since);
  });
});
