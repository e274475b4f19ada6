/**
 * The subscriber's e-mails of a change (issue 36) through the local stack: `PUT
 * /v1/subscriptions/{id}` stores `subscription.updated`, and the bus's `subscription-email` rule
 * e-mails the customer the new plan or quantity with the prorated amount charged, or the end at the
 * period's end set or undone; a change of metadata alone sends nothing.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getCharge } from '../../shared/charges/repository.ts';
import { displayDate } from '../../shared/core/display.ts';
import { formatAmount } from '../../shared/core/money/amount.ts';
import { currencyOf } from '../../shared/core/money/fields.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { submitCard } from '../support/checkout.ts';
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
/** The merchant's name, as its e-mails' subjects begin. */
const merchant = 'Test change-mail';

beforeAll(() => useLocalEnvironment());

beforeEach(async () => {
  account = await newAccount('change-mail');
  auth = apiKey(account.testKey);
});

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

/** A subscription to `planId` paid through its checkout by a payer of their own: its id and their address. */
async function started(planId: string): Promise<{ id: string; email: string }> {
  const email = `subscriber-${randomUUID()}@example.com`;
  const created = await api('POST', '/v1/subscriptions', {
    auth,
    body: { plan_id: planId, return_url: 'https://shop.example/welcome' },
  });
  expect(created.status, created.text).toBe(201);
  const paid = await submitCard(created.json.data.checkout_url, { email });
  expect(paid.status, paid.html).toBe(303);
  return { id: created.json.data.subscription_id as string, email };
}

const change = async (id: string, body: Record<string, unknown>) => {
  const answer = await api('PUT', `/v1/subscriptions/${id}`, { auth, body });
  expect(answer.status, answer.text).toBe(200);
  return answer.json;
};

/** The subjects of every e-mail the payer at `email` got so far, sorted. */
const subjectsTo = async (email: string) =>
  (await sentMail())
    .filter((mail) => mail.destination.to.includes(email))
    .map((mail) => mail.subject)
    .sort();

describe('the e-mails of a subscription change', () => {
  it('an upgrade e-mails the new plan, quantity and price, and the prorated amount charged today', async () => {
    const gold = await newPlan();
    const platinum = await newPlan({ name: 'Platinum', amount: '75.00' });
    const { id, email } = await started(gold);
    const upgraded = await change(id, { plan_id: platinum, quantity: 2 });
    expect(upgraded).toMatchObject({ plan_id: platinum, quantity: 2 });

    const updated = (await storedEventItems(account.developerId, 'test'))
      .map((item) => item.detail)
      .find((detail) => detail.type === 'subscription.updated' && detail.data.object.subscription_id === id);
    const chargeId = updated?.data.charge_id as string;
    expect(chargeId).toMatch(/^ch_/);
    const charge = await getCharge(makeDeps(), { developerId: account.developerId, mode: 'test' }, chargeId);
    if (!charge) throw new Error(`the charge ${chargeId} is not stored`);
    expect(charge.amount).toBeGreaterThan(0);
    const charged = `${formatAmount(charge.amount, currencyOf(charge))} USD`;

    const mail = await waitForMail(email, `${merchant}: your subscription to "Platinum" has changed`);
    expect(mail?.body.text).toContain(
      'Your subscription is now "Platinum × 2": 75.00 USD × 2 = 150.00 USD / month.',
    );
    expect(mail?.body.text).toContain(`Today ${charged} was charged for the rest of the current period`);
    expect(mail?.body.text).toContain(`Charged today: ${charged}`);
    expect(mail?.body.text).toContain(`Next billing date: ${displayDate(upgraded.next_billing_date, 'en')}`);
    expect(mail?.body.text).toContain(`Subscription: ${id}`);
    expect(mail?.body.html).toContain(`Charged today`);
    // The prorated charge has its receipt, as every approved charge does.
    const receipt = await waitForMail(email, `${merchant}: your receipt for "Platinum (prorated)"`);
    expect(receipt?.body.text).toContain(charged);
  });

  it('setting and undoing the end at the period’s end e-mail each; a change of metadata alone e-mails nothing', async () => {
    const gold = await newPlan();
    const { id, email } = await started(gold);
    // The activation's e-mail and the first charge's receipt, and nothing more to come.
    await pipelineDrained(localInfo, account.developerId);
    const before = await subjectsTo(email);
    expect(before).toHaveLength(2);

    await change(id, { metadata: { order: 'A-2' } });
    // Its event, and all it caused, has gone through the pipeline: no e-mail came of it.
    await pipelineDrained(localInfo, account.developerId);
    expect(await subjectsTo(email)).toEqual(before);

    const set = await change(id, { cancel_at_period_end: true });
    const endsOn = displayDate(set.cancel_at, 'en');
    const ending = await waitForMail(email, `${merchant}: your subscription to "Gold" ends on ${endsOn}`);
    expect(ending?.body.text).toContain(
      `Your subscription to "Gold" will end on ${endsOn}, at the end of the period already paid for. It will not renew, and nothing more will be charged.`,
    );
    expect(ending?.body.text).toContain(`to keep it, contact ${merchant} before ${endsOn}.`);

    const undone = await change(id, { cancel_at_period_end: false });
    const resumed = await waitForMail(email, `${merchant}: your subscription to "Gold" will continue`);
    expect(resumed?.body.text).toContain(
      `Your subscription to "Gold" will no longer end on ${endsOn}: it renews as before, next on ${displayDate(undone.next_billing_date, 'en')}.`,
    );

    // One e-mail for each of the two changes, and none for the metadata.
    await pipelineDrained(localInfo, account.developerId);
    expect(await subjectsTo(email)).toEqual(
      [
        ...before,
        `${merchant}: your subscription to "Gold" ends on ${endsOn}`,
        `${merchant}: your subscription to "Gold" will continue`,
      ].sort(),
    );
  });
});

describe('the activation e-mail of a subscription changed at once', () => {
  it('names what was subscribed to, not the plan it was changed to since', async () => {
    const gold = await newPlan({ trial_period_days: 7 });
    const platinum = await newPlan({ name: 'Platinum', amount: '75.00' });
    const { id, email } = await started(gold);
    await pipelineDrained(localInfo, account.developerId);
    await change(id, { plan_id: platinum });
    // The activation's event delivered again after the change, under an id of its own (a second
    // delivery of the same id sends nothing), as a slow pipeline would deliver it.
    const activated = (await storedEventItems(account.developerId, 'test'))
      .map((item) => item.detail)
      .find(
        (detail) => detail.type === 'subscription.activated' && detail.data.object.subscription_id === id,
      );
    if (!activated) throw new Error('no subscription.activated stored');
    const { handler } = await import('../../functions/subscriptions/send-subscription-email.ts');
    await handler(
      {
        id: randomUUID(),
        'detail-type': 'subscription.activated',
        source: 'cobro',
        detail: { ...activated, id: `evt_${randomUUID().replaceAll('-', '').slice(0, 24)}` },
      } as never,
      { awsRequestId: randomUUID() } as never,
    );
    const trials = (await sentMail()).filter(
      (mail) => mail.destination.to.includes(email) && mail.subject.includes('free trial'),
    );
    expect(trials.map((mail) => mail.subject)).toEqual([
      `${merchant}: your free trial of "Gold" has started`,
      `${merchant}: your free trial of "Gold" has started`,
    ]);
  });
});
