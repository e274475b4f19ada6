/**
 * What a checkout submit does, whatever page it came from (docs/design.md#checkout, #attempts): store
 * an attempt and claim the session for it, ask the acquirer under the attempt's key, then record the
 * outcome with the attempt's finish in one transaction: paid (the charge, its `charge.succeeded`, and
 * what the session's owner writes), declined, a 3-D Secure challenge to answer, or, when the acquirer
 * gave no answer, `confirming`: the payer is told the payment could not be confirmed yet, and
 * recovery (./recovery.ts) finishes it from what the acquirer has under the key. An approval is never
 * discarded: if what it pays for went away meanwhile, the charge is recorded and refunded at once.
 */
import {
  AcquirerUnavailable,
  type ApprovedCharge,
  CardEntryRefused,
  type CardInput,
  type ChargeRequest,
  type ChargeResult,
  type DeclineReason,
  NotConnected,
  type RedirectRequest,
} from '../acquirer/acquirer.ts';
import { type Attempt, challengeWindowMs, newAttempt, newAttemptId } from '../attempts/attempt.ts';
import {
  AttemptTaken,
  answeringWrite,
  attemptPut,
  challengeWrite,
  discardWrite,
  finishWrite,
  getAttempt,
  moveAttempt,
  storeAttempt,
  unconfirmedWrite,
} from '../attempts/repository.ts';
import { type Charge, newCharge, refundedAtOnce } from '../charges/charge.ts';
import { chargeWrites, getCharge } from '../charges/repository.ts';
import { scopeOf } from '../core/account.ts';
import { prefixedId } from '../core/ids.ts';
import { logger } from '../core/log.ts';
import { customerByEmail, customerIdByEmail, writeAfterCommit } from '../customers/repository.ts';
import { conditionFailedAt } from '../db/conditions.ts';
import { lostRace, retryOptimistic } from '../db/optimistic.ts';
import { failedConditions, type NamedItem, named, transactNamed, transactWrite } from '../db/transact.ts';
import type { RefundReason } from '../refunds/schemas.ts';
import { type RefundDeps, refundAtOnce, refundAttempt } from '../refunds/service.ts';
import type { PaidAnswer, SessionOwners } from './owner.ts';
import {
  claimSession,
  getSession,
  SessionUnavailable,
  sessionChallengeWrite,
  sessionConfirmingWrite,
  sessionDeclinedWrite,
  sessionPaidWrite,
  sessionReleasedWrite,
  unclaim,
} from './repository.ts';
import type { CheckoutSession } from './session.ts';

export interface CheckoutDeps extends RefundDeps {
  /** The owner of every kind of session (payments, subscriptions, payment links). */
  owners: SessionOwners;
}

export type CheckoutOutcome =
  | { kind: 'paid'; answer: PaidAnswer; session: CheckoutSession; charge: Charge | null }
  | { kind: 'declined'; reason: DeclineReason; session: CheckoutSession }
  | { kind: 'challenge'; session: CheckoutSession }
  /** The acquirer gave no answer: the payment is being confirmed (recovery finishes it). */
  | { kind: 'unconfirmed'; session: CheckoutSession }
  /** Approved, but what it paid for went away meanwhile: any charge was refunded in full. */
  | { kind: 'voided'; session: CheckoutSession; reason: RefundReason }
  /** The payer goes on to the acquirer's own page (a mode connected to Stripe) and comes back. */
  | { kind: 'redirect'; url: string; session: CheckoutSession };

type Cardholder = { email: string; name: string };

/** What an attempt of this session finished with learns about its owner (account, mode, amount). */
const ownerFields = (session: CheckoutSession, amount: number) => ({
  developerId: session.developer_id,
  mode: session.mode,
  amount,
  currency: session.currency,
});

/**
 * What the items of an outcome's transaction stand for: the session's move (refused when the session
 * is no longer this attempt's), the attempt's (refused when another writer recorded it first), the
 * charge and any refund it needs, the customer made by e-mail, what the session's owner writes, and
 * what the owner writes only if it still can (`optional`).
 */
type OutcomeItem = 'session' | 'attempt' | 'records' | 'customer' | 'owner' | 'optional';

