/**
 * What a checkout submit does, whatever page it came from: claim the session, ask the acquirer,
 * then record the outcome (paid, declined, or a 3-D Secure challenge to answer). The acquirer is
 * asked only under a claim, so a double submit charges once.
 */
import type {
  Acquirer,
  CardInput,
  CardSummary,
  ChargeRequest,
  ChargeResult,
  DeclineReason,
} from '../acquirer/acquirer.ts';
import { type Charge, newCharge } from '../charges/charge.ts';
import { prefixedId } from '../core/ids.ts';
import { customerByEmail, writeAfterCommit } from '../customers/repository.ts';
import type { Deps } from '../db/deps.ts';
import type { TransactItem } from '../db/transact.ts';
import { paymentFailed, paymentSucceeded } from '../payments/events.ts';
import { paymentView, returnUrlFor } from '../payments/payment.ts';
import type { PaymentView } from '../payments/schemas.ts';
import { subscriptionCheckoutPaid } from './events.ts';
import {
  CustomerTaken,
  claimSession,
  completeCheckout,
  completeLinkCheckout,
  completeSubscriptionCheckout,
  holdChallenge,
  OwnerRaced,
  recordDecline,
} from './repository.ts';
import type { CheckoutSession } from './session.ts';

/**
 * What the area that owns payment links (above checkout) writes with each outcome of a link's
 * page, in the same transaction: the link's new state, its payment log, its event.
 */
export interface LinkOwner {
  paid(
    session: CheckoutSession,
    payment: { charge: Charge; customerId: string },
    now: Date,
  ): Promise<TransactItem[]>;
  declined(session: CheckoutSession, reason: DeclineReason, now: Date): Promise<TransactItem[]>;
}

export interface CheckoutDeps extends Deps {
  acquirer: Acquirer;
  /** Needed by a payment link's page only (the page functions wire it). */
  linkOwner?: LinkOwner;
}

function linkOwnerOf(deps: CheckoutDeps): LinkOwner {
  if (!deps.linkOwner) throw new Error('a payment link session needs CheckoutDeps.linkOwner');
  return deps.linkOwner;
}

export type CheckoutOutcome =
  | { kind: 'paid'; redirect: string }
  | { kind: 'receipt'; session: CheckoutSession; charge: Charge }
  | { kind: 'declined'; reason: DeclineReason; session: CheckoutSession }
  | { kind: 'challenge'; session: CheckoutSession };

/**
 * The payment a session collects, as it stands after this attempt: pending, or completed with the
 * charge. `payment.succeeded`/`payment.failed` carry its one view (D11).
 */
function paymentOf(
  session: CheckoutSession,
  paid: { chargeId: string; customerId: string; email: string; card: CardSummary } | null,
  now: Date,
): PaymentView {
  return paymentView({
    id: session.payment_id,
    developer_id: session.developer_id,
    mode: session.mode,
    amount: session.amount,
    currency: session.currency,
    description: session.description,
    items: session.items,
    return_url: session.return_url,
    status: paid ? 'completed' : 'pending',
    checkout_token: session.token,
    customer_id: paid?.customerId ?? null,
    customer_email: paid?.email ?? session.customer_email,
    charge_id: paid?.chargeId ?? null,
    payment_method: paid ? 'card' : null,
    card_last4: paid?.card.last4 ?? null,
    card_brand: paid?.card.brand ?? null,
    created_at: session.created_at,
    updated_at: now.toISOString(),
  });
}

/**
 * Records an approved checkout for the cardholder's customer (made or found by e-mail): `record`
 * writes it all in one transaction and answers what it recorded. When another checkout created
 * that customer first, or (a link's page) the billing step changed the link since it was read,
 * `record` runs again, still under this request's claim (at most three times).
 */
async function recordForCustomer<T>(
  deps: CheckoutDeps,
  claimed: CheckoutSession,
  cardholder: { email: string; name: string; country: string },
  record: (customer: Awaited<ReturnType<typeof customerByEmail>>, now: Date) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const now = deps.clock();
    const scope = { developerId: claimed.developer_id, mode: claimed.mode };
    const customer = await customerByEmail(deps, scope, cardholder, now);
    let recorded: T;
    try {
      recorded = await record(customer, now);
    } catch (error) {
      if ((error instanceof CustomerTaken || error instanceof OwnerRaced) && attempt < 3) continue;
      throw error;
    }
    await writeAfterCommit(deps, customer.afterCommit);
    return recorded;
  }
}

