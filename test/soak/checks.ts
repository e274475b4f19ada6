/**
 * What the soak checks once its operations stopped and the faults are cleared (reconciliation, the
 * last check, is the CLI's, run by ledger-soak.ts):
 *
 * 1. recovery finishes every attempt: the attempts' recovery index (gsi2) is polled until it holds
 *    none but checkout challenges waiting for a cardholder (they move no money), or a deadline;
 * 2. a subscription whose cancel answered 200 is `canceled`, never active, and if it was canceled
 *    before it was activated (no customer), it keeps no charge: every charge of it is refunded in full;
 * 3. a deleted payment link keeps at most the one charge its page may have taken before the delete
 *    (answered as paid, or not known: 202 or no answer); any other is refunded in full;
 * 3b. an upgrade's prorated charge (decision D19) is kept only when the subscription.updated that
 *    applied the change names it; any other is refunded in full;
 * 4. an automatic refund (`subscription_canceled`, `payment_link_deleted`, `subscription_changed`) never ends failed: it is
 *    retried until the acquirer makes it. The one the acquirer can never make, of a card 4000 0000
 *    0000 5126 (every refund of it refused), stays open with its amount held on the charge: counted
 *    apart as held, not a finding;
 * 5. payouts against refunds (after a last payouts run with no fault armed), by the acquirer's own
 *    books: every live charge was paid out, exactly its net less what was refunded of it (nothing
 *    when the refunds reach the net), and what left it (paid out plus refunded) is never more than
 *    the charge; no test charge was paid out; every refund answered 201 is recorded and counted in
 *    its charge's refunded total; a refund answered 409 "Charge status error" is of a charge paid
 *    out, and a refund sent after a payouts run said it had paid the charge out answered that 409.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { localClient } from '../../infra/local/dynamodb.ts';
import type { LocalInfo } from '../../infra/local/info.ts';
import { readLedger } from '../../shared/acquirer/simulated-books.ts';
import { type Attempt, isFinal } from '../../shared/attempts/attempt.ts';
import { dueAttempts, eachAttemptBetween } from '../../shared/attempts/repository.ts';
import type { Charge } from '../../shared/charges/charge.ts';
import { getCharge } from '../../shared/charges/repository.ts';
import type { Deps } from '../../shared/db/deps.ts';
import { getRefund } from '../../shared/refunds/repository.ts';
import type { ListedCharge, RefundSent, Workload } from './operations.ts';
import { sleep } from './random.ts';
import type { Tally } from './tally.ts';

/** The stack's table, reached as its own functions reach it (the key pair of its local.json). */
export function storeDeps(info: LocalInfo): Deps {
  const client = localClient(info.endpoints.dynamodb, info.aws_credentials);
  return {
    db: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
    table: info.table,
    clock: () => new Date(),
  };
}

export interface Settled {
  /** Attempts still open at the deadline (challenges apart, and automatic refunds held for 5126). */
  open: Attempt[];
  /** Automatic refunds of 5126 charges, which the acquirer refuses for ever: the amount stays held. */
  held: Attempt<'refund'>[];
  /** Checkout attempts waiting for a 3-D Secure answer that will not come. */
  challenges: number;
  ms: number;
}

/** Every attempt in the recovery index, whatever its recovery time. */
const everyOpenAttempt = (deps: Deps) => dueAttempts(deps, new Date('2200-01-01T00:00:00.000Z'), 10_000);

/**
 * Polls the recovery index every 2 s until no attempt is open but waiting challenges, or `timeoutMs`
 * passed. Recovery takes a pending attempt once its call can no longer be running (60 s after it
 * began), so a kill's leftovers need a minute or two.
 */