/**
 * Writes an outcome's transaction. SessionUnavailable when the session is no longer this attempt's,
 * AttemptTaken when another writer recorded it first; otherwise the names of the items whose
 * conditions failed (none when it was written).
 */
async function commit(
  deps: CheckoutDeps,
  token: string,
  items: NamedItem<OutcomeItem>[],
): Promise<OutcomeItem[]> {
  try {
    await transactNamed(deps, items);
    return [];
  } catch (error) {
    const failed = failedConditions(error, items);
    if (failed.has('attempt')) throw new AttemptTaken();
    if (failed.has('session')) throw new SessionUnavailable(await getSession(deps, token));
    if (failed.size) return [...failed.keys()];
    throw error;
  }
}

/** The outcome another writer (recovery, a twin) recorded for this session's attempt. */
export async function recordedOutcome(deps: CheckoutDeps, token: string): Promise<CheckoutOutcome> {
  const session = await getSession(deps, token);
  if (!session) throw new SessionUnavailable(undefined);
  if (session.status === 'paid') {
    const charge = session.charge_id ? await getCharge(deps, scopeOf(session), session.charge_id) : undefined;
    return {
      kind: 'paid',
      answer: deps.owners[session.kind].answerOf(session),
      session,
      charge: charge ?? null,
    };
  }
  if (session.status === 'voided')
    return {
      kind: 'voided',
      session,
      reason: (session.voided_reason ?? 'subscription_canceled') as RefundReason,
    };
  // Declined meanwhile (or released): the page shows the session as it now is.
  throw new SessionUnavailable(session);
}

/**
 * Records an approval of the session's attempt (the submit's, or recovery's from a lookup): the
 * customer made or found by e-mail, the charge with `charge.succeeded`, the attempt finished and
 * what the owner writes, in one transaction. When another checkout made the customer first, or the
 * owner's record changed since it was read, it is read again and written again (a few times).
 */
export async function recordApproval(
  deps: CheckoutDeps,
  session: CheckoutSession,
  attempt: Attempt<'checkout'>,
  result: ApprovedCharge,
  posted: Cardholder,
  known?: Promise<string | null | undefined>,
): Promise<CheckoutOutcome> {
  const cardholder = payerOf(session, posted);
  const owner = deps.owners[session.kind];
  const checksOnly = owner.checksOnly?.(session) ?? false;
  const email = cardholder.email.toLowerCase();
  let withOptional = true;
  const tryOnce = async (round: number): Promise<CheckoutOutcome | typeof lostRace> => {
    const now = deps.clock();
    const customer = await customerByEmail(
      deps,
      scopeOf(session),
      { email: cardholder.email, name: cardholder.name, country: result.card.country },
      now,
      // The first round takes the lookup made while the acquirer answered; a retry reads again.
      round === 1 ? await known : undefined,
    );
    const made = checksOnly
      ? null
      : newCharge({
          id: prefixedId('ch'),
          developerId: session.developer_id,
          mode: session.mode,
          ...{ paymentId: null, ...owner.chargeOf(session) },
          attemptId: attempt.id,
          customerId: customer.customerId,
          amount: session.amount,
          currency: session.currency,
          description: session.description,
          statementDescription: session.statement_descriptor,
          card: result.card,
          acquirerReference: result.acquirerReference,
          connector: result.connector ?? attempt.connector,
          connectorAccount: result.connectorAccount,
          now,
        });
    const owned = await owner.approved({
      session,
      attempt,
      charge: made,
      customer: { id: customer.customerId, email },
      card: result.card,
      cardToken: result.cardToken,
      now,
    });
    const gone = owned.kind === 'gone' ? owned.reason : null;
    // An approval whose purpose went away is still recorded, and refunded in full at once.
    const charge = made && gone ? refundedAtOnce(made) : made;
    const refund = made && gone ? refundAttempt(newAttemptId(), made, made.amount, gone, now) : undefined;
    const items = [
      ...named('session', sessionPaidWrite(deps.table, session, attempt.id, charge?.id ?? null, gone, now)),
      ...named(
        'attempt',
        finishWrite(
          deps.table,
          attempt,
          'succeeded',
          { reference: result.acquirerReference, ...(charge ? { charge_id: charge.id } : {}) },
          now,
          ownerFields(session, charge ? session.amount : 0),
        ),
      ),
      ...named(
        'records',
        ...(charge ? chargeWrites(deps.table, charge, now) : []),
        ...(refund ? [attemptPut(deps.table, refund)] : []),
      ),
      ...named('customer', ...customer.writes),
      ...named('owner', ...(owned.kind === 'apply' ? owned.items : [])),
      ...named('optional', ...(owned.kind === 'apply' && withOptional ? (owned.optional ?? []) : [])),
    ];
    let failed: OutcomeItem[];
    try {
      failed = await commit(deps, session.token, items);
    } catch (error) {
      if (error instanceof AttemptTaken) return recordedOutcome(deps, session.token);
      throw error;
    }
    if (failed.length) {
      // Only an optional item's own condition failed (a plan deleted meanwhile): write without it.
      if (failed.every((name) => name === 'optional')) withOptional = false;
      // Only the customer's e-mail taken or the owner's record changed is a race; anything else (the
      // charge's own records, whose ids are new) is a fault.
      else if (!failed.some((name) => name === 'customer' || name === 'owner'))
        throw new Error('unexpected condition');
      // Read again and write again.
      return lostRace;
    }
    await writeAfterCommit(deps, customer.afterCommit);
    const after: CheckoutSession = {
      ...session,
      status: gone ? 'voided' : 'paid',
      attempt_id: null,
      charging_until: null,
      challenge: null,
      charge_id: charge?.id ?? null,
      voided_reason: gone,
    };
    if (refund) await refundAtOnce(deps, refund);
    if (gone) return { kind: 'voided', session: after, reason: gone };
    if (owner.afterApproval) {
      // Recorded already: a failure here is logged and left to what runs later (billing, recovery).
      await owner.afterApproval(after).catch((error: unknown) => {
        logger.error('the step after an approval failed', { attempt_id: attempt.id, error });
      });
    }
    return { kind: 'paid', answer: owner.answerOf(after), session: after, charge };
  };
  return retryOptimistic(tryOnce, {
    tries: 5,
    // A lost race is a condition commit answers (lostRace above); an error thrown is never one.
    lost: () => false,
    exhausted: () => new Error(`the approval of attempt ${attempt.id} met changes five times running`),
  });
}

