/**
 * Refunds in the single table. A refund takes its amount off the charge's `refundable` in the
 * same transaction that stores it, on condition that enough remains and the charge has not been
 * paid out: however many refunds race, their total never exceeds the charge.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Charge } from '../charges/charge.ts';
import { keys } from '../db/keys.ts';
import { conditionFailedAt, transactWrite } from '../db/transact.ts';
import type { Deps } from '../deps.ts';
import { type EventDetail, eventItem } from '../events/publish.ts';
import { getCharge, type Scope } from '../payments/repository.ts';
import type { Refund } from './refund.ts';

/** The charge changed under this request (another refund, a payout); re-read and decide again. */
export class ChargeChanged extends Error {
  readonly charge: Charge | undefined;
  constructor(charge: Charge | undefined) {
    super('charge changed');
    this.charge = charge;
  }
}

function strip(item: Record<string, unknown>): Refund {
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, entity: _e, ...refund } = item;
  return refund as unknown as Refund;
}

/** Stores a refund, takes it off its charge and records its event, in one transaction. */
export async function createRefund(deps: Deps, refund: Refund, event: EventDetail<unknown>): Promise<void> {
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
      {
        Put: {
          TableName: deps.table,
          Item: {
            ...keys.refund(refund.developer_id, refund.mode, refund.id),
            ...keys.refundInLists(
              refund.developer_id,
              refund.mode,
              refund.charge_id,
              refund.created_at,
              refund.id,
            ),
            entity: 'refund',
            ...refund,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: deps.table,
          Item: eventItem(event),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
  } catch (error) {
    if (conditionFailedAt(error).includes(0))
      throw new ChargeChanged(await getCharge(deps, scope, refund.charge_id));
    throw error;
  }
}

export async function getRefund(deps: Deps, scope: Scope, refundId: string): Promise<Refund | undefined> {
  const result = await deps.db.send(
    new GetCommand({
      TableName: deps.table,
      Key: keys.refund(scope.developerId, scope.mode, refundId),
      ConsistentRead: true,
    }),
  );
  return result.Item ? strip(result.Item) : undefined;
}

/** Refunds newest first: of one charge (gsi2) or of the whole account and mode (gsi1), at most `limit`. */
export async function listRefunds(
  deps: Deps,
  scope: Scope,
  options: { chargeId?: string; limit: number },
): Promise<Refund[]> {
  const byCharge = options.chargeId !== undefined;
  const refunds: Refund[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const result = await deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        IndexName: byCharge ? 'gsi2' : 'gsi1',
        KeyConditionExpression: byCharge ? 'gsi2pk = :pk' : 'gsi1pk = :pk',
        ExpressionAttributeValues: {
          ':pk': byCharge
            ? keys.refundsOfCharge(scope.developerId, scope.mode, options.chargeId as string)
            : keys.refundList(scope.developerId, scope.mode),
        },
        ScanIndexForward: false,
        Limit: options.limit - refunds.length,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const item of result.Items ?? []) refunds.push(strip(item));
    start = result.LastEvaluatedKey;
  } while (start && refunds.length < options.limit);
  return refunds;
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
