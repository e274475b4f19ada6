/**
 * Refunding a charge (docs/design.md#refunds): the refund's attempt is stored, and its amount held on
 * the charge, before the acquirer is asked under the attempt's key; the acquirer's answer then
 * records the refund (with `refund.created`) or gives the amount back. An answer that never comes
 * leaves the attempt to recovery, which asks the acquirer by the same key.
 *
 * An automatic refund (of an approval whose subscription was canceled or whose link was deleted
 * while it ran) is never given up: a refusal, or a key the acquirer never received, keeps the
 * amount held and the attempt open, and recovery tries it again under a new key, waiting longer
 * after each refusal (retryLaterWrite).
 */

import type { Acquirer, NotFound as AcquirerNotFound, RefundResult } from '../acquirer/acquirer.ts';
import { AcquirerUnavailable, NotConnected } from '../acquirer/acquirer.ts';
import {
  type Attempt,
  idempotentAttemptId,
  lookupHintsOf,
  newAttempt,
  newAttemptId,
} from '../attempts/attempt.ts';
import type { Finished } from '../attempts/recovery.ts';
import {
  AttemptTaken,
  attemptPut,
  moveAttempt,
  restarted,
  restartWrite,
  retryLaterWrite,
  unconfirmedWrite,
} from '../attempts/repository.ts';
import { resumeAttempt } from '../attempts/resume.ts';
import type { Charge } from '../charges/charge.ts';
import { getCharge } from '../charges/repository.ts';
import { type Scope, scopeOf } from '../core/account.ts';
import { Conflict, Invalid, Refused, Unconfirmed } from '../core/errors.ts';
import { logger } from '../core/log.ts';
import { coreMessages } from '../core/messages.ts';
import type { Deps } from '../db/deps.ts';
import { lostRace, retryOptimistic } from '../db/optimistic.ts';
import { refundCreated } from './events.ts';
import { refundMessages } from './messages.ts';
import { type CreateRefundInput, newRefundId, type Refund, refundAmount, refundView } from './refund.ts';
import { ChargeChanged, getRefund, recordRefund, recordRefundFailure, reserveRefund } from './repository.ts';
import { automaticRefundReasons, type RefundReason } from './schemas.ts';

export type RefundDeps = Deps & { acquirer: Acquirer };

/** Tries before a busy charge answers 409 (each one decides again on the charge another refund changed). */
const reserveTries = 25;

/** The attempt that refunds `amount` of `charge` for `reason`. */
export function refundAttempt(
  id: string,
  charge: Charge,
  amount: number,
  reason: RefundReason,
  now: Date,
): Attempt<'refund'> {
  return newAttempt({
    id,
    kind: 'refund',
    subject: {
      charge_id: charge.id,
      acquirer_reference: charge.acquirer_reference,
      refund_id: newRefundId(),
      reason,
    },
    owner: { developerId: charge.developer_id, mode: charge.mode, amount, currency: charge.currency },
    // A refund goes to the connector that made the charge, whatever the mode is connected to now.
    ...(charge.connector ? { connector: charge.connector } : {}),
    ...(charge.connector_account ? { connectorAccount: charge.connector_account } : {}),
    now,
  });
}

/** Whether cobro made the refund itself: it must happen, whatever the acquirer answered once. */
const isAutomatic = (attempt: Attempt<'refund'>) =>
  (automaticRefundReasons as readonly string[]).includes(attempt.subject.reason);

/** The refund a succeeded attempt records: the same whoever records it (the request or recovery). */
function refundOf(attempt: Attempt<'refund'>): Refund {
  return {
    id: attempt.subject.refund_id,
    developer_id: attempt.developer_id ?? 0,
    mode: attempt.mode ?? 'test',
    charge_id: attempt.subject.charge_id,
    amount: attempt.amount ?? 0,
    currency: attempt.currency ?? '',
    reason: attempt.subject.reason as RefundReason,
    status: 'succeeded',
    attempt_id: attempt.id,
    created_at: attempt.created_at,
    updated_at: attempt.created_at,
  };
}

/**
 * Records what the acquirer answered (or found under the key): the refund with its event, or the
 * amount given back to the charge. The refund when it was made; undefined when it was not.
 */
