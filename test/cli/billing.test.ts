/**
 * The recurring billing step (docs/design.md#billing) on the local stack's table, with a clock the
 * tests choose: renewals across month ends and a leap year, a trial's end, dunning to cancellation,
 * and exactly one charge per period when steps race or one dies between the charge and its record.
 * Subscriptions are stored as checkout will activate them (shared/subscriptions/repository.ts).
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Acquirer } from '../../shared/acquirer/acquirer.ts';
import { testCards } from '../../shared/acquirer/simulated.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { runRecovery } from '../../shared/ledger/recovery.ts';
import { planKeys } from '../../shared/plans/keys.ts';
import { renewalAttemptId, runBilling } from '../../shared/subscriptions/billing.ts';
import { getSubscription } from '../../shared/subscriptions/repository.ts';
import type { Subscription } from '../../shared/subscriptions/subscription.ts';
import { faultyAcquirer, simulatedAcquirer } from '../support/acquirer.ts';
import { cli, expectCliRefusal } from '../support/cli.ts';
import { eventually } from '../support/eventually.ts';
import { addFault, armedFaults, clearFaults, faultHits } from '../support/faults.ts';
import { expectBooksAgree } from '../support/ledger.ts';
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
import { subscribe } from '../support/subscriptions.ts';
import { expireLease, storedEventItems, updateStored } from '../support/table.ts';

beforeAll(() => useLocalEnvironment());

const deps = (acquirer: Acquirer = simulatedAcquirer(() => new Date('2020-01-01'))) => ({
  ...makeDeps(),
  acquirer,
});
/** The billing step at `now` for `account` (other suites' subscriptions keep their own clocks). */
const runFor = (account: TestAccount, now: string, acquirer?: Acquirer) =>
  runBilling(deps(acquirer), new Date(now), { developerId: account.developerId });
const reread = async (subscription: Subscription) =>
  (await getSubscription(
    makeDeps(),
    { developerId: subscription.developer_id, mode: 'test' },
    subscription.id,
  )) as Subscription;

async function charges(account: TestAccount) {
  const listed = await api('GET', '/v1/payments/', { auth: apiKey(account.testKey) });
  expect(listed.status).toBe(200);
  return listed.json as unknown as { id: string; amount: number; payment_id: string | null }[];
}

async function newPlan(account: TestAccount): Promise<string> {
  const created = await api('POST', '/v1/plans/', {
    auth: apiKey(account.testKey),
    body: { name: 'Gold', amount: '10.50', currency: 'USD', interval: 'month', interval_count: 1 },
  });
  expect(created.status).toBe(201);
  return created.json.data.id as string;
}

describe('renewals: periods counted from the anchor', () => {
  it('a Jan 31 anchor renews on Feb 28 and Mar 31, one charge of amount × quantity each', async () => {
    const account = await newAccount('billing-month');
    const subscription = await subscribe({
      account,
      planId: await newPlan(account),
      anchor: '2027-01-31T10:00:00.000Z',
    });
    expect(subscription.next_action_at).toBe('2027-02-28T10:00:00.000Z');
    await runFor(account, '2027-02-28T09:59:59.999Z');
    expect(await charges(account)).toHaveLength(0); // not due a millisecond early
    await runFor(account, '2027-02-28T10:00:00.000Z'); // due at exactly now: due includes now
    let stored = await reread(subscription);
    expect(stored).toMatchObject({
      status: 'active',
      paid_through: 1,
      next_action_at: '2027-03-31T10:00:00.000Z',
    });
    await runFor(account, '2027-03-31T10:00:00.000Z');
    await runFor(account, '2027-03-31T11:00:00.000Z'); // nothing more is due
    stored = await reread(subscription);
    expect(stored).toMatchObject({ paid_through: 2, next_action_at: '2027-04-30T10:00:00.000Z' });
    const made = await charges(account);
    expect(made).toHaveLength(2);
    expect(made.every((charge) => charge.amount === 21 && charge.payment_id === null)).toBe(true);
    // A renewal charge is a charge like any other: refundable.
    const refund = await api('POST', '/v1/refunds/', {
      auth: apiKey(account.testKey),
      body: { charge_id: made[0]?.id, amount: '5.00', reason: 'requested_by_customer' },
    });
    expect(refund.status, refund.text).toBe(201);
    const types = (await storedEventItems(account.developerId, 'test')).map((item) => item.detail.type);
    expect(types.filter((type) => type === 'subscription.renewed')).toHaveLength(2);
  });

  it('a yearly Feb 29 anchor renews on Feb 28, and on Feb 29 in the next leap year', async () => {
    const account = await newAccount('billing-year');
    const subscription = await subscribe({
      account,
      planId: await newPlan(account),
      anchor: '2028-02-29T00:00:00.000Z',
      interval: 'year',
    });
    const dues: string[] = [];
    for (const now of ['2029-02-28T00:00:00.000Z', '2030-02-28T00:00:00.000Z', '2031-02-28T00:00:00.000Z']) {
      await runFor(account, now);
      dues.push(String((await reread(subscription)).next_action_at));
    }
    expect(dues).toEqual([
      '2030-02-28T00:00:00.000Z',
      '2031-02-28T00:00:00.000Z',
      '2032-02-29T00:00:00.000Z',
    ]);
    expect(await charges(account)).toHaveLength(3);
  });

  it('a trial ends with the first charge, and the subscription becomes active', async () => {
    const account = await newAccount('billing-trial');
    const subscription = await subscribe({
      account,
      planId: await newPlan(account),
      anchor: '2027-06-15T08:00:00.000Z',
      trial: true,
    });
    await runFor(account, '2027-06-15T08:00:00.000Z');
    expect(await reread(subscription)).toMatchObject({
      status: 'active',
      paid_through: 0,
      next_action_at: '2027-07-15T08:00:00.000Z',
    });
    expect(await charges(account)).toHaveLength(1);
  });
});