/** The charge an approved session records: a payment's, or a subscription's first period. */
function sessionCharge(
  claimed: CheckoutSession,
  result: Extract<ChargeResult, { status: 'approved' }>,
  customerId: string,
  now: Date,
) {
  return newCharge({
    id: prefixedId('ch'),
    developerId: claimed.developer_id,
    mode: claimed.mode,
    source: claimed.kind === 'payment' ? 'checkout' : claimed.kind,
    paymentId: claimed.kind === 'payment' ? claimed.payment_id : null,
    customerId,
    amount: claimed.amount,
    currency: claimed.currency,
    description: claimed.description,
    statementDescription: claimed.statement_descriptor,
    card: result.card,
    acquirerReference: result.acquirerReference,
    now,
  });
}

/** `return_url` with `subscription_id` added to its query (D6). */
function subscriptionReturnUrl(session: CheckoutSession): string {
  const url = new URL(session.return_url);
  url.searchParams.set('subscription_id', session.subscription_id ?? '');
  return url.toString();
}

/**
 * A subscription's checkout approved (charged, or the card checked for a trial): the session is
 * paid holding the card's token and the customer, and the activation is left to the subscription's
 * consumer of `checkout.subscription_paid` (D14: it starts the periods and counts it on the plan).
 */
async function approvedSubscription(
  deps: CheckoutDeps,
  claimed: CheckoutSession,
  result: Extract<ChargeResult, { status: 'approved' }>,
  cardholder: { email: string; name: string },
): Promise<CheckoutOutcome> {
  const trial = (claimed.trial_days ?? 0) > 0;
  await recordForCustomer(deps, claimed, { ...cardholder, country: result.card.country }, (customer, now) => {
    const charge = trial ? null : sessionCharge(claimed, result, customer.customerId, now);
    return completeSubscriptionCheckout(deps, {
      session: claimed,
      paid: {
        customer_id: customer.customerId,
        card_token: result.cardToken,
        charge_id: charge?.id ?? null,
        paid_at: now.toISOString(),
      },
      charge,
      customer: { writes: customer.writes },
      event: subscriptionCheckoutPaid.of(
        { developerId: claimed.developer_id, test: claimed.mode === 'test' },
        { session_token: claimed.token, subscription_id: claimed.subscription_id ?? '' },
        now,
      ),
      now,
    });
  });
  return { kind: 'paid', redirect: subscriptionReturnUrl(claimed) };
}

/**
 * A payment link's page approved: the session paid, the charge and the customer written, and the
 * link's own items (its state, its log, `payment_link.paid`) in the same transaction. The page
 * answers with a receipt.
 */
async function approvedLink(
  deps: CheckoutDeps,
  claimed: CheckoutSession,
  result: Extract<ChargeResult, { status: 'approved' }>,
  cardholder: { email: string; name: string },
): Promise<CheckoutOutcome> {
  const owner = linkOwnerOf(deps);
  const charge = await recordForCustomer(
    deps,
    claimed,
    { ...cardholder, country: result.card.country },
    async (customer, now) => {
      const made = sessionCharge(claimed, result, customer.customerId, now);
      const owned = await owner.paid(claimed, { charge: made, customerId: customer.customerId }, now);
      await completeLinkCheckout(deps, {
        session: claimed,
        charge: made,
        customer: { writes: customer.writes },
        owned,
        now,
      });
      return made;
    },
  );
  return { kind: 'receipt', session: { ...claimed, status: 'paid', charging_until: null }, charge };
}

