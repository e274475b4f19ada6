/**
 * The recurring billing step (docs/design.md#billing), run by `billing run [--now]` and by the
 * deployed schedule: every subscription whose due entry is at or before `now` gets the one thing due
 * for it.
 *
 * A renewal (or a trial's end) is a money movement (docs/design.md#attempts): its attempt, whose id
 * the subscription, the period and the dunning round decide, is stored before the acquirer is asked
 * under its key, so a step repeated after a crash, or run by two engines at once, finds the same
 * attempt and asks the same charge again instead of making a second one. The outcome is recorded with
 * the attempt's finish, in one transaction with the subscription's move conditioned on the version
 * read: only one writer records it. A renewal approved after the subscription was canceled is still
 * recorded and refunded at once; one the acquirer never answered is left to recovery
 * (renewalFinisher).
 */
import type { Acquirer, FoundCharge } from '../acquirer/acquirer.ts';
import { AcquirerUnavailable, connectorOfToken, NotConnected } from '../acquirer/acquirer.ts';
import { type Attempt, mayBeRunning, newAttempt, newAttemptId } from '../attempts/attempt.ts';
import { chargeFinisher } from '../attempts/recovery.ts';
import {
  AttemptTaken,
  attemptPut,
  finishWrite,
  moveAttempt,
  restarted,
  restartWrite,
  storeAttempt,
  unconfirmedWrite,
} from '../attempts/repository.ts';
import { newCharge, refundedAtOnce } from '../charges/charge.ts';
import { chargeWrites } from '../charges/repository.ts';
import { type Scope, scopeOf } from '../core/account.ts';
import { derivedId } from '../core/ids.ts';
import { conditionFailedAt } from '../db/conditions.ts';
import type { Deps } from '../db/deps.ts';
import { type RunPart, stepEveryDue } from '../db/due.ts';
import { retryOptimistic } from '../db/optimistic.ts';
import { failedConditions, named, type TransactItem, transactNamed, transactWrite } from '../db/transact.ts';
import { eventWrite } from '../events/event.ts';
import { refundAtOnce, refundAttempt } from '../refunds/service.ts';
import { subscriptionCanceled, subscriptionPaymentFailed, subscriptionRenewed } from './events.ts';
import { periodAt } from './periods.ts';
import {
  type DueRef,
  dropStaleDue,
  dueSubscriptions,
  getSubscription,
  planCountChange,
  subscriptionWrites,
} from './repository.ts';
import { dunningRetryDays, type Subscription, subscriptionView } from './subscription.ts';

export interface BillingDeps extends Deps {
  acquirer: Acquirer;
}

/**
 * - `renewed`, `payment_failed`, `canceled`: what the step recorded;
 * - `refunded`: approved after the subscription was canceled, so recorded and refunded at once;
 * - `unconfirmed`: the acquirer gave no answer; recovery records it;
 * - `not_due`, `raced`: nothing to do, or another runner did it.
 */
export type StepOutcome =
  | 'renewed'
  | 'payment_failed'
  | 'canceled'
  | 'refunded'
  | 'unconfirmed'
  | 'not_due'
  | 'raced';

const day = 86_400_000;

/** The attempt of a subscription's charge for a period, in a dunning round: the same whoever runs it. */
export const renewalAttemptId = (subscription: Subscription, period: number) =>
  derivedId('att', ['renewal', subscription.id, period, subscription.failed_attempts]);

const attemptScope = (attempt: Attempt): Scope => ({
  developerId: attempt.developer_id ?? 0,
  mode: attempt.mode ?? ('test' as const),
});

/** Writes `items`, and again without `optional` when only those failed (a plan deleted meanwhile). */
async function writeWithOptional(deps: Deps, items: TransactItem[], optional: TransactItem[]): Promise<void> {
  const all = [...named('required', ...items), ...named('optional', ...optional)];
  try {
    await transactNamed(deps, all);
  } catch (error) {
    const failed = failedConditions(error, all);
    if (failed.size !== 1 || !failed.has('optional')) throw error;
    await transactWrite(deps, items);
  }
}

/**
 * The subscription after the approved charge of `period` (active, paid through it, dunning over),
 * or after a declined one (past due with its next retry, or canceled after the last).
 */
function afterApproval(subscription: Subscription, period: number, now: Date): Subscription {
  const { plan } = subscription;
  const paid = periodAt(new Date(subscription.anchor ?? now), plan.interval, plan.interval_count, period);
  return {
    ...subscription,
    version: subscription.version + 1,
    updated_at: now.toISOString(),
    status: 'active',
    paid_through: period,
    failed_attempts: 0,
    failed_at: null,
    next_action_at: paid.end.toISOString(),
  };
}

