/** Charge storage: a charge with its list, customer-list and payout-queue keys. */

import { type Scope, scopeOf } from '../core/account.ts';
import { NotFoundDetail } from '../core/errors.ts';
import { isPrefixedId } from '../core/ids.ts';
import type { PageRequest } from '../core/pagination.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { queryRecords, recordOf } from '../db/items.ts';
import { indexedPage } from '../db/lists.ts';
import type { Reindexer } from '../db/reindex.ts';
import type { TransactItem } from '../db/transact.ts';
import { eventWrite } from '../events/event.ts';
import { type Charge, chargeView } from './charge.ts';
import { chargeSucceeded } from './events.ts';
import { chargeKeys } from './keys.ts';

/**
 * A charge, in its account's list, in its customer's list when it has one (a charge is made with its
 * customer and never gets another), and, while a live one waits for payout, in the payout queue.
 */
export const chargeEntity = defineEntity<Charge>('charge', (charge) => ({
  ...chargeKeys.charge(charge.developer_id, charge.mode, charge.id),
  ...chargeKeys.inList(charge.developer_id, charge.mode, charge.created_at, charge.id),
  ...(charge.customer_id
    ? chargeKeys.ofCustomer(
        charge.developer_id,
        charge.mode,
        charge.customer_id,
        charge.created_at,
        charge.id,
      )
    : {}),
  ...(charge.payout_due_at && !charge.paid_out_at
    ? chargeKeys.payoutDue(charge.id, charge.payout_due_at)
    : {}),
}));

/** A charge by id; undefined for none, or for an id no charge could have (no read then). */
export async function getCharge(deps: Deps, scope: Scope, chargeId: string): Promise<Charge | undefined> {
  if (!isPrefixedId(chargeId, 'ch')) return undefined;
  return chargeEntity.get(deps, chargeKeys.charge(scope.developerId, scope.mode, chargeId));
}

/** A charge by id, as its own route reads it: NotFoundDetail (the contract's bare 404) when there is none. */
export async function requireCharge(deps: Deps, scope: Scope, chargeId: string): Promise<Charge> {
  const charge = await getCharge(deps, scope, chargeId);
  if (!charge) throw new NotFoundDetail();
  return charge;
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
 * One customer's charges, newest first, a page at a time (one Query of that customer's own index
 * partition: no other customer's charge is read), and whether more follow the page.
 */
export function listCustomerCharges(
  deps: Deps,
  scope: Scope,
  customerId: string,
  page: PageRequest,
): Promise<{ records: Charge[]; more: boolean }> {
  const { gsi3pk } = chargeKeys.ofCustomer(scope.developerId, scope.mode, customerId, '', '');
  return indexedPage<Charge>(deps, { index: 'gsi3', partition: gsi3pk, prefix: chargeKeys.listPrefix }, page);
}

/**
 * For a charge stored before the customer index existed: the write that gives it its place there
 * (`cobro reindex`), or none when it has no customer.
 */
export const chargeReindexer: Reindexer = (item) => {
  const charge = recordOf<Charge>(item);
  if (!charge.customer_id) return {};
  return {
    keys: {
      set: {
        ...chargeKeys.ofCustomer(
          charge.developer_id,
          charge.mode,
          charge.customer_id,
          charge.created_at,
          charge.id,
        ),
      },
      basis: { customer_id: charge.customer_id },
    },
  };
};

/**
 * The items that record an approved charge, whatever paid for it: the charge, and its
 * `charge.succeeded` carrying its list view. They go in the transaction that finishes its attempt.
 */
export function chargeWrites(table: string, charge: Charge, now: Date): TransactItem[] {
  const event = chargeSucceeded.of(scopeOf(charge), { object: chargeView(charge) }, now);
  return [chargeEntity.create(table, charge), eventWrite(table, event)];
}
