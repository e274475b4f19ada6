/**
 * D15's races and faults again (test/api/money-integrity.test.ts), against the Stripe connector
 * through the stand-in: a subscription canceled while its payer is on Stripe's page, a renewal raced
 * by a cancel, a payment link deleted while its payer pays, refunds retried after Stripe's answer was
 * lost or Stripe was down, a renewal whose answer was lost, and refunds racing Stripe's payouts. On
 * Stripe the payer pays on Stripe's own page, so what cobro cancels meanwhile cannot stop the
 * payment: it is recorded and refunded at once. Every case ends with the books reconciled.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getCharge } from '../../shared/charges/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { expectMessage } from '../support/answers.ts';
import { createPayment } from '../support/checkout.ts';
import { cli } from '../support/cli.ts';
import { eventually, expectBooksAgree } from '../support/ledger.ts';
import { api, useLocalEnvironment } from '../support/stack.ts';
import {
  backFromStripe,
  newStripeMerchant,
  payStripeSession,
  payThroughStripe,
  type StripeMerchant,
  sessionIdOf,
  standIn,
  stripeApi,
  stripePlan,
  stripeSubscription,
  toStripePage,
} from '../support/stripe.ts';
import { storedEventItems } from '../support/table.ts';

beforeAll(() => useLocalEnvironment());

const since = new Date(Date.now() - 60_000);
const scopeOf = (merchant: StripeMerchant) => ({
  developerId: merchant.account.developerId,
  mode: 'live' as const,
});

const newSubscription = async (merchant: StripeMerchant) =>
  stripeSubscription(merchant, await stripePlan(merchant));

const subscriptionStatus = async (merchant: StripeMerchant, id: string) =>
  (await api('GET', `/v1/subscriptions/${id}`, { auth: merchant.modeAuth })).json.status as string;

async function chargesOf(merchant: StripeMerchant) {
  const listed = await api('GET', '/v1/payments/?limit=1000', { auth: merchant.modeAuth });
  return listed.json as unknown as {
    id: string;
    subscription_id: string | null;
    payment_link_id: string | null;
  }[];
}

async function refundsOf(merchant: StripeMerchant, chargeId: string) {
  const listed = await api('GET', `/v1/refunds/?charge_id=${chargeId}`, { auth: merchant.modeAuth });
  return listed.json as unknown as { id: string; amount: string; reason: string }[];
}

const typesOf = async (merchant: StripeMerchant) =>
  (await storedEventItems(merchant.account.developerId, 'live')).map((item) => item.detail.type as string);

/** A fault of the stand-in, for this merchant's Stripe account only. */
const fault = (merchant: StripeMerchant, spec: Record<string, unknown>) =>
  standIn('POST', '/_standin/faults', { ...spec, account: merchant.stripe.account_id });
const clearFaults = () => standIn('DELETE', '/_standin/faults');

/** The payment intent of a cobro charge, and its refunds at the stand-in. */
async function stripeRefundsOf(merchant: StripeMerchant, chargeId: string) {
  const intent = (await getCharge(makeDeps(), scopeOf(merchant), chargeId))?.acquirer_reference;
  const { json } = await stripeApi(merchant.stripe.live_key, 'GET', `/v1/refunds?payment_intent=${intent}`);
  return json.data as { id: string; amount: number; status: string }[];
}

describe("a subscription canceled while its payer is on Stripe's page", () => {
  it('answers the cancel 200; the payment Stripe takes after is recorded and refunded in full; the books agree', async () => {
    const merchant = await newStripeMerchant('d15s-cancel-first');
    const { subscription_id: id, checkout_url: url } = await newSubscription(merchant);
    const sessionId = sessionIdOf(await toStripePage(url));
    expectMessage(await api('DELETE', `/v1/subscriptions/${id}`, { auth: merchant.modeAuth }), 200);
    // The payer still pays on Stripe's page: cobro cannot stop it, so it must record and refund it.
    expect((await payStripeSession(sessionId)).status).toBe('complete');
    const back = await backFromStripe(url);
    expect(back.html).toContain('refunded');
    expect(await subscriptionStatus(merchant, id)).toBe('canceled');
    const charge = await eventually('the charge to be recorded', async () =>
      (await chargesOf(merchant)).find((one) => one.subscription_id === id),
    );
    const refunds = await eventually('the refund to be made', async () => {
      const made = await refundsOf(merchant, charge.id);
      return made.length ? made : undefined;
    });
    expect(refunds).toEqual([expect.objectContaining({ amount: '12.00', reason: 'subscription_canceled' })]);
    expect(await stripeRefundsOf(merchant, charge.id)).toEqual([expect.objectContaining({ amount: 1200 })]);
    expect((await typesOf(merchant)).filter((type) => type === 'refund.created')).toHaveLength(1);
    await expectBooksAgree(merchant.account.developerId, since);
  });
});

