/**
 * Reconciliation (docs/design.md#reconciliation): the acquirer's books against cobro's. It first runs
 * recovery (so attempts whose outcome was unknown are finished), then walks both sides of a time
 * range:
 * - every charge, refund and payout in the acquirer's own ledger must be an attempt cobro recorded
 *   as succeeded under the same key, and the record it made (the charge, the refund, the charge paid
 *   out) must have the same amount, currency and owner (account and mode);
 * - every succeeded attempt cobro made in the range that moved money must be in the acquirer's books.
 * Each difference is a mismatch; none means the books agree. Read by Query on both sides (the
 * acquirer's ledger by day, cobro's attempts by day), never a Scan: an operator's command and a
 * daily schedule, not a request path. The schedule fans it out: each worker reconciles one partition,
 * the movements whose attempt's recovery entry sits in that partition of the recovery index (its
 * recovery first, then both sides of those movements); the command does every partition at once.
 */
import type { LedgerEntry } from '../acquirer/acquirer.ts';
import { type Attempt, attemptIdOfKey } from '../attempts/attempt.ts';
import { attemptPartition } from '../attempts/keys.ts';
import type { RecoverySummary } from '../attempts/recovery.ts';
import { eachAttemptBetween, getAttempt } from '../attempts/repository.ts';
import { getCharge } from '../charges/repository.ts';
import { modeOf } from '../core/account.ts';
import { eachInLanes } from '../core/lanes.ts';
import { getRefund } from '../refunds/repository.ts';
import { type LedgerDeps, runRecovery } from './recovery.ts';

export type MovementKind = LedgerEntry['kind'];

export interface Mismatch {
  kind: MovementKind;
  /** The acquirer's idempotency key of the movement. */
  key: string;
  problem:
    | 'not_in_cobro'
    | 'not_recorded'
    | 'record_missing'
    | 'amount'
    | 'currency'
    | 'owner'
    | 'reference'
    | 'not_at_acquirer';
  detail: string;
}

interface Side {
  charges: number;
  refunds: number;
  payouts: number;
  /** Minor units per currency: charged, refunded, paid out. */
  totals: Record<string, { charged: number; refunded: number; paid_out: number }>;
}

export interface ReconcileReport {
  since: string;
  until: string;
  /** The one account compared, when not all. */
  developer_id?: number;
  /** The one partition compared, when not all. */
  partition?: number;
  recovery: RecoverySummary;
  acquirer: Side;
  cobro: Side;
  mismatches: Mismatch[];
}

const emptySide = (): Side => ({ charges: 0, refunds: 0, payouts: 0, totals: {} });

function count(side: Side, kind: MovementKind, currency: string, amount: number): void {
  side[kind === 'charge' ? 'charges' : kind === 'refund' ? 'refunds' : 'payouts'] += 1;
  const totals = side.totals[currency] ?? { charged: 0, refunded: 0, paid_out: 0 };
  side.totals[currency] = totals;
  totals[kind === 'charge' ? 'charged' : kind === 'refund' ? 'refunded' : 'paid_out'] += amount;
}

/** The kind of money an attempt moved, if it moved any (a card check moves none). */
function movementOf(attempt: Attempt): MovementKind | undefined {
  if (attempt.status !== 'succeeded') return undefined;
  if (attempt.kind === 'refund') return 'refund';
  if (attempt.kind === 'payout') return attempt.outcome?.reference ? 'payout' : undefined;
  return attempt.outcome?.charge_id ? 'charge' : undefined;
}

/** What cobro recorded for a movement, as the acquirer would state it; a problem when it differs. */
async function recordOf(
  deps: LedgerDeps,
  attempt: Attempt,
  kind: MovementKind,
): Promise<{ amount: number; currency: string; reference: string; chargeReference: string | null } | string> {
  const scope = { developerId: attempt.developer_id ?? 0, mode: attempt.mode ?? ('test' as const) };
  if (kind === 'charge') {
    const charge = await getCharge(deps, scope, attempt.outcome?.charge_id ?? '');
    if (!charge) return `charge ${attempt.outcome?.charge_id} is not stored`;
    return {
      amount: charge.amount,
      currency: charge.currency,
      reference: charge.acquirer_reference,
      chargeReference: null,
    };
  }
  if (kind === 'refund') {
    const subject = (attempt as Attempt<'refund'>).subject;
    const refund = await getRefund(deps, scope, attempt.outcome?.refund_id ?? subject.refund_id);
    if (!refund) return `refund ${subject.refund_id} is not stored`;
    return {
      amount: refund.amount,
      currency: refund.currency,
      reference: attempt.outcome?.reference ?? '',
      chargeReference: subject.acquirer_reference,
    };
  }
  const subject = (attempt as Attempt<'payout'>).subject;
  const charge = await getCharge(deps, scope, subject.charge_id);
  if (!charge?.paid_out_at) return `charge ${subject.charge_id} is not marked paid out`;
  return {
    amount: attempt.amount ?? 0,
    currency: charge.currency,
    reference: attempt.outcome?.reference ?? '',
    chargeReference: charge.acquirer_reference,
  };
}