/** Records a decline of the session's attempt: the session open again (one more decline), the owner's items. */
export async function recordDeclined(
  deps: CheckoutDeps,
  session: CheckoutSession,
  attempt: Attempt<'checkout'>,
  reason: DeclineReason,
): Promise<CheckoutOutcome> {
  const now = deps.clock();
  const owned = await deps.owners[session.kind].declined(session, reason, now);
  try {
    await commit(deps, session.token, [
      ...named('session', sessionDeclinedWrite(deps.table, session, attempt.id, reason, now)),
      ...named(
        'attempt',
        finishWrite(
          deps.table,
          attempt,
          'declined',
          { decline_reason: reason },
          now,
          ownerFields(session, 0),
        ),
      ),
      ...named('owner', ...owned),
    ]);
  } catch (error) {
    if (error instanceof AttemptTaken) return recordedOutcome(deps, session.token);
    throw error;
  }
  return {
    kind: 'declined',
    reason,
    session: {
      ...session,
      status: 'open',
      attempt_id: null,
      charging_until: null,
      challenge: null,
      last_decline: reason,
      declines: session.declines + 1,
      updated_at: now.toISOString(),
    },
  };
}

/**
 * Gives the session back open, as it was, and closes its attempt as failed: nothing was charged
 * under it (never asked, or the acquirer has nothing under its key). When the session has moved on
 * without this attempt, the attempt alone is closed; when another writer recorded it, that stands.
 */
export async function releaseSession(
  deps: CheckoutDeps,
  token: string,
  attempt: Attempt<'checkout'>,
  note: string,
  now: Date,
): Promise<void> {
  const release = [
    ...named('session', sessionReleasedWrite(deps.table, token, attempt.id, now)),
    ...named('attempt', finishWrite(deps.table, attempt, 'failed', { note }, now)),
  ];
  await transactNamed(deps, release).catch(async (error: unknown) => {
    const failed = failedConditions(error, release);
    if (failed.has('attempt')) return;
    if (failed.has('session'))
      await moveAttempt(deps, finishWrite(deps.table, attempt, 'failed', { note }, now));
    else throw error;
  });
}