/**
 * Records what the acquirer answered for a renewal's attempt (the step's own answer, or recovery's
 * lookup): the subscription moved with the charge or the decline, or, when it was canceled (or the
 * period is no longer its due one) meanwhile, an approval recorded and refunded at once.
 */
export async function settleRenewal(
  deps: BillingDeps,
  attempt: Attempt<'renewal'>,
  result: Exclude<FoundCharge, { status: 'challenge_required' | 'not_found' }>,
  now: Date,
): Promise<StepOutcome> {
  const { subscription_id: id, period } = attempt.subject;
  return retryOptimistic(
    async () => {
      const subscription = await getSubscription(deps, attemptScope(attempt), id);
      const applies =
        subscription !== undefined &&
        subscription.status !== 'canceled' &&
        subscription.status !== 'pending' &&
        subscription.paid_through + 1 === period;
      try {
        if (result.status === 'approved') {
          // Dated when the run billed it (the acquirer was asked then), even when recovery records it
          // later: a run at a simulated time dates its receipts at that time too.
          const billedAt = attempt.subject.billed_at ? new Date(attempt.subject.billed_at) : now;
          const charge = newCharge({
            id: derivedId('ch', ['renewal', attempt.acquirer_key]),
            developerId: attempt.developer_id ?? 0,
            mode: attempt.mode ?? 'test',
            source: 'subscription',
            paymentId: null,
            subscriptionId: id,
            attemptId: attempt.id,
            customerId: subscription?.customer_id ?? null,
            amount: attempt.amount ?? 0,
            currency: attempt.currency ?? '',
            description: subscription?.plan.name ?? null,
            statementDescription: subscription?.statement_descriptor ?? '',
            card: result.card,
            acquirerReference: result.acquirerReference,
            connector: result.connector ?? attempt.connector,
            connectorAccount: result.connectorAccount,
            now: billedAt,
          });
          const finish = finishWrite(
            deps.table,
            attempt,
            'succeeded',
            { reference: result.acquirerReference, charge_id: charge.id },
            now,
          );
          if (!applies || !subscription) {
            // An approved charge is never discarded. Recorded, and refunded in full at once.
            const refund = refundAttempt(newAttemptId(), charge, charge.amount, 'subscription_canceled', now);
            await transactWrite(deps, [
              finish,
              ...chargeWrites(deps.table, refundedAtOnce(charge), now),
              attemptPut(deps.table, refund),
            ]);
            await refundAtOnce(deps, refund);
            return 'refunded';
          }
          const after = afterApproval(subscription, period, now);
          const event = subscriptionRenewed.of(
            scopeOf(subscription),
            { object: subscriptionView(after), charge_id: charge.id, period },
            now,
          );
          await transactWrite(deps, [
            finish,
            ...subscriptionWrites(deps.table, subscription, after),
            ...chargeWrites(deps.table, charge, now),
            eventWrite(deps.table, event),
          ]);
          return 'renewed';
        }
        const reason = result.declineReason;
        const finish = finishWrite(deps.table, attempt, 'declined', { decline_reason: reason }, now);
        if (!applies || !subscription) {
          await transactWrite(deps, [finish]);
          return 'not_due';
        }
        return await recordDecline(deps, subscription, finish, reason, now);
      } catch (error) {
        if (conditionFailedAt(error).includes(0)) return 'raced'; // the attempt was recorded by another writer first
        throw error;
      }
    },
    // Any other condition: the subscription changed since it was read; read it again.
    { tries: 5, lost: (error) => conditionFailedAt(error).length > 0 },
  );
}

/**
 * A declined renewal: past due with its next retry, or, after the last, canceled
 * (docs/design.md#dunning).
 */
