/**
 * D18 through the local gateway with the Stripe connector, against the stack's stand-in of Stripe's
 * API: an account's live mode connected with `accounts connect` takes a payment on Stripe's page (no
 * card field on cobro's page, the outcome read back from Stripe), a subscription with its first
 * charge and one with a trial, renewals (approved, declined, needing the cardholder), a payment link,
 * a refund, a portal card replacement, disputes and payouts; Stripe's events are taken only when
 * signed, once, and acted on as Stripe confirms them. Every case ends with the books reconciled.
 */
import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { newStandInStripeAccount } from '../../infra/local/stripe-accounts.ts';
import { chargeKeys } from '../../shared/charges/keys.ts';
import { getCharge } from '../../shared/charges/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { expectMessage } from '../support/answers.ts';
import {
  createPayment,
  csrfOf,
  goodYear,
  openPage,
  postForm,
  submitCard,
  testCards,
} from '../support/checkout.ts';
import { cli, expectCliRefusal } from '../support/cli.ts';
import { eventually, expectBooksAgree, reconcileAccount } from '../support/ledger.ts';
import { waitForMail } from '../support/mail.ts';
import { api, apiKey, localInfo, newAccount, useLocalEnvironment } from '../support/stack.ts';
import {
  backFromStripe,
  billingRunFor,
  connectStripe,
  newStripeMerchant,
  payStripeSession,
  payThroughStripe,
  type StripeMerchant,
  sessionIdOf,
  standIn,
  stripeApi,
  stripePlan,
  stripeSubscription,
  subscriptionOf,
  toStripePage,
} from '../support/stripe.ts';
import { storedEventItems, updateStored } from '../support/table.ts';

beforeAll(() => useLocalEnvironment());

const since = new Date(Date.now() - 60_000);

/** Stripe's test cards, as the stand-in takes them. */
const stripeCards = {
  approved: '4242424242424242',
  declined: '4000000000000002',
  /** Saved fine; every later off-session charge needs the cardholder (authentication_required). */
  needsAuthentication: '4000002760003184',
  /** Saved fine; every later off-session charge is declined. */
  declinesLater: '4000000000000341',
};

const live = { developerId: 0, mode: 'live' as const };
const scopeOf = (merchant: StripeMerchant) => ({ ...live, developerId: merchant.account.developerId });

async function paymentOf(merchant: StripeMerchant, id: string) {
  const view = await api('GET', `/v1/payments/${id}`, { auth: merchant.modeAuth });
  expect(view.status, view.text).toBe(200);
  return view.json;
}

const eventsOf = (merchant: StripeMerchant) => storedEventItems(merchant.account.developerId, 'live');