/**
 * The session waits, held by its attempt, for recovery to learn the outcome from the acquirer (the
 * attempt is due at once); the page says the payment is being confirmed.
 */
async function leaveToRecovery(
  deps: CheckoutDeps,
  session: CheckoutSession,
  attempt: Attempt<'checkout'>,
): Promise<CheckoutOutcome> {
  const now = deps.clock();
  await transactWrite(deps, [
    sessionConfirmingWrite(deps.table, session, attempt.id, now),
    unconfirmedWrite(deps.table, attempt, now),
  ]).catch((failure: unknown) => {
    if (!conditionFailedAt(failure).length) throw failure;
  });
  return { kind: 'unconfirmed', session: { ...session, status: 'confirming' } };
}

/**
 * Who pays: a session made for a known customer (a subscription or link created with a
 * `customer_id`) keeps that customer's e-mail whatever the form posts, so a crafted `email` field
 * cannot move the payment, the subscription or its receipts to another customer. The page of such a
 * session does not ask for the e-mail.
 */
const payerOf = (session: CheckoutSession, posted: Cardholder): Cardholder =>
  session.customer_email ? { ...posted, email: session.customer_email } : posted;

async function settle(
  deps: CheckoutDeps,
  session: CheckoutSession,
  attempt: Attempt<'checkout'>,
  posted: Cardholder,
  call: () => Promise<ChargeResult>,
): Promise<CheckoutOutcome> {
  const cardholder = payerOf(session, posted);
  // The payer's customer is looked up while the acquirer answers: an approval needs it at once.
  const known = customerIdByEmail(deps, scopeOf(session), cardholder.email).then(
    (id) => id ?? null,
    () => undefined,
  );
  let result: ChargeResult;
  try {
    result = await call();
  } catch (error) {
    // Refused before the acquirer was asked (the mode is no longer connected, or now takes cards on
    // the acquirer's own page): the session is payable again as it now stands.
    if (error instanceof NotConnected || error instanceof CardEntryRefused) {
      await releaseSession(deps, session.token, attempt, 'not_asked', deps.clock());
      throw error;
    }
    if (!(error instanceof AcquirerUnavailable))
      logger.error('the acquirer call failed; recovery will ask by key', { attempt_id: attempt.id, error });
    // No answer: the card may have been charged. The payer is not asked to pay again.
    return leaveToRecovery(deps, session, attempt);
  }
  if (result.status === 'approved') {
    try {
      return await recordApproval(deps, session, attempt, result, cardholder, known);
    } catch (error) {
      if (error instanceof SessionUnavailable) throw error;
      // Approved, but not recorded (the table refused or kept changing): the approval is the
      // acquirer's, under the attempt's key, so recovery records it; the payer is told it is being
      // confirmed, never shown a 500 nor asked to pay again.
      logger.error('an approval could not be recorded; recovery records it', {
        attempt_id: attempt.id,
        error,
      });
      return leaveToRecovery(deps, session, attempt);
    }
  }
  if (result.status === 'declined') return recordDeclined(deps, session, attempt, result.declineReason);
  const now = deps.clock();
  const challenge = { id: result.challengeId, email: cardholder.email, holder_name: cardholder.name };
  await commit(deps, session.token, [
    ...named('session', sessionChallengeWrite(deps.table, session, attempt.id, challenge, now)),
    ...named(
      'attempt',
      challengeWrite(deps.table, attempt, now, new Date(now.getTime() + challengeWindowMs)),
    ),
  ]);
  return { kind: 'challenge', session: { ...session, status: 'open', challenge, charging_until: null } };
}

/**
 * Stores a submit's attempt beside its claim of the session, both before the acquirer is asked: the
 * claimed session. No claim, no call: the attempt is discarded (SessionUnavailable, with the
 * session, when the claim was refused); an attempt that could not be stored gives the claim back.
 */
