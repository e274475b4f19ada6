/**
 * Recovery's finisher of checkout attempts (docs/design.md#recovery): a submit whose acquirer call
 * gave no answer (or whose function stopped), or a challenge the cardholder never answered. What the
 * acquirer has under the attempt's key decides, as the submit would have: an approval is recorded
 * once (the payment completed, `payment.succeeded` once), a decline counted, and nothing at all (the
 * key is then closed at the acquirer, and an unanswered challenge abandoned) gives the session back,
 * payable.
 */
import { type Attempt, lookupHintsOf } from '../attempts/attempt.ts';
import type { Finished } from '../attempts/recovery.ts';
import { AttemptTaken, finishWrite, moveAttempt } from '../attempts/repository.ts';
import { type CheckoutDeps, recordApproval, recordDeclined, releaseSession } from './record.ts';
import { getSession } from './repository.ts';

/**
 * Finishes a checkout attempt from what the acquirer has under its key, as its submit would have.
 * `abandon`: recovery's, once the attempt's window is past: a challenge (or the acquirer's own page)
 * still waiting is closed first, so nothing more can be paid under it. Without it (the payer back
 * from the acquirer's page, or the acquirer's event saying it was paid), a payment still waiting
 * is left so (`waiting`).
 */
export async function finishCheckoutAttempt(
  deps: CheckoutDeps,
  attempt: Attempt<'checkout'>,
  now: Date,
  options: { abandon: boolean },
): Promise<Finished> {
  const session = await getSession(deps, attempt.subject.token);
  if (!session || session.attempt_id !== attempt.id) {
    // Its claim of the session never happened (or was refused): the acquirer was never asked.
    await moveAttempt(deps, finishWrite(deps.table, attempt, 'failed', { note: 'never_claimed' }, now));
    return 'failed';
  }
  const result = await deps.acquirer.findCharge(attempt.acquirer_key, session.mode === 'test', {
    ...lookupHintsOf(attempt),
    merchant: session.developer_id,
    ...(session.challenge ? { challengeId: session.challenge.id } : {}),
    ...(session.challenge?.account ? { connectorAccount: session.challenge.account } : {}),
    abandon: options.abandon,
  });
  const cardholder = attempt.cardholder ?? {
    email: session.challenge?.email ?? '',
    name: session.challenge?.holder_name ?? '',
  };
  try {
    if (result.status === 'approved') {
      // The acquirer's own page asked the payer who they are; cobro's form asked otherwise.
      await recordApproval(deps, session, attempt, result, result.payer ?? cardholder);
      return 'succeeded';
    }
    if (result.status === 'declined') {
      await recordDeclined(deps, session, attempt, result.declineReason);
      return 'declined';
    }
    if (result.status === 'challenge_required') return 'waiting';
    await releaseSession(deps, session.token, attempt, 'not_found', now);
    return 'failed';
  } catch (error) {
    // Another writer recorded it first: nothing more to do.
    if (error instanceof AttemptTaken) return 'succeeded';
    throw error;
  }
}

/** Recovery's finisher of checkout attempts. */
export const checkoutFinisher =
  (deps: CheckoutDeps) =>
  (found: Attempt, now: Date): Promise<Finished> =>
    finishCheckoutAttempt(deps, found as Attempt<'checkout'>, now, { abandon: true });