export async function settleAttempts(deps: Deps, timeoutMs: number): Promise<Settled> {
  const began = Date.now();
  for (;;) {
    const all = await everyOpenAttempt(deps);
    const waiting = all.filter((attempt) => attempt.status !== 'challenge');
    const challenges = all.length - waiting.length;
    const held: Attempt<'refund'>[] = [];
    const open: Attempt[] = [];
    for (const attempt of waiting) {
      if (await refusedForEver(deps, attempt)) held.push(attempt as Attempt<'refund'>);
      else open.push(attempt);
    }
    if (open.length === 0 || Date.now() - began > timeoutMs)
      return { open, held, challenges, ms: Date.now() - began };
    await sleep(2_000);
  }
}

const automaticReasons = new Set(['subscription_canceled', 'payment_link_deleted', 'subscription_changed']);

/** An automatic refund of a charge whose card the acquirer refuses every refund of (5126). */
async function refusedForEver(deps: Deps, attempt: Attempt): Promise<boolean> {
  if (attempt.kind !== 'refund') return false;
  const refund = attempt as Attempt<'refund'>;
  if (!automaticReasons.has(refund.subject.reason)) return false;
  const scope = { developerId: refund.developer_id ?? 0, mode: refund.mode ?? ('test' as const) };
  return (await getCharge(deps, scope, refund.subject.charge_id))?.card.last4 === '5126';
}

/** Automatic refunds that ended without refunding, by charge id, with their charge when still kept. */
async function failedAutomaticRefunds(
  deps: Deps,
  range: { since: Date; until: Date },
): Promise<Map<string, { attempt: Attempt<'refund'>; charge: Charge }>> {
  const failed: Attempt<'refund'>[] = [];
  await eachAttemptBetween(deps, range.since, range.until, (attempt) => {
    if (attempt.kind !== 'refund' || !isFinal(attempt) || attempt.status === 'succeeded') return;
    const refund = attempt as Attempt<'refund'>;
    if (automaticReasons.has(refund.subject.reason)) failed.push(refund);
  });
  const kept = new Map<string, { attempt: Attempt<'refund'>; charge: Charge }>();
  for (const attempt of failed) {
    const scope = { developerId: attempt.developer_id ?? 0, mode: attempt.mode ?? ('test' as const) };
    const charge = await getCharge(deps, scope, attempt.subject.charge_id);
    if (charge && charge.refunded < charge.amount) kept.set(charge.id, { attempt, charge });
  }
  return kept;
}

const group = (charges: ListedCharge[], by: (charge: ListedCharge) => string | null) => {
  const groups = new Map<string, ListedCharge[]>();
  for (const charge of charges) {
    const key = by(charge);
    if (key) groups.set(key, [...(groups.get(key) ?? []), charge]);
  }
  return groups;
};

const kept = (charge: ListedCharge) => charge.amount_refunded < charge.amount;
const money = (charge: ListedCharge) =>
  `${charge.amount} ${charge.currency.toUpperCase()}, ${charge.amount_refunded} refunded, card …${charge.card_last4}`;