describe('dunning', () => {
  it('a declined renewal is past_due, retried after 1, 3 and 5 days, then canceled', async () => {
    const account = await newAccount('billing-dunning');
    const planId = await newPlan(account);
    await updateStored(planKeys.plan(account.developerId, 'test', planId), {
      UpdateExpression: 'SET subscriber_count = :one',
      ExpressionAttributeValues: { ':one': 1 },
    });
    const email = `payer-${Date.now()}@example.com`;
    const customer = await api('POST', '/v1/customers/', {
      auth: apiKey(account.testKey),
      body: { first_name: 'Rosa', last_name: 'Payer', email },
    });
    expect(customer.status).toBe(201);
    const subscription = await subscribe({
      account,
      planId,
      anchor: '2027-03-10T12:00:00.000Z',
      card: testCards.declinesWhenStored,
      customerId: customer.json.data.id as string,
    });
    await runFor(account, '2027-04-10T12:00:00.000Z');
    expect(await reread(subscription)).toMatchObject({
      status: 'past_due',
      failed_attempts: 1,
      next_action_at: '2027-04-11T12:00:00.000Z',
    });
    await runFor(account, '2027-04-11T12:00:00.000Z');
    expect((await reread(subscription)).next_action_at).toBe('2027-04-13T12:00:00.000Z');
    await runFor(account, '2027-04-13T12:00:00.000Z');
    expect((await reread(subscription)).next_action_at).toBe('2027-04-15T12:00:00.000Z');
    await runFor(account, '2027-04-15T12:00:00.000Z');
    expect(await reread(subscription)).toMatchObject({
      status: 'canceled',
      active: false,
      next_action_at: null,
    });
    expect(await charges(account)).toHaveLength(0);
    const events = (await storedEventItems(account.developerId, 'test')).map((item) => item.detail);
    expect(
      events.filter((event) => event.type === 'subscription.payment_failed').map((e) => e.data.attempt),
    ).toEqual([1, 2, 3, 4]);
    expect(events.filter((event) => event.type === 'subscription.canceled')).toHaveLength(1);
    const plan = await api('GET', `/v1/plans/${planId}/`, { auth: apiKey(account.testKey) });
    expect(plan.json.information.count).toBe(0);
    await runFor(account, '2027-06-01T00:00:00.000Z');
    expect(await charges(account)).toHaveLength(0); // a canceled subscription is never charged
    // The customer is told, once, in both parts (subscription.canceled → e-mail).
    const mail = await waitForMail(email, 'Test billing-dunning: your subscription to "Gold" was canceled');
    expect(mail?.subject).toContain('"Gold" was canceled');
    expect(mail?.body.text).toContain('Rosa');
    // It says why: the retries ran out (the event says `payment_failed`).
    expect(mail?.body.text).toContain('because its payment failed: your card was declined on every retry.');
    expect(mail?.body.text).toContain('Reason: Payment failed');
    expect(events.find((event) => event.type === 'subscription.canceled')?.data.reason).toBe(
      'payment_failed',
    );
    expect(mail?.body.html).toContain('Gold');
    // Every event the runs stored has reached its e-mail function by now: the cancellation notice,
    // and before it one failed-renewal notice (with its portal link) per decline with a retry ahead.
    await pipelineDrained(localInfo, account.developerId);
    const sent = (await sentMail()).filter((one) => one.destination.to.includes(email));
    expect(sent.filter((one) => one.subject.includes('was canceled'))).toHaveLength(1);
    const notices = sent.filter((one) => one.subject.includes('your payment for "Gold" failed'));
    expect(notices).toHaveLength(3);
    for (const notice of notices) expect(notice.body.text).toMatch(/\/portal\/[A-Za-z0-9]{43}/);
    expect(sent).toHaveLength(4);
  });
});