async function recordDecline(
  deps: BillingDeps,
  subscription: Subscription,
  finish: TransactItem,
  reason: Exclude<FoundCharge, { status: 'approved' | 'challenge_required' | 'not_found' }>['declineReason'],
  now: Date,
): Promise<StepOutcome> {
  const at = now.toISOString();
  const base = { ...subscription, version: subscription.version + 1, updated_at: at };
  const failures = subscription.failed_attempts + 1;
  const failedAt = subscription.failed_at ?? at;
  const retryIn = dunningRetryDays[failures - 1];
  const owner = scopeOf(subscription);
  if (retryIn !== undefined) {
    const nextRetry = new Date(Date.parse(failedAt) + retryIn * day).toISOString();
    const after: Subscription = {
      ...base,
      status: 'past_due',
      failed_attempts: failures,
      failed_at: failedAt,
      next_action_at: nextRetry,
    };
    const event = subscriptionPaymentFailed.of(
      owner,
      {
        object: subscriptionView(after),
        decline_reason: reason,
        attempt: failures,
        next_retry_at: nextRetry,
      },
      now,
    );
    await transactWrite(deps, [
      finish,
      ...subscriptionWrites(deps.table, subscription, after),
      eventWrite(deps.table, event),
    ]);
    return 'payment_failed';
  }
  // The third retry failed too: the subscription ends.
  const after: Subscription = {
    ...base,
    status: 'canceled',
    active: false,
    failed_attempts: failures,
    next_action_at: null,
    canceled_at: at,
  };
  const failed = subscriptionPaymentFailed.of(
    owner,
    { object: subscriptionView(after), decline_reason: reason, attempt: failures, next_retry_at: null },
    now,
  );
  const canceled = subscriptionCanceled.of(
    owner,
    { object: subscriptionView(after), reason: 'payment_failed' },
    now,
  );
  await writeWithOptional(
    deps,
    [
      finish,
      ...subscriptionWrites(deps.table, subscription, after),
      eventWrite(deps.table, failed),
      eventWrite(deps.table, canceled),
    ],
    [planCountChange(deps, subscription, -1)],
  );
  return 'canceled';
}

/** Recovery's finisher of renewal attempts: what the acquirer has under the attempt's key. */
export const renewalFinisher = (deps: BillingDeps) =>
  chargeFinisher<'renewal'>(deps.acquirer, async (attempt, result, now) => {
    if (result.status === 'not_found') {
      // Never charged (the key is closed now): the next billing run tries again with a new one.
      await moveAttempt(deps, finishWrite(deps.table, attempt, 'failed', { note: 'not_found' }, now));
      return 'failed';
    }
    await settleRenewal(deps, attempt, result, now);
    return result.status === 'approved' ? 'succeeded' : 'declined';
  });

/**
 * The attempt of the charge due now: stored new, the next try of one whose last try failed, or the
 * one a stopped run left open (asked again under its key). Undefined when another runner has it.
 * Its times are the wall clock's (`deps.clock`), whatever time the run bills at: its lease is about
 * calls that are running now. `billedAt`, the run's time, is kept on it to date the charge.
 */
async function attemptFor(
  deps: BillingDeps,
  subscription: Subscription,
  period: number,
  billedAt: Date,
): Promise<Attempt<'renewal'> | undefined> {
  const now = deps.clock();
  const { plan } = subscription;
  const cardToken = subscription.card_token ?? undefined;
  const fresh = newAttempt({
    id: renewalAttemptId(subscription, period),
    kind: 'renewal',
    subject: {
      subscription_id: subscription.id,
      period,
      billed_at: billedAt.toISOString(),
      ...(cardToken ? { card_token: cardToken } : {}),
    },
    ...(cardToken ? { connector: connectorOfToken(cardToken) } : {}),
    owner: {
      developerId: subscription.developer_id,
      mode: subscription.mode,
      amount: plan.amount * subscription.quantity,
      currency: plan.currency,
    },
    now,
  });
  try {
    await storeAttempt(deps, fresh);
    return fresh;
  } catch (error) {
    if (!(error instanceof AttemptTaken) || !error.attempt) throw error;
    const prior = error.attempt as Attempt<'renewal'>;
    // Recorded already (this run read the subscription before that record), or still running.
    if (prior.status === 'succeeded' || prior.status === 'declined' || mayBeRunning(prior, now))
      return undefined;
    if (prior.status === 'failed') {
      // Never charged, and its key closed at the acquirer: a new try, under a new key.
      // The card may have been replaced since (the portal): the new try charges the card now held.
      const next = {
        ...restarted(prior, now, cardToken ? { subject: { ...prior.subject, card_token: cardToken } } : {}),
        ...(cardToken ? { connector: connectorOfToken(cardToken) } : {}),
      };
      return (await moveAttempt(deps, restartWrite(deps.table, prior, next))) ? next : undefined;
    }
    // Left open by a run that stopped: the same charge, asked again under the same key.
    return prior;
  }
}

/** The one step due for a subscription at `now`. */
export async function billingStep(deps: BillingDeps, ref: DueRef, now: Date): Promise<StepOutcome> {
  const scope = scopeOf(ref);
  const subscription = await getSubscription(deps, scope, ref.subscription_id);
  if (!subscription || subscription.next_action_at !== ref.due_at) {
    await dropStaleDue(deps, ref);
    return 'not_due';
  }
  if (Date.parse(subscription.next_action_at) > now.getTime()) return 'not_due';
  if (!subscription.anchor || !subscription.card_token) {
    await dropStaleDue(deps, ref); // nothing to bill without a started period and a card
    return 'not_due';
  }
  return chargePeriodDue(deps, subscription, now);
}