/** Checks 2 to 4 above, each breach a finding of `tally`. */
export async function checkRecords(
  work: Workload,
  tally: Tally,
  deps: Deps,
  range: { since: Date; until: Date },
  held: readonly Attempt<'refund'>[],
): Promise<void> {
  // A charge whose automatic refund the acquirer refuses for ever is held, not kept.
  const heldCharges = new Set(held.map((attempt) => attempt.subject.charge_id));
  const charges = [...(await work.allCharges('test')), ...(await work.allCharges('live'))].filter(
    (charge) => !heldCharges.has(charge.id),
  );
  const bySubscription = group(charges, (charge) => charge.subscription_id);
  const byLink = group(charges, (charge) => charge.payment_link_id);
  const failedRefunds = await failedAutomaticRefunds(deps, range);
  const reported = new Set<string>();
  const refundNote = (chargeId: string) => {
    const failed = failedRefunds.get(chargeId)?.attempt;
    return failed
      ? `its automatic refund (attempt ${failed.id}, reason ${failed.subject.reason}) ended ${failed.status}: ${JSON.stringify(failed.outcome)}`
      : 'no failed automatic refund of it was found';
  };

  for (const seen of work.subscriptions.filter((subscription) => subscription.canceled)) {
    const view = await work.subscriptionView(seen);
    const faults = `faults armed around it: ${tally.faultsAround(seen.from, seen.to).join('; ') || 'none'}`;
    if (view?.status !== 'canceled')
      tally.find({
        title: `subscription ${seen.id} is ${view?.status ?? 'unreadable'} after its cancel answered 200`,
        detail: [...seen.story, faults],
      });
    // Activated before its cancel: the charges it paid while active are its own.
    if (!view || view.customer_id !== null) continue;
    for (const charge of (bySubscription.get(seen.id) ?? []).filter(kept)) {
      reported.add(charge.id);
      tally.find({
        title: `charge ${charge.id} (${money(charge)}) of subscription ${seen.id}, canceled before it was activated, is kept`,
        detail: [`plan ${seen.plan}`, ...seen.story, refundNote(charge.id), faults],
      });
    }
  }

  // An upgrade's prorated charge is kept only for a change that applied: the subscription.updated
  // that applied it names it. One whose change did not apply (declined meanwhile, the subscription
  // canceled or renewed before it was recorded) is refunded in full.
  const applied = new Set(
    [...(await work.allUpdates('test')), ...(await work.allUpdates('live'))].flatMap((update) =>
      update.chargeId ? [update.chargeId] : [],
    ),
  );
  for (const charge of charges.filter((one) => one.description?.endsWith('(prorated)') && kept(one))) {
    if (applied.has(charge.id)) continue;
    reported.add(charge.id);
    tally.find({
      title: `charge ${charge.id} (${money(charge)}), the prorated charge of a change of subscription ${charge.subscription_id}, is kept though no change it paid for applied`,
      detail: [
        ...(work.subscriptions.find((seen) => seen.id === charge.subscription_id)?.story ?? []),
        refundNote(charge.id),
      ],
    });
  }

  for (const seen of work.links.filter((link) => link.deleted)) {
    // The one payment the page may have taken before the delete: answered paid, or not known.
    const mayKeep = seen.paid === 'paid' || seen.paid === 'unconfirmed' || seen.paid === 'no answer' ? 1 : 0;
    const keptCharges = (byLink.get(seen.id) ?? []).filter(kept);
    if (keptCharges.length <= mayKeep) continue;
    const faults = `faults armed around it: ${tally.faultsAround(seen.from, seen.to).join('; ') || 'none'}`;
    for (const charge of keptCharges) {
      reported.add(charge.id);
      tally.find({
        title: `charge ${charge.id} (${money(charge)}) of payment link ${seen.id}, deleted, is kept (its page answered: ${seen.paid})`,
        detail: [...seen.story, refundNote(charge.id), faults],
      });
    }
  }

  for (const [chargeId, { attempt, charge }] of failedRefunds) {
    if (reported.has(chargeId)) continue;
    const of = charge.subscription_id
      ? `subscription ${charge.subscription_id}`
      : charge.payment_link_id
        ? `payment link ${charge.payment_link_id}`
        : 'nothing';
    tally.find({
      title: `charge ${chargeId} (${charge.amount} minor ${charge.currency}, ${charge.refunded} refunded, card …${charge.card.last4}) of ${of} is kept: its automatic refund failed`,
      detail: [
        `automatic refund attempt ${attempt.id} (reason ${attempt.subject.reason}, made ${attempt.created_at}) ended ${attempt.status}: ${JSON.stringify(attempt.outcome)}`,
      ],
    });
  }
}

/** What the payout checks saw, for the summary. */
export interface PayoutCheck {
  liveCharges: number;
  /** Live charges marked paid out in cobro's records. */
  paidOut: number;
  /** What the acquirer's books paid out, per currency, in minor units. */
  paidTotals: Map<string, number>;
  /** Refunds answered 201 (distinct refunds), each looked up. */
  refunds201: number;
  /** Refunds answered 409 "Charge status error" (the charge was paid out). */
  refused409: number;
  /** Payout and refund disagreements found (each one a finding). */
  mismatches: number;
}

