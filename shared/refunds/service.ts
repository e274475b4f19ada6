/** Making a refund: decide against the charge as read, write conditionally, decide again if it changed. */
import type { Acquirer } from '../acquirer/acquirer.ts';
import type { Charge } from '../charges/charge.ts';
import type { Deps } from '../deps.ts';
import { type EventDetail, newEvent } from '../events/publish.ts';
import { HttpError } from '../http/errors.ts';
import { type CreateRefundInput, newRefund, type Refund, refundView } from './refund.ts';
import { ChargeChanged, createRefund, revertRefund } from './repository.ts';

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
    const event = newEvent(
      {
        type: 'refund.created',
        developerId: refund.developer_id,
        test: refund.mode === 'test',
        data: { object: refundView(refund) },
      },
      now,
    );
    try {
      await createRefund(deps, refund, event);
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
  });
  if (result.status === 'succeeded') return;
  await revertRefund(deps, refund);
  throw new HttpError(502, 'acquirer_refused_refund');
}