async function claimFor(
  deps: CheckoutDeps,
  token: string,
  attempt: Attempt<'checkout'>,
  csrf: string,
  now: Date,
): Promise<CheckoutSession> {
  const [stored, claim] = await Promise.allSettled([
    storeAttempt(deps, attempt),
    claimSession(deps, token, now, attempt.id, { csrf }),
  ]);
  if (claim.status === 'rejected') {
    if (stored.status === 'fulfilled')
      await moveAttempt(deps, discardWrite(deps.table, attempt)).catch(() => false);
    throw claim.reason;
  }
  if (stored.status === 'rejected') {
    await unclaim(deps, claim.value, deps.clock());
    throw stored.reason;
  }
  return claim.value;
}

/**
 * A submit of the pay form with a card that passed validation. The attempt is stored beside the
 * claim (both before the acquirer is asked); the claim is conditioned on the posted CSRF token, and
 * SessionUnavailable carries the session when it is refused.
 */
export async function payWithCard(
  deps: CheckoutDeps,
  token: string,
  input: { card: CardInput; email: string; csrf: string },
): Promise<CheckoutOutcome> {
  const now = deps.clock();
  const cardholder = { email: input.email, name: input.card.holderName };
  const attempt = newAttempt({
    id: newAttemptId(),
    kind: 'checkout',
    subject: { token },
    owner: null,
    cardholder,
    now,
  });
  const claimed = await claimFor(deps, token, attempt, input.csrf, now);
  const owner = deps.owners[claimed.kind];
  const request: ChargeRequest = {
    amountMinor: claimed.amount,
    currency: claimed.currency,
    description: claimed.description,
    statementDescriptor: claimed.statement_descriptor,
    idempotencyKey: attempt.acquirer_key,
    test: claimed.mode === 'test',
    merchant: claimed.developer_id,
    card: input.card,
    threeDSecure: 'challenge_allowed',
  };
  // A subscription's trial checks the card and charges nothing.
  const checksOnly = owner.checksOnly?.(claimed) ?? false;
  return settle(deps, claimed, attempt, cardholder, () =>
    checksOnly ? deps.acquirer.verify(request) : deps.acquirer.charge(request),
  );
}

/** The cardholder's answer to the 3-D Secure challenge the session holds (its attempt's). */
export async function answerChallenge(
  deps: CheckoutDeps,
  session: CheckoutSession,
  outcome: 'pass' | 'fail',
): Promise<CheckoutOutcome> {
  const challenge = session.challenge;
  const attemptId = session.attempt_id;
  if (!challenge || !attemptId) throw new Error('answerChallenge called on a session without a challenge');
  const now = deps.clock();
  const [attempt, claimed] = await Promise.all([
    getAttempt<'checkout'>(deps, attemptId),
    claimSession(deps, session.token, now, attemptId, { challenge: true }),
  ]);
  // Recovery gave the challenge up meanwhile (the window passed): nothing more can be charged.
  if (!attempt || !(await moveAttempt(deps, answeringWrite(deps.table, attempt, now)))) {
    await unclaim(deps, claimed, now);
    throw new SessionUnavailable(await getSession(deps, session.token));
  }
  const cardholder = { email: challenge.email, name: challenge.holder_name };
  return settle(deps, claimed, { ...attempt, status: 'pending' }, cardholder, () =>
    deps.acquirer.completeChallenge(challenge.id, outcome),
  );
}

/**
 * How long a payer has on the acquirer's own page (Stripe's Checkout Sessions last 30 minutes at
 * least): after it the page takes no payment, so recovery's lookup then is final.
 */
export const acquirerPageMs = 31 * 60_000;

/** Where the payer comes back from the acquirer's page: the return, or the checkout page itself. */
export interface AcquirerPageUrls {
  /** The session's return page (`/checkout/{token}/return`): cobro reads the outcome back there. */
  returnUrl: string;
  /** The checkout page, for a payer who leaves the acquirer's page without paying. */
  cancelUrl: string;
}

/**
 * A submit of a page whose mode takes cards on the acquirer's own page (Stripe): the attempt is
 * stored beside the claim, as for a card, then the acquirer opens its page under the attempt's key
 * (nothing is charged yet); the session then waits for the payer there as for a 3-D Secure
 * challenge, until its window (acquirerPageMs) passes and recovery closes it. Card data never
 * reaches cobro: the payer is sent on (`redirect`). A session already waiting on such a page sends
 * the payer back to it.
 */
