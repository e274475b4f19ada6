/**
 * Money integrity (docs/design.md#attempts, #recovery, #late-approvals) through the local gateway:
 * different operations racing on one record (a cancel during a subscription's first checkout or its
 * renewal, a link deleted during its payment, a refund racing a payout) and the acquirer failing
 * (slow, refusing, losing its answer). Every case ends with the acquirer's own ledger and cobro's
 * records reconciled, for its account.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Acquirer } from '../../shared/acquirer/acquirer.ts';
import type { AcquirerFault } from '../../shared/acquirer/faults.ts';
import { newAttempt, newAttemptId } from '../../shared/attempts/attempt.ts';
import { storeAttempt } from '../../shared/attempts/repository.ts';
import { getCharge } from '../../shared/charges/repository.ts';
import { chargeCard } from '../../shared/charges/service.ts';
import { checkoutKeys } from '../../shared/checkout/keys.ts';
import { claimSession, getSession } from '../../shared/checkout/repository.ts';
import { payWithCard } from '../../shared/checkout/service.ts';
import { submitChallenge } from '../../shared/checkout/submit-http.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { statusOf as httpStatusOf } from '../../shared/http/errors.ts';
import { sessionOwners } from '../../shared/ledger/owners.ts';
import { runPayouts } from '../../shared/payouts/run.ts';
import { refundCharge } from '../../shared/refunds/service.ts';
import { runBilling } from '../../shared/subscriptions/billing.ts';
import { getSubscription } from '../../shared/subscriptions/repository.ts';
import { faultyAcquirer, simulatedAcquirer } from '../support/acquirer.ts';
import { expectMessage } from '../support/answers.ts';
import {
  cardFields,
  createPayment,
  csrfOf,
  expectUnpaid,
  goodYear,
  openPage,
  paymentView,
  payThroughCheckout,
  postForm,
  submitCard,
  testCards,
} from '../support/checkout.ts';
import { eventually } from '../support/eventually.ts';
import { addFault, clearFaults, clientWith } from '../support/faults.ts';
import { expectBooksAgree } from '../support/ledger.ts';
import { api, apiKey, apiUrl, type Merchant, newMerchant, useLocalEnvironment } from '../support/stack.ts';
import { subscribe } from '../support/subscriptions.ts';
import { expireLease, storedEventItems, updateStored } from '../support/table.ts';

beforeAll(() => useLocalEnvironment());

/** When this file started: every reconciliation covers what it did since. */
const since = new Date(Date.now() - 60_000);

type ChargeView = Record<string, unknown> & { id: string; amount: number; amount_refunded: number };

const tokenOf = (url: string) => new URL(url).pathname.split('/').pop() as string;

async function chargesOf(merchant: Merchant): Promise<ChargeView[]> {
  const listed = await api('GET', '/v1/payments/?limit=1000', { auth: merchant.auth });
  expect(listed.status, listed.text).toBe(200);
  return listed.json as unknown as ChargeView[];
}

async function refundsOf(merchant: Merchant, chargeId: string) {
  const listed = await api('GET', `/v1/refunds/?charge_id=${chargeId}`, { auth: merchant.auth });
  expect(listed.status, listed.text).toBe(200);
  return listed.json as unknown as { id: string; amount: string; reason: string }[];
}

async function eventTypes(merchant: Merchant): Promise<string[]> {
  return (await storedEventItems(merchant.account.developerId, 'test')).map((item) => item.detail.type);
}

/** Waits until an attempt holds the checkout page (a submit is under way at the acquirer). */
const held = (url: string) =>
  eventually('a submit to hold the page', async () =>
    (await getSession(makeDeps(), tokenOf(url)))?.status === 'charging' ? true : undefined,
  );

async function newPlan(merchant: Merchant, overrides: Record<string, unknown> = {}): Promise<string> {
  const created = await api('POST', '/v1/plans/', {
    auth: merchant.auth,
    body: {
      name: 'Gold',
      amount: '12.00',
      currency: 'USD',
      interval: 'month',
      interval_count: 1,
      ...overrides,
    },
  });
  expect(created.status, created.text).toBe(201);
  return created.json.data.id as string;
}

async function newSubscription(merchant: Merchant, planId: string) {
  const created = await api('POST', '/v1/subscriptions', {
    auth: merchant.auth,
    body: { plan_id: planId, return_url: 'https://shop.example/welcome' },
  });
  expect(created.status, created.text).toBe(201);
  return created.json.data as { subscription_id: string; checkout_url: string };
}