async function approved(
  deps: CheckoutDeps,
  claimed: CheckoutSession,
  result: Extract<ChargeResult, { status: 'approved' }>,
  cardholder: { email: string; name: string },
): Promise<CheckoutOutcome> {
  if (claimed.kind === 'subscription') return approvedSubscription(deps, claimed, result, cardholder);
  if (claimed.kind === 'link') return approvedLink(deps, claimed, result, cardholder);
  const email = cardholder.email.toLowerCase();
  await recordForCustomer(deps, claimed, { ...cardholder, country: result.card.country }, (customer, now) => {
    const charge = sessionCharge(claimed, result, customer.customerId, now);
    const event = paymentSucceeded.of(
      { developerId: claimed.developer_id, test: claimed.mode === 'test' },
      {
        object: paymentOf(
          claimed,
          { chargeId: charge.id, customerId: customer.customerId, email, card: result.card },
          now,
        ),
      },
      now,
    );
    return completeCheckout(deps, {
      session: claimed,
      charge,
      customer: { id: customer.customerId, email, writes: customer.writes },
      event,
      now,
    });
  });
  return {
    kind: 'paid',
    redirect: returnUrlFor({ id: claimed.payment_id, return_url: claimed.return_url }),
  };
}

async function declined(
  deps: CheckoutDeps,
  claimed: CheckoutSession,
  reason: DeclineReason,
): Promise<CheckoutOutcome> {
  const now = deps.clock();
  if (claimed.kind === 'subscription') {
    const session = await recordDecline(deps, claimed, reason, null, now);
    return { kind: 'declined', reason, session };
  }
  if (claimed.kind === 'link') {
    const logged = await linkOwnerOf(deps).declined(claimed, reason, now);
    const session = await recordDecline(deps, claimed, reason, null, now, logged);
    return { kind: 'declined', reason, session };
  }
  // D11: every declined attempt is reported, with its reason, stored with the decline it reports.
  const event = paymentFailed.of(
    { developerId: claimed.developer_id, test: claimed.mode === 'test' },
    { object: { ...paymentOf(claimed, null, now), decline_reason: reason }, decline_reason: reason },
    now,
  );
  const session = await recordDecline(deps, claimed, reason, event, now);
  return { kind: 'declined', reason, session };
}

/**
 * A submit of the pay form with a card that passed validation. The claim is conditioned on the
 * posted CSRF token; SessionUnavailable carries the session when the claim is refused.
 */
export async function payWithCard(
  deps: CheckoutDeps,
  token: string,
  input: { card: CardInput; email: string; csrf: string },
): Promise<CheckoutOutcome> {
  const claimed = await claimSession(deps, token, deps.clock(), input.csrf);
  // A subscription's trial checks the card and charges nothing (D14).
  const trial = claimed.kind === 'subscription' && (claimed.trial_days ?? 0) > 0;
  const request: ChargeRequest = {
    amountMinor: claimed.amount,
    currency: claimed.currency,
    description: claimed.description,
    statementDescriptor: claimed.statement_descriptor,
    // One key per claim: a retried call for the same attempt is the same charge at the acquirer.
    idempotencyKey: `${claimed.token}:${claimed.charging_until}`,
    test: claimed.mode === 'test',
    merchant: claimed.developer_id,
    card: input.card,
    threeDSecure: 'challenge_allowed',
  };
  const result = trial ? await deps.acquirer.verify(request) : await deps.acquirer.charge(request);
  const cardholder = { email: input.email, name: input.card.holderName };
  if (result.status === 'approved') return approved(deps, claimed, result, cardholder);
  if (result.status === 'declined') return declined(deps, claimed, result.declineReason);
  const held = await holdChallenge(
    deps,
    claimed.token,
    { id: result.challengeId, ...cardholderOf(cardholder) },
    deps.clock(),
  );
  return { kind: 'challenge', session: held };
}

const cardholderOf = (cardholder: { email: string; name: string }) => ({
  email: cardholder.email,
  holder_name: cardholder.name,
});

/** The cardholder's answer to the 3-D Secure challenge the session holds. */
export async function answerChallenge(
  deps: CheckoutDeps,
  session: CheckoutSession,
  outcome: 'pass' | 'fail',
): Promise<CheckoutOutcome> {
  const claimed = await claimSession(deps, session.token, deps.clock());
  const challenge = claimed.challenge;
  if (!challenge) throw new Error('answerChallenge called on a session without a challenge');
  const result = await deps.acquirer.completeChallenge(challenge.id, outcome);
  if (result.status === 'approved') {
    return approved(deps, claimed, result, { email: challenge.email, name: challenge.holder_name });
  }
  return declined(deps, claimed, result.declineReason);
}
