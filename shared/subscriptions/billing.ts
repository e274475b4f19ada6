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
import { attemptKeys } from '../attempts/keys.ts';
import { chargeFinisher } from '../attempts/recovery.ts';
import {
  AttemptTaken,
  attemptPut,
  finishWrite,
  getAttempt,
  moveAttempt,
  restarted,
  restartWrite,
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
  saveSubscription,
  subscriptionWrites,
  versionCheck,
} from './repository.ts';
import {
  dunningRetryDays,
  type PendingChange,
  periodAmount,
  type Subscription,
  subscriptionView,
} from './subscription.ts';
import { updatedEvent } from './updated.ts';

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
  derivedId('att', [
    'renewal',
    subscription.id,
    period,
    subscription.failed_attempts,
    // Periods counted again from a new anchor (a change of interval) never meet an earlier attempt.
    ...(subscription.anchor_generation ? [`g${subscription.anchor_generation}`] : []),
  ]);

/**
 * The pending change a renewal of `subscription` charges and applies: the one whose time has come
 * (`effective_at` at or before the period's start); undefined when none.
 */
export function dueChange(subscription: Subscription, periodStart: Date): PendingChange | undefined {
  const change = subscription.pending_change;
  return change && Date.parse(change.effective_at) <= periodStart.getTime() ? change : undefined;
}

