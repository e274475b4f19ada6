/**
 * A money request sent again with its `Idempotency-Key` (docs/design.md#idempotency). The request's
 * attempt id is derived from the key, so the retry finds what the first run left:
 * - nothing: the first run never stored its attempt; this one runs as new;
 * - a succeeded attempt: the retry answers what it recorded, and nothing is asked of the acquirer;
 * - a declined or failed one (a definite failure, which no key keeps): it runs again, as a new
 *   try of the same attempt (a new acquirer key, since the acquirer would answer the old one as
 *   before);
 * - one still open: while its call may still be running the retry is 409; once that call cannot be
 *   running any more, recovery finishes it here (asking the acquirer by the attempt's key, never with
 *   a new one) and the retry answers its outcome; 504 (`unconfirmed`) when the acquirer does not
 *   answer that lookup either.
 */
import { AcquirerUnavailable } from '../acquirer/acquirer.ts';
import { Conflict, Unconfirmed } from '../core/errors.ts';
import type { Message } from '../core/messages.ts';
import { coreMessages } from '../core/messages.ts';
import type { Deps } from '../db/deps.ts';
import { lostRace, retryOptimistic } from '../db/optimistic.ts';
import { type Attempt, type AttemptKind, isFinal, mayBeRunning } from './attempt.ts';
import type { Finished } from './recovery.ts';
import { getAttempt } from './repository.ts';

export type Resumed<K extends AttemptKind> =
  | { kind: 'new' }
  | { kind: 'done'; attempt: Attempt<K> }
  | { kind: 'again'; attempt: Attempt<K> };

/**
 * What to do with the attempt `id` a retried request names. `again` carries the finished try; the
 * caller starts the next one (restarted, restartWrite), alone or in its own transaction. `finish`
 * recovers an attempt its first run left open.
 */
export async function resumeAttempt<K extends AttemptKind>(
  deps: Deps,
  id: string,
  finish: (attempt: Attempt<K>, now: Date) => Promise<Finished>,
  unconfirmed: Message,
): Promise<Resumed<K>> {
  const tryOnce = async (): Promise<Resumed<K> | typeof lostRace> => {
    const now = deps.clock();
    const prior = await getAttempt<K>(deps, id);
    if (!prior) return { kind: 'new' };
    if (prior.status === 'succeeded') return { kind: 'done', attempt: prior };
    if (isFinal(prior)) return { kind: 'again', attempt: prior };
    if (mayBeRunning(prior, now)) throw new Conflict(coreMessages.idempotency_in_progress);
    // The first run stopped without an outcome: learn it from the acquirer before answering. An
    // acquirer that does not answer the lookup leaves it unknown still: 504 again, as the first run
    // answered, and the attempt stays with recovery.
    let finished: Finished;
    try {
      finished = await finish(prior, now);
    } catch (error) {
      if (error instanceof AcquirerUnavailable) throw new Unconfirmed(unconfirmed);
      throw error;
    }
    if (finished === 'waiting') throw new Conflict(coreMessages.idempotency_in_progress);
    // Finished here: read it again and answer as it now is.
    return lostRace;
  };
  return retryOptimistic(tryOnce, {
    tries: 3,
    maxWaitMs: 0,
    lost: () => false,
    exhausted: () => new Conflict(coreMessages.idempotency_in_progress),
  });
}
