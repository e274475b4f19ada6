/**
 * What a checkout submit does with a card typed into cobro's page (docs/design.md#checkout,
 * #attempts): store an attempt and claim the session for it, ask the acquirer under the attempt's
 * key, then record the outcome (./record.ts): paid, declined, a 3-D Secure challenge to answer, or,
 * when the acquirer gave no answer, `confirming`: the payer is told the payment could not be
 * confirmed yet, and recovery (./recovery.ts) finishes it from what the acquirer has under the key.
 * A mode that takes cards on the acquirer's own page pays there instead (./acquirer-page.ts).
 */
import {
  AcquirerUnavailable,
  CardEntryRefused,
  type CardInput,
  type ChargeRequest,
  type ChargeResult,
  NotConnected,
} from '../acquirer/acquirer.ts';
import { type Attempt, challengeWindowMs, newAttempt, newAttemptId } from '../attempts/attempt.ts';
import {
  answeringWrite,
  challengeWrite,
  discardWrite,
  getAttempt,
  moveAttempt,
  storeAttempt,
} from '../attempts/repository.ts';
import { scopeOf } from '../core/account.ts';
import { logger } from '../core/log.ts';
import { customerIdByEmail } from '../customers/repository.ts';
import { named } from '../db/transact.ts';
import {
  type Cardholder,
  type CheckoutDeps,
  type CheckoutOutcome,
  commit,
  leaveToRecovery,
  payerOf,
  recordApproval,
  recordDeclined,
  releaseSession,
} from './record.ts';
import {
  claimSession,
  getSession,
  SessionUnavailable,
  sessionChallengeWrite,
  unclaim,
} from './repository.ts';
import type { CheckoutSession } from './session.ts';

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
export async function claimFor(
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
