/** Charge storage: a charge with its list and payout-queue keys. */

import { type Scope, scopeOf } from '../core/account.ts';
import { isPrefixedId } from '../core/ids.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { queryRecords } from '../db/items.ts';
import type { TransactItem } from '../db/transact.ts';
import { eventWrite } from '../events/event.ts';
import { type Charge, chargeView } from './charge.ts';
import { chargeSucceeded } from './events.ts';
import { chargeKeys } from './keys.ts';

/** A charge, in its account's list and, while a live one waits for payout, in the payout queue. */
export const chargeEntity = defineEntity<Charge>('charge', (charge) => ({
  ...chargeKeys.charge(charge.developer_id, charge.mode, charge.id),
  ...chargeKeys.inList(charge.developer_id, charge.mode, charge.created_at, charge.id),
  ...(charge.payout_due_at && !charge.paid_out_at
    ? chargeKeys.payoutDue(charge.id, charge.payout_due_at)
    : {}),
}));

/** A charge by id; undefined for none, or for an id no charge could have (no read then). */
export async function getCharge(deps: Deps, scope: Scope, chargeId: string): Promise<Charge | undefined> {
  if (!isPrefixedId(chargeId, 'ch')) return undefined;
  return chargeEntity.get(deps, chargeKeys.charge(scope.developerId, scope.mode, chargeId));
}

/** The account's charges, newest first: at most `limit`, created before `createdBefore` when given. */
export function listCharges(
  deps: Deps,
  scope: Scope,
  options: { limit: number; createdBefore?: string },
): Promise<Charge[]> {
  const { gsi1pk } = chargeKeys.inList(scope.developerId, scope.mode, '', '');
  return queryRecords<Charge>(
    deps,
    {
      IndexName: 'gsi1',
      KeyConditionExpression: options.createdBefore
        ? 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :before'
        : 'gsi1pk = :pk AND begins_with(gsi1sk, :from)',
      ExpressionAttributeValues: {
        ':pk': gsi1pk,
        ':from': chargeKeys.listPrefix,
        ...(options.createdBefore ? { ':before': chargeKeys.before(options.createdBefore) } : {}),
      },
      ScanIndexForward: false,
    },
    options.limit,
  );
}

/**
 * The items that record an approved charge, whatever paid for it: the charge, and its
 * `charge.succeeded` carrying its list view. They go in the transaction that finishes its attempt.
 */
export function chargeWrites(table: string, charge: Charge, now: Date): TransactItem[] {
  const event = chargeSucceeded.of(scopeOf(charge), { object: chargeView(charge) }, now);
  return [chargeEntity.create(table, charge), eventWrite(table, event)];
}