describe('a renewal racing a cancel', () => {
  it('a renewal Stripe approves after the cancel answered is recorded and refunded; the books agree', async () => {
    const merchant = await newStripeMerchant('d15s-renewal-cancel');
    const { subscription_id: id, checkout_url: url } = await newSubscription(merchant);
    await payThroughStripe(url);
    await fault(merchant, { operation: 'payment_intent_create', effect: 'slow', delayMs: 2500, times: 1 });
    try {
      const running = cli(
        'billing',
        'run',
        '--now',
        new Date(Date.now() + 32 * 86_400_000).toISOString(),
        '--account',
        String(merchant.account.developerId),
      );
      // Once the renewal's call to Stripe is under way (the slow fault taken), the merchant cancels.
      await eventually('the renewal to be asked of Stripe', async () => {
        const { faults } = (await standIn('GET', '/_standin/faults')) as { faults: unknown[] };
        return faults.length === 0 ? true : undefined;
      });
      expectMessage(await api('DELETE', `/v1/subscriptions/${id}`, { auth: merchant.modeAuth }), 200);
      await running;
    } finally {
      await clearFaults();
    }
    expect(await subscriptionStatus(merchant, id)).toBe('canceled');
    // Newest first: the renewal approved after the cancel answered, then the first period's charge.
    const [renewal, first] = (await chargesOf(merchant)).filter((one) => one.subscription_id === id);
    expect(renewal && first).toBeTruthy();
    const refunded = await eventually('the renewal to be refunded', async () => {
      const made = await refundsOf(merchant, renewal?.id ?? '');
      return made.length ? made : undefined;
    });
    expect(refunded).toEqual([expect.objectContaining({ amount: '12.00', reason: 'subscription_canceled' })]);
    expect(await refundsOf(merchant, first?.id ?? '')).toEqual([]);
    await expectBooksAgree(merchant.account.developerId, since);
  });
});

describe("a payment link deleted while its payer is on Stripe's page", () => {
  it('answers the delete 200; the payment is recorded and refunded; the books agree', async () => {
    const merchant = await newStripeMerchant('d15s-link-delete');
    const created = await api('POST', '/v1/payment-links/', {
      auth: merchant.modeAuth,
      body: { amount: '15.00', currency: 'USD', description: 'Workshop seat' },
    });
    expect(created.status, created.text).toBe(201);
    const { id, link } = (created.json.data ?? created.json) as { id: string; link: string };
    const sessionId = sessionIdOf(await toStripePage(link));
    expectMessage(await api('DELETE', `/v1/payment-links/${id}/`, { auth: merchant.modeAuth }), 200);
    expect((await payStripeSession(sessionId)).status).toBe('complete');
    const back = await backFromStripe(link);
    expect(back.status).not.toBe(500);
    const charge = await eventually('the charge to be recorded', async () =>
      (await chargesOf(merchant)).find((one) => one.payment_link_id === id),
    );
    await eventually('the refund to be made', async () =>
      (await refundsOf(merchant, charge.id)).length ? true : undefined,
    );
    expect(await refundsOf(merchant, charge.id)).toEqual([
      expect.objectContaining({ reason: 'payment_link_deleted' }),
    ]);
    await expectBooksAgree(merchant.account.developerId, since);
  });
});

