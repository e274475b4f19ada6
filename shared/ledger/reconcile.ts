/**
 * Reconciliation (docs/design.md#reconciliation): the acquirer's books against cobro's. It first runs
 * recovery (so attempts whose outcome was unknown are finished), then walks both sides of a time
 * range:
 * - every charge, refund and payout in the acquirer's own ledger must be an attempt cobro recorded
 *   as succeeded under the same key, and the record it made (the charge, the refund, the charge paid
 *   out) must have the same amount, currency and owner (account and mode);
 * - every succeeded attempt cobro made in the range that moved money must be in the acquirer's books;
 * - every charge those movements touched must hold its own invariants, whatever both books say (a
 *   payout both sides agree on can still be the wrong amount): its refunded total is the sum of its
 *   refunds and never above the charge; what is refunded, left to refund and held by refunds under
 *   way adds up to the charge; a payout sent its net less its refunds (never below 0), under the
 *   charge's one payout attempt, and the acquirer paid the charge out once;
 * - every payout an acquirer made on its own (Stripe's) must be recorded on each charge of cobro's it
 *   settled (`settled_payout`), as its event records it.
 * Each difference is a mismatch; none means the books agree. Read by Query on both sides (the
 * acquirer's ledger by day, cobro's attempts by day), never a Scan: an operator's command and a
 * daily schedule, not a request path. The schedule fans it out: each worker reconciles one partition,
 * the movements whose attempt's recovery entry sits in that partition of the recovery index (its
 * recovery first, then both sides of those movements); the command does every partition at once.
 */
import type { LedgerEntry } from '../acquirer/acquirer.ts';
import { type Attempt, attemptIdOfKey, isFinal, lookupHintsOf } from '../attempts/attempt.ts';
import { attemptPartition } from '../attempts/keys.ts';
import type { RecoverySummary } from '../attempts/recovery.ts';
import { eachAttemptBetween, getAttempt } from '../attempts/repository.ts';
import type { Charge } from '../charges/charge.ts';
import { getCharge } from '../charges/repository.ts';
import { type Mode, modeOf, type Scope } from '../core/account.ts';
import { eachInLanes } from '../core/lanes.ts';
import { payoutAmountOf, payoutAttemptId } from '../payouts/run.ts';
import { getRefund, listRefunds } from '../refunds/repository.ts';
import { type LedgerDeps, runRecovery } from './recovery.ts';

export type MovementKind = LedgerEntry['kind'];