export async function payOnAcquirerPage(
  deps: CheckoutDeps,
  token: string,
  input: { csrf: string; urls: AcquirerPageUrls; lang: 'en' | 'es' },
): Promise<CheckoutOutcome> {
  const now = deps.clock();
  const attempt = newAttempt({
    id: newAttemptId(),
    kind: 'checkout',
    subject: { token },
    owner: null,
    connector: 'stripe',
    now,
  });
  let claimed: CheckoutSession;
  try {
    claimed = await claimFor(deps, token, attempt, input.csrf, now);
  } catch (error) {
    // Waiting on the acquirer's page already: the payer goes back to it.
    const held = error instanceof SessionUnavailable ? error.session : undefined;
    if (held?.status === 'open' && held.challenge?.url)
      return { kind: 'redirect', url: held.challenge.url, session: held };
    throw error;
  }
  if (!deps.acquirer.beginRedirect) throw new Error('this acquirer has no page of its own');
  const checksOnly = deps.owners[claimed.kind].checksOnly?.(claimed) ?? false;
  const request: RedirectRequest = {
    amountMinor: claimed.amount,
    currency: claimed.currency,
    description: claimed.description,
    statementDescriptor: claimed.statement_descriptor,
    purpose: checksOnly ? 'save_card' : 'charge',
    // Subscriptions, recurring links and a subscriber's new card are charged again without the payer.
    saveCard: claimed.kind === 'subscription' || claimed.kind === 'card' || Boolean(claimed.recurrence),
    idempotencyKey: attempt.acquirer_key,
    attemptId: attempt.id,
    customerEmail: claimed.customer_email,
    returnUrl: input.urls.returnUrl,
    cancelUrl: input.urls.cancelUrl,
    expiresAt: new Date(now.getTime() + acquirerPageMs),
    lang: input.lang,
    test: claimed.mode === 'test',
    merchant: claimed.developer_id,
  };
  let page: { challengeId: string; url: string; account?: string };
  try {
    page = await deps.acquirer.beginRedirect(request);
  } catch (error) {
    if (error instanceof NotConnected || error instanceof CardEntryRefused) {
      await releaseSession(deps, token, attempt, 'not_asked', deps.clock());
      throw error;
    }
    if (!(error instanceof AcquirerUnavailable))
      logger.error("the acquirer's page could not be opened; recovery will ask by key", {
        attempt_id: attempt.id,
        error,
      });
    // No answer: a page may exist at the acquirer, but nobody has its address; recovery closes it.
    return leaveToRecovery(deps, claimed, attempt);
  }
  const at = deps.clock();
  const challenge = {
    id: page.challengeId,
    url: page.url,
    ...(page.account ? { account: page.account } : {}),
    email: claimed.customer_email ?? '',
    holder_name: '',
  };
  await commit(deps, token, [
    ...named('session', sessionChallengeWrite(deps.table, claimed, attempt.id, challenge, at)),
    ...named(
      'attempt',
      // Recovery takes it once the page can take no payment any more (a minute after it closes).
      challengeWrite(deps.table, attempt, at, new Date(now.getTime() + acquirerPageMs + 60_000)),
    ),
  ]);
  return {
    kind: 'redirect',
    url: page.url,
    session: { ...claimed, status: 'open', challenge, charging_until: null },
  };
}

/**
 * A card declined on the acquirer's own page (Stripe's, as its event reports it): told as a
 * declined submit is (`payment.failed` for a payment, the dashboard's decline count), once per try
 * (the event is taken once), while the session keeps waiting for the payer, who may try another card
 * there. The attempt stays open, so an approval after it is still recorded.
 */
export async function recordAcquirerPageDecline(
  deps: CheckoutDeps,
  attempt: Attempt<'checkout'>,
  reason: DeclineReason,
): Promise<string> {
  const session = await getSession(deps, attempt.subject.token);
  if (!session || session.attempt_id !== attempt.id || !session.challenge?.url)
    return 'no checkout waits on that page';
  const items = await deps.owners[session.kind].declined(session, reason, deps.clock());
  if (items.length) await transactWrite(deps, items);
  return `decline recorded (${reason})`;
}