/** The period a renewal of `subscription` charges: `paid_through + 1`, with its dates. */
function periodDue(subscription: Subscription, now: Date) {
  const { plan } = subscription;
  return periodAt(
    new Date(subscription.anchor ?? now),
    plan.interval,
    plan.interval_count,
    subscription.paid_through + 1,
  );
}

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
function afterApproval(
  subscription: Subscription,
  period: number,
  now: Date,
  change?: Attempt<'renewal'>['subject']['change'],
): Subscription {
  const { plan } = subscription;
  const paid = periodAt(new Date(subscription.anchor ?? now), plan.interval, plan.interval_count, period);
  const moved = {
    ...subscription,
    version: subscription.version + 1,
    updated_at: now.toISOString(),
    status: 'active' as const,
    paid_through: period,
    failed_attempts: 0,
    failed_at: null,
    next_action_at: paid.end.toISOString(),
  };
  if (!change) return moved;
  // The pending change this renewal charged is the subscription's from this period on (a later
  // change asked meanwhile stays pending).
  const pending = subscription.pending_change;
  const applied = {
    ...moved,
    plan_id: change.plan_id,
    plan: change.plan,
    quantity: change.quantity,
    pending_change:
      pending && (pending.plan_id !== change.plan_id || pending.quantity !== change.quantity)
        ? pending
        : null,
  };
  if (change.plan.interval === plan.interval && change.plan.interval_count === plan.interval_count)
    return applied;
  // Another interval: the periods are counted again from this one's start, the new plan's first.
  const first = periodAt(paid.start, change.plan.interval, change.plan.interval_count, 0);
  return {
    ...applied,
    anchor: paid.start.toISOString(),
    anchor_generation: (subscription.anchor_generation ?? 0) + 1,
    paid_through: 0,
    next_action_at: first.end.toISOString(),
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
        subscription.paid_through + 1 === period &&
        (subscription.anchor_generation ?? 0) === (attempt.subject.generation ?? 0);
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
            // The plan this period is charged at: a pending change's, when the renewal applies one.
            description: attempt.subject.change?.plan.name ?? subscription?.plan.name ?? null,
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
          const change = attempt.subject.change;
          const after = afterApproval(subscription, period, now, change);
          const event = subscriptionRenewed.of(
            scopeOf(subscription),
            { object: subscriptionView(after), charge_id: charge.id, period },
            now,
          );
          const required = [
            finish,
            ...subscriptionWrites(deps.table, subscription, after),
            ...chargeWrites(deps.table, charge, now),
            eventWrite(deps.table, event),
            // A pending change applied: said as every change is, with the renewal's charge.
            ...(change ? [eventWrite(deps.table, updatedEvent(subscription, after, now, charge.id))] : []),
          ];
          const counts =
            change && change.plan_id !== subscription.plan_id
              ? [planCountChange(deps, after, 1), planCountChange(deps, subscription, -1)]
              : [];
          await writeWithOptional(deps, required, counts);
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
 * Stores a renewal's attempt while the subscription is still the version it was computed from: a
 * change that came first (a new plan or quantity, a cancel) makes the step read it again, so a
 * renewal never charges terms that are no longer the subscription's. A change at once, for its
 * part, checks that no renewal attempt of the next period exists (update.ts): the two exclude each
 * other. False when the subscription changed; AttemptTaken (with it) when the attempt exists.
 */
async function storeRenewalAttempt(
  deps: BillingDeps,
  attempt: Attempt<'renewal'>,
  subscription: Subscription,
): Promise<boolean> {
  const items = [
    ...named('attempt', attemptPut(deps.table, attempt)),
    ...named('subscription', versionCheck(deps.table, subscription)),
  ];
  try {
    await transactNamed(deps, items);
    return true;
  } catch (error) {
    const failed = failedConditions(error, items);
    if (failed.has('attempt')) throw new AttemptTaken(await getAttempt(deps, attempt.id));
    if (failed.has('subscription')) return false;
    throw error;
  }
}

/**
 * A condition that no renewal attempt of `subscription`'s next period exists yet: what a change
 * applied at once writes with, so it never lands after a renewal began charging the old terms.
 */
export function noRenewalUnderWay(table: string, subscription: Subscription): TransactItem {
  return {
    ConditionCheck: {
      TableName: table,
      Key: attemptKeys.attempt(renewalAttemptId(subscription, subscription.paid_through + 1)),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * The attempt of the charge due now: stored new, the next try of one whose last try failed, or the
 * one a stopped run left open (asked again under its key). Undefined when another runner has it;
 * `changed` when the subscription changed since it was read (read it again).
 * Its times are the wall clock's (`deps.clock`), whatever time the run bills at: its lease is about
 * calls that are running now. `billedAt`, the run's time, is kept on it to date the charge.
 */
async function attemptFor(
  deps: BillingDeps,
  subscription: Subscription,
  period: number,
  billedAt: Date,
): Promise<Attempt<'renewal'> | undefined | 'changed'> {
  const now = deps.clock();
  const cardToken = subscription.card_token ?? undefined;
  const dates = periodDue(subscription, billedAt);
  const change = dueChange(subscription, dates.start);
  // A pending change whose time has come: this period is charged at its plan and quantity (and,
  // for another interval, is the new plan's first period, from the same start).
  const charged = change
    ? { plan_id: change.plan_id, plan: change.plan, quantity: change.quantity }
    : undefined;
  const plan = charged?.plan ?? subscription.plan;
  const ends = charged ? periodAt(dates.start, plan.interval, plan.interval_count, 0).end : dates.end;
  const fresh = newAttempt({
    id: renewalAttemptId(subscription, period),
    kind: 'renewal',
    subject: {
      subscription_id: subscription.id,
      period,
      billed_at: billedAt.toISOString(),
      ...(cardToken ? { card_token: cardToken } : {}),
      ...(subscription.anchor_generation ? { generation: subscription.anchor_generation } : {}),
      starts_at: dates.start.toISOString(),
      ends_at: ends.toISOString(),
      ...(charged ? { change: charged } : {}),
    },
    ...(cardToken ? { connector: connectorOfToken(cardToken) } : {}),
    owner: {
      developerId: subscription.developer_id,
      mode: subscription.mode,
      amount: periodAmount(plan, charged?.quantity ?? subscription.quantity),
      currency: plan.currency,
    },
    now,
  });
  try {
    if (!(await storeRenewalAttempt(deps, fresh, subscription))) return 'changed';
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
        ...restarted(prior, now, {
          subject: { ...fresh.subject, billed_at: prior.subject.billed_at ?? fresh.subject.billed_at },
          amount: fresh.amount,
          currency: fresh.currency,
        }),
        ...(cardToken ? { connector: connectorOfToken(cardToken) } : {}),
      };
      return (await moveAttempt(deps, restartWrite(deps.table, prior, next))) ? next : undefined;
    }
    // Left open by a run that stopped: the same charge, asked again under the same key.
    return prior;
  }
}

/** The one step due for a subscription at `now`: read again while a change lands meanwhile. */
export async function billingStep(deps: BillingDeps, ref: DueRef, now: Date): Promise<StepOutcome> {
  for (let read = 0; read < 5; read += 1) {
    const outcome = await stepOnce(deps, ref, now);
    if (outcome !== 'changed') return outcome;
  }
  return 'raced';
}

async function stepOnce(deps: BillingDeps, ref: DueRef, now: Date): Promise<StepOutcome | 'changed'> {
  const scope = scopeOf(ref);
  const subscription = await getSubscription(deps, scope, ref.subscription_id);
  if (!subscription || subscription.next_action_at !== ref.due_at) {
    await dropStaleDue(deps, ref);
    return 'not_due';
  }
  if (Date.parse(subscription.next_action_at) > now.getTime()) return 'not_due';
  if (
    subscription.cancel_at_period_end &&
    (subscription.status === 'active' || subscription.status === 'trialing')
  )
    return endAtPeriodEnd(deps, subscription, now);
  if (!subscription.anchor || !subscription.card_token) {
    await dropStaleDue(deps, ref); // nothing to bill without a started period and a card
    return 'not_due';
  }
  return chargePeriodDue(deps, subscription, now);
}

/**
 * A subscription set to end at its period's end (or its trial's), whose end has come: canceled
 * instead of charged (`subscription.canceled`, reason `period_ended`), as of that end. Conditioned on
 * the version read, so a resume or a second run that came first wins.
 */
async function endAtPeriodEnd(
  deps: BillingDeps,
  subscription: Subscription,
  now: Date,
): Promise<StepOutcome> {
  const endedAt = subscription.next_action_at ?? now.toISOString();
  const after: Subscription = {
    ...subscription,
    status: 'canceled',
    active: false,
    next_action_at: null,
    canceled_at: endedAt,
    version: subscription.version + 1,
    updated_at: now.toISOString(),
  };
  const event = subscriptionCanceled.of(
    scopeOf(subscription),
    { object: subscriptionView(after), reason: 'period_ended' },
    now,
  );
  const saved = await saveSubscription(
    deps,
    subscription,
    after,
    [eventWrite(deps.table, event)],
    [planCountChange(deps, subscription, -1)],
  );
  return saved ? 'canceled' : 'raced';
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
): Promise<StepOutcome | 'changed'> {
  if (!subscription.card_token) return 'not_due';
  const period = subscription.paid_through + 1;
  const attempt = await attemptFor(deps, subscription, period, now);
  if (attempt === 'changed') return 'changed';
  if (!attempt) return 'raced';
  const plan = attempt.subject.change?.plan ?? subscription.plan;
  let result: Awaited<ReturnType<Acquirer['chargeStored']>>;
  try {
    result = await deps.acquirer.chargeStored({
      amountMinor: attempt.amount ?? periodAmount(plan, subscription.quantity),
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
    const step = await chargePeriodDue(deps, subscription, deps.clock());
    if (step === 'changed') continue;
    outcome = step;
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
