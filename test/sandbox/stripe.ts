/**
 * `npm run sandbox:stripe`: the Stripe connector's calls against Stripe's real test mode (its
 * sandbox), a script apart from `npm test`, which runs them against the stand-in only. It needs
 * `STRIPE_TEST_KEY` (a `sk_test_…` key of a Stripe account) and the network; it moves no real money.
 *
 * What it checks, each as cobro calls it (shared/acquirer/stripe.ts), in order:
 * - the key's check (`accounts connect`);
 * - a Checkout Session in payment mode and one in setup mode: made under the attempt's key, read back
 *   as still waiting, then closed by a lookup that abandons it, after which nothing can be paid;
 * - a saved card charged off-session (Stripe's test payment methods stand for a card a payer saved):
 *   approved; found again by the attempt in its metadata; one needing authentication declined so;
 * - a refund of it, and the refund found again by the attempt;
 * - the connector's books for the last hour hold the payment and the refund.
 * It prints one line per check and exits 1 when one fails.
 */
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { checkStripeKey, createStripeConnector, stripeCardToken } from '../../shared/acquirer/stripe.ts';

const key = process.env.STRIPE_TEST_KEY;
if (!key?.startsWith('sk_test_') && !key?.startsWith('rk_test_')) {
  console.error(
    'sandbox:stripe needs STRIPE_TEST_KEY, a Stripe test-mode secret key (sk_test_…); nothing was run',
  );
  process.exit(2);
}

const connector = createStripeConnector({ secretKey: key, developerId: 1, mode: 'test' });
const stripe = new Stripe(key);
const attemptId = `att_sandbox_${randomUUID().replaceAll('-', '')}`;
let failures = 0;

async function check(name: string, step: () => Promise<string>): Promise<void> {
  try {
    console.log(`ok    ${name}: ${await step()}`);
  } catch (error) {
    failures += 1;
    console.log(`FAIL  ${name}: ${(error as Error).message}`);
  }
}

function expectThat(condition: boolean, what: string): void {
  if (!condition) throw new Error(what);
}

const base = {
  amountMinor: 1234,
  currency: 'USD',
  description: 'cobro sandbox check',
  customerEmail: 'sandbox@example.com',
  returnUrl: 'https://example.com/checkout/return',
  cancelUrl: 'https://example.com/checkout',
  expiresAt: new Date(Date.now() + 31 * 60_000),
  lang: 'en' as const,
  test: true,
  merchant: 1,
};

await check('the key opens a Stripe account', async () => {
  const account = await checkStripeKey(key);
  expectThat(account.accountId.startsWith('acct_') && !account.livemode, 'not a test key of an account');
  return account.accountId;
});

for (const purpose of ['charge', 'save_card'] as const) {
  await check(`a Checkout Session (${purpose}) is made, waits, and a lookup closes it`, async () => {
    const key = `${attemptId}.${purpose}`;
    const page = await connector.beginRedirect?.({
      ...base,
      purpose,
      saveCard: purpose === 'save_card',
      idempotencyKey: key,
      attemptId,
    });
    expectThat(Boolean(page?.url.startsWith('https://checkout.stripe.com/')), `unexpected URL ${page?.url}`);
    const waiting = await connector.readRedirect?.(page?.challengeId ?? '', true, 1);
    expectThat(waiting?.status === 'challenge_required', `read back as ${waiting?.status}`);
    const closed = await connector.findCharge(key, true, {
      challengeId: page?.challengeId ?? '',
      abandon: true,
    });
    expectThat(closed.status === 'not_found', `closed as ${closed.status}`);
    return page?.challengeId ?? '';
  });
}

let paymentIntent = '';
await check('a saved card is charged off-session, and found again by the attempt', async () => {
  const customer = await stripe.customers.create({ email: 'sandbox@example.com' });
  const method = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
  const cardToken = stripeCardToken(customer.id, method.id);
  const renewal = `${attemptId}.renewal`;
  const charged = await connector.chargeStored({ ...base, idempotencyKey: renewal, cardToken });
  expectThat(charged.status === 'approved', `answered ${charged.status}`);
  if (charged.status === 'approved') paymentIntent = charged.acquirerReference;
  const found = await connector.findCharge(renewal, true, { cardToken });
  expectThat(found.status === 'approved', `found ${found.status}`);
  return paymentIntent;
});

await check('a saved card that needs its holder is declined authentication_required', async () => {
  const customer = await stripe.customers.create({ email: 'sandbox@example.com' });
  const method = await stripe.paymentMethods.attach('pm_card_authenticationRequired', {
    customer: customer.id,
  });
  const declined = await connector.chargeStored({
    ...base,
    idempotencyKey: `${attemptId}.authentication`,
    cardToken: stripeCardToken(customer.id, method.id),
  });
  expectThat(
    declined.status === 'declined' && declined.declineReason === 'authentication_required',
    `answered ${JSON.stringify(declined)}`,
  );
  return 'declined';
});

await check('a refund is made, and found again by the attempt', async () => {
  expectThat(paymentIntent !== '', 'no payment to refund');
  const refundKey = `${attemptId}.refund`;
  const refund = await connector.refund({
    acquirerReference: paymentIntent,
    connector: 'stripe',
    amountMinor: 234,
    currency: 'USD',
    idempotencyKey: refundKey,
    test: true,
    merchant: 1,
  });
  expectThat(refund.status === 'succeeded', `answered ${JSON.stringify(refund)}`);
  const found = await connector.findRefund(refundKey, true, { chargeReference: paymentIntent });
  expectThat(found.status === 'succeeded', `found ${found.status}`);
  return refund.status === 'succeeded' ? refund.refundReference : '';
});

await check("the connector's books hold the payment and the refund", async () => {
  const kinds: string[] = [];
  for await (const entry of connector.ledger({
    since: new Date(Date.now() - 3_600_000),
    until: new Date(Date.now() + 60_000),
  }))
    if (entry.idempotencyKey.startsWith(attemptId)) kinds.push(entry.kind);
  expectThat(kinds.includes('charge') && kinds.includes('refund'), `found ${kinds.join(', ') || 'nothing'}`);
  return kinds.join(', ');
});

console.log(failures ? `${failures} checks failed` : 'every check passed');
process.exit(failures ? 1 : 0);