/** Compares one acquirer movement with cobro's record of it. */
async function check(
  deps: LedgerDeps,
  entry: LedgerEntry,
  mismatches: Mismatch[],
  cobro: Side,
): Promise<void> {
  const fail = (problem: Mismatch['problem'], detail: string) =>
    mismatches.push({ kind: entry.kind, key: entry.idempotencyKey, problem, detail });
  const attempt = await getAttempt(deps, attemptIdOfKey(entry.idempotencyKey));
  if (!attempt) return void fail('not_in_cobro', `no attempt holds key ${entry.idempotencyKey}`);
  if (attempt.acquirer_key !== entry.idempotencyKey || movementOf(attempt) !== entry.kind)
    return void fail(
      'not_recorded',
      `attempt ${attempt.id} is ${attempt.status} under key ${attempt.acquirer_key}, the acquirer ${entry.kind === 'charge' ? 'charged' : entry.kind === 'refund' ? 'refunded' : 'paid out'} under ${entry.idempotencyKey}`,
    );
  const owner = `${entry.merchant}/${modeOf(entry.test)}`;
  if (`${attempt.developer_id}/${attempt.mode}` !== owner)
    fail('owner', `cobro: ${attempt.developer_id}/${attempt.mode}, acquirer: ${owner}`);
  const record = await recordOf(deps, attempt, entry.kind);
  if (typeof record === 'string') return void fail('record_missing', record);
  count(cobro, entry.kind, record.currency, record.amount);
  if (record.amount !== entry.amountMinor)
    fail('amount', `cobro: ${record.amount}, acquirer: ${entry.amountMinor} (minor units)`);
  if (record.currency !== entry.currency)
    fail('currency', `cobro: ${record.currency}, acquirer: ${entry.currency}`);
  if (record.reference && record.reference !== entry.reference)
    fail('reference', `cobro: ${record.reference}, acquirer: ${entry.reference}`);
  if (record.chargeReference !== null && record.chargeReference !== entry.chargeReference)
    fail('reference', `charge: cobro ${record.chargeReference}, acquirer ${entry.chargeReference}`);
}

/**
 * Runs recovery, then compares the acquirer's books with cobro's between `since` and `until`, of
 * every partition or of `range.partition` alone.
 */
export async function reconcile(
  deps: LedgerDeps,
  range: { since: Date; until: Date; developerId?: number; partition?: number },
): Promise<ReconcileReport> {
  const { partition } = range;
  const mine = (developerId: number | null) =>
    range.developerId === undefined || developerId === range.developerId;
  const inPartition = (key: string) =>
    partition === undefined || attemptPartition(attemptIdOfKey(key)) === partition;
  // Recovery at the present, not at `until`: an attempt whose call may still be running is left alone.
  const recovery = await runRecovery(deps, deps.clock(), { shard: partition });
  const acquirer = emptySide();
  const cobro = emptySide();
  const mismatches: Mismatch[] = [];
  const seen = new Set<string>();
  const entries: LedgerEntry[] = [];
  for await (const entry of deps.acquirer.ledger(range)) {
    if (!mine(entry.merchant) || !inPartition(entry.idempotencyKey)) continue;
    entries.push(entry);
    seen.add(entry.idempotencyKey);
    count(acquirer, entry.kind, entry.currency, entry.amountMinor);
  }
  await eachInLanes(entries, 8, (entry) => check(deps, entry, mismatches, cobro));
  // cobro's side: what it recorded as moved, made in the range, the acquirer must have too.
  const moved: Attempt[] = [];
  await eachAttemptBetween(
    deps,
    range.since,
    range.until,
    (attempt) => {
      if (mine(attempt.developer_id) && movementOf(attempt) && !seen.has(attempt.acquirer_key))
        moved.push(attempt);
    },
    partition,
  );
  for (const attempt of moved) {
    const kind = movementOf(attempt) as MovementKind;
    const test = attempt.mode === 'test';
    const found =
      kind === 'charge'
        ? await deps.acquirer.findCharge(attempt.acquirer_key, test)
        : kind === 'refund'
          ? await deps.acquirer.findRefund(attempt.acquirer_key, test)
          : await deps.acquirer.findPayout(attempt.acquirer_key, test);
    const there = found.status === 'approved' || found.status === 'succeeded' || found.status === 'paid';
    if (!there)
      mismatches.push({
        kind,
        key: attempt.acquirer_key,
        problem: 'not_at_acquirer',
        detail: `cobro recorded attempt ${attempt.id} as ${attempt.status}; the acquirer has ${found.status}`,
      });
  }
  return {
    since: range.since.toISOString(),
    until: range.until.toISOString(),
    ...(range.developerId === undefined ? {} : { developer_id: range.developerId }),
    ...(partition === undefined ? {} : { partition }),
    recovery,
    acquirer,
    cobro,
    mismatches,
  };
}
