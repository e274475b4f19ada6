/**
 * The payout step (D2, D5): every live charge whose payout time has come is marked paid out. It
 * finds them in gsi2's sparse "payout due" partitions (test charges are never there), and marks
 * each with a write conditioned on it not being paid out yet, so overlapping runs pay once and a
 * refund racing a payout is decided by whichever write lands first.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { formatAmount } from '../core/money/amount.ts';
import { findCurrency } from '../core/money/currencies.ts';
import type { Deps } from '../db/deps.ts';
import { queryEach } from '../db/items.ts';
import { keys, payoutShards } from '../db/keys.ts';

export interface PayoutSummary {
  now: string;
  /** Charges marked paid out by this run. */
  paid_out: number;
  /** What was paid out per currency (the charges' net less their refunds), as decimal strings. */
  totals: Record<string, string>;
  charge_ids: string[];
}

interface DueCharge {
  id: string;
  developer_id: number;
  mode: 'live';
  currency: string;
  net: number;
  refunded: number;
}

async function dueIn(deps: Deps, shard: number, now: string): Promise<DueCharge[]> {
  const due: DueCharge[] = [];
  await queryEach(
    deps,
    {
      IndexName: 'gsi2',
      // Due times are ISO strings: every key up to "<now>#~" is due.
      KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk <= :now',
      ExpressionAttributeValues: { ':pk': keys.payoutShard(shard), ':now': `${now}#~` },
      ProjectionExpression: 'id, developer_id, #mode, currency, net, refunded',
      ExpressionAttributeNames: { '#mode': 'mode' },
    },
    (item) => due.push(item as unknown as DueCharge) > 0,
  );
  return due;
}

/** Marks one charge paid out; false when another run (or nothing) got there first. */
async function markPaidOut(deps: Deps, charge: DueCharge, now: string): Promise<boolean> {
  try {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: keys.charge(charge.developer_id, charge.mode, charge.id),
        UpdateExpression: 'SET paid_out_at = :now, updated_at = :now REMOVE gsi2pk, gsi2sk',
        ConditionExpression: 'paid_out_at = :none',
        ExpressionAttributeValues: { ':now': now, ':none': null },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Pays out every charge due at `now`. */
export async function runPayouts(deps: Deps, now: Date): Promise<PayoutSummary> {
  const at = now.toISOString();
  const minorTotals = new Map<string, number>();
  const paid: string[] = [];
  for (let shard = 0; shard < payoutShards; shard++) {
    for (const charge of await dueIn(deps, shard, at)) {
      if (!(await markPaidOut(deps, charge, at))) continue;
      paid.push(charge.id);
      minorTotals.set(
        charge.currency,
        (minorTotals.get(charge.currency) ?? 0) + charge.net - charge.refunded,
      );
    }
  }
  const totals: Record<string, string> = {};
  for (const [code, minor] of minorTotals) {
    const currency = findCurrency(code);
    totals[code] = currency ? formatAmount(minor, currency) : String(minor);
  }
  return { now: at, paid_out: paid.length, totals, charge_ids: paid };
}