describe('a payment through Stripe', () => {
  let merchant: StripeMerchant;
  beforeAll(async () => {
    merchant = await newStripeMerchant('d18-stripe-payment');
  });

  it("takes the card on Stripe's page only, and records the payment read back from Stripe", async () => {
    const payment = await createPayment(merchant.modeAuth);
    const page = await openPage(payment.url);
    // cobro's page asks for no card data at all, and its form may lead to Stripe's page.
    expect(page.html).not.toMatch(/name="(card_number|cvc|exp_month|exp_year|cardholder_name)"/);
    expect(page.headers.get('content-security-policy')).toContain(new URL(localInfo.stripe_url ?? '').origin);
    expect(page.html).toContain('Stripe&#39;s secure page');
    const { back } = await payThroughStripe(payment.url);
    expect(back.status, back.html).toBe(303);
    expect(new URL(back.location as string).searchParams.get('id_payment')).toBe(payment.id);
    const view = await paymentOf(merchant, payment.id);
    expect(view).toMatchObject({ status: 'completed', card_last4: '4242', card_brand: 'visa', test: false });
    // Stripe pays it out on its own schedule: cobro's payout run never does.
    const charge = await getCharge(makeDeps(), scopeOf(merchant), view.charge_id);
    expect(charge).toMatchObject({ connector: 'stripe', payout_due_at: null });
    // The payer told Stripe who they are: that is the customer.
    const customers = await api('GET', '/v1/customers/', { auth: merchant.modeAuth });
    expect(customers.json.results).toEqual([
      expect.objectContaining({ email: 'buyer@example.com', first_name: 'Ada' }),
    ]);
  });

  it("a card declined on Stripe's page leaves the payment open; the payer comes back to continue", async () => {
    const payment = await createPayment(merchant.modeAuth);
    const sessionId = sessionIdOf(await toStripePage(payment.url));
    const declined = await payStripeSession(sessionId, stripeCards.declined);
    expect(declined).toMatchObject({ status: 'open', error: { code: 'card_declined' } });
    // Back without paying (Stripe's Back link, or the browser's): the page to continue there.
    const back = await backFromStripe(payment.url);
    expect(back.status).toBe(200);
    expect(back.html).toContain('Continue to payment');
    // Continuing leads to the same Stripe page, which is then paid.
    const again = await postForm(payment.url, { csrf_token: csrfOf(back.html) });
    expect(again.status).toBe(303);
    expect(sessionIdOf(again.location as string)).toBe(sessionId);
    expect((await payStripeSession(sessionId)).status).toBe('complete');
    expect((await backFromStripe(payment.url)).status).toBe(303);
    expect((await paymentOf(merchant, payment.id)).status).toBe('completed');
  });

  it('a refund is a Stripe refund; the books agree', async () => {
    const payment = await createPayment(merchant.modeAuth, { amount: '30.00' });
    await payThroughStripe(payment.url);
    const chargeId = (await paymentOf(merchant, payment.id)).charge_id as string;
    const refund = await api('POST', '/v1/refunds/', {
      auth: merchant.modeAuth,
      body: { charge_id: chargeId, amount: '10.00', reason: 'requested_by_customer' },
    });
    expect(refund.status, refund.text).toBe(201);
    const { json: refunds } = await stripeApi(
      merchant.stripe.live_key,
      'GET',
      `/v1/refunds?payment_intent=${(await getCharge(makeDeps(), scopeOf(merchant), chargeId))?.acquirer_reference}`,
    );
    expect(refunds.data).toEqual([expect.objectContaining({ amount: 1000, status: 'succeeded' })]);
    const report = await expectBooksAgree(merchant.account.developerId, since);
    expect(report.acquirer.refunds).toBeGreaterThanOrEqual(1);
  });

  it('a refund Stripe refuses (the charge is disputed) is refused at once, refunding nothing', async () => {
    const payment = await createPayment(merchant.modeAuth, { amount: '30.00' });
    await payThroughStripe(payment.url);
    const chargeId = (await paymentOf(merchant, payment.id)).charge_id as string;
    const intent = (await getCharge(makeDeps(), scopeOf(merchant), chargeId))?.acquirer_reference;
    await standIn('POST', '/_standin/disputes', { payment_intent: intent, reason: 'fraudulent' });
    const refused = await api('POST', '/v1/refunds/', {
      auth: merchant.modeAuth,
      body: { charge_id: chargeId, amount: '10.00', reason: 'requested_by_customer' },
    });
    // Stripe answered charge_disputed: a definite refusal, never an outcome left to look up (504).
    expectMessage(refused, 502, {
      content: 'The payment processor refused the refund; nothing was refunded.',
    });
    const view = await api('GET', `/v1/charges/${chargeId}/`, { auth: merchant.modeAuth });
    expect(view.json).toMatchObject({ amount_refunded: 0, refund: null });
    const { json: refunds } = await stripeApi(
      merchant.stripe.live_key,
      'GET',
      `/v1/refunds?payment_intent=${intent}`,
    );
    expect(refunds.data).toEqual([]);
  });

  it('refuses the legacy charge: card numbers never reach cobro in a mode connected to Stripe', async () => {
    const refused = await api('POST', '/v1/charges/simple/create/', {
      auth: merchant.modeAuth,
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
    expectMessage(refused, 400, { title: 'Card numbers not taken' });
  });
});

describe('subscriptions through Stripe', () => {
  let merchant: StripeMerchant;
  beforeAll(async () => {
    merchant = await newStripeMerchant('d18-stripe-subscriptions');
  });

  it('the first charge saves the card; a renewal is an off-session payment of it', async () => {
    const plan = await stripePlan(merchant);
    const { subscription_id: id, checkout_url: url } = await stripeSubscription(merchant, plan);
    const { back } = await payThroughStripe(url);
    expect(back.status, back.html).toBe(303);
    expect((await subscriptionOf(merchant, id)).status).toBe('active');
    const summary = await billingRunFor(merchant, new Date(Date.now() + 32 * 86_400_000));
    expect(summary).toMatchObject({ renewed: 1, failed: 0 });
    const charges = await api('GET', '/v1/payments/', { auth: merchant.modeAuth });
    expect(
      (charges.json as unknown as { subscription_id: string }[]).filter((c) => c.subscription_id === id),
    ).toHaveLength(2);
    const report = await expectBooksAgree(merchant.account.developerId, since);
    expect(report.acquirer.charges).toBeGreaterThanOrEqual(2);
  });

  it('a trial saves the card on a setup page (nothing charged); its end is charged off-session', async () => {
    const plan = await stripePlan(merchant, 7);
    const { subscription_id: id, checkout_url: url } = await stripeSubscription(merchant, plan);
    const page = await openPage(url);
    expect(page.html).toContain('Start trial');
    const { back } = await payThroughStripe(url);
    expect(back.status, back.html).toBe(303);
    expect((await subscriptionOf(merchant, id)).status).toBe('trialing');
    expect(await billingRunFor(merchant, new Date(Date.now() + 8 * 86_400_000))).toMatchObject({
      renewed: 1,
    });
    expect((await subscriptionOf(merchant, id)).status).toBe('active');
    await expectBooksAgree(merchant.account.developerId, since);
  });

  it('a renewal declined is a failed renewal; one needing the cardholder sends them to the portal to confirm', async () => {
    // A card Stripe saves but declines later is saved on a trial's setup page (a first charge declines it).
    const trial = await stripePlan(merchant, 7);
    const declines = await stripeSubscription(merchant, trial);
    await payThroughStripe(declines.checkout_url, stripeCards.declinesLater, { email: 'later@example.com' });
    const plan = await stripePlan(merchant);
    const needs = await stripeSubscription(merchant, plan);
    await payThroughStripe(needs.checkout_url, stripeCards.needsAuthentication, {
      email: 'confirm@example.com',
    });
    const summary = await billingRunFor(merchant, new Date(Date.now() + 32 * 86_400_000));
    expect(summary.payment_failed).toBeGreaterThanOrEqual(2);
    expect((await subscriptionOf(merchant, declines.subscription_id)).status).toBe('past_due');
    expect((await subscriptionOf(merchant, needs.subscription_id)).status).toBe('past_due');
    const failed = (await eventsOf(merchant)).filter(
      (item) => item.detail.type === 'subscription.payment_failed',
    );
    const reasonOf = (id: string) =>
      failed.find((item) => item.detail.data.object.subscription_id === id)?.detail.data.decline_reason;
    expect(reasonOf(declines.subscription_id)).toBe('generic_decline');
    expect(reasonOf(needs.subscription_id)).toBe('authentication_required');
    const mail = await waitForMail(
      'confirm@example.com',
      `Test d18-stripe-subscriptions: confirm your payment for "Gold"`,
    );
    expect(mail, 'the notice asking to confirm the payment').toBeDefined();
    expect(mail?.body.html ?? mail?.body.text).toContain('/portal/');
    await expectBooksAgree(merchant.account.developerId, since);
  });

  it('the portal replaces the card on a Stripe setup page, and the overdue period is charged to it', async () => {
    const plan = await stripePlan(merchant, 7);
    const { subscription_id: id, checkout_url: url } = await stripeSubscription(merchant, plan);
    await payThroughStripe(url, stripeCards.declinesLater, { email: 'replace@example.com' });
    await billingRunFor(merchant, new Date(Date.now() + 8 * 86_400_000));
    const overdue = await subscriptionOf(merchant, id);
    expect(overdue.status).toBe('past_due');
    const portal = await api('POST', `/v1/customers/${overdue.customer_id}/portal/`, {
      auth: merchant.modeAuth,
    });
    expect(portal.status, portal.text).toBe(201);
    const portalPage = await openPage(portal.json.url as string);
    const csrf = csrfOf(portalPage.html);
    const toCard = await postForm(portal.json.url as string, {
      csrf_token: csrf,
      action: 'card',
      subscription_id: id,
    });
    expect(toCard.status, toCard.html).toBe(303);
    const cardPage = toCard.location as string;
    const { back } = await payThroughStripe(cardPage, stripeCards.approved, { email: 'replace@example.com' });
    expect([200, 303]).toContain(back.status);
    await eventually('the overdue period to be paid on the new card', async () =>
      (await subscriptionOf(merchant, id)).status === 'active' ? true : undefined,
    );
    await expectBooksAgree(merchant.account.developerId, since);
  });
});

describe('connecting a mode that already has subscriptions', () => {
  it('a card saved with the simulated acquirer keeps renewing there after test mode connects Stripe; a new one goes to Stripe', async () => {
    const account = await newAccount('d18-switch');
    const auth = apiKey(account.testKey);
    const plan = await api('POST', '/v1/plans/', {
      auth,
      body: { name: 'Gold', amount: '12.00', currency: 'USD', interval: 'month', interval_count: 1 },
    });
    const before = await api('POST', '/v1/subscriptions', {
      auth,
      body: { plan_id: plan.json.data.id, return_url: 'https://shop.example/welcome' },
    });
    expect((await submitCard(before.json.data.checkout_url)).status).toBe(303);
    const stripe = await connectStripe(account, 'test');
    const merchant: StripeMerchant = { account, auth, stripe, modeAuth: auth };
    const after = await stripeSubscription(merchant, plan.json.data.id);
    await payThroughStripe(after.checkout_url);
    const summary = await billingRunFor(merchant, new Date(Date.now() + 32 * 86_400_000));
    expect(summary).toMatchObject({ renewed: 2, failed: 0 });
    const charges = (await api('GET', '/v1/payments/?limit=100', { auth })).json as unknown as {
      id: string;
    }[];
    const connectors = await Promise.all(
      charges.map(
        async (charge) =>
          (await getCharge(makeDeps(), { developerId: account.developerId, mode: 'test' }, charge.id))
            ?.connector ?? 'simulated',
      ),
    );
    expect(connectors.sort()).toEqual(['simulated', 'simulated', 'stripe', 'stripe']);
  });
});

describe('a mode disconnected from Stripe', () => {
  it('still finishes what Stripe holds: a payment completed on its page after, its refunds, its events and its books', async () => {
    const merchant = await newStripeMerchant('d18-stripe-disconnected');
    const id = String(merchant.account.developerId);
    const earlier = await createPayment(merchant.modeAuth, { amount: '20.00' });
    await payThroughStripe(earlier.url);
    const earlierCharge = (await paymentOf(merchant, earlier.id)).charge_id as string;
    // A payer is on Stripe's page when the operator disconnects live mode.
    const open = await createPayment(merchant.modeAuth);
    const sessionId = sessionIdOf(await toStripePage(open.url));
    await cli('accounts', 'connect', '--account', id, '--live', 'none');
    expect((await payStripeSession(sessionId)).status).toBe('complete');
    const back = await backFromStripe(open.url);
    expect(back.status, back.html).toBe(303);
    expect((await paymentOf(merchant, open.id)).status).toBe('completed');
    // Refunds of earlier charges work, through the Stripe account that made them.
    const refund = await api('POST', '/v1/refunds/', {
      auth: merchant.modeAuth,
      body: { charge_id: earlierCharge, amount: '5.00', reason: 'requested_by_customer' },
    });
    expect(refund.status, refund.text).toBe(201);
    // New money is refused; the books of the Stripe account are still read.
    expectMessage(
      await api('POST', '/v1/payments/', {
        auth: merchant.modeAuth,
        body: {
          amount: '1.00',
          currency: 'USD',
          description: 'x',
          items: ['x'],
          return_url: 'https://shop.example/',
        },
      }),
      400,
      { title: 'Live mode not connected' },
    );
    const report = await expectBooksAgree(merchant.account.developerId, since);
    expect(report.acquirer.refunds).toBeGreaterThanOrEqual(1);
  });

  it('renewals wait while it is connected to nothing (each run counts them failed) and are charged on the first run after it is connected again', async () => {
    const merchant = await newStripeMerchant('d18-stripe-renewal-waits');
    const id = String(merchant.account.developerId);
    const created = await stripeSubscription(merchant, await stripePlan(merchant));
    await payThroughStripe(created.checkout_url);
    await cli('accounts', 'connect', '--account', id, '--live', 'none');
    const due = new Date(Date.now() + 32 * 86_400_000);
    expect(await billingRunFor(merchant, due)).toMatchObject({ renewed: 0, failed: 1 });
    expect((await subscriptionOf(merchant, created.subscription_id)).status).toBe('active');
    // The same Stripe account connected again: the next run renews at once (nothing is left open
    // by the run that could not ask anyone).
    await connectStripe(merchant.account, 'live', merchant.stripe);
    expect(await billingRunFor(merchant, due)).toMatchObject({ renewed: 1, failed: 0, raced: 0 });
    await expectBooksAgree(merchant.account.developerId, since);
  });
});

describe("a card declined on Stripe's page", () => {
  it('is told as a decline (payment.failed with its reason) while the payment stays payable there', async () => {
    const merchant = await newStripeMerchant('d18-stripe-decline-told');
    const payment = await createPayment(merchant.modeAuth);
    const sessionId = sessionIdOf(await toStripePage(payment.url));
    expect((await payStripeSession(sessionId, stripeCards.declined)).status).toBe('open');
    const failed = await eventually('the decline to be told', async () => {
      const found = (await eventsOf(merchant)).filter((item) => item.detail.type === 'payment.failed');
      return found.length ? found : undefined;
    });
    expect(failed[0]?.detail.data).toMatchObject({ decline_reason: 'generic_decline' });
    expect((await payStripeSession(sessionId)).status).toBe('complete');
    expect((await backFromStripe(payment.url)).status).toBe(303);
    expect((await paymentOf(merchant, payment.id)).status).toBe('completed');
  });
});

describe('a payment link through Stripe', () => {
  it("is paid on Stripe's page and answers its receipt", async () => {
    const merchant = await newStripeMerchant('d18-stripe-link');
    const created = await api('POST', '/v1/payment-links/', {
      auth: merchant.modeAuth,
      body: { amount: '15.00', currency: 'USD', description: 'Workshop seat' },
    });
    expect(created.status, created.text).toBe(201);
    const { back } = await payThroughStripe((created.json.data ?? created.json).link as string);
    expect(back.status, back.html).toBe(200);
    expect(back.html).toContain('Payment received');
    await expectBooksAgree(merchant.account.developerId, since);
  });
});

describe("Stripe's events", () => {
  let merchant: StripeMerchant;
  const eventsPath = () => `/v1/connectors/stripe/${merchant.account.developerId}/events/`;
  beforeAll(async () => {
    merchant = await newStripeMerchant('d18-stripe-events');
  });

  /** Signs `body` as Stripe does, with `secret`, at `at`. */
  const signed = (body: string, secret: string, at = Math.floor(Date.now() / 1000)) =>
    `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${body}`).digest('hex')}`;

  const post = (body: string, signature?: string) =>
    api('POST', eventsPath(), {
      rawBody: body,
      headers: {
        'Content-Type': 'application/json',
        ...(signature ? { 'Stripe-Signature': signature } : {}),
      },
    });

  it('a forged, missing, stale or replayed signature is 400 and does nothing', async () => {
    const body = JSON.stringify({
      id: 'evt_forged',
      object: 'event',
      type: 'charge.dispute.created',
      data: { object: {} },
    });
    expectMessage(await post(body), 400, { title: 'Event not verified' });
    expectMessage(await post(body, signed(body, 'whsec_not_the_secret')), 400, {
      title: 'Event not verified',
    });
    // Signed right, but ten minutes ago: a replay of an old delivery.
    const stale = signed(body, merchant.stripe.live_webhook_secret, Math.floor(Date.now() / 1000) - 600);
    expectMessage(await post(body, stale), 400, { title: 'Event not verified' });
    // Another account's path: its secret does not verify this account's events.
    const other = await newAccount('d18-stripe-events-other');
    const elsewhere = await api('POST', `/v1/connectors/stripe/${other.developerId}/events/`, {
      rawBody: body,
      headers: {
        'Content-Type': 'application/json',
        'Stripe-Signature': signed(body, merchant.stripe.live_webhook_secret),
      },
    });
    expectMessage(elsewhere, 400, { title: 'Event not verified' });
  });

  it('an event whose object Stripe does not confirm changes nothing', async () => {
    const before = (await eventsOf(merchant)).length;
    const body = JSON.stringify({
      id: 'evt_made_up_by_someone',
      object: 'event',
      type: 'checkout.session.completed',
      livemode: true,
      data: { object: { id: 'cs_live_not_real', object: 'checkout.session', client_reference_id: 'att_x' } },
    });
    const answer = await post(body, signed(body, merchant.stripe.live_webhook_secret));
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toMatchObject({ outcome: 'ignored', detail: 'Stripe does not confirm the event' });
    expect((await eventsOf(merchant)).length).toBe(before);
  });

  it('a dispute is stored and published once as charge.dispute.created, however often Stripe sends it', async () => {
    const payment = await createPayment(merchant.modeAuth);
    await payThroughStripe(payment.url);
    const chargeId = (await paymentOf(merchant, payment.id)).charge_id as string;
    const intent = (await getCharge(makeDeps(), scopeOf(merchant), chargeId))?.acquirer_reference;
    const dispute = (await standIn('POST', '/_standin/disputes', {
      payment_intent: intent,
      reason: 'fraudulent',
    })) as {
      id: string;
    };
    const published = await eventually('the dispute to be published', async () => {
      const found = (await eventsOf(merchant)).filter(
        (item) => item.detail.type === 'charge.dispute.created',
      );
      return found.length ? found : undefined;
    });
    expect(published[0]?.detail.data.object).toMatchObject({
      id: dispute.id,
      charge_id: chargeId,
      payment_id: payment.id,
      reason: 'fraudulent',
      amount: '10.00',
    });
    // Stripe sends the same event again: taken once.
    const { data: deliveries } = (await standIn(
      'GET',
      `/_standin/deliveries?account=${merchant.stripe.account_id}`,
    )) as {
      data: { event: string; type: string }[];
    };
    const disputeEvent = deliveries.find((delivery) => delivery.type === 'charge.dispute.created')?.event;
    expect(disputeEvent).toBeDefined();
    await standIn('POST', `/_standin/events/${disputeEvent}/resend`, {});
    await eventually('the second delivery to be answered', async () => {
      const again = (await standIn('GET', `/_standin/deliveries?event=${disputeEvent}`)) as {
        data: unknown[];
      };
      return again.data.length >= 2 ? true : undefined;
    });
    const after = (await eventsOf(merchant)).filter((item) => item.detail.type === 'charge.dispute.created');
    expect(after).toHaveLength(1);
  });

  it("a payout is recorded on the charges it settled; cobro's own payout run moves nothing", async () => {
    const payment = await createPayment(merchant.modeAuth, { amount: '40.00' });
    await payThroughStripe(payment.url);
    const chargeId = (await paymentOf(merchant, payment.id)).charge_id as string;
    const run = JSON.parse(
      (
        await cli(
          'payouts',
          'run',
          '--now',
          new Date(Date.now() + 3 * 86_400_000).toISOString(),
          '--account',
          String(merchant.account.developerId),
        )
      ).stdout,
    );
    expect(run.charge_ids).not.toContain(chargeId);
    await standIn('POST', '/_standin/payouts', {
      account: merchant.stripe.account_id,
      livemode: true,
      currency: 'usd',
    });
    const settled = await eventually('the payout to be recorded on the charge', async () => {
      const charge = (await getCharge(makeDeps(), scopeOf(merchant), chargeId)) as
        | (Record<string, unknown> & { settled_payout?: { id: string; net: number } })
        | undefined;
      return charge?.settled_payout;
    });
    expect(settled.id).toMatch(/^po_/);
    // 40.00 less Stripe's 2.9 % + 0.30.
    expect(settled.net).toBe(4000 - 146);
    await expectBooksAgree(merchant.account.developerId, since);
    // A payout the charge does not record (its event lost, say) is a mismatch naming the charge.
    await updateStored(chargeKeys.charge(merchant.account.developerId, 'live', chargeId), {
      UpdateExpression: 'REMOVE settled_payout',
    });
    const report = await reconcileAccount(merchant.account.developerId, since);
    expect(report.mismatches).toEqual([
      expect.objectContaining({
        kind: 'payout',
        key: settled.id,
        problem: 'not_recorded',
        charge_id: chargeId,
      }),
    ]);
  });
});

describe('accounts connect with Stripe', () => {
  it('refuses a key Stripe does not accept, storing nothing', async () => {
    const account = await newAccount('d18-stripe-bad-key');
    await expectCliRefusal(
      [
        'accounts',
        'connect',
        '--account',
        String(account.developerId),
        '--mode',
        'live',
        '--stripe-key',
        'sk_live_notARealKeyAtAll000000000',
        '--stripe-webhook-secret',
        'whsec_abc',
      ],
      1,
      'Stripe did not accept the key (sk_live_…0000)',
    );
    const shown = JSON.parse(
      (await cli('accounts', 'connect', '--account', String(account.developerId), '--json')).stdout,
    );
    expect(shown[1]).toMatchObject({ mode: 'live', connector: 'simulated', key: null });
  });

  const eventsUrlOf = (developerId: number) =>
    `${localInfo.api_url}/v1/connectors/stripe/${developerId}/events/`;

  it("given no signing secret, makes the account's webhook endpoint at Stripe: its events then arrive", async () => {
    const account = await newAccount('d18-stripe-makes-endpoint');
    const id = account.developerId;
    const stripe = await newStandInStripeAccount(localInfo, id, 'no endpoint yet', { endpoints: false });
    const { stdout } = await cli(
      'accounts',
      'connect',
      '--account',
      String(id),
      '--mode',
      'live',
      '--stripe-key',
      stripe.live_key,
    );
    expect(stdout).toContain(`made the Stripe webhook endpoint at ${eventsUrlOf(id)}`);
    const endpoints = await stripeApi(stripe.live_key, 'GET', '/v1/webhook_endpoints');
    expect(endpoints.json.data).toEqual([
      expect.objectContaining({
        url: eventsUrlOf(id),
        status: 'enabled',
        api_version: Stripe.API_VERSION,
        enabled_events: expect.arrayContaining([
          'checkout.session.completed',
          'charge.refunded',
          'payout.paid',
        ]),
      }),
    ]);
    // The secret cobro keeps is the endpoint's: a payment whose payer never comes back to cobro's
    // page is finished by Stripe's event alone.
    const merchant = { account, auth: apiKey(account.testKey), stripe, modeAuth: apiKey(account.liveKey) };
    const payment = await createPayment(merchant.modeAuth);
    const paid = await payStripeSession(sessionIdOf(await toStripePage(payment.url)));
    expect(paid.status).toBe('complete');
    await eventually('the payment completed by the event', async () =>
      (await paymentOf(merchant, payment.id)).status === 'completed' ? true : undefined,
    );
    // Connecting again without a secret cannot read that endpoint's secret back: refused, kept.
    await expectCliRefusal(
      ['accounts', 'connect', '--account', String(id), '--mode', 'live', '--stripe-key', stripe.live_key],
      1,
      'exists already and its signing secret cannot be read again',
    );
  });

  it('refuses a signing secret when no enabled endpoint of the Stripe account points at cobro, storing nothing', async () => {
    const account = await newAccount('d18-stripe-no-endpoint');
    const id = String(account.developerId);
    const stripe = await newStandInStripeAccount(localInfo, account.developerId, 'elsewhere', {
      endpoints: false,
    });
    const connect = [
      'accounts',
      'connect',
      '--account',
      id,
      '--mode',
      'live',
      '--stripe-key',
      stripe.live_key,
      '--stripe-webhook-secret',
      'whsec_copiedFromSomewhere',
    ];
    await expectCliRefusal(
      connect,
      1,
      `no webhook endpoint of this Stripe account points at ${eventsUrlOf(account.developerId)}`,
    );
    // One that points there but leaves out the events cobro needs is refused too.
    const made = await stripeApi(stripe.live_key, 'POST', '/v1/webhook_endpoints', {
      url: eventsUrlOf(account.developerId),
      'enabled_events[0]': 'charge.refunded',
    });
    expect(made.status).toBe(200);
    await expectCliRefusal(
      [...connect.slice(0, -1), made.json.secret],
      1,
      'is disabled or does not send checkout.session.completed',
    );
    const shown = JSON.parse((await cli('accounts', 'connect', '--account', id, '--json')).stdout);
    expect(shown[1]).toMatchObject({ mode: 'live', connector: 'simulated', key: null });
  });

  it('shows the connection by its key hint, never the key', async () => {
    const merchant = await newStripeMerchant('d18-stripe-shown');
    const { stdout } = await cli(
      'accounts',
      'connect',
      '--account',
      String(merchant.account.developerId),
      '--json',
    );
    expect(stdout).not.toContain(merchant.stripe.live_key);
    expect(stdout).not.toContain(merchant.stripe.live_webhook_secret);
    expect(JSON.parse(stdout)[1]).toMatchObject({
      connector: 'stripe',
      stripe_account: merchant.stripe.account_id,
      key: `sk_live_…${merchant.stripe.live_key.slice(-4)}`,
    });
  });
});