/** The 409 a refund of a paid-out charge answers (shared/refunds/messages.ts `charge_paid_out`). */
const paidOutTitle = 'Charge status error';

/** Money moved against one charge in the acquirer's books, in minor units. */
interface Moved {
  paidOut: number;
  payouts: number;
  refunded: number;
}

/** The payout checks (5 above), each breach a finding of `tally`; `ledger` is when the books were written. */
export async function checkPayouts(
  work: Workload,
  tally: Tally,
  deps: Deps,
  developerId: number,
  ledger: { since: Date; until: Date },
): Promise<PayoutCheck> {
  const moved = new Map<string, Moved>();
  for await (const entry of readLedger({ db: deps.db, table: deps.table }, ledger.since, ledger.until)) {
    if (entry.merchant !== developerId || entry.kind === 'charge' || !entry.chargeReference) continue;
    const of = moved.get(entry.chargeReference) ?? { paidOut: 0, payouts: 0, refunded: 0 };
    moved.set(entry.chargeReference, of);
    if (entry.kind === 'payout') {
      of.paidOut += entry.amountMinor;
      of.payouts += 1;
    } else of.refunded += entry.amountMinor;
  }
  const movedOn = (charge: Charge): Moved =>
    moved.get(charge.acquirer_reference) ?? { paidOut: 0, payouts: 0, refunded: 0 };
  const result: PayoutCheck = {
    liveCharges: 0,
    paidOut: 0,
    paidTotals: new Map(),
    refunds201: 0,
    refused409: 0,
    mismatches: 0,
  };
  const mismatch = (title: string, detail: string[]) => {
    result.mismatches += 1;
    tally.find({ title, detail });
  };
  const refundsOf = (chargeId: string) => work.refunds.filter((refund) => refund.chargeId === chargeId);
  const told = (refund: RefundSent) =>
    `POST /v1/refunds/ ${refund.amount ?? 'the rest'}${refund.race ? ` (race, ${refund.race})` : ''}${refund.retry ? ' (retry, same key)' : ''}: sent ${tally.at(refund.sent)}, answered ${refund.status ?? 'nothing'}${refund.title ? ` ${refund.title}` : ''} at ${tally.at(refund.answered)}${refund.refundId ? ` (refund ${refund.refundId})` : ''}`;
  /** What reproduces a finding about a charge: its record, its refunds, its payout, the faults then. */
  const story = (charge: Charge, acquirer: Moved) => {
    const refunds = refundsOf(charge.id);
    const paidBy = work.paidOutBy.get(charge.id);
    const times = [...refunds.map((refund) => refund.sent), ...(paidBy ? [paidBy] : [])];
    const from = times.length ? Math.min(...times) : Date.now();
    const to = times.length ? Math.max(...times) : Date.now();
    return [
      `cobro: amount ${charge.amount}, fee ${charge.fee}, net ${charge.net}, refunded ${charge.refunded}, refunds_pending ${charge.refunds_pending ?? 0}, paid_out_at ${charge.paid_out_at} (minor ${charge.currency}, card …${charge.card.last4})`,
      `acquirer: ${acquirer.payouts} payouts of ${acquirer.paidOut} in all, ${acquirer.refunded} refunded`,
      paidBy
        ? `a payouts run that printed it among its charge_ids exited at ${tally.at(paidBy)}`
        : 'no payouts run printed it among its charge_ids',
      ...refunds.map(told),
      `faults armed around it: ${tally.faultsAround(from, to).join('; ') || 'none'}`,
    ];
  };

  const records = new Map<string, Charge>();
  for (const mode of ['live', 'test'] as const)
    for (const listed of await work.allCharges(mode)) {
      const charge = await getCharge(deps, { developerId, mode }, listed.id);
      if (charge) records.set(charge.id, charge);
    }
  for (const charge of records.values()) {
    const acquirer = movedOn(charge);
    const money = `${charge.currency} minor`;
    if (charge.mode === 'test') {
      if (acquirer.paidOut > 0)
        mismatch(
          `test charge ${charge.id} was paid out ${acquirer.paidOut} ${money}`,
          story(charge, acquirer),
        );
      continue;
    }
    result.liveCharges += 1;
    result.paidTotals.set(charge.currency, (result.paidTotals.get(charge.currency) ?? 0) + acquirer.paidOut);
    if (charge.paid_out_at) result.paidOut += 1;
    else if (!charge.refunds_pending)
      mismatch(`live charge ${charge.id} was not paid out by the last payouts run`, story(charge, acquirer));
    // Nothing is sent when refunds reach the net (the fee is not given back by the merchant).
    const owed = charge.paid_out_at ? Math.max(0, charge.net - charge.refunded) : 0;
    if (acquirer.paidOut !== owed)
      mismatch(
        `live charge ${charge.id} was paid out ${acquirer.paidOut} ${money}, but its net less its refunds is ${owed}`,
        story(charge, acquirer),
      );
    if (acquirer.paidOut + acquirer.refunded > charge.amount)
      mismatch(
        `live charge ${charge.id} was paid out ${acquirer.paidOut} and refunded ${acquirer.refunded} ${money}: more than its ${charge.amount}`,
        story(charge, acquirer),
      );
  }

  // Every refund answered 201 is recorded, and counted in its charge's refunded total.
  const answered = new Map<string, RefundSent>();
  for (const refund of work.refunds) if (refund.refundId) answered.set(refund.refundId, refund);
  result.refunds201 = answered.size;
  const counted = new Map<string, number>();
  for (const [refundId, refund] of answered) {
    const stored = await getRefund(deps, { developerId, mode: refund.mode }, refundId);
    if (stored?.charge_id !== refund.chargeId) {
      mismatch(
        `refund ${refundId} of charge ${refund.chargeId} answered 201 but is not recorded as its refund`,
        [told(refund), `stored: ${JSON.stringify(stored)}`],
      );
      continue;
    }
    counted.set(refund.chargeId, (counted.get(refund.chargeId) ?? 0) + stored.amount);
  }
  for (const [chargeId, sum] of counted) {
    const charge = records.get(chargeId);
    if (charge && sum <= charge.refunded) continue;
    mismatch(
      `the refunds of charge ${chargeId} answered 201 add up to ${sum}, more than its refunded total ${charge?.refunded ?? '(no charge)'}`,
      charge ? story(charge, movedOn(charge)) : [],
    );
  }

  // A refund refused because of a payout answers 409, and only then.
  for (const refund of work.refunds) {
    const charge = records.get(refund.chargeId);
    if (!charge) continue;
    const acquirer = movedOn(charge);
    const paidOutRefusal = refund.status === 409 && refund.title === paidOutTitle;
    if (paidOutRefusal) result.refused409 += 1;
    if (paidOutRefusal && !charge.paid_out_at)
      mismatch(
        `a refund of charge ${charge.id} answered 409 ${paidOutTitle}, but the charge was never paid out`,
        [told(refund), ...story(charge, acquirer)],
      );
    const paidBy = work.paidOutBy.get(refund.chargeId);
    // A retry under its first request's key answers that request's outcome, which may be older; a
    // request during a kill may answer nothing about the charge (the HTTP tally counts it apart).
    if (
      paidBy !== undefined &&
      refund.sent > paidBy &&
      !refund.retry &&
      !paidOutRefusal &&
      refund.status !== undefined &&
      !tally.disruptedBy(refund.sent, refund.answered)
    )
      mismatch(
        `a refund of charge ${charge.id} sent after a payouts run paid it out answered ${refund.status}${refund.title ? ` ${refund.title}` : ''}, not 409 ${paidOutTitle}`,
        [told(refund), ...story(charge, acquirer)],
      );
  }
  return result;
}
