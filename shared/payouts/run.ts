/**
 * The payout step (docs/design.md#payouts): every live charge whose payout time has come is paid out
 * to the merchant. It finds them in gsi2's sparse "payout due" partitions (test charges are never
 * there). A payout is a money movement: one transaction marks the charge paid out, on condition that
 * it is not yet and that no refund of it is under way at the acquirer, and stores the payout's
 * attempt; then the acquirer is asked under the attempt's key. So overlapping runs pay out once, and
 * a refund racing a payout is decided by whichever write lands first: the refund's reservation, or
 * this. A payout the acquirer refuses is undone (the charge waits for the next run); one it never
 * answered is left to recovery (payoutFinisher).
 *
 * The amount is fixed in the transaction that marks the charge paid out, on condition that the
 * charge's `refunded` is still the one it was computed from: a refund that finished after the due
 * list was read is counted (the charge is read again and decided anew), and one that comes after
 * the mark answers 409 (paid out). Never both paid out and refunded.
 */

import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Acquirer, NotFound, PayoutResult } from '../acquirer/acquirer.ts';
import { AcquirerUnavailable } from '../acquirer/acquirer.ts';
import { type Attempt, lookupHintsOf, newAttempt } from '../attempts/attempt.ts';
import type { Finished } from '../attempts/recovery.ts';
import {
  attemptPut,
  finishWrite,
  getAttempt,
  moveAttempt,
  restarted,
  restartWrite,
  unconfirmedWrite,
} from '../attempts/repository.ts';
import { chargeKeys, payoutShards } from '../charges/keys.ts';
import { derivedId } from '../core/ids.ts';
import { formatAmount } from '../core/money/amount.ts';
import { findCurrency } from '../core/money/currencies.ts';
import { conditionFailedAt } from '../db/conditions.ts';
import type { Deps } from '../db/deps.ts';
import { queryEach } from '../db/items.ts';
import { failedConditions, named, type TransactItem, transactNamed, transactWrite } from '../db/transact.ts';

export type PayoutDeps = Deps & { acquirer: Acquirer };

export interface PayoutSummary {
  now: string;
  /** Charges paid out by this run. */
  paid_out: number;
  /** What was paid out per currency (the charges' net less their refunds), as decimal strings. */
  totals: Record<string, string>;
  charge_ids: string[];
  /** Refused by the acquirer (undone: the next run tries again). */
  refused: number;
  /** The acquirer gave no answer: recovery finishes them. */
  unconfirmed: number;
}

interface DueCharge {
  id: string;
  developer_id: number;
  mode: 'live';
  currency: string;
  net: number;
  refunded: number;
  refunds_pending?: number;
  acquirer_reference: string;
  payout_due_at: string;
  paid_out_at?: string | null;
}

/** What a charge's payout sends: its net less what was refunded of it, never below nothing. */
export const payoutAmountOf = (charge: { net: number; refunded: number }) =>
  Math.max(0, charge.net - charge.refunded);

/**
 * The charges of one payout partition due at `now`, of `account` alone when given. The partitions
 * are shared by every account, so one account's charges are read out of them with a filter: an
 * operator's run for one account, never the scheduled one.
 */
async function dueIn(
  deps: Deps,
  shard: number,
  now: string,
  account?: { developerId: number },
): Promise<DueCharge[]> {
  const due: DueCharge[] = [];
  await queryEach(
    deps,
    {
      IndexName: 'gsi2',
      // Due times are ISO strings: every key up to "<now>#~" is due.
      KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk <= :now',
      ExpressionAttributeValues: {
        ':pk': chargeKeys.payoutPartition(shard),
        ':now': `${now}#~`,
        ...(account ? { ':developer': account.developerId } : {}),
      },
      ...(account ? { FilterExpression: 'developer_id = :developer' } : {}),
      ProjectionExpression:
        'id, developer_id, #mode, currency, net, refunded, refunds_pending, acquirer_reference, payout_due_at, paid_out_at',
      ExpressionAttributeNames: { '#mode': 'mode' },
    },
    (item) => due.push(item as unknown as DueCharge) > 0,
  );
  return due;
}