export async function settleRefund(
  deps: Deps,
  attempt: Attempt<'refund'>,
  result: RefundResult | AcquirerNotFound,
  now: Date,
): Promise<Refund | undefined> {
  try {
    if (result.status === 'succeeded') {
      const refund = refundOf(attempt);
      const event = refundCreated.of(scopeOf(refund), { object: refundView(refund) }, now);
      await recordRefund(deps, attempt, refund, event, result.refundReference, now);
      return refund;
    }
    if (isAutomatic(attempt)) {
      // Still owed to the payer: the amount stays held and recovery tries again later.
      await moveAttempt(deps, retryLaterWrite(deps.table, attempt, now));
      logger.error('the acquirer did not make an automatic refund; recovery tries it again', {
        attempt_id: attempt.id,
        tries: attempt.tries,
        outcome: result.status === 'failed' ? result.reason : 'not_found',
      });
      return undefined;
    }
    await recordRefundFailure(deps, attempt, result.status === 'failed' ? result.reason : 'not_found', now);
    return undefined;
  } catch (error) {
    if (!(error instanceof AttemptTaken)) throw error;
    // Recorded by another writer (recovery, a retry): what it recorded stands.
    const scope = { developerId: attempt.developer_id ?? 0, mode: attempt.mode ?? 'test' };
    return result.status === 'succeeded' ? getRefund(deps, scope, attempt.subject.refund_id) : undefined;
  }
}

/**
 * Asks the acquirer for the refund the attempt holds and records its answer. Undefined when the
 * acquirer refused; AcquirerUnavailable when it gave no answer (the attempt is left to recovery).
 */
export async function refundAtAcquirer(
  deps: RefundDeps,
  attempt: Attempt<'refund'>,
): Promise<Refund | undefined> {
  let result: RefundResult;
  try {
    result = await deps.acquirer.refund({
      acquirerReference: attempt.subject.acquirer_reference,
      ...(attempt.connector ? { connector: attempt.connector } : {}),
      ...(attempt.connector_account ? { connectorAccount: attempt.connector_account } : {}),
      amountMinor: attempt.amount ?? 0,
      currency: attempt.currency ?? '',
      idempotencyKey: attempt.acquirer_key,
      test: attempt.mode === 'test',
      merchant: attempt.developer_id ?? 0,
    });
  } catch (error) {
    // Nobody to ask (the charge's connector is connected no more): nothing was asked, so nothing
    // moved; the amount goes back to the charge at once. An automatic refund waits for it instead.
    if (error instanceof NotConnected && !isAutomatic(attempt)) {
      await recordRefundFailure(deps, attempt, 'not_connected', deps.clock());
      throw new Conflict(refundMessages.refund_connector_gone);
    }
    // No answer: the refund may or may not have been made. Recovery asks the acquirer by key.
    await moveAttempt(deps, unconfirmedWrite(deps.table, attempt, deps.clock()));
    throw error instanceof AcquirerUnavailable ? error : new AcquirerUnavailable(String(error));
  }
  return settleRefund(deps, attempt, result, deps.clock());
}

/**
 * Recovery's finisher of refund attempts: what the acquirer has under the attempt's key. An
 * automatic refund the acquirer does not hold is asked for again at once, as a new try.
 */
export const refundFinisher =
  (deps: RefundDeps) =>
  async (attempt: Attempt, now: Date): Promise<Finished> => {
    const refund = attempt as Attempt<'refund'>;
    const found = await deps.acquirer.findRefund(
      refund.acquirer_key,
      refund.mode === 'test',
      lookupHintsOf(refund),
    );
    if (found.status !== 'succeeded' && isAutomatic(refund)) return retryAutomaticRefund(deps, refund, now);
    return (await settleRefund(deps, refund, found, now)) ? 'succeeded' : 'failed';
  };

/**
 * The next try of an automatic refund whose last try made nothing (the lookup closed its key):
 * conditioned on that try, so of two recoveries only one asks. `waiting` while it is still owed.
 */
async function retryAutomaticRefund(
  deps: RefundDeps,
  attempt: Attempt<'refund'>,
  now: Date,
): Promise<Finished> {
  const next = restarted(attempt, now);
  if (!(await moveAttempt(deps, restartWrite(deps.table, attempt, next, ['pending'])))) return 'waiting';
  try {
    return (await refundAtAcquirer(deps, next)) ? 'succeeded' : 'waiting';
  } catch (error) {
    if (error instanceof AcquirerUnavailable) return 'waiting';
    throw error;
  }
}

