/**
 * Refunds in the single table. A refund takes its amount off the charge's `refundable` in the
 * same transaction that stores it, on condition that enough remains and the charge has not been
 * paid out: however many refunds race, their total never exceeds the charge.
 */

import type { Charge } from '../charges/charge.ts';
import { getCharge } from '../charges/repository.ts';
import type { Scope } from '../core/account.ts';
import { isBareId } from '../core/ids.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { queryRecords } from '../db/items.ts';
import { keys } from '../db/keys.ts';
import { conditionFailedAt, transactWrite } from '../db/transact.ts';
import { type EventDetail, eventWrite } from '../events/event.ts';
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
  ...keys.refund(refund.developer_id, refund.mode, refund.id),
  ...keys.refundInLists(refund.developer_id, refund.mode, refund.charge_id, refund.created_at, refund.id),
}));

/** Stores a refund and takes it off its charge, in one transaction (its event waits for the acquirer). */
export async function createRefund(deps: Deps, refund: Refund): Promise<void> {
  const scope = { developerId: refund.developer_id, mode: refund.mode };
  try {
    await transactWrite(deps, [
      {
        Update: {
          TableName: deps.table,
          Key: keys.charge(refund.developer_id, refund.mode, refund.charge_id),
          UpdateExpression:
            'SET refundable = refundable - :amount, refunded = refunded + :amount, updated_at = :now',
          ConditionExpression: 'refundable >= :amount AND paid_out_at = :none',
          ExpressionAttributeValues: { ':amount': refund.amount, ':none': null, ':now': refund.created_at },
        },
      },
      refundEntity.create(deps.table, refund),
    ]);
  } catch (error) {
    if (conditionFailedAt(error).includes(0))
      throw new ChargeChanged(await getCharge(deps, scope, refund.charge_id));
    throw error;
  }
}

/**
 * Stores `refund.created` once the acquirer has refunded, conditioned on the refund still being
 * recorded: the outbox then sends it. (Stored with the refund, it would leave through the stream
 * before the acquirer answered, and a refusal could not take it back.)
 */
export async function storeRefundEvent(
  deps: Deps,
  refund: Refund,
  event: EventDetail<unknown>,
): Promise<void> {
  await transactWrite(deps, [
    {
      ConditionCheck: {
        TableName: deps.table,
        Key: keys.refund(refund.developer_id, refund.mode, refund.id),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    eventWrite(deps.table, event),
  ]);
}

/** A refund by its bare id; undefined for none, or for an id no refund could have (no read then). */
export async function getRefund(deps: Deps, scope: Scope, refundId: string): Promise<Refund | undefined> {
  if (!isBareId(refundId)) return undefined;
  return refundEntity.get(deps, keys.refund(scope.developerId, scope.mode, refundId));
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
          ? keys.refundsOfCharge(scope.developerId, scope.mode, options.chargeId as string)
          : keys.refundList(scope.developerId, scope.mode),
      },
      ScanIndexForward: false,
    },
    options.limit,
  );
}

/** Undoes a stored refund the acquirer refused: the amount goes back onto the charge. */
export async function revertRefund(deps: Deps, refund: Refund): Promise<void> {
  await transactWrite(deps, [
    {
      Update: {
        TableName: deps.table,
        Key: keys.charge(refund.developer_id, refund.mode, refund.charge_id),
        UpdateExpression: 'SET refundable = refundable + :amount, refunded = refunded - :amount',
        ExpressionAttributeValues: { ':amount': refund.amount },
      },
    },
    {
      Delete: {
        TableName: deps.table,
        Key: keys.refund(refund.developer_id, refund.mode, refund.id),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
  ]);
}