/** The payout attempt of a charge: one per charge, whoever runs it. */
export const payoutAttemptId = (chargeId: string) => derivedId('att', ['payout', chargeId]);

/** How many times one run decides a charge's payout again after a refund changed it meanwhile. */
const markTries = 5;

/**
 * Marks the charge paid out of `amount` (no refund under way, not paid out yet, and `refunded`
 * still what `amount` was computed from) and stores the payout's attempt, in one transaction.
 * `marked` when it landed; `changed` with the charge as it now is when only a refund that finished
 * meanwhile stood in the way (decide again on it); `taken` when another run, or a refund under way,
 * got there first.
 */
async function markPaidOut(
  deps: Deps,
  charge: DueCharge,
  amount: number,
  attempt: TransactItem,
  now: string,
): Promise<{ kind: 'marked' } | { kind: 'changed'; charge: DueCharge } | { kind: 'taken' }> {
  const items = [
    ...named('charge', {
      Update: {
        TableName: deps.table,
        Key: chargeKeys.charge(charge.developer_id, charge.mode, charge.id),
        UpdateExpression:
          'SET paid_out_at = :now, payout_amount = :amount, updated_at = :now REMOVE gsi2pk, gsi2sk',
        ConditionExpression:
          'paid_out_at = :none AND refunded = :refunded AND (attribute_not_exists(refunds_pending) OR refunds_pending = :zero)',
        ExpressionAttributeValues: {
          ':now': now,
          ':none': null,
          ':zero': 0,
          ':amount': amount,
          ':refunded': charge.refunded,
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    }),
    ...named('attempt', attempt),
  ];
  try {
    await transactNamed(deps, items);
    return { kind: 'marked' };
  } catch (error) {
    const failed = failedConditions(error, items);
    if (failed.size === 0) throw error;
    const found = failed.get('charge');
    if (!found) return { kind: 'taken' };
    const now = unmarshall(found) as DueCharge;
    // Only a refund that finished since the list was read: the payout is decided again on it.
    const settled =
      now.paid_out_at == null && (now.refunds_pending ?? 0) === 0 && now.refunded !== charge.refunded;
    return settled ? { kind: 'changed', charge: { ...charge, refunded: now.refunded } } : { kind: 'taken' };
  }
}

/** Undoes a payout the acquirer did not make: the charge is due again, the attempt failed. */
async function undoPayout(deps: Deps, attempt: Attempt<'payout'>, note: string, now: Date): Promise<void> {
  const charge = attempt.subject;
  const due = chargeKeys.payoutDue(charge.charge_id, charge.due_at);
  await transactWrite(deps, [
    finishWrite(deps.table, attempt, 'failed', { note }, now),
    {
      Update: {
        TableName: deps.table,
        Key: chargeKeys.charge(attempt.developer_id ?? 0, attempt.mode ?? 'live', charge.charge_id),
        UpdateExpression:
          'SET paid_out_at = :none, gsi2pk = :pk, gsi2sk = :sk, updated_at = :at REMOVE payout_amount',
        ConditionExpression: 'paid_out_at = :paid',
        ExpressionAttributeValues: {
          ':none': null,
          ':pk': due.gsi2pk,
          ':sk': due.gsi2sk,
          ':paid': charge.paid_out_at,
          ':at': now.toISOString(),
        },
      },
    },
  ]);
}

/** Records what the acquirer said of a payout: made (the attempt succeeds), or not (undone). */
async function settlePayout(
  deps: Deps,
  attempt: Attempt<'payout'>,
  result: PayoutResult | NotFound,
  now: Date,
): Promise<boolean> {
  try {
    if (result.status === 'paid') {
      await transactWrite(deps, [
        finishWrite(deps.table, attempt, 'succeeded', { reference: result.payoutReference }, now),
      ]);
      return true;
    }
    await undoPayout(deps, attempt, result.status === 'failed' ? result.reason : 'not_found', now);
    return false;
  } catch (error) {
    // Recorded by another writer first (recovery, another run): that stands.
    if (conditionFailedAt(error).includes(0)) return result.status === 'paid';
    throw error;
  }
}

/** Recovery's finisher of payouts: what the acquirer has under the attempt's key. */
export const payoutFinisher =
  (deps: PayoutDeps) =>
  async (found: Attempt, now: Date): Promise<Finished> => {
    const attempt = found as Attempt<'payout'>;
    const result = await deps.acquirer.findPayout(
      attempt.acquirer_key,
      attempt.mode === 'test',
      lookupHintsOf(attempt),
    );
    return (await settlePayout(deps, attempt, result, now)) ? 'succeeded' : 'failed';
  };

/**
 * Pays out every charge due at `now`, or only `account`'s (the operator's `payouts run --account`:
 * the same step, the other accounts' charges left for their own runs).
 */
export async function runPayouts(
  deps: PayoutDeps,
  now: Date,
  account?: { developerId: number },
): Promise<PayoutSummary> {
  const at = now.toISOString();
  const minorTotals = new Map<string, number>();
  const summary: PayoutSummary = {
    now: at,
    paid_out: 0,
    totals: {},
    charge_ids: [],
    refused: 0,
    unconfirmed: 0,
  };
  for (let shard = 0; shard < payoutShards; shard++) {
    for (const due of await dueIn(deps, shard, at, account)) {
      let charge = due;
      let amount = payoutAmountOf(charge);
      let attempt: Attempt<'payout'> | undefined;
      for (let tryNumber = 1; tryNumber <= markTries && !attempt; tryNumber++) {
        amount = payoutAmountOf(charge);
        const fresh = newAttempt({
          id: payoutAttemptId(charge.id),
          kind: 'payout',
          subject: {
            charge_id: charge.id,
            acquirer_reference: charge.acquirer_reference,
            paid_out_at: at,
            due_at: charge.payout_due_at,
          },
          owner: { developerId: charge.developer_id, mode: charge.mode, amount, currency: charge.currency },
          // The attempt's lease is about calls running now: the wall clock's, whatever `now` pays out at.
          now: deps.clock(),
        });
        // A charge whose earlier payout the acquirer refused gets a new try, under a new key.
        const prior = await getAttempt<'payout'>(deps, fresh.id);
        const next = prior ? restarted(prior, deps.clock(), { subject: fresh.subject, amount }) : fresh;
        const write = prior ? restartWrite(deps.table, prior, next) : attemptPut(deps.table, next);
        const marked = await markPaidOut(deps, charge, amount, write, at);
        if (marked.kind === 'marked') attempt = next;
        else if (marked.kind === 'changed') charge = marked.charge;
        else break;
      }
      // Another run or a refund under way has it; a charge still changing is left for the next run.
      if (!attempt) continue;
      let made = true;
      // Nothing left to send (refunded in full): paid out without asking the acquirer.
      if (amount > 0) {
        try {
          const result = await deps.acquirer.payout({
            acquirerReference: charge.acquirer_reference,
            amountMinor: amount,
            currency: charge.currency,
            idempotencyKey: attempt.acquirer_key,
            test: false,
            merchant: charge.developer_id,
          });
          made = await settlePayout(deps, attempt, result, now);
          if (!made) summary.refused += 1;
        } catch (error) {
          if (!(error instanceof AcquirerUnavailable)) throw error;
          await moveAttempt(deps, unconfirmedWrite(deps.table, attempt, deps.clock()));
          summary.unconfirmed += 1;
          continue;
        }
      } else {
        await moveAttempt(
          deps,
          finishWrite(deps.table, attempt, 'succeeded', { note: 'nothing_to_send' }, now),
        );
      }
      if (!made) continue;
      summary.charge_ids.push(charge.id);
      minorTotals.set(charge.currency, (minorTotals.get(charge.currency) ?? 0) + amount);
    }
  }
  summary.paid_out = summary.charge_ids.length;
  for (const [code, minor] of minorTotals) {
    const currency = findCurrency(code);
    summary.totals[code] = currency ? formatAmount(minor, currency) : String(minor);
  }
  return summary;
}