export interface Mismatch {
  kind: MovementKind;
  /** The acquirer's idempotency key of the movement; for a charge's own invariant, the charge's id. */
  key: string;
  problem:
    | 'not_in_cobro'
    | 'not_recorded'
    | 'record_missing'
    | 'amount'
    | 'currency'
    | 'owner'
    | 'reference'
    | 'not_at_acquirer'
    /** The charge's refunded total is not the sum of its refunds. */
    | 'refunded_total'
    /** More was refunded of the charge than it took. */
    | 'refunded_above_charge'
    /** Refunded, left to refund and held by refunds under way do not add up to the charge. */
    | 'balance'
    /** A payout that did not send the charge's net less its refunds. */
    | 'payout_amount'
    /** The charge was paid out more than once. */
    | 'paid_out_twice';
  /** The charge the mismatch is about, when it is about one. */
  charge_id?: string;
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
  touch: (attempt: Attempt) => void,
): Promise<void> {
  const fail = (problem: Mismatch['problem'], detail: string) =>
    mismatches.push({ kind: entry.kind, key: entry.idempotencyKey, problem, detail });
  const attempt = await getAttempt(deps, attemptIdOfKey(entry.idempotencyKey));
  if (!attempt) return void fail('not_in_cobro', `no attempt holds key ${entry.idempotencyKey}`);
  if (attempt.acquirer_key !== entry.idempotencyKey || movementOf(attempt) !== entry.kind) {
    const did = entry.kind === 'charge' ? 'charged' : entry.kind === 'refund' ? 'refunded' : 'paid out';
    // Still open: recovery records it once its window has passed (a payer on the acquirer's own
    // page, a call under way); an operator need not act before then.
    if (!isFinal(attempt) && attempt.acquirer_key === entry.idempotencyKey)
      return void fail(
        'not_recorded',
        `the acquirer ${did} under attempt ${attempt.id} (${attempt.kind}), which cobro has not recorded yet: it is still ${attempt.status === 'challenge' ? 'waiting for the payer' : 'open'}; recovery records it${attempt.recover_at ? ` from ${attempt.recover_at}` : ''}, or sooner when the acquirer's event or the payer's return comes`,
      );
    return void fail(
      'not_recorded',
      `attempt ${attempt.id} is ${attempt.status} under key ${attempt.acquirer_key}; the acquirer ${did} under ${entry.idempotencyKey}`,
    );
  }
  touch(attempt);
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

/** The charge an attempt that moved money is about (the one it made, refunded or paid out). */
function chargeOf(attempt: Attempt): string | undefined {
  if (attempt.kind === 'refund') return (attempt as Attempt<'refund'>).subject.charge_id;
  if (attempt.kind === 'payout') return (attempt as Attempt<'payout'>).subject.charge_id;
  return attempt.outcome?.charge_id;
}

/** More refunds than any charge has: a charge's refunds are read whole, never a first page only. */
const refundsReadLimit = 100_000;

/**
 * Checks one charge's own invariants (see the top of this file); `payouts` is how many payouts of
 * it the acquirer's books hold in the range.
 */
async function checkCharge(
  deps: LedgerDeps,
  scope: Scope,
  charge: Charge,
  payouts: number,
  mismatches: Mismatch[],
): Promise<void> {
  const chargeId = charge.id;
  const fail = (problem: Mismatch['problem'], detail: string, kind: MovementKind = 'charge') =>
    mismatches.push({ kind, key: chargeId, charge_id: chargeId, problem, detail });
  const refunds = await listRefunds(deps, scope, { chargeId, limit: refundsReadLimit });
  const sum = refunds.reduce((total, refund) => total + refund.amount, 0);
  if (charge.refunded !== sum)
    fail(
      'refunded_total',
      `charge ${chargeId}: refunded ${charge.refunded}, its ${refunds.length} refunds ${sum} (minor units)`,
      'refund',
    );
  if (charge.refunded > charge.amount)
    fail(
      'refunded_above_charge',
      `charge ${chargeId}: refunded ${charge.refunded} of ${charge.amount}`,
      'refund',
    );
  const pending = charge.refunds_pending ?? 0;
  if (charge.refunded + charge.refundable + pending !== charge.amount)
    fail(
      'balance',
      `charge ${chargeId}: refunded ${charge.refunded} + refundable ${charge.refundable} + under way ${pending} != amount ${charge.amount}`,
    );
  if (payouts > 1)
    fail('paid_out_twice', `charge ${chargeId}: the acquirer paid it out ${payouts} times`, 'payout');
  if (!charge.paid_out_at) return;
  const payout = await getAttempt<'payout'>(deps, payoutAttemptId(chargeId));
  // Still under way (recovery ran first, so its call may still be running): judged once it ends.
  if (payout && payout.status !== 'succeeded') return;
  const owed = payoutAmountOf(charge);
  const sent = payout?.amount ?? null;
  if (sent !== owed || (charge.payout_amount !== undefined && charge.payout_amount !== owed))
    fail(
      'payout_amount',
      `charge ${chargeId}: owed its net ${charge.net} less ${charge.refunded} refunded = ${owed}; the payout sent ${sent ?? 'nothing'}${
        charge.payout_amount === undefined ? '' : ` and the charge says ${charge.payout_amount}`
      } (minor units)`,
      'payout',
    );
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
  // Every charge a movement in the range touched, by account and mode: their own invariants are
  // checked last. How many payouts of each (by the acquirer's reference) its books hold.
  const touched = new Map<string, Scope & { chargeId: string }>();
  const touch = (attempt: Attempt) => {
    const chargeId = chargeOf(attempt);
    if (chargeId && attempt.developer_id !== null && attempt.mode !== null)
      touched.set(`${attempt.developer_id}/${attempt.mode}/${chargeId}`, {
        developerId: attempt.developer_id,
        mode: attempt.mode as Mode,
        chargeId,
      });
  };
  const payoutsOf = new Map<string, number>();
  for (const entry of entries)
    if (entry.kind === 'payout' && entry.chargeReference)
      payoutsOf.set(entry.chargeReference, (payoutsOf.get(entry.chargeReference) ?? 0) + 1);
  await eachInLanes(entries, 8, (entry) => check(deps, entry, mismatches, cobro, touch));
  // cobro's side: what it recorded as moved, made in the range, the acquirer must have too.
  const moved: Attempt[] = [];
  await eachAttemptBetween(
    deps,
    range.since,
    range.until,
    (attempt) => {
      if (!mine(attempt.developer_id) || !movementOf(attempt)) return;
      touch(attempt);
      if (!seen.has(attempt.acquirer_key)) moved.push(attempt);
    },
    partition,
  );
  for (const attempt of moved) {
    const kind = movementOf(attempt) as MovementKind;
    const test = attempt.mode === 'test';
    const hints = lookupHintsOf(attempt);
    let found: { status: string };
    try {
      found =
        kind === 'charge'
          ? await deps.acquirer.findCharge(attempt.acquirer_key, test, hints)
          : kind === 'refund'
            ? await deps.acquirer.findRefund(attempt.acquirer_key, test, hints)
            : await deps.acquirer.findPayout(attempt.acquirer_key, test, hints);
    } catch (error) {
      // One acquirer that cannot be asked (unreachable, no longer connected) is this movement's
      // mismatch, never the end of the whole reconciliation.
      mismatches.push({
        kind,
        key: attempt.acquirer_key,
        problem: 'not_at_acquirer',
        detail: `cobro recorded attempt ${attempt.id} as ${attempt.status}; the acquirer could not be asked: ${(error as Error).message}`,
      });
      continue;
    }
    const there = found.status === 'approved' || found.status === 'succeeded' || found.status === 'paid';
    if (!there)
      mismatches.push({
        kind,
        key: attempt.acquirer_key,
        problem: 'not_at_acquirer',
        detail: `cobro recorded attempt ${attempt.id} as ${attempt.status}; the acquirer has ${found.status}`,
      });
  }
  // Payouts an acquirer made on its own: each charge of cobro's it settled says so.
  for await (const settlement of deps.acquirer.settlements?.(range) ?? []) {
    if (!mine(settlement.merchant)) continue;
    const scope = { developerId: settlement.merchant, mode: modeOf(settlement.test) };
    for (const { idempotencyKey } of settlement.settled) {
      if (!inPartition(idempotencyKey)) continue;
      const attempt = await getAttempt(deps, attemptIdOfKey(idempotencyKey));
      const chargeId = attempt?.outcome?.charge_id;
      const charge = chargeId ? await getCharge(deps, scope, chargeId) : undefined;
      if (charge?.settled_payout?.id === settlement.payoutReference) continue;
      mismatches.push({
        kind: 'payout',
        key: settlement.payoutReference,
        ...(charge ? { charge_id: charge.id } : {}),
        problem: charge ? 'not_recorded' : 'record_missing',
        detail: charge
          ? `the acquirer's payout ${settlement.payoutReference} settled charge ${charge.id}, which does not record it`
          : `the acquirer's payout ${settlement.payoutReference} settled a charge of attempt ${attemptIdOfKey(idempotencyKey)} cobro did not record`,
      });
    }
  }
  await eachInLanes([...touched.values()], 8, async ({ chargeId, ...scope }) => {
    const charge = await getCharge(deps, scope, chargeId);
    // A charge cobro never stored is a movement's mismatch already (record_missing, not_in_cobro).
    if (charge)
      await checkCharge(deps, scope, charge, payoutsOf.get(charge.acquirer_reference) ?? 0, mismatches);
  });
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