describe('refunds retried after a time-out', () => {
  let merchant: StripeMerchant;
  beforeAll(async () => {
    merchant = await newStripeMerchant('d15s-refund-retry');
  });

  async function paidCharge(): Promise<string> {
    const payment = await createPayment(merchant.modeAuth);
    await payThroughStripe(payment.url);
    const view = await api('GET', `/v1/payments/${payment.id}`, { auth: merchant.modeAuth });
    return view.json.charge_id as string;
  }

  it("Stripe's answer lost: 504, then the same refund to the retry with its Idempotency-Key; one Stripe refund", async () => {
    const chargeId = await paidCharge();
    const body = { charge_id: chargeId, reason: 'requested_by_customer' };
    const headers = { 'Idempotency-Key': `stripe-lost-${Date.now()}` };
    // The package sends a call again once on a reset connection: both lose their answer.
    await fault(merchant, { operation: 'refund_create', effect: 'lose', times: 2 });
    let first: Awaited<ReturnType<typeof api>>;
    try {
      first = await api('POST', '/v1/refunds/', { auth: merchant.modeAuth, body, headers });
    } finally {
      await clearFaults();
    }
    expectMessage(first, 504, { type: 'error' });
    const retry = await eventually('the retry to learn the outcome', async () => {
      const answer = await api('POST', '/v1/refunds/', { auth: merchant.modeAuth, body, headers });
      return answer.status === 201 ? answer : undefined;
    });
    expect(await refundsOf(merchant, chargeId)).toEqual([expect.objectContaining({ id: retry.json.id })]);
    expect(await stripeRefundsOf(merchant, chargeId)).toHaveLength(1);
    await expectBooksAgree(merchant.account.developerId, since);
  });

  it('Stripe down: 504, then the retry makes the refund once', async () => {
    const chargeId = await paidCharge();
    const body = { charge_id: chargeId, reason: 'requested_by_customer' };
    const headers = { 'Idempotency-Key': `stripe-down-${Date.now()}` };
    await fault(merchant, { operation: 'refund_create', effect: 'down', times: 1 });
    let first: Awaited<ReturnType<typeof api>>;
    try {
      first = await api('POST', '/v1/refunds/', { auth: merchant.modeAuth, body, headers });
    } finally {
      await clearFaults();
    }
    expectMessage(first, 504, { type: 'error' });
    // As a client retries: a 409 says another run under the key (recovery's sweep, which may take
    // the unconfirmed attempt at once) is settling it, and to send again once it has finished.
    const retry = await eventually('the retry to be answered other than 409', async () => {
      const answer = await api('POST', '/v1/refunds/', { auth: merchant.modeAuth, body, headers });
      return answer.status === 409 ? undefined : answer;
    });
    expect(retry.status, retry.text).toBe(201);
    expect(await stripeRefundsOf(merchant, chargeId)).toHaveLength(1);
    await expectBooksAgree(merchant.account.developerId, since);
  });
});

describe('a renewal whose answer Stripe lost', () => {
  it("is recorded once by recovery, which finds the payment in the customer's list; the books agree", async () => {
    const merchant = await newStripeMerchant('d15s-renewal-lost');
    const { subscription_id: id, checkout_url: url } = await newSubscription(merchant);
    await payThroughStripe(url);
    await fault(merchant, { operation: 'payment_intent_create', effect: 'lose', times: 2 });
    let summary: Record<string, number>;
    try {
      summary = JSON.parse(
        (
          await cli(
            'billing',
            'run',
            '--now',
            new Date(Date.now() + 32 * 86_400_000).toISOString(),
            '--account',
            String(merchant.account.developerId),
          )
        ).stdout,
      );
    } finally {
      await clearFaults();
    }
    expect(summary.unconfirmed).toBe(1);
    // The stack's recovery (every few seconds) asks Stripe by the attempt and records it once.
    await eventually(
      'recovery to record the renewal',
      async () =>
        (await chargesOf(merchant)).filter((one) => one.subscription_id === id).length === 2
          ? true
          : undefined,
      60_000,
    );
    expect((await typesOf(merchant)).filter((type) => type === 'subscription.renewed')).toHaveLength(1);
    await expectBooksAgree(merchant.account.developerId, since);
  });
});

