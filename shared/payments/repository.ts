/** Payments and the charges that pay them, in the single table. */
import type { Mode } from '../auth/account-context.ts';
import type { Charge } from '../charges/charge.ts';
import type { CheckoutSession } from '../checkout/session.ts';
import { getRecord, queryRecords } from '../db/items.ts';
import { keys } from '../db/keys.ts';
import { transactWrite } from '../db/transact.ts';
import type { Deps } from '../deps.ts';
import { type EventDetail, eventWrite } from '../events/publish.ts';
import type { Payment } from './payment.ts';

export interface Scope {
  developerId: number;
  mode: Mode;
}

export function paymentItem(payment: Payment): Record<string, unknown> {
  return { ...keys.payment(payment.developer_id, payment.mode, payment.id), entity: 'payment', ...payment };
}

export function sessionItem(session: CheckoutSession): Record<string, unknown> {
  return { ...keys.checkout(session.token), entity: 'checkout', ...session };
}

export function chargeItem(charge: Charge): Record<string, unknown> {
  return {
    ...keys.charge(charge.developer_id, charge.mode, charge.id),
    ...keys.chargeInList(charge.developer_id, charge.mode, charge.created_at, charge.id),
    ...(charge.payout_due_at && !charge.paid_out_at ? keys.payoutDue(charge.id, charge.payout_due_at) : {}),
    entity: 'charge',
    ...charge,
  };
}

/** Stores a pending payment and its checkout session together. */
export async function createPayment(deps: Deps, payment: Payment, session: CheckoutSession): Promise<void> {
  await transactWrite(deps, [
    {
      Put: {
        TableName: deps.table,
        Item: paymentItem(payment),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: deps.table,
        Item: sessionItem(session),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
}

export function getPayment(deps: Deps, scope: Scope, paymentId: string): Promise<Payment | undefined> {
  return getRecord<Payment>(deps, keys.payment(scope.developerId, scope.mode, paymentId));
}

export function getCharge(deps: Deps, scope: Scope, chargeId: string): Promise<Charge | undefined> {
  return getRecord<Charge>(deps, keys.charge(scope.developerId, scope.mode, chargeId));
}

/** The account's charges, newest first: at most `limit`, created before `createdBefore` when given (D9). */
export function listCharges(
  deps: Deps,
  scope: Scope,
  options: { limit: number; createdBefore?: string },
): Promise<Charge[]> {
  const { gsi1pk } = keys.chargeInList(scope.developerId, scope.mode, '', '');
  return queryRecords<Charge>(
    deps,
    {
      IndexName: 'gsi1',
      KeyConditionExpression: options.createdBefore
        ? 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :before'
        : 'gsi1pk = :pk AND begins_with(gsi1sk, :from)',
      ExpressionAttributeValues: {
        ':pk': gsi1pk,
        ':from': keys.chargeListPrefix,
        ...(options.createdBefore ? { ':before': keys.chargesBefore(options.createdBefore) } : {}),
      },
      ScanIndexForward: false,
    },
    options.limit,
  );
}

/** Stores a charge made without a checkout (the legacy charge), with its event. */
export async function createCharge(deps: Deps, charge: Charge, event: EventDetail<unknown>): Promise<void> {
  await transactWrite(deps, [
    {
      Put: {
        TableName: deps.table,
        Item: chargeItem(charge),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    eventWrite(deps.table, event),
  ]);
}
