/**
 * Refunds in the single table. A refund is a money movement (docs/design.md#refunds): before the
 * acquirer is asked, one transaction stores its attempt and takes its amount off the charge's
 * `refundable` (held in `refunds_pending`), on condition that enough remains and the charge has not
 * been paid out, so however many refunds race one another or a payout, their total never exceeds the
 * charge. The acquirer's answer is recorded in a second transaction with the attempt's finish: the
 * refund, its `refund.created` and the charge's refunded total together, or the amount given back to
 * the charge.
 */

import type { Attempt } from '../attempts/attempt.ts';
import { AttemptTaken, finishWrite } from '../attempts/repository.ts';
import type { Charge } from '../charges/charge.ts';
import { chargeKeys } from '../charges/keys.ts';
import { getCharge } from '../charges/repository.ts';
import { type Scope, scopeOf } from '../core/account.ts';
import { NotFoundDetail } from '../core/errors.ts';
import { isBareId } from '../core/ids.ts';
import { conditionFailedAt } from '../db/conditions.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { queryRecords } from '../db/items.ts';
import { failedConditions, named, type TransactItem, transactNamed, transactWrite } from '../db/transact.ts';
import { type EventDetail, eventWrite } from '../events/event.ts';
import { refundKeys } from './keys.ts';
import type { Refund } from './refund.ts';

/** The charge changed under this request (another refund, a payout); re-read and decide again. */
export class ChargeChanged extends Error {
  readonly charge: Charge | undefined;
  constructor(charge: Charge | undefined) {
    super('charge changed');
    this.charge = charge;
  }
}

/** A refund, in its account's list (gsi1) and its charge's list (gsi2). */
export const refundEntity = defineEntity<Refund>('refund', (refund) => ({
  ...refundKeys.refund(refund.developer_id, refund.mode, refund.id),
  ...refundKeys.inLists(refund.developer_id, refund.mode, refund.charge_id, refund.created_at, refund.id),
}));

/**
 * Stores a refund's attempt (`attemptWrite`: a new one, or the next try of one) and takes its
 * amount off the charge, in one transaction. ChargeChanged when the charge no longer allows it.
 */
export async function reserveRefund(
  deps: Deps,
  charge: Charge,
  amount: number,
  attemptWrite: TransactItem,
  now: Date,
): Promise<void> {
  const scope = scopeOf(charge);
  const items = [
    ...named('charge', {
      Update: {
        TableName: deps.table,
        Key: chargeKeys.charge(charge.developer_id, charge.mode, charge.id),
        UpdateExpression:
          'SET refundable = refundable - :amount, refunds_pending = if_not_exists(refunds_pending, :zero) + :amount, updated_at = :now',
        ConditionExpression: 'refundable >= :amount AND paid_out_at = :none',
        ExpressionAttributeValues: {
          ':amount': amount,
          ':zero': 0,
          ':none': null,
          ':now': now.toISOString(),
        },
      },
    }),
    ...named('attempt', attemptWrite),
  ];
  try {
    await transactNamed(deps, items);
  } catch (error) {
    const failed = failedConditions(error, items);
    if (failed.has('charge')) throw new ChargeChanged(await getCharge(deps, scope, charge.id));
    if (failed.has('attempt')) throw new AttemptTaken();
    throw error;
  }
}

/** The charge's totals as a refund of `amount` held by an attempt ends: refunded, or given back. */
function settleCharge(table: string, attempt: Attempt<'refund'>, refunded: boolean, now: Date): TransactItem {
  return {
    Update: {
      TableName: table,
      Key: chargeKeys.charge(attempt.developer_id ?? 0, attempt.mode ?? 'test', attempt.subject.charge_id),
      UpdateExpression: refunded
        ? 'SET refunded = refunded + :amount, refunds_pending = refunds_pending - :amount, updated_at = :now'
        : 'SET refundable = refundable + :amount, refunds_pending = refunds_pending - :amount, updated_at = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':amount': attempt.amount ?? 0, ':now': now.toISOString() },
    },
  };
}

/**
 * Records a refund the acquirer made: the attempt finished, the refund stored with its event, the
 * charge's refunded total raised. AttemptTaken when another writer recorded the attempt first.
 */
export async function recordRefund(
  deps: Deps,
  attempt: Attempt<'refund'>,
  refund: Refund,
  event: EventDetail<unknown>,
  reference: string,
  now: Date,
): Promise<void> {
  try {
    await transactWrite(deps, [
      finishWrite(deps.table, attempt, 'succeeded', { reference, refund_id: refund.id }, now),
      refundEntity.create(deps.table, refund),
      eventWrite(deps.table, event),
      settleCharge(deps.table, attempt, true, now),
    ]);
  } catch (error) {
    if (conditionFailedAt(error).includes(0)) throw new AttemptTaken();
    throw error;
  }
}

/** Records a refund the acquirer did not make: the attempt failed, its amount back on the charge. */
export async function recordRefundFailure(
  deps: Deps,
  attempt: Attempt<'refund'>,
  note: string,
  now: Date,
): Promise<void> {
  try {
    await transactWrite(deps, [
      finishWrite(deps.table, attempt, 'failed', { note }, now),
      settleCharge(deps.table, attempt, false, now),
    ]);
  } catch (error) {
    if (conditionFailedAt(error).includes(0)) throw new AttemptTaken();
    throw error;
  }
}

/** A refund by its bare id; undefined for none, or for an id no refund could have (no read then). */
export async function getRefund(deps: Deps, scope: Scope, refundId: string): Promise<Refund | undefined> {
  if (!isBareId(refundId)) return undefined;
  return refundEntity.get(deps, refundKeys.refund(scope.developerId, scope.mode, refundId));
}

/**
 * A refund by its bare id, as its own route reads it: NotFoundDetail (the contract's bare 404, as for
 * an absent charge) when there is none.
 */
export async function requireRefund(deps: Deps, scope: Scope, refundId: string): Promise<Refund> {
  const refund = await getRefund(deps, scope, refundId);
  if (!refund) throw new NotFoundDetail();
  return refund;
}

/** Refunds newest first: of one charge (gsi2) or of the whole account and mode (gsi1), at most `limit`. */
export function listRefunds(
  deps: Deps,
  scope: Scope,
  options: { chargeId?: string; limit: number },
): Promise<Refund[]> {
  const byCharge = options.chargeId !== undefined;
  return queryRecords<Refund>(
    deps,
    {
      IndexName: byCharge ? 'gsi2' : 'gsi1',
      KeyConditionExpression: byCharge ? 'gsi2pk = :pk' : 'gsi1pk = :pk',
      ExpressionAttributeValues: {
        ':pk': byCharge
          ? refundKeys.ofCharge(scope.developerId, scope.mode, options.chargeId as string)
          : refundKeys.list(scope.developerId, scope.mode),
      },
      ScanIndexForward: false,
    },
    options.limit,
  );
}
