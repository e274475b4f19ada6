/**
 * What a checkout attempt's end writes (docs/design.md#checkout, #attempts), whoever learns it: the
 * submit, the acquirer's own page or recovery (./recovery.ts). An outcome is recorded with the
 * attempt's finish in one transaction: paid (the charge, its `charge.succeeded`, and what the
 * session's owner writes), declined, or the session left to recovery when the acquirer gave no
 * answer. An approval is never discarded: if what it pays for went away meanwhile, the charge is
 * recorded and refunded at once.
 */
import type { ApprovedCharge, DeclineReason } from '../acquirer/acquirer.ts';
import { type Attempt, newAttemptId } from '../attempts/attempt.ts';
import {
  AttemptTaken,
  attemptPut,
  finishWrite,
  moveAttempt,
  unconfirmedWrite,
} from '../attempts/repository.ts';
import { type Charge, newCharge, refundedAtOnce } from '../charges/charge.ts';
import { chargeWrites, getCharge } from '../charges/repository.ts';
import { scopeOf } from '../core/account.ts';
import { prefixedId } from '../core/ids.ts';
import { logger } from '../core/log.ts';
import { customerByEmail, writeAfterCommit } from '../customers/repository.ts';
import { conditionFailedAt } from '../db/conditions.ts';
import { lostRace, retryOptimistic } from '../db/optimistic.ts';
import { failedConditions, type NamedItem, named, transactNamed, transactWrite } from '../db/transact.ts';
import type { RefundReason } from '../refunds/schemas.ts';
import { type RefundDeps, refundAtOnce, refundAttempt } from '../refunds/service.ts';
import type { PaidAnswer, SessionOwners } from './owner.ts';
import {
  getSession,
  SessionUnavailable,
  sessionConfirmingWrite,
  sessionDeclinedWrite,
  sessionPaidWrite,
  sessionReleasedWrite,
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

export type Cardholder = { email: string; name: string };

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
export async function commit(
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
export async function leaveToRecovery(
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
export const payerOf = (session: CheckoutSession, posted: Cardholder): Cardholder =>
  session.customer_email ? { ...posted, email: session.customer_email } : posted;
