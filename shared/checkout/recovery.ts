/**
 * Recovery's finisher of checkout attempts (docs/design.md#recovery): a submit whose acquirer call
 * gave no answer (or whose function stopped), or a challenge the cardholder never answered. What the
 * acquirer has under the attempt's key decides, as the submit would have: an approval is recorded
 * once (the payment completed, `payment.succeeded` once), a decline counted, and nothing at all (the
 * key is then closed at the acquirer, and an unanswered challenge abandoned) gives the session back,
 * payable.
 */
import type { Attempt } from '../attempts/attempt.ts';
import type { Finished } from '../attempts/recovery.ts';
import { AttemptTaken, finishWrite, moveAttempt } from '../attempts/repository.ts';
import { failedConditions, named, transactNamed } from '../db/transact.ts';
import { getSession, sessionReleasedWrite } from './repository.ts';
import { type CheckoutDeps, recordApproval, recordDeclined } from './service.ts';

export const checkoutFinisher =
  (deps: CheckoutDeps) =>
  async (found: Attempt, now: Date): Promise<Finished> => {
    const attempt = found as Attempt<'checkout'>;
    const session = await getSession(deps, attempt.subject.token);
    if (!session || session.attempt_id !== attempt.id) {
      // Its claim of the session never happened (or was refused): the acquirer was never asked.
      await moveAttempt(deps, finishWrite(deps.table, attempt, 'failed', { note: 'never_claimed' }, now));
      return 'failed';
    }
    // Due, a challenge is past its window: closing it means the cardholder can no longer pass it.
    const result = await deps.acquirer.findCharge(attempt.acquirer_key, session.mode === 'test', {
      abandon: true,
    });
    const cardholder = attempt.cardholder ?? {
      email: session.challenge?.email ?? '',
      name: session.challenge?.holder_name ?? '',
    };
    try {
      if (result.status === 'approved') {
        await recordApproval(deps, session, attempt, result, cardholder);
        return 'succeeded';
      }
      if (result.status === 'declined') {
        await recordDeclined(deps, session, attempt, result.declineReason);
        return 'declined';
      }
      if (result.status === 'challenge_required') return 'waiting';
      const release = [
        ...named('session', sessionReleasedWrite(deps.table, session.token, attempt.id, now)),
        ...named('attempt', finishWrite(deps.table, attempt, 'failed', { note: 'not_found' }, now)),
      ];
      await transactNamed(deps, release).catch(async (error: unknown) => {
        const failed = failedConditions(error, release);
        // Another writer recorded the attempt first: nothing more to do.
        if (failed.has('attempt')) return;
        // The session moved on without this attempt: close the attempt alone.
        if (failed.has('session'))
          await moveAttempt(deps, finishWrite(deps.table, attempt, 'failed', { note: 'not_found' }, now));
        else throw error;
      });
      return 'failed';
    } catch (error) {
      // Another writer recorded it first: nothing more to do.
      if (error instanceof AttemptTaken) return 'succeeded';
      throw error;
    }
  };
