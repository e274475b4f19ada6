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
 * 4. an automatic refund (`subscription_canceled`, `payment_link_deleted`) never ends failed: it is
 *    retried until the acquirer makes it. The one the acquirer can never make, of a card 4000 0000
 *    0000 5126 (every refund of it refused), stays open with its amount held on the charge: counted
 *    apart as held, not a finding.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { localClient } from '../../infra/local/dynamodb.ts';
import type { LocalInfo } from '../../infra/local/info.ts';
import { type Attempt, isFinal } from '../../shared/attempts/attempt.ts';
import { dueAttempts, eachAttemptBetween } from '../../shared/attempts/repository.ts';
import type { Charge } from '../../shared/charges/charge.ts';
import { getCharge } from '../../shared/charges/repository.ts';
import type { Deps } from '../../shared/db/deps.ts';
import type { ListedCharge, Workload } from './operations.ts';
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

const automaticReasons = new Set(['subscription_canceled', 'payment_link_deleted']);

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
