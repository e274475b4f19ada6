/** Making a refund: decide against the charge as read, write conditionally, decide again if it changed. */

import type { Acquirer } from '../acquirer/acquirer.ts';
import type { Charge } from '../charges/charge.ts';
import { getCharge } from '../charges/repository.ts';
import type { Scope } from '../core/account.ts';
import { BadRequest, HttpError } from '../core/errors.ts';
import type { Deps } from '../db/deps.ts';
import type { EventDetail } from '../events/event.ts';
import { refundCreated } from './events.ts';
import { type CreateRefundInput, newRefund, type Refund, refundView } from './refund.ts';
import { ChargeChanged, createRefund, revertRefund, storeRefundEvent } from './repository.ts';

/** Attempts before a busy charge gives up (each one re-reads the charge another refund changed). */
const attempts = 25;

/**
 * Refunds `charge`. When a concurrent refund got there first, the charge is read again and the
 * request decided anew: it may still fit, or now be "more than remains" or "already refunded".
 */
export async function refundWithRetry(
  deps: Deps,
  input: CreateRefundInput,
  charge: Charge,
): Promise<{ refund: Refund; event: EventDetail<unknown> }> {
  let current = charge;
  for (let attempt = 1; ; attempt++) {
    const now = deps.clock();
    const refund = newRefund(input, current, now);
    const event = refundCreated.of(
      { developerId: refund.developer_id, test: refund.mode === 'test' },
      { object: refundView(refund) },
      now,
    );
    try {
      await createRefund(deps, refund);
      return { refund, event };
    } catch (error) {
      if (!(error instanceof ChargeChanged) || !error.charge || attempt === attempts) throw error;
      current = error.charge;
    }
  }
}

/**
 * Refunds at the acquirer what has been recorded. The record comes first because its condition is
 * what keeps racing refunds within the charge; if the acquirer then refuses, the record is undone
 * and the caller gets 502.
 */
export async function refundAtAcquirer(
  deps: Deps & { acquirer: Acquirer },
  refund: Refund,
  charge: Charge,
): Promise<void> {
  const result = await deps.acquirer.refund({
    acquirerReference: charge.acquirer_reference,
    amountMinor: refund.amount,
    currency: refund.currency,
    idempotencyKey: refund.id,
    test: refund.mode === 'test',
    merchant: refund.developer_id,
  });
  if (result.status === 'succeeded') return;
  await revertRefund(deps, refund);
  throw new HttpError(502, 'acquirer_refused_refund');
}

/**
 * POST /v1/refunds/: refunds the named charge in full or in part. A charge that is absent (or
 * another account's) is 400 (D12); the event is sent once the refund has committed.
 */
export async function refundCharge(
  deps: Deps & { acquirer: Acquirer },
  scope: Scope,
  input: CreateRefundInput,
): Promise<Refund> {
  const charge = await getCharge(deps, scope, input.charge_id);
  if (!charge) throw new BadRequest('refund_charge_absent');
  const { refund, event } = await refundWithRetry(deps, input, charge);
  await refundAtAcquirer(deps, refund, charge);
  await storeRefundEvent(deps, refund, event);
  return refund;
}