/** Whether a transaction records a charge (an item of the `charge` entity): a renewal's outcome. */
const recordsCharge = (command: TransactWriteCommand) =>
  (command.input.TransactItems ?? []).some((item) => item.Put?.Item?.entity === 'charge');

describe('exactly one charge per subscription and period', () => {
  it('five billing runs at once record one charge', async () => {
    const account = await newAccount('billing-race');
    const subscription = await subscribe({
      account,
      planId: await newPlan(account),
      anchor: '2027-08-31T00:00:00.000Z',
    });
    await Promise.all(Array.from({ length: 5 }, () => runFor(account, '2027-09-30T00:00:00.000Z')));
    expect(await charges(account)).toHaveLength(1);
    expect((await reread(subscription)).paid_through).toBe(1);
  });

  it('a step that dies between the charge and its record charges once when run again', async () => {
    const account = await newAccount('billing-crash');
    const subscription = await subscribe({
      account,
      planId: await newPlan(account),
      anchor: '2027-05-20T00:00:00.000Z',
    });
    const asked: string[] = [];
    const inner = simulatedAcquirer(() => new Date('2020-01-01'));
    const spy: Acquirer = {
      ...inner,
      chargeStored: (request) => {
        if (request.cardToken === subscription.card_token) asked.push(request.idempotencyKey);
        return inner.chargeStored(request);
      },
    };
    // The fault: the transaction that records the charge never reaches the table, once.
    const crashing = deps(spy);
    const send = crashing.db.send.bind(crashing.db);
    let failed = false;
    crashing.db = Object.assign(Object.create(crashing.db), {
      send: (command: unknown, ...rest: unknown[]) => {
        if (!failed && command instanceof TransactWriteCommand && recordsCharge(command)) {
          failed = true;
          return Promise.reject(new Error('the function died here'));
        }
        return (send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
      },
    });
    // The step's failure is counted and logged; the run itself goes on.
    const first = await runBilling(crashing, new Date('2027-06-20T00:00:00.000Z'), {
      developerId: account.developerId,
    });
    expect(first).toMatchObject({ due: 1, failed: 1, renewed: 0 });
    expect(await charges(account)).toHaveLength(0);
    // While the dead step's call may still be running, another run leaves its attempt alone.
    expect(await runFor(account, '2027-06-20T00:00:30.000Z', spy)).toMatchObject({ raced: 1, renewed: 0 });
    // Once it cannot be (its lease over), the next run or the stack's recovery, whichever takes the
    // attempt first, asks the acquirer again under the same key. Recovery runs on the stack's own
    // clock, through a partition worker the bus invokes: when it took the attempt, this run found
    // it raced and the charge is recorded once that worker is done. Either way: one charge.
    await expireLease(renewalAttemptId(subscription, 1));
    await runFor(account, '2027-06-20T00:05:00.000Z', spy);
    await eventually('the renewal recorded by the run or by recovery', async () =>
      (await reread(subscription)).paid_through === 1 ? true : undefined,
    );
    await pipelineDrained(localInfo, account.developerId);
    expect(await charges(account)).toHaveLength(1);
    expect((await reread(subscription)).paid_through).toBe(1);
    expect(new Set(asked).size).toBe(1);
  });
});

describe('a run isolates a failing step', () => {
  it('counts the step that throws, goes on with the rest, and the next run does it', async () => {
    const account = await newAccount('billing-isolated');
    const planId = await newPlan(account);
    const failing = await subscribe({ account, planId, anchor: '2028-04-05T00:00:00.000Z' });
    const fine = await subscribe({ account, planId, anchor: '2028-04-05T00:00:00.000Z' });
    // The fault: every write that records the failing subscription's renewal is refused by the table.
    const broken = deps();
    const send = broken.db.send.bind(broken.db);
    broken.db = Object.assign(Object.create(broken.db), {
      send: (command: unknown, ...rest: unknown[]) => {
        const items = command instanceof TransactWriteCommand ? (command.input.TransactItems ?? []) : [];
        if (
          command instanceof TransactWriteCommand &&
          recordsCharge(command) &&
          JSON.stringify(items).includes(failing.id)
        )
          return Promise.reject(new Error('ProvisionedThroughputExceededException'));
        return (send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
      },
    });
    const run = await runBilling(broken, new Date('2028-05-05T00:00:00.000Z'), {
      developerId: account.developerId,
    });
    expect(run).toMatchObject({ due: 2, failed: 1, renewed: 1 });
    expect((await reread(fine)).paid_through).toBe(1);
    expect((await reread(failing)).paid_through).toBe(0);
    // Once its attempt's lease is over, the next run or the stack's recovery (whichever takes the
    // attempt first: recovery runs on the stack's own clock) renews it, once.
    await expireLease(renewalAttemptId(failing, 1));
    await runFor(account, '2028-05-05T00:10:00.000Z');
    await eventually('the renewal recorded by the run or by recovery', async () =>
      (await reread(failing)).paid_through === 1 ? true : undefined,
    );
    await pipelineDrained(localInfo, account.developerId);
    expect((await reread(failing)).paid_through).toBe(1);
    expect(await charges(account)).toHaveLength(2);
  });
});

describe("a run at a simulated time: its e-mails follow the run's clock", () => {
  async function payer(account: TestAccount) {
    const email = `clock-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const customer = await api('POST', '/v1/customers/', {
      auth: apiKey(account.testKey),
      body: { first_name: 'Rosa', last_name: 'Payer', email },
    });
    expect(customer.status).toBe(201);
    return { email, id: customer.json.data.id as string };
  }

  /** The first e-mail to `to` whose subject holds `words`. */
  const mailAbout = (to: string, words: string) =>
    eventually(`an e-mail to ${to} about ${words}`, async () =>
      (await sentMail()).find((mail) => mail.destination.to.includes(to) && mail.subject.includes(words)),
    );

  it('the failed-renewal notice: its portal link lasts 7 days from the failure, as the run dated it', async () => {
    const account = await newAccount('billing-clock');
    const customer = await payer(account);
    await subscribe({
      account,
      planId: await newPlan(account),
      anchor: '2028-03-10T12:00:00.000Z',
      card: testCards.declinesWhenStored,
      customerId: customer.id,
    });
    await runFor(account, '2028-04-10T12:00:00.000Z');
    const notice = await mailAbout(customer.email, 'failed');
    expect(notice.body.text).toContain('We will try again on 11 Apr 2028');
    expect(notice.body.text).toContain('the link works until 17 Apr 2028, 12:00 UTC');
  });

  it('a renewal that recovery records later is dated, with its receipt, when the run billed it', async () => {
    const account = await newAccount('billing-clock-receipt');
    const customer = await payer(account);
    const subscription = await subscribe({
      account,
      planId: await newPlan(account),
      anchor: '2028-05-10T12:00:00.000Z',
      customerId: customer.id,
    });
    // The acquirer charges, then its answer is lost, and the run stops there (before a second pass
    // would ask again under the same key): recovery, on the real clock, learns it by the attempt's
    // key and records it.
    const { acquirer } = faultyAcquirer(
      [{ operation: 'chargeStored', effect: 'lose', times: 1 }],
      () => new Date('2020-01-01'),
    );
    let steps = 0;
    const summary = await runBilling(
      deps(acquirer),
      new Date('2028-06-10T12:00:00.000Z'),
      { developerId: account.developerId },
      { stop: () => steps++ > 0 },
    );
    expect(summary).toMatchObject({ unconfirmed: 1, renewed: 0 });
    expect((await reread(subscription)).paid_through).toBe(0);
    await eventually('recovery to record the renewal', async () => {
      await runRecovery({ ...deps(), baseUrl: 'http://127.0.0.1' }, new Date());
      return (await reread(subscription)).paid_through === 1 ? true : undefined;
    });
    const receipt = await mailAbout(customer.email, 'your receipt');
    expect(receipt.body.text).toContain('Date: 10 Jun 2028, 12:00 UTC');
    const [charge] = await charges(account);
    const shown = await api('GET', `/v1/charges/${charge?.id}/`, { auth: apiKey(account.testKey) });
    expect(shown.status, shown.text).toBe(200);
    expect(shown.json.created_on).toBe('2028-06-10T12:00:00.000Z');
  });
});

describe('cobro billing run', () => {
  it('runs the step at --now and prints a summary', async () => {
    const account = await newAccount('billing-cli');
    const subscription = await subscribe({
      account,
      planId: await newPlan(account),
      anchor: '2029-01-31T00:00:00.000Z',
    });
    const { stdout } = await cli(
      'billing',
      'run',
      '--now',
      '2029-02-28T00:00:00.000Z',
      '--account',
      String(account.developerId),
    );
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({ now: '2029-02-28T00:00:00.000Z' });
    expect(summary).toMatchObject({ due: 1, renewed: 1 });
    await expectCliRefusal(['billing', 'run', '--account', 'abc'], 2, '--account');
    await expectCliRefusal(['billing', 'run', '--now', 'tomorrow'], 2, '--now');
    expect((await reread(subscription)).paid_through).toBe(1);
  });

  /** `billing run --now … --account …` as an operator types it; its printed summary. */
  const billingRun = async (account: TestAccount, now: string) =>
    JSON.parse((await cli('billing', 'run', '--now', now, '--account', String(account.developerId))).stdout);

  it("meets the stack's faults: a renewal the acquirer refuses is past due, and its retry renews it", async () => {
    const account = await newAccount('billing-cli-refused');
    const subscription = await subscribe({
      account,
      planId: await newPlan(account),
      anchor: '2029-03-15T00:00:00.000Z',
    });
    await addFault({ operation: 'chargeStored', effect: 'refuse', merchant: account.developerId, times: 1 });
    try {
      expect(await billingRun(account, '2029-04-15T00:00:00.000Z')).toMatchObject({
        due: 1,
        renewed: 0,
        payment_failed: 1,
      });
      // The CLI's own process took the fault from the stack's registry: it is spent, and hit the CLI.
      expect((await armedFaults()).filter((fault) => fault.merchant === account.developerId)).toEqual([]);
      expect(await faultHits(account.developerId)).toEqual([
        {
          caller: expect.stringMatching(/^pid \d+$/),
          operation: 'chargeStored',
          effect: 'refuse',
          merchant: account.developerId,
          count: 1,
        },
      ]);
    } finally {
      await clearFaults(account.developerId);
    }
    expect(await reread(subscription)).toMatchObject({
      status: 'past_due',
      failed_attempts: 1,
      next_action_at: '2029-04-16T00:00:00.000Z',
    });
    expect(await charges(account)).toHaveLength(0);
    expect(await billingRun(account, '2029-04-16T00:00:00.000Z')).toMatchObject({ due: 1, renewed: 1 });
    expect(await reread(subscription)).toMatchObject({ status: 'active', paid_through: 1 });
    expect(await charges(account)).toHaveLength(1);
  });

  it("meets the stack's faults: a renewal whose answer is lost is unconfirmed, and recovery records it once", async () => {
    const since = new Date();
    const account = await newAccount('billing-cli-lost');
    const subscription = await subscribe({
      account,
      planId: await newPlan(account),
      anchor: '2029-05-20T00:00:00.000Z',
    });
    await addFault({ operation: 'chargeStored', effect: 'lose', merchant: account.developerId, times: 1 });
    try {
      expect(await billingRun(account, '2029-06-20T00:00:00.000Z')).toMatchObject({
        due: 1,
        renewed: 0,
        unconfirmed: 1,
      });
    } finally {
      await clearFaults(account.developerId);
    }
    // The acquirer charged; the stack's recovery learns it by the attempt's key and records it.
    await eventually('recovery to record the renewal', async () =>
      (await reread(subscription)).paid_through === 1 ? true : undefined,
    );
    await pipelineDrained(localInfo, account.developerId);
    expect(await charges(account)).toHaveLength(1);
    await expectBooksAgree(account.developerId, since);
  });
});