describe("refunds racing Stripe's payouts", () => {
  it('every refund is made (Stripe takes refunds after a payout), each charge records its payout; the books agree', async () => {
    const merchant = await newStripeMerchant('d15s-refunds-payouts');
    const chargeIds: string[] = [];
    for (let index = 0; index < 4; index++) {
      const payment = await createPayment(merchant.modeAuth, { amount: '20.00' });
      await payThroughStripe(payment.url);
      chargeIds.push(
        (await api('GET', `/v1/payments/${payment.id}`, { auth: merchant.modeAuth })).json.charge_id,
      );
    }
    const [refunds] = await Promise.all([
      Promise.all(
        chargeIds.map((chargeId) =>
          api('POST', '/v1/refunds/', {
            auth: merchant.modeAuth,
            body: { charge_id: chargeId, amount: '5.00', reason: 'requested_by_customer' },
          }),
        ),
      ),
      standIn('POST', '/_standin/payouts', {
        account: merchant.stripe.account_id,
        livemode: true,
        currency: 'usd',
      }),
    ]);
    for (const refund of refunds) expect(refund.status, refund.text).toBe(201);
    await eventually('every charge to record the payout', async () => {
      const charges = await Promise.all(chargeIds.map((id) => getCharge(makeDeps(), scopeOf(merchant), id)));
      return charges.every((charge) => (charge as { settled_payout?: unknown } | undefined)?.settled_payout)
        ? true
        : undefined;
    });
    for (const chargeId of chargeIds) {
      expect(await getCharge(makeDeps(), scopeOf(merchant), chargeId)).toMatchObject({ refunded: 500 });
    }
    await expectBooksAgree(merchant.account.developerId, since);
  });
});

describe('a subscription upgraded through Stripe (D19)', () => {
  /** A plan of 30.00 a month in the merchant's connected mode: an upgrade from stripePlan's 12.00. */
  async function biggerPlan(merchant: StripeMerchant): Promise<string> {
    const created = await api('POST', '/v1/plans/', {
      auth: merchant.modeAuth,
      body: { name: 'Platinum', amount: '30.00', currency: 'USD', interval: 'month', interval_count: 1 },
    });
    expect(created.status, created.text).toBe(201);
    return created.json.data.id as string;
  }
  const upgrade = (merchant: StripeMerchant, id: string, planId: string, key: string) =>
    api('PUT', `/v1/subscriptions/${id}`, {
      auth: merchant.modeAuth,
      body: { plan_id: planId },
      headers: { 'Idempotency-Key': key },
    });
  const prorated = async (merchant: StripeMerchant, id: string) =>
    (await chargesOf(merchant)).filter((one) => one.subscription_id === id).length - 1;

  it('charges the prorated difference off-session on the saved card, once; the books agree', async () => {
    const merchant = await newStripeMerchant('d19s-upgrade');
    const { subscription_id: id, checkout_url: url } = await newSubscription(merchant);
    await payThroughStripe(url);
    const platinum = await biggerPlan(merchant);
    const key = `d19s-${Date.now()}`;
    const first = await upgrade(merchant, id, platinum, key);
    expect(first.status, first.text).toBe(200);
    expect(first.json.plan_id).toBe(platinum);
    const again = await upgrade(merchant, id, platinum, key);
    expect(again.status, again.text).toBe(200);
    expect(await prorated(merchant, id)).toBe(1);
    const report = await expectBooksAgree(merchant.account.developerId, since);
    expect(report.acquirer.charges).toBeGreaterThanOrEqual(2);
  });

  it('with Stripe losing its answer: 504, then recovery applies the change and keeps one charge', async () => {
    const merchant = await newStripeMerchant('d19s-upgrade-lost');
    const { subscription_id: id, checkout_url: url } = await newSubscription(merchant);
    await payThroughStripe(url);
    const platinum = await biggerPlan(merchant);
    const key = `d19s-lost-${Date.now()}`;
    // Lost twice, as the renewal's answer is above (one loss alone was answered: 200).
    await fault(merchant, { operation: 'payment_intent_create', effect: 'lose', times: 2 });
    let first: Awaited<ReturnType<typeof api>>;
    try {
      first = await upgrade(merchant, id, platinum, key);
    } finally {
      await clearFaults();
    }
    expect(first.status, first.text).toBe(504);
    // The same request again, as a client does after a 504: the change's outcome once it is known.
    const answered = await eventually('the retried upgrade to be answered 200', async () => {
      const retry = await upgrade(merchant, id, platinum, key);
      return retry.status === 200 ? retry : undefined;
    });
    expect(answered.json.plan_id).toBe(platinum);
    expect(await prorated(merchant, id)).toBe(1);
    await expectBooksAgree(merchant.account.developerId, since);
  });
});
