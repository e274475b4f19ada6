/** Payments in the single table (a new one is stored with its checkout session: see checkout). */

import type { Scope } from '../core/account.ts';
import { isPrefixedId } from '../core/ids.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { paymentKeys } from './keys.ts';
import type { Payment } from './payment.ts';

/** A payment: one item, keyed by account, mode and id. */
export const paymentEntity = defineEntity<Payment>('payment', (payment) =>
  paymentKeys.payment(payment.developer_id, payment.mode, payment.id),
);

/** A payment by id; undefined for none, or for an id no payment could have (no read then). */
export async function getPayment(deps: Deps, scope: Scope, paymentId: string): Promise<Payment | undefined> {
  if (!isPrefixedId(paymentId, 'pay')) return undefined;
  return paymentEntity.get(deps, paymentKeys.payment(scope.developerId, scope.mode, paymentId));
}