/** A promise and the function that settles it: a gate a test opens when it is ready. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('a subscription canceled while its first checkout is being charged', () => {
  it('answers the cancel 200, records the charge and refunds it at once; the books agree', async () => {
    const merchant = await newMerchant('d15-first-checkout');
    const developerId = merchant.account.developerId;
    const subscription = await newSubscription(merchant, await newPlan(merchant));
    await addFault({ operation: 'charge', effect: 'slow', delayMs: 3000, merchant: developerId, times: 1 });
    try {
      const paying = submitCard(subscription.checkout_url, { email: `first-${Date.now()}@example.com` });
      await held(subscription.checkout_url);
      const canceled = await api('DELETE', `/v1/subscriptions/${subscription.subscription_id}`, {
        auth: merchant.auth,
      });
      expect(canceled.status, canceled.text).toBe(200);
      const page = await paying;
      expect(page.status, page.html).toBe(409);
      expect(page.html).toContain('Payment refunded');
    } finally {
      await clearFaults(developerId);
    }
    const view = await api('GET', `/v1/subscriptions/${subscription.subscription_id}`, {
      auth: merchant.auth,
    });
    expect(view.json).toMatchObject({ status: 'canceled', customer_id: null });
    const [charge, ...others] = await chargesOf(merchant);
    expect(others).toEqual([]);
    expect(charge).toMatchObject({
      subscription_id: subscription.subscription_id,
      payment_id: null,
      payment_link_id: null,
      amount: 12,
      amount_refunded: 12,
      refund: { amount: 12, refunded: true },
    });
    const refunds = await refundsOf(merchant, charge?.id ?? '');
    expect(refunds).toEqual([expect.objectContaining({ amount: '12.00', reason: 'subscription_canceled' })]);
    const types = await eventTypes(merchant);
    expect(types.filter((type) => type === 'charge.succeeded')).toHaveLength(1);
    expect(types.filter((type) => type === 'refund.created')).toHaveLength(1);
    expect(types).not.toContain('subscription.activated');
    const report = await expectBooksAgree(developerId, since);
    expect(report.acquirer).toMatchObject({ charges: 1, refunds: 1 });
  });

  it('never ends canceled with a charge kept, nor active after a cancel answered 200, when many race', async () => {
    const merchant = await newMerchant('d15-first-race');
    const planId = await newPlan(merchant);
    const subscriptions = await Promise.all(
      Array.from({ length: 8 }, () => newSubscription(merchant, planId)),
    );
    const raced = await Promise.all(
      subscriptions.map(async (subscription, index) => {
        const page = await openPage(subscription.checkout_url);
        const [paid, canceled] = await Promise.all([
          postForm(subscription.checkout_url, {
            csrf_token: csrfOf(page.html),
            ...cardFields({ email: `race-${index}-${Date.now()}@example.com` }),
          }),
          api('DELETE', `/v1/subscriptions/${subscription.subscription_id}`, { auth: merchant.auth }),
        ]);
        return { subscription, paid: paid.status, canceled: canceled.status };
      }),
    );
    const charges = await chargesOf(merchant);
    for (const { subscription, canceled } of raced) {
      const view = (
        await api('GET', `/v1/subscriptions/${subscription.subscription_id}`, { auth: merchant.auth })
      ).json;
      expect(canceled).toBe(200);
      expect(view.status).toBe('canceled');
      const own = charges.filter((charge) => charge.subscription_id === subscription.subscription_id);
      expect(own.length).toBeLessThanOrEqual(1);
      // Never activated: whatever it was charged was refunded in full.
      if (view.customer_id === null)
        for (const charge of own) expect(charge.amount_refunded).toBe(charge.amount);
    }
    await expectBooksAgree(merchant.account.developerId, since);
  });
});

describe('a renewal racing a cancel', () => {
  it('records the renewal approved after the cancel answered, and refunds it; the books agree', async () => {
    const merchant = await newMerchant('d15-renewal');
    const developerId = merchant.account.developerId;
    const planId = await newPlan(merchant);
    const subscription = await subscribe({
      account: merchant.account,
      planId,
      anchor: '2032-01-10T00:00:00.000Z',
    });
    const inner = simulatedAcquirer(() => new Date('2020-01-01'));
    const entered = gate();
    const release = gate();
    // The renewal's call reaches the acquirer, and waits there until the cancel has answered.
    const acquirer: Acquirer = {
      ...inner,
      chargeStored: async (request) => {
        entered.open();
        await release.opened;
        return inner.chargeStored(request);
      },
    };
    const run = runBilling({ ...makeDeps(), acquirer }, new Date('2032-02-10T00:00:00.000Z'), {
      developerId,
    });
    await entered.opened;
    const canceled = await api('DELETE', `/v1/subscriptions/${subscription.id}`, { auth: merchant.auth });
    expect(canceled.status, canceled.text).toBe(200);
    release.open();
    expect(await run).toMatchObject({ due: 1, refunded: 1, renewed: 0, failed: 0 });
    const stored = await getSubscription(makeDeps(), { developerId, mode: 'test' }, subscription.id);
    expect(stored).toMatchObject({ status: 'canceled', paid_through: 0 });
    const [charge, ...others] = await chargesOf(merchant);
    expect(others).toEqual([]);
    expect(charge).toMatchObject({ subscription_id: subscription.id, amount: 21, amount_refunded: 21 });
    expect(await refundsOf(merchant, charge?.id ?? '')).toEqual([
      expect.objectContaining({ reason: 'subscription_canceled', amount: '21.00' }),
    ]);
    const types = await eventTypes(merchant);
    expect(types.filter((type) => type === 'charge.succeeded')).toHaveLength(1);
    expect(types).not.toContain('subscription.renewed');
    const report = await expectBooksAgree(developerId, since);
    expect(report.acquirer).toMatchObject({ charges: 1, refunds: 1 });
  });
});

describe('a payment link deleted while its page is being paid', () => {
  it('answers the delete 200; the payment is recorded and refunded; the books agree', async () => {
    const merchant = await newMerchant('d15-link');
    const developerId = merchant.account.developerId;
    const created = await api('POST', '/v1/payment-links/', {
      auth: merchant.auth,
      body: { description: 'Lesson', amount: '30.00' },
    });
    expect(created.status, created.text).toBe(201);
    const { id, link } = created.json.data as { id: string; link: string };
    await addFault({ operation: 'charge', effect: 'slow', delayMs: 3000, merchant: developerId, times: 1 });
    try {
      const paying = submitCard(link);
      await held(link);
      expectMessage(await api('DELETE', `/v1/payment-links/${id}/`, { auth: merchant.auth }), 200);
      const page = await paying;
      expect(page.status, page.html).toBe(409);
      expect(page.html).toContain('The payment link was removed while your payment was being made');
    } finally {
      await clearFaults(developerId);
    }
    expect((await api('GET', `/v1/payment-links/${id}/`, { auth: merchant.auth })).status).toBe(404);
    const [charge, ...others] = await chargesOf(merchant);
    expect(others).toEqual([]);
    expect(charge).toMatchObject({ payment_link_id: id, amount: 30, amount_refunded: 30 });
    expect(await refundsOf(merchant, charge?.id ?? '')).toEqual([
      expect.objectContaining({ reason: 'payment_link_deleted' }),
    ]);
    expect(await eventTypes(merchant)).not.toContain('payment_link.paid');
    await expectBooksAgree(developerId, since);
  });
});

describe('an automatic refund the acquirer does not make at once', () => {
  /** Waits (a minute at most: recovery's retries wait 10 s first) until the account's one charge is refunded in full. */
  const refundedInFull = (merchant: Merchant, what: string) =>
    eventually(
      what,
      async () => {
        const [charge] = await chargesOf(merchant);
        return charge && charge.amount_refunded === charge.amount ? charge : undefined;
      },
      60_000,
    );

  it('refused: the amount stays held and recovery refunds it on a later try', async () => {
    const merchant = await newMerchant('d15-auto-refused');
    const developerId = merchant.account.developerId;
    const subscription = await newSubscription(merchant, await newPlan(merchant));
    await addFault({ operation: 'charge', effect: 'slow', delayMs: 3000, merchant: developerId, times: 1 });
    await addFault({ operation: 'refund', effect: 'refuse', merchant: developerId, times: 1 });
    try {
      const paying = submitCard(subscription.checkout_url);
      await held(subscription.checkout_url);
      const canceled = await api('DELETE', `/v1/subscriptions/${subscription.subscription_id}`, {
        auth: merchant.auth,
      });
      expect(canceled.status, canceled.text).toBe(200);
      expect((await paying).status).toBe(409);
      // The first try was refused: nothing refunded yet, and the charge is not given back either.
      const [charge] = await chargesOf(merchant);
      expect(charge).toMatchObject({ amount: 12, amount_refunded: 0, refund: null });
      expect(await refundsOf(merchant, charge?.id ?? '')).toEqual([]);
      const refunded = await refundedInFull(merchant, 'recovery to make the refused automatic refund');
      expect(await refundsOf(merchant, refunded.id)).toEqual([
        expect.objectContaining({ amount: '12.00', reason: 'subscription_canceled' }),
      ]);
    } finally {
      await clearFaults(developerId);
    }
    const types = await eventTypes(merchant);
    expect(types.filter((type) => type === 'refund.created')).toHaveLength(1);
    expect(await expectBooksAgree(developerId, since)).toMatchObject({
      acquirer: { charges: 1, refunds: 1 },
    });
  }, 90_000);

  it('the acquirer down: recovery finds nothing under the key and asks again until it is made', async () => {
    const merchant = await newMerchant('d15-auto-down');
    const developerId = merchant.account.developerId;
    const created = await api('POST', '/v1/payment-links/', {
      auth: merchant.auth,
      body: { description: 'Lesson', amount: '30.00' },
    });
    expect(created.status, created.text).toBe(201);
    const { id, link } = created.json.data as { id: string; link: string };
    await addFault({ operation: 'charge', effect: 'slow', delayMs: 3000, merchant: developerId, times: 1 });
    await addFault({ operation: 'refund', effect: 'down', merchant: developerId, times: 2 });
    try {
      const paying = submitCard(link);
      await held(link);
      expectMessage(await api('DELETE', `/v1/payment-links/${id}/`, { auth: merchant.auth }), 200);
      expect((await paying).status).toBe(409);
      const refunded = await refundedInFull(
        merchant,
        'recovery to make the automatic refund the acquirer was down for',
      );
      expect(await refundsOf(merchant, refunded.id)).toEqual([
        expect.objectContaining({ amount: '30.00', reason: 'payment_link_deleted' }),
      ]);
    } finally {
      await clearFaults(developerId);
    }
    expect(await expectBooksAgree(developerId, since)).toMatchObject({
      acquirer: { charges: 1, refunds: 1 },
    });
  }, 90_000);
});