/**
 * Charges the period `subscription` owes (`paid_through + 1`) on its card, under the attempt of that
 * period and dunning round: a billing step and an overdue charge (chargeOverdue) ask the same
 * attempt, so however they race, the acquirer is asked once under one key.
 */
async function chargePeriodDue(
  deps: BillingDeps,
  subscription: Subscription,
  now: Date,
): Promise<StepOutcome> {
  if (!subscription.card_token) return 'not_due';
  const period = subscription.paid_through + 1;
  const attempt = await attemptFor(deps, subscription, period, now);
  if (!attempt) return 'raced';
  const { plan } = subscription;
  let result: Awaited<ReturnType<Acquirer['chargeStored']>>;
  try {
    result = await deps.acquirer.chargeStored({
      amountMinor: attempt.amount ?? plan.amount * subscription.quantity,
      currency: plan.currency,
      description: plan.name,
      statementDescriptor: subscription.statement_descriptor,
      idempotencyKey: attempt.acquirer_key,
      test: subscription.mode === 'test',
      merchant: subscription.developer_id,
      cardToken: subscription.card_token,
    });
  } catch (error) {
    // Nobody was asked (the mode is connected to nothing, or not to the card's connector): the
    // attempt closes now, so the run after the mode is connected again charges at once; this step
    // fails (counted, logged, retried by the next run).
    if (error instanceof NotConnected) {
      await moveAttempt(
        deps,
        finishWrite(deps.table, attempt, 'failed', { note: 'not_connected' }, deps.clock()),
      );
      throw error;
    }
    // No answer: the card may have been charged. Recovery learns it from the acquirer by key.
    if (!(error instanceof AcquirerUnavailable)) throw error;
    await moveAttempt(deps, unconfirmedWrite(deps.table, attempt, deps.clock()));
    return 'unconfirmed';
  }
  return settleRenewal(
    deps,
    attempt,
    { ...result, amountMinor: attempt.amount ?? 0, currency: plan.currency },
    now,
  );
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A past-due subscription whose card was just replaced: the unpaid period charged at once on the
 * new card, settled as a renewal (active, its period advanced, `subscription.renewed`) or as another
 * dunning decline. It goes through the billing step's own attempt, so a billing run racing it, or a
 * second caller, asks the acquirer under the same key and the period is charged once; a
 * subscription canceled meanwhile is not charged (or, canceled while the acquirer charges, the
 * approval is refunded at once, as for any renewal). While another caller holds that attempt this
 * waits for its outcome a few times: when that was a decline on the old card, the new card is
 * charged in the next round.
 */
export async function chargeOverdue(deps: BillingDeps, scope: Scope, id: string): Promise<StepOutcome> {
  let outcome: StepOutcome = 'not_due';
  for (let round = 0; round < 6; round += 1) {
    const subscription = await getSubscription(deps, scope, id);
    if (subscription?.status !== 'past_due' || !subscription.anchor) return round ? outcome : 'not_due';
    outcome = await chargePeriodDue(deps, subscription, deps.clock());
    if (outcome !== 'raced' && outcome !== 'not_due') return outcome;
    await pause(250 * (round + 1));
  }
  return outcome;
}

/**
 * Every step due at `now`, of every account or of `account` alone (the operator's
 * `billing run --account`), in every partition of the due index or in `part.shard` alone (a
 * scheduled worker's), until `part.stop`; a summary of what was done. A step that throws is counted
 * in `failed`, logged with its subscription, and retried by the next run; the rest of the run goes on.
 */
export async function runBilling(
  deps: BillingDeps,
  now: Date,
  account?: { developerId: number },
  part: RunPart = {},
) {
  const outcomes: Record<StepOutcome | 'failed', number> = {
    renewed: 0,
    payment_failed: 0,
    canceled: 0,
    refunded: 0,
    unconfirmed: 0,
    not_due: 0,
    raced: 0,
    failed: 0,
  };
  const due = await stepEveryDue(
    (limit) => dueSubscriptions(deps, now, limit, part.shard),
    (ref) => billingStep(deps, ref, now),
    outcomes,
    { name: 'subscription_id', of: (ref) => ref.subscription_id },
    account,
    part.stop,
    // No answer from the acquirer: recovery asks it by key; this run does not ask again.
    ['unconfirmed'],
  );
  return { now: now.toISOString(), due, ...outcomes };
}