/**
 * Refunds in full, at once, a charge just recorded for an approval whose purpose went away while
 * it was made (docs/design.md#late-approvals). The charge was recorded holding its whole amount for
 * this attempt (stored in the same transaction: refundedAtOnce, refundAttempt); a refusal or a lost
 * answer leaves it to recovery, which retries until it is made, and is not the payer's problem, so
 * nothing is thrown.
 */
export async function refundAtOnce(deps: RefundDeps, attempt: Attempt<'refund'>): Promise<void> {
  try {
    await refundAtAcquirer(deps, attempt);
  } catch (error) {
    if (!(error instanceof AcquirerUnavailable)) throw error;
  }
}

/**
 * POST /v1/refunds/: refunds the named charge in full or in part. A charge that is absent (or
 * another account's) is 400, not 404. With an `Idempotency-Key` the refund's attempt is the key's
 * too: a retry after an unconfirmed answer gets that refund's outcome, never a second refund.
 */
export async function refundCharge(
  deps: RefundDeps,
  scope: Scope,
  input: CreateRefundInput,
  idempotencyKey?: string,
): Promise<Refund> {
  const id = idempotencyKey ? idempotentAttemptId('refund', scope, idempotencyKey) : newAttemptId();
  const [found, resumed] = await Promise.all([
    getCharge(deps, scope, input.charge_id),
    idempotencyKey
      ? resumeAttempt<'refund'>(deps, id, refundFinisher(deps), refundMessages.acquirer_unconfirmed_refund)
      : ({ kind: 'new' } as const),
  ]);
  if (resumed.kind === 'done') {
    const refund = await getRefund(deps, scope, resumed.attempt.subject.refund_id);
    if (refund) return refund;
  }
  // A retry whose earlier try ended without a refund (closed just now by this call's lookup, or by
  // recovery meanwhile) gave the amount that try held back to the charge, perhaps after the read
  // beside it: read the charge again, or a rule judged on the stale one ("already refunded", for
  // the amount the failed try held) would answer for a refund never made.
  const current = resumed.kind === 'again' ? await getCharge(deps, scope, input.charge_id) : found;
  if (!current) {
    // A payment id is the most common wrong id here: say which id a refund takes instead. Still the
    // 400 of a charge named in the body that does not exist.
    if (input.charge_id.startsWith('pay_'))
      throw new Invalid(refundMessages.refund_charge_is_payment, { params: { id: input.charge_id } });
    throw new Invalid(refundMessages.refund_charge_absent);
  }
  let charge = current;
  const attempt = await retryOptimistic(
    async () => {
      const now = deps.clock();
      const amount = refundAmount(input, charge);
      const fresh = refundAttempt(id, charge, amount, input.reason, now);
      const next =
        resumed.kind === 'again'
          ? restarted(resumed.attempt, now, { subject: fresh.subject, amount, currency: charge.currency })
          : fresh;
      const write =
        resumed.kind === 'again'
          ? restartWrite(deps.table, resumed.attempt, next)
          : attemptPut(deps.table, next);
      try {
        await reserveRefund(deps, charge, amount, write, now);
        return next;
      } catch (error) {
        // Another refund or a payout changed the charge: decide again on the charge as it is now.
        if (error instanceof ChargeChanged && error.charge) {
          charge = error.charge;
          return lostRace;
        }
        // Another retry with this key started it first.
        if (error instanceof AttemptTaken) throw new Conflict(coreMessages.idempotency_in_progress);
        throw error;
      }
    },
    // The failed condition hands back the charge as it is, so the next try needs no wait.
    { tries: reserveTries, maxWaitMs: 0, lost: () => false },
  );
  let refund: Refund | undefined;
  try {
    refund = await refundAtAcquirer(deps, attempt);
  } catch (error) {
    if (error instanceof AcquirerUnavailable)
      throw new Unconfirmed(refundMessages.acquirer_unconfirmed_refund);
    throw error;
  }
  if (!refund) throw new Refused(refundMessages.acquirer_refused_refund);
  return refund;
}