describe('a challenge answered while its payment link is deleted', () => {
  it('answers a page, never a 500, and charges nothing', async () => {
    const merchant = await newMerchant('d15-challenge-delete');
    const created = await api('POST', '/v1/payment-links/', {
      auth: merchant.auth,
      body: { description: 'Lesson', amount: '30.00' },
    });
    expect(created.status, created.text).toBe(201);
    const { id, link } = created.json.data as { id: string; link: string };
    const challenged = await submitCard(link, { card_number: testCards.challenge });
    expect(challenged.status, challenged.html).toBe(200);
    const action = /action="([^"]+)\/challenge"/.exec(challenged.html)?.[1] ?? '';
    const token = tokenOf(action);
    // The delete lands between the answer's read of the session and its claim: the first write the
    // answer makes waits for it (a DynamoDB client that lets the delete in first, a fault injected).
    const real = makeDeps();
    let deleted = false;
    const db = clientWith(real.db, async (command) => {
      if (deleted || command.constructor.name !== 'UpdateCommand') return;
      deleted = true;
      expectMessage(await api('DELETE', `/v1/payment-links/${id}/`, { auth: merchant.auth }), 200);
    });
    const deps = { ...real, db, acquirer: simulatedAcquirer(), baseUrl: apiUrl };
    const answer = await submitChallenge({ ...deps, owners: sessionOwners(deps) }, token, {
      csrf_token: csrfOf(challenged.html),
      outcome: 'pass',
    });
    expect(deleted).toBe(true);
    expect(answer.status).toBe(404);
    expect(await chargesOf(merchant)).toEqual([]);
    await expectBooksAgree(merchant.account.developerId, since);
  });
});

describe('a refund racing a payout', () => {
  /** A live legacy charge of 10.00 USD (it is paid out two days later). */
  async function liveCharge(merchant: Merchant): Promise<string> {
    const charged = await api('POST', '/v1/charges/simple/create/', {
      auth: apiKey(merchant.account.liveKey),
      rawBody: new URLSearchParams({
        amount: '10.00',
        currency: 'usd',
        credit_card_number: testCards.approved,
        credit_card_security_code_number: '123',
        exp_month: '12',
        exp_year: goodYear,
      }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(charged.status, charged.text).toBe(201);
    return charged.json.id as string;
  }
  const payoutTime = () => new Date(Date.now() + 3 * 86_400_000);
  // Every payout run here is the merchant's own (live(merchant)): a run for every account would pay
  // other files' fresh live charges before their own tests refund them.
  const live = (merchant: Merchant) => ({ developerId: merchant.account.developerId, mode: 'live' as const });

  it('a refund under way holds the payout back; paid out afterwards, net of it', async () => {
    const merchant = await newMerchant('d15-refund-first');
    const developerId = merchant.account.developerId;
    const chargeId = await liveCharge(merchant);
    await addFault({ operation: 'refund', effect: 'slow', delayMs: 3000, merchant: developerId, times: 1 });
    try {
      const refunding = api('POST', '/v1/refunds/', {
        auth: apiKey(merchant.account.liveKey),
        body: { charge_id: chargeId, amount: '4.00', reason: 'requested_by_customer' },
      });
      await eventually('the refund to hold its amount', async () =>
        ((await getCharge(makeDeps(), live(merchant), chargeId))?.refunds_pending ?? 0) > 0
          ? true
          : undefined,
      );
      const during = await runPayouts(
        { ...makeDeps(), acquirer: simulatedAcquirer() },
        payoutTime(),
        live(merchant),
      );
      expect(during.charge_ids).not.toContain(chargeId);
      expect((await refunding).status).toBe(201);
    } finally {
      await clearFaults(developerId);
    }
    const after = await runPayouts(
      { ...makeDeps(), acquirer: simulatedAcquirer() },
      payoutTime(),
      live(merchant),
    );
    expect(after.charge_ids).toContain(chargeId);
    const charge = await getCharge(makeDeps(), live(merchant), chargeId);
    expect(charge).toMatchObject({ refunded: 400, refunds_pending: 0, paid_out_at: expect.any(String) });
    const report = await expectBooksAgree(developerId, since);
    // 10.00 less the 0.59 fee, less the 4.00 refunded.
    expect(report.acquirer).toMatchObject({ charges: 1, refunds: 1, payouts: 1 });
    expect(report.acquirer.totals.USD).toEqual({ charged: 1000, refunded: 400, paid_out: 541 });
  });

  it('a refund asked while the payout is under way is 409 and moves nothing', async () => {
    const merchant = await newMerchant('d15-payout-first');
    const developerId = merchant.account.developerId;
    const chargeId = await liveCharge(merchant);
    const inner = simulatedAcquirer();
    const entered = gate();
    const release = gate();
    const charge = await getCharge(makeDeps(), live(merchant), chargeId);
    const acquirer: Acquirer = {
      ...inner,
      payout: async (request) => {
        if (request.acquirerReference === charge?.acquirer_reference) {
          entered.open();
          await release.opened;
        }
        return inner.payout(request);
      },
    };
    const paying = runPayouts({ ...makeDeps(), acquirer }, payoutTime(), live(merchant));
    await entered.opened;
    const refused = await api('POST', '/v1/refunds/', {
      auth: apiKey(merchant.account.liveKey),
      body: { charge_id: chargeId, reason: 'requested_by_customer' },
    });
    expectMessage(refused, 409, { title: 'Charge status error' });
    release.open();
    expect((await paying).charge_ids).toContain(chargeId);
    const report = await expectBooksAgree(developerId, since);
    expect(report.acquirer).toMatchObject({ charges: 1, refunds: 0, payouts: 1 });
  });
  it('a refund that finishes after the run read its due list is counted: paid out net of it', async () => {
    const merchant = await newMerchant('d15-refund-between');
    const developerId = merchant.account.developerId;
    const chargeId = await liveCharge(merchant);
    const real = makeDeps();
    let refunded: Awaited<ReturnType<typeof api>> | undefined;
    // The run has read the due list (the charge, nothing refunded); before it marks the charge paid
    // out, a refund of 4.00 is asked and made in full.
    const db = clientWith(real.db, async (command) => {
      if (refunded || command.constructor.name !== 'TransactWriteCommand') return;
      if (!JSON.stringify(command.input).includes('paid_out_at = :now')) return;
      refunded = await api('POST', '/v1/refunds/', {
        auth: apiKey(merchant.account.liveKey),
        body: { charge_id: chargeId, amount: '4.00', reason: 'requested_by_customer' },
      });
    });
    const summary = await runPayouts(
      { ...real, db, acquirer: simulatedAcquirer() },
      payoutTime(),
      live(merchant),
    );
    expect(refunded?.status, refunded?.text).toBe(201);
    // 10.00 less the 0.59 fee, less the 4.00 refunded: never the 9.41 the list was read with.
    expect(summary).toMatchObject({ charge_ids: [chargeId], totals: { USD: '5.41' } });
    const charge = await getCharge(makeDeps(), live(merchant), chargeId);
    expect(charge).toMatchObject({ refunded: 400, refunds_pending: 0, payout_amount: 541 });
    const report = await expectBooksAgree(developerId, since);
    expect(report.acquirer.totals.USD).toEqual({ charged: 1000, refunded: 400, paid_out: 541 });
  });

  it('refunds and payout runs interleaved: each charge paid out net of the refunds it counted, the rest 409', async () => {
    const merchant = await newMerchant('d15-refunds-payouts');
    const developerId = merchant.account.developerId;
    const chargeIds = await Promise.all(Array.from({ length: 8 }, () => liveCharge(merchant)));
    // Two refunds of 3.00 per charge and two payout runs, all at once, the acquirer slowed a little
    // so that they overlap.
    await addFault({ operation: 'refund', effect: 'slow', delayMs: 150, merchant: developerId });
    await addFault({ operation: 'payout', effect: 'slow', delayMs: 150, merchant: developerId });
    let refunds: Awaited<ReturnType<typeof api>>[];
    let runs: Awaited<ReturnType<typeof runPayouts>>[];
    try {
      const refunding = Promise.all(
        [...chargeIds, ...chargeIds].map((chargeId) =>
          api('POST', '/v1/refunds/', {
            auth: apiKey(merchant.account.liveKey),
            body: { charge_id: chargeId, amount: '3.00', reason: 'requested_by_customer' },
          }),
        ),
      );
      const paying = Promise.all(
        [0, 1].map(() =>
          runPayouts({ ...makeDeps(), acquirer: simulatedAcquirer() }, payoutTime(), live(merchant)),
        ),
      );
      [refunds, runs] = await Promise.all([refunding, paying]);
    } finally {
      await clearFaults(developerId);
    }
    for (const answer of refunds) expect([201, 409], answer.text).toContain(answer.status);
    // A charge a refund held back is paid out by a later run.
    const last = await runPayouts(
      { ...makeDeps(), acquirer: simulatedAcquirer() },
      payoutTime(),
      live(merchant),
    );
    const paidOut = [...runs.flatMap((run) => run.charge_ids), ...last.charge_ids];
    expect([...paidOut].sort()).toEqual([...chargeIds].sort());
    for (const chargeId of chargeIds) {
      const charge = await getCharge(makeDeps(), live(merchant), chargeId);
      const made = refunds.filter(
        (answer, index) => answer.status === 201 && [...chargeIds, ...chargeIds][index] === chargeId,
      );
      expect(charge?.refunded, chargeId).toBe(made.length * 300);
      expect(charge?.payout_amount, chargeId).toBe(941 - made.length * 300);
    }
    await expectBooksAgree(developerId, since);
  });
});

describe('a refund retried after a time-out', () => {
  it('answers 504, then the same refund to the retry with its Idempotency-Key: refunded once', async () => {
    const merchant = await newMerchant('d15-refund-retry');
    const developerId = merchant.account.developerId;
    const { chargeId } = await payThroughCheckout(merchant.auth);
    const body = { charge_id: chargeId, reason: 'requested_by_customer' };
    const headers = { 'Idempotency-Key': `refund-${Date.now()}` };
    await addFault({ operation: 'refund', effect: 'lose', merchant: developerId, times: 1 });
    let first: Awaited<ReturnType<typeof api>>;
    try {
      first = await api('POST', '/v1/refunds/', { auth: merchant.auth, body, headers });
    } finally {
      await clearFaults(developerId);
    }
    expectMessage(first, 504, { type: 'error' });
    // Another request under the key is refused: the key stays bound to its first request.
    expectMessage(
      await api('POST', '/v1/refunds/', { auth: merchant.auth, body: { ...body, amount: '1.00' }, headers }),
      409,
    );
    const retry = await api('POST', '/v1/refunds/', { auth: merchant.auth, body, headers });
    expect(retry.status, retry.text).toBe(201);
    const again = await api('POST', '/v1/refunds/', { auth: merchant.auth, body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(retry.json);
    expect(await refundsOf(merchant, chargeId)).toEqual([expect.objectContaining({ id: retry.json.id })]);
    const types = await eventTypes(merchant);
    expect(types.filter((type) => type === 'refund.created')).toHaveLength(1);
    const report = await expectBooksAgree(developerId, since);
    expect(report.acquirer).toMatchObject({ charges: 1, refunds: 1 });
  });
});

describe('a refund retried after the acquirer was down', () => {
  it("answers the attempt's outcome, never a rule judged on the amount the first try held", async () => {
    const merchant = await newMerchant('d15-refund-down-retry');
    const developerId = merchant.account.developerId;
    const { chargeId } = await payThroughCheckout(merchant.auth);
    const body = { charge_id: chargeId, reason: 'requested_by_customer' };
    const headers = { 'Idempotency-Key': `refund-down-${Date.now()}` };
    await addFault({ operation: 'refund', effect: 'down', merchant: developerId, times: 1 });
    let first: Awaited<ReturnType<typeof api>>;
    try {
      first = await api('POST', '/v1/refunds/', { auth: merchant.auth, body, headers });
    } finally {
      await clearFaults(developerId);
    }
    expectMessage(first, 504, { type: 'error' });
    // At once, with the same key: the lookup finds nothing was refunded, so the refund is made now.
    const retry = await api('POST', '/v1/refunds/', { auth: merchant.auth, body, headers });
    expect(retry.status, retry.text).toBe(201);
    const again = await api('POST', '/v1/refunds/', { auth: merchant.auth, body, headers });
    expect(again.status).toBe(201);
    expect(again.json).toEqual(retry.json);
    expect(await refundsOf(merchant, chargeId)).toEqual([expect.objectContaining({ id: retry.json.id })]);
    const report = await expectBooksAgree(developerId, since);
    expect(report.acquirer).toMatchObject({ charges: 1, refunds: 1 });
  });
});

describe('the test cards of acquirer failures: a lost answer, refused refunds, a processing error', () => {
  it('4000 0000 0000 7726: "could not be confirmed", then recorded once by recovery', async () => {
    const merchant = await newMerchant('d15-7726');
    const payment = await createPayment(merchant.auth);
    const answer = await submitCard(payment.url, { card_number: '4000000000007726' });
    expect(answer.status, answer.html).toBe(202);
    expect(answer.html).toContain('Payment not confirmed yet');
    expect(answer.html).toContain('Do not pay again');
    // The page says the same, and takes no second payment.
    const again = await postForm(payment.url, { csrf_token: 'x', ...cardFields() });
    expect(again.status).toBe(409);
    // Recovery (every two seconds on the local stack) asks the acquirer by key and records it.
    const completed = await eventually('recovery to record the payment', async () => {
      const view = await paymentView(merchant.auth, payment.id);
      return view.status === 'completed' ? view : undefined;
    });
    expect(completed.charge_id).toMatch(/^ch_/);
    expect((await openPage(payment.url)).html).toContain('Payment complete');
    const types = await eventTypes(merchant);
    expect(types.filter((type) => type === 'payment.succeeded')).toHaveLength(1);
    expect(types.filter((type) => type === 'charge.succeeded')).toHaveLength(1);
    await expectBooksAgree(merchant.account.developerId, since);
  });

  it('4000 0000 0000 5126: every refund is refused, 502, nothing recorded, still refundable', async () => {
    const merchant = await newMerchant('d15-5126');
    const { chargeId } = await payThroughCheckout(merchant.auth, {
      card: { card_number: '4000000000005126' },
    });
    for (const amount of [undefined, '2.00']) {
      const refused = await api('POST', '/v1/refunds/', {
        auth: merchant.auth,
        body: { charge_id: chargeId, reason: 'duplicate', ...(amount ? { amount } : {}) },
      });
      expectMessage(refused, 502, { type: 'error' });
    }
    expect(await refundsOf(merchant, chargeId)).toEqual([]);
    const [charge] = await chargesOf(merchant);
    expect(charge).toMatchObject({ id: chargeId, amount_refunded: 0, refund: null });
    expect(
      await getCharge(makeDeps(), { developerId: merchant.account.developerId, mode: 'test' }, chargeId),
    ).toMatchObject({ refundable: 1000, refunds_pending: 0 });
    expect(await eventTypes(merchant)).not.toContain('refund.created');
    await expectBooksAgree(merchant.account.developerId, since);
  });

  it('4000 0000 0000 0119: a processing_error decline, and the page may be paid again at once', async () => {
    const merchant = await newMerchant('d15-0119');
    const payment = await createPayment(merchant.auth);
    const declined = await submitCard(payment.url, { card_number: '4000000000000119' });
    expect(declined.status, declined.html).toBe(402);
    expect(declined.html).toContain('could not be processed');
    const failed = (await storedEventItems(merchant.account.developerId, 'test')).find(
      (item) => item.detail.type === 'payment.failed',
    );
    expect(failed?.detail.data.decline_reason).toBe('processing_error');
    expect((await submitCard(payment.url)).status).toBe(303);
    await expectBooksAgree(merchant.account.developerId, since);
  });

  it('the legacy charge with 7726: 504, then the same charge to the retry with its Idempotency-Key', async () => {
    const merchant = await newMerchant('d15-legacy-7726');
    const post = () =>
      api('POST', '/v1/charges/simple/create/', {
        auth: merchant.auth,
        rawBody: new URLSearchParams({
          amount: '8.00',
          currency: 'usd',
          credit_card_number: '4000000000007726',
          credit_card_security_code_number: '123',
          exp_month: '12',
          exp_year: goodYear,
        }).toString(),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Idempotency-Key': 'legacy-lost' },
      });
    expectMessage(await post(), 504);
    const retry = await post();
    expect(retry.status, retry.text).toBe(201);
    expect((await chargesOf(merchant)).map((charge) => charge.id)).toEqual([retry.json.id]);
    await expectBooksAgree(merchant.account.developerId, since);
  });
});

describe('a retry whose lookup the acquirer does not answer', () => {
  /**
   * The requests run here, with an acquirer of this process whose faults are its own, and a clock
   * 90 s ahead: the stack's recovery leaves their attempts alone meanwhile (not due yet), so the
   * retry is the one that asks the acquirer by key.
   */
  function ahead(faults: AcquirerFault[]) {
    const later = new Date(Date.now() + 90_000);
    const { acquirer, registry } = faultyAcquirer(faults);
    return { deps: { ...makeDeps(), clock: () => later, acquirer }, registry };
  }
  // The status the HTTP adapter answers the outcome with.
  const statusOf = (promise: Promise<unknown>) => promise.then(() => 200, httpStatusOf);

  it('a refund answers 504 again, never a 500; once the acquirer answers, the one refund', async () => {
    const merchant = await newMerchant('d15-lookup-refund');
    const developerId = merchant.account.developerId;
    const { chargeId } = await payThroughCheckout(merchant.auth);
    const { deps, registry } = ahead([
      { operation: 'refund', effect: 'lose', times: 1 },
      { operation: 'lookup', effect: 'down' },
    ]);
    const scope = { developerId, mode: 'test' as const };
    const input = { charge_id: chargeId, reason: 'requested_by_customer' as const };
    const key = `lookup-${Date.now()}`;
    expect(await statusOf(refundCharge(deps, scope, input, key))).toBe(504);
    expect(await statusOf(refundCharge(deps, scope, input, key))).toBe(504);
    registry.clear();
    const refund = await refundCharge(deps, scope, input, key);
    expect(await refundsOf(merchant, chargeId)).toEqual([expect.objectContaining({ id: refund.id })]);
  });

  it('a legacy charge answers 504 again, never a 500; once the acquirer answers, the one charge', async () => {
    const merchant = await newMerchant('d15-lookup-legacy');
    const developerId = merchant.account.developerId;
    const { deps, registry } = ahead([{ operation: 'lookup', effect: 'refuse' }]);
    const scope = { developerId, mode: 'test' as const };
    const input = {
      amount: '15.71',
      currency: 'USD',
      description: '',
      entity_description: '',
      credit_card_number: testCards.answerLost,
      credit_card_security_code_number: '123',
      exp_month: '12',
      exp_year: goodYear,
    };
    const key = `lookup-${Date.now()}`;
    expect(await statusOf(chargeCard(deps, scope, input, key))).toBe(504);
    expect(await statusOf(chargeCard(deps, scope, input, key))).toBe(504);
    registry.clear();
    const charge = await chargeCard(deps, scope, input, key);
    expect((await chargesOf(merchant)).map((listed) => listed.id)).toEqual([charge.id]);
  });
});

describe('billing with the acquirer failing: every period charged once, none lost', () => {
  /** An acquirer of this test process on the stack's ledger, with faults of its own. */
  function faulty(faults: AcquirerFault[]) {
    return faultyAcquirer(faults, () => new Date('2020-01-01')).acquirer;
  }

  it('a past_due subscription recovers to active, paying the period that failed', async () => {
    const merchant = await newMerchant('d15-past-due');
    const developerId = merchant.account.developerId;
    const planId = await newPlan(merchant);
    const subscription = await subscribe({
      account: merchant.account,
      planId,
      anchor: '2033-03-10T00:00:00.000Z',
    });
    const refusing = faulty([
      { operation: 'chargeStored', effect: 'refuse', merchant: developerId, times: 1 },
    ]);
    const run = (now: string, acquirer: Acquirer) =>
      runBilling({ ...makeDeps(), acquirer }, new Date(now), { developerId });
    expect(await run('2033-04-10T00:00:00.000Z', refusing)).toMatchObject({ payment_failed: 1 });
    const scope = { developerId, mode: 'test' as const };
    expect(await getSubscription(makeDeps(), scope, subscription.id)).toMatchObject({
      status: 'past_due',
      failed_attempts: 1,
    });
    expect(await run('2033-04-11T00:00:00.000Z', refusing)).toMatchObject({ renewed: 1 });
    expect(await getSubscription(makeDeps(), scope, subscription.id)).toMatchObject({
      status: 'active',
      paid_through: 1,
      failed_attempts: 0,
      anchor: '2033-03-10T00:00:00.000Z',
      next_action_at: '2033-05-10T00:00:00.000Z',
    });
    expect(await chargesOf(merchant)).toHaveLength(1);
    await expectBooksAgree(developerId, since);
  });

  // Failed before the run set such entries aside: on a busy machine the run asked 105 times before
  // the stack's own recovery happened to record the renewal.
  it('a billing run asks an acquirer that keeps losing answers once per renewal, and ends', async () => {
    const merchant = await newMerchant('d15-renewal-outage');
    const developerId = merchant.account.developerId;
    const planId = await newPlan(merchant);
    await subscribe({ account: merchant.account, planId, anchor: '2034-05-01T00:00:00.000Z' });
    // Every answer lost (no `times`): an outage. The run leaves the renewal to recovery and stops.
    const losing = faulty([{ operation: 'chargeStored', effect: 'lose', merchant: developerId }]);
    let asked = 0;
    const counting = {
      ...losing,
      chargeStored: (...args: Parameters<typeof losing.chargeStored>) => {
        asked += 1;
        return losing.chargeStored(...args);
      },
    };
    const outcome = await runBilling(
      { ...makeDeps(), acquirer: counting },
      new Date('2034-06-02T00:00:00.000Z'),
      {
        developerId,
      },
    );
    expect(outcome).toMatchObject({ unconfirmed: 1, renewed: 0 });
    expect(asked).toBe(1);
    expect(await chargesOf(merchant)).toHaveLength(0);
  });

  it('a renewal whose answer is lost is recorded once by recovery', async () => {
    const merchant = await newMerchant('d15-renewal-lost');
    const developerId = merchant.account.developerId;
    const planId = await newPlan(merchant);
    const subscription = await subscribe({
      account: merchant.account,
      planId,
      anchor: '2020-02-01T00:00:00.000Z',
    });
    const losing = faulty([{ operation: 'chargeStored', effect: 'lose', merchant: developerId, times: 1 }]);
    // Due in the past: the stack's own recovery (every two seconds) takes it as soon as it is left.
    expect(
      await runBilling({ ...makeDeps(), acquirer: losing }, new Date('2020-03-01T00:00:00.000Z'), {
        developerId,
      }),
    ).toMatchObject({ unconfirmed: 1 });
    const renewed = await eventually('recovery to record the renewal', async () => {
      const stored = await getSubscription(makeDeps(), { developerId, mode: 'test' }, subscription.id);
      return stored?.paid_through === 1 ? stored : undefined;
    });
    expect(renewed.status).toBe('active');
    expect(await chargesOf(merchant)).toHaveLength(1);
    expect((await eventTypes(merchant)).filter((type) => type === 'subscription.renewed')).toHaveLength(1);
    await expectBooksAgree(developerId, since);
  });
});

describe('checkout attempts that recovery finishes', () => {
  /** A submit's first step, as payWithCard takes it: the attempt stored, the session claimed for it. */
  async function claimed(url: string, cardholder = { email: 'died@example.com', name: 'Ada Died' }) {
    const token = tokenOf(url);
    const csrf = csrfOf((await openPage(url)).html);
    const attempt = newAttempt({
      id: newAttemptId(),
      kind: 'checkout',
      subject: { token },
      owner: null,
      cardholder,
      now: new Date(),
    });
    await storeAttempt(makeDeps(), attempt);
    const session = await claimSession(makeDeps(), token, new Date(), attempt.id, { csrf });
    return { attempt, session };
  }

  const released = (url: string) =>
    eventually('recovery to give the page back', async () => {
      const session = await getSession(makeDeps(), tokenOf(url));
      return session?.status === 'open' && !session.attempt_id ? session : undefined;
    });

  it('an approval the table will not record: "being confirmed" (202), then recovery records it once', async () => {
    const merchant = await newMerchant('d15-unrecorded');
    const payment = await createPayment(merchant.auth);
    const csrf = csrfOf((await openPage(payment.url)).html);
    // The table refuses the approval's transaction once (a fault injected in the client).
    const real = makeDeps();
    let refused = 0;
    const db = clientWith(real.db, (command) => {
      const approval =
        command.constructor.name === 'TransactWriteCommand' &&
        JSON.stringify(command.input).includes('"entity":"charge"');
      if (!approval || refused > 0) return;
      refused += 1;
      throw new Error('ProvisionedThroughputExceededException');
    });
    const deps = { ...real, db, acquirer: simulatedAcquirer(), baseUrl: apiUrl };
    const outcome = await payWithCard({ ...deps, owners: sessionOwners(deps) }, tokenOf(payment.url), {
      card: {
        number: testCards.approved,
        expMonth: 12,
        expYear: Number(goodYear),
        cvc: '123',
        holderName: 'Ada',
      },
      email: 'unrecorded@example.com',
      csrf,
    });
    expect(refused).toBe(1);
    expect(outcome.kind).toBe('unconfirmed');
    const completed = await eventually('recovery to record the approval', async () => {
      const view = await paymentView(merchant.auth, payment.id);
      return view.status === 'completed' ? view : undefined;
    });
    expect(completed.customer_email).toBe('unrecorded@example.com');
    expect((await chargesOf(merchant)).map((charge) => charge.payment_id)).toEqual([payment.id]);
    expect((await eventTypes(merchant)).filter((type) => type === 'payment.succeeded')).toHaveLength(1);
    await expectBooksAgree(merchant.account.developerId, since);
  });

  it('a submit whose function died before asking the acquirer: the page is payable again', async () => {
    const merchant = await newMerchant('d15-died-before');
    const payment = await createPayment(merchant.auth);
    const { attempt } = await claimed(payment.url);
    expect((await openPage(payment.url)).html).toContain('Payment in progress');
    // Its call can no longer be running: recovery finds nothing under its key and frees the page.
    await expireLease(attempt.id);
    await released(payment.url);
    await expectUnpaid(merchant.auth, payment.id);
    expect((await submitCard(payment.url)).status).toBe(303);
    await expectBooksAgree(merchant.account.developerId, since);
  });

  it('a submit whose function died after the acquirer approved: recorded once by recovery', async () => {
    const merchant = await newMerchant('d15-died-after');
    const payment = await createPayment(merchant.auth);
    const { attempt, session } = await claimed(payment.url);
    const approved = await simulatedAcquirer().charge({
      amountMinor: session.amount,
      currency: session.currency,
      description: session.description,
      idempotencyKey: attempt.acquirer_key,
      test: true,
      merchant: merchant.account.developerId,
      threeDSecure: 'challenge_allowed',
      card: {
        number: testCards.approved,
        expMonth: 12,
        expYear: Number(goodYear),
        cvc: '123',
        holderName: 'Ada',
      },
    });
    expect(approved.status).toBe('approved');
    await expireLease(attempt.id);
    const completed = await eventually('recovery to record the payment', async () => {
      const view = await paymentView(merchant.auth, payment.id);
      return view.status === 'completed' ? view : undefined;
    });
    expect(completed.customer_email).toBe('died@example.com');
    const types = await eventTypes(merchant);
    expect(types.filter((type) => type === 'payment.succeeded')).toHaveLength(1);
    expect((await chargesOf(merchant)).map((charge) => charge.payment_id)).toEqual([payment.id]);
    await expectBooksAgree(merchant.account.developerId, since);
  });

  it('a challenge never answered is abandoned: the page is payable again, a late answer charges nothing', async () => {
    const merchant = await newMerchant('d15-abandoned');
    const payment = await createPayment(merchant.auth);
    const challenged = await submitCard(payment.url, { card_number: testCards.challenge });
    expect(challenged.status).toBe(200);
    const csrf = csrfOf(challenged.html);
    const waiting = await getSession(makeDeps(), tokenOf(payment.url));
    expect(waiting?.challenge).not.toBeNull();
    // The challenge window passes: recovery closes the challenge at the acquirer and frees the page.
    await expireLease(waiting?.attempt_id ?? '');
    await released(payment.url);
    const late = await postForm(`${payment.url}/challenge`, { csrf_token: csrf, outcome: 'pass' });
    expect(late.status, late.html).toBe(409);
    expect(late.html).toContain('No authentication pending');
    await expectUnpaid(merchant.auth, payment.id);
    expect((await submitCard(payment.url)).status).toBe(303);
    await expectBooksAgree(merchant.account.developerId, since);
  });

  it('a claim taken before claims had attempts lapses as it always did (an upgraded stage)', async () => {
    const merchant = await newMerchant('d15-old-claim');
    const payment = await createPayment(merchant.auth);
    await updateStored(checkoutKeys.session(tokenOf(payment.url)), {
      UpdateExpression: 'SET #status = :charging, charging_until = :past REMOVE attempt_id',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':charging': 'charging', ':past': Date.now() - 1000 },
    });
    expect((await submitCard(payment.url)).status).toBe(303);
  });
});
