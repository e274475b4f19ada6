/**
 * Changing a subscription (`PUT /v1/subscriptions/{id}`, the portal, the dashboard;
 * docs/design.md#subscription-changes): its plan or quantity (change.ts decides whether at once,
 * with a prorated charge, or at the period's end), its cancel at the period's end, its metadata.
 * Every change stores `subscription.updated` with the fields that moved (`previous_attributes`),
 * in the same transaction as the change, conditioned on the version read.
 *
 * A prorated charge is a money movement like any other (docs/design.md#attempts): its attempt is
 * stored before the acquirer is asked under its key (the request's Idempotency-Key when given,
 * else the subscription's version and the change, so a retry of the same change asks the same
 * charge). The approval applies the change with the charge in one transaction, and only while the
 * subscription is still in the state the difference was computed for (active, the same period, the
 * same plan and quantity); a renewal, a cancel or another change that came first leaves the
 * approval recorded and refunded at once. A decline changes nothing (402). No answer leaves the
 * attempt to recovery (changeFinisher), which applies or refunds the same way.
 */
import {
  type Acquirer,
  AcquirerUnavailable,
  connectorOfToken,
  type FoundCharge,
  NotConnected,
} from '../acquirer/acquirer.ts';
import { refuseUnconnected } from '../acquirer/connection.ts';
import {
  type Attempt,
  idempotentAttemptId,
  mayBeRunning,
  newAttempt,
  newAttemptId,
} from '../attempts/attempt.ts';
import { chargeFinisher, type Finished } from '../attempts/recovery.ts';
import {
  AttemptTaken,
  attemptPut,
  finishWrite,
  getAttempt,
  moveAttempt,
  restarted,
  restartWrite,
  storeAttempt,
  unconfirmedWrite,
} from '../attempts/repository.ts';
import { newCharge, refundedAtOnce } from '../charges/charge.ts';
import { chargeWrites } from '../charges/repository.ts';
import { type Scope, scopeOf } from '../core/account.ts';
import { Conflict, Declined, Invalid, Unconfirmed } from '../core/errors.ts';
import { derivedId } from '../core/ids.ts';
import type { Metadata } from '../core/metadata.ts';
import { maxMinorUnits } from '../core/money/amount.ts';
import * as rules from '../core/rules.ts';
import { InvalidInput } from '../core/validation.ts';
import { conditionFailedAt } from '../db/conditions.ts';
import type { Deps } from '../db/deps.ts';
import { lostRace, retryOptimistic } from '../db/optimistic.ts';
import { failedConditions, named, type TransactItem, transactNamed, transactWrite } from '../db/transact.ts';
import { eventWrite } from '../events/event.ts';
import { getPlan } from '../plans/repository.ts';
import { refundAtOnce, refundAttempt } from '../refunds/service.ts';
import { noRenewalUnderWay } from './billing.ts';
import { type ChangeTarget, decideChange } from './change.ts';
import { subscriptionMessages } from './messages.ts';
import { getSubscription, planCountChange, subscriptionWrites } from './repository.ts';
import { subscriptionOf } from './service.ts';
import { periodAmount, type Subscription } from './subscription.ts';
import { previousAttributes, updatedEvent } from './updated.ts';

/** What changing a subscription needs: the table and the acquirer a prorated charge goes to. */
export type BillingDeps = Deps & { acquirer: Acquirer };

/** What a change asks for; a field left out is left as it is. */
export interface SubscriptionChange {
  plan_id?: string | undefined;
  quantity?: number | undefined;
  cancel_at_period_end?: boolean | undefined;
  metadata?: Metadata | null | undefined;
}

/** The plan and quantity a change asks for, checked against the account's plans. */
async function targetOf(
  deps: BillingDeps,
  scope: Scope,
  subscription: Subscription,
  change: SubscriptionChange,
): Promise<ChangeTarget> {
  const quantity = change.quantity ?? subscription.quantity;
  let target: ChangeTarget = { plan_id: subscription.plan_id, plan: subscription.plan, quantity };
  const asked = change.plan_id?.toLowerCase();
  if (asked !== undefined && asked !== subscription.plan_id) {
    const plan = await getPlan(deps, scope, asked);
    // A plan named in the body that is absent (or another account's, or archived) is 400, as at creation.
    if (!plan?.active) throw new Invalid(subscriptionMessages.subscription_plan_absent);
    if (plan.currency !== subscription.plan.currency)
      throw new Invalid(subscriptionMessages.subscription_plan_currency, {
        params: { currency: subscription.plan.currency },
      });
    target = {
      plan_id: plan.id,
      plan: {
        name: plan.name,
        amount: plan.amount,
        currency: plan.currency,
        interval: plan.interval,
        interval_count: plan.interval_count,
      },
      quantity,
    };
  }
  // Every charge is amount × quantity: it must stay a chargeable amount.
  if (periodAmount(target.plan, quantity) > maxMinorUnits) {
    const limit = String(Math.floor(maxMinorUnits / target.plan.amount));
    throw new InvalidInput([{ field: 'quantity', rule: rules.max_value, params: { limit } }]);
  }
  return target;
}

/** `subscription` with the plan and quantity of `target` from now on, no change pending. */
function switched(subscription: Subscription, target: ChangeTarget): Subscription {
  return {
    ...subscription,
    plan_id: target.plan_id,
    plan: target.plan,
    quantity: target.quantity,
    pending_change: null,
  };
}

/** The request's other fields (cancel at period end, metadata) on `subscription`. */
function withAlso(subscription: Subscription, also: Attempt<'change'>['subject']['also']): Subscription {
  return {
    ...subscription,
    ...(also.cancel_at_period_end !== undefined ? { cancel_at_period_end: also.cancel_at_period_end } : {}),
    ...(also.metadata !== undefined ? { metadata: also.metadata } : {}),
  };
}

/**
 * The plan counts a move from `before`'s plan to `after`'s changes: one fewer subscription on the
 * old plan, one more on the new. The new plan must still be there (a plan deleted meanwhile takes
 * no subscription: that write fails whole); the old one may be gone.
 */
function planMoves(
  deps: BillingDeps,
  before: Subscription,
  after: Subscription,
): { required: TransactItem[]; optional: TransactItem[] } {
  if (before.plan_id === after.plan_id) return { required: [], optional: [] };
  return {
    required: [planCountChange(deps, after, 1)],
    optional: [planCountChange(deps, before, -1)],
  };
}

/**
 * An acquirer for a change that cannot charge: one that sets or undoes the end at the period's end
 * and nothing else. Asked anything, it throws (a change that charges must be given a real one).
 */
const noAcquirer = new Proxy({} as Acquirer, {
  get: (_, name) => {
    throw new Error(`an end at the period's end asks the acquirer nothing (asked for ${String(name)})`);
  },
});

/**
 * Sets (`end` true) or undoes the end at the period's end, and nothing else: it never charges, so
 * it takes no acquirer, and a function that offers only this (the customer portal's forms) bundles
 * none. The same rules and event as updateSubscription.
 */
export function setEndAtPeriodEnd(
  deps: Deps,
  scope: Scope,
  id: string,
  end: boolean,
): Promise<{ subscription: Subscription; chargeId?: string }> {
  return updateSubscription({ ...deps, acquirer: noAcquirer }, scope, id, { cancel_at_period_end: end });
}

/**
 * Changes a subscription as `change` asks: the subscription as it is afterwards (and the charge that
 * paid a prorated difference). 409 for a canceled one, and for a past-due or pending one unless only
 * its metadata changes; 400 for a plan that is not an active one of the account and mode, or of
 * another currency; 402 when the prorated difference is declined (nothing changes).
 */
export async function updateSubscription(
  deps: BillingDeps,
  scope: Scope,
  id: string,
  change: SubscriptionChange,
  idempotencyKey?: string,
): Promise<{ subscription: Subscription; chargeId?: string }> {
  const wantsPlan = change.plan_id !== undefined || change.quantity !== undefined;
  const wantsEnd = change.cancel_at_period_end !== undefined;
  // Set once a change at once found the next period's renewal begun: it then waits for that renewal.
  let renewing = false;
  return retryOptimistic(async () => {
    const before = await subscriptionOf(deps, scope, id);
    if (before.status === 'canceled')
      throw new Conflict(subscriptionMessages.subscription_canceled_unchangeable);
    if ((wantsPlan || wantsEnd) && before.status === 'past_due')
      throw new Conflict(subscriptionMessages.subscription_past_due_unchangeable);
    if ((wantsPlan || wantsEnd) && before.status === 'pending')
      throw new Conflict(subscriptionMessages.subscription_not_started);
    const now = deps.clock();
    const also = {
      ...(wantsEnd ? { cancel_at_period_end: change.cancel_at_period_end } : {}),
      ...(change.metadata !== undefined ? { metadata: change.metadata } : {}),
    };
    let after = withAlso(before, also);
    let atOnce = false;
    if (wantsPlan) {
      const target = await targetOf(deps, scope, before, change);
      const decision = decideChange(before, target, now, { renewing });
      if (decision.kind === 'clear_pending') after = { ...after, pending_change: null };
      if (decision.kind === 'pending') after = { ...after, pending_change: decision.change };
      if (decision.kind === 'at_once' && decision.charge > 0) {
        return chargeDifference(deps, before, target, decision.charge, also, idempotencyKey);
      }
      if (decision.kind === 'at_once') {
        after = switched(after, target);
        atOnce = true;
      }
    }
    if (Object.keys(previousAttributes(before, after)).length === 0) return { subscription: before };
    after = { ...after, version: before.version + 1, updated_at: now.toISOString() };
    const moves = planMoves(deps, before, after);
    const base = [
      ...named('subscription', ...subscriptionWrites(deps.table, before, after)),
      ...named('records', eventWrite(deps.table, updatedEvent(before, after, now))),
      ...named('renewal', ...(atOnce ? [noRenewalUnderWay(deps.table, before)] : [])),
      ...named('plan', ...moves.required),
    ];
    const all = [...base, ...named('optional', ...moves.optional)];
    try {
      await transactNamed(deps, all);
    } catch (error) {
      const failed = failedConditions(error, all);
      if (failed.has('subscription')) return lostRace;
      if (failed.has('renewal')) {
        renewing = true;
        return lostRace;
      }
      // The new plan's count refused: the plan was deleted since it was read.
      if (failed.has('plan')) throw new Invalid(subscriptionMessages.subscription_plan_absent);
      if (failed.size !== 1 || !failed.has('optional')) throw error;
      await transactNamed(deps, base);
    }
    return { subscription: after };
  });
}

/** The 402 of a declined prorated charge: the contract's `payment_failed` error object. */
function changeDeclined(reason: string): Declined {
  const message =
    reason === 'authentication_required'
      ? 'The card needs its holder to authenticate this charge; the customer can do it from the portal.'
      : 'The card was declined; the subscription was not changed.';
  return new Declined({
    error: { code: 'card_declined', type: 'payment_failed', message, decline_reason: reason },
  });
}

/** The attempt of a prorated charge: stored new, or what an earlier run of the same change left. */
async function changeAttemptFor(
  deps: BillingDeps,
  fresh: Attempt<'change'>,
): Promise<{ attempt: Attempt<'change'> } | { done: Attempt<'change'> }> {
  try {
    await storeAttempt(deps, fresh);
    return { attempt: fresh };
  } catch (error) {
    if (!(error instanceof AttemptTaken) || !error.attempt) throw error;
    const prior = error.attempt as Attempt<'change'>;
    if (prior.status === 'succeeded') return { done: prior };
    if (prior.status === 'failed' || prior.status === 'declined') {
      // A definite failure before: asked again as a new try, under a new acquirer key.
      const next = restarted(prior, deps.clock(), {
        subject: fresh.subject,
        amount: fresh.amount,
        currency: fresh.currency,
      });
      if (await moveAttempt(deps, restartWrite(deps.table, prior, next))) return { attempt: next };
      throw new Conflict(subscriptionMessages.subscription_change_running);
    }
    if (mayBeRunning(prior, deps.clock()))
      throw new Conflict(subscriptionMessages.subscription_change_running);
    // Left open without an answer: recovery learns it from the acquirer by its key.
    throw new Unconfirmed(subscriptionMessages.subscription_change_unconfirmed);
  }
}

/**
 * A change applied at once whose difference is charged: the attempt stored, the saved card charged
 * under its key, and the outcome settled (settleChange).
 */
async function chargeDifference(
  deps: BillingDeps,
  before: Subscription,
  target: ChangeTarget,
  amount: number,
  also: Attempt<'change'>['subject']['also'],
  idempotencyKey: string | undefined,
): Promise<{ subscription: Subscription; chargeId?: string }> {
  const scope = scopeOf(before);
  await refuseUnconnected(deps, scope);
  const cardToken = before.card_token ?? undefined;
  if (!cardToken) throw new Conflict(subscriptionMessages.subscription_not_started);
  const fresh = newAttempt({
    id: idempotencyKey
      ? idempotentAttemptId('change', scope, idempotencyKey)
      : derivedId('att', ['change', before.id, before.version, target.plan_id, target.quantity]),
    kind: 'change',
    subject: {
      subscription_id: before.id,
      period: before.paid_through,
      generation: before.anchor_generation ?? 0,
      from: {
        plan_id: before.plan_id,
        quantity: before.quantity,
        amount: periodAmount(before.plan, before.quantity),
      },
      to: target,
      also,
      card_token: cardToken,
    },
    connector: connectorOfToken(cardToken),
    owner: { developerId: before.developer_id, mode: before.mode, amount, currency: before.plan.currency },
    now: deps.clock(),
  });
  const taken = await changeAttemptFor(deps, fresh);
  if ('done' in taken) {
    // This change was charged and recorded by an earlier run of the same request.
    const subscription = await subscriptionOf(deps, scope, before.id);
    return {
      subscription,
      ...(taken.done.outcome?.charge_id ? { chargeId: taken.done.outcome.charge_id } : {}),
    };
  }
  const { attempt } = taken;
  let result: Awaited<ReturnType<BillingDeps['acquirer']['chargeStored']>>;
  try {
    result = await deps.acquirer.chargeStored({
      amountMinor: amount,
      currency: before.plan.currency,
      description: `${target.plan.name} (prorated)`,
      statementDescriptor: before.statement_descriptor,
      idempotencyKey: attempt.acquirer_key,
      test: before.mode === 'test',
      merchant: before.developer_id,
      cardToken,
    });
  } catch (error) {
    if (error instanceof NotConnected) {
      // Nobody was asked: the card's acquirer is no longer this mode's.
      await moveAttempt(
        deps,
        finishWrite(deps.table, attempt, 'failed', { note: 'not_connected' }, deps.clock()),
      );
      throw new Conflict(subscriptionMessages.subscription_card_not_connected);
    }
    if (!(error instanceof AcquirerUnavailable)) throw error;
    // No answer: the card may have been charged. Recovery learns it from the acquirer by key.
    await moveAttempt(deps, unconfirmedWrite(deps.table, attempt, deps.clock()));
    throw new Unconfirmed(subscriptionMessages.subscription_change_unconfirmed);
  }
  const settled = await settleChange(
    deps,
    attempt,
    { ...result, amountMinor: amount, currency: before.plan.currency },
    deps.clock(),
  );
  if (settled.outcome === 'declined') throw changeDeclined(settled.reason);
  if (settled.outcome === 'refunded') throw new Conflict(subscriptionMessages.subscription_changed_meanwhile);
  const subscription = await subscriptionOf(deps, scope, before.id);
  const recorded =
    settled.outcome === 'applied'
      ? settled.chargeId
      : (await getAttempt<'change'>(deps, attempt.id))?.outcome?.charge_id;
  return { subscription, ...(recorded ? { chargeId: recorded } : {}) };
}

type Settled =
  | { outcome: 'applied'; chargeId: string }
  | { outcome: 'refunded' }
  | { outcome: 'declined'; reason: string }
  /** Another writer (recovery, or the request) recorded it first. */
  | { outcome: 'raced' };

/** Whether the change an attempt charged for still applies to `subscription` as it is now. */
function stillApplies(attempt: Attempt<'change'>, subscription: Subscription | undefined): boolean {
  const { subject } = attempt;
  return (
    subscription !== undefined &&
    subscription.status === 'active' &&
    subscription.paid_through === subject.period &&
    (subscription.anchor_generation ?? 0) === subject.generation &&
    subscription.plan_id === subject.from.plan_id &&
    subscription.quantity === subject.from.quantity &&
    periodAmount(subscription.plan, subscription.quantity) === subject.from.amount
  );
}

/**
 * Records what the acquirer answered for a prorated charge (the request's own answer, or
 * recovery's lookup): a decline closes the attempt and changes nothing; an approval applies the
 * change with its charge, or, when the subscription moved meanwhile, is recorded and refunded at once.
 */
export async function settleChange(
  deps: BillingDeps,
  attempt: Attempt<'change'>,
  result: Exclude<FoundCharge, { status: 'challenge_required' | 'not_found' }>,
  now: Date,
): Promise<Settled> {
  const scope: Scope = { developerId: attempt.developer_id ?? 0, mode: attempt.mode ?? 'test' };
  const { subject } = attempt;
  if (result.status === 'declined') {
    const closed = await moveAttempt(
      deps,
      finishWrite(deps.table, attempt, 'declined', { decline_reason: result.declineReason }, now),
    );
    return closed ? { outcome: 'declined', reason: result.declineReason } : { outcome: 'raced' };
  }
  let renewalBegun = false;
  return retryOptimistic(
    async (): Promise<Settled | typeof lostRace> => {
      const subscription = await getSubscription(deps, scope, subject.subscription_id);
      const charge = newCharge({
        id: derivedId('ch', ['change', attempt.acquirer_key]),
        developerId: scope.developerId,
        mode: scope.mode,
        source: 'subscription',
        paymentId: null,
        subscriptionId: subject.subscription_id,
        attemptId: attempt.id,
        customerId: subscription?.customer_id ?? null,
        amount: attempt.amount ?? 0,
        currency: attempt.currency ?? '',
        description: `${subject.to.plan.name} (prorated)`,
        statementDescription: subscription?.statement_descriptor ?? '',
        card: result.card,
        acquirerReference: result.acquirerReference,
        connector: result.connector ?? attempt.connector,
        connectorAccount: result.connectorAccount,
        now,
      });
      const finish = finishWrite(
        deps.table,
        attempt,
        'succeeded',
        { reference: result.acquirerReference, charge_id: charge.id },
        now,
      );
      try {
        if (!subscription || renewalBegun || !stillApplies(attempt, subscription)) {
          // An approved charge is never discarded: recorded, and refunded in full at once.
          const refund = refundAttempt(newAttemptId(), charge, charge.amount, 'subscription_changed', now);
          await transactWrite(deps, [
            finish,
            ...chargeWrites(deps.table, refundedAtOnce(charge), now),
            attemptPut(deps.table, refund),
          ]);
          await refundAtOnce(deps, refund);
          return { outcome: 'refunded' } as const;
        }
        const after: Subscription = {
          ...withAlso(switched(subscription, subject.to), subject.also),
          version: subscription.version + 1,
          updated_at: now.toISOString(),
        };
        const moves = planMoves(deps, subscription, after);
        const base = [
          ...named('finish', finish),
          ...named('subscription', ...subscriptionWrites(deps.table, subscription, after)),
          ...named('renewal', noRenewalUnderWay(deps.table, subscription)),
          ...named(
            'records',
            ...chargeWrites(deps.table, charge, now),
            eventWrite(deps.table, updatedEvent(subscription, after, now, charge.id)),
          ),
        ];
        // The plan counts: a new plan deleted meanwhile does not stop a change that was paid for.
        const all = [...base, ...named('counts', ...moves.required, ...moves.optional)];
        try {
          await transactNamed(deps, all);
        } catch (error) {
          const failed = failedConditions(error, all);
          if (failed.has('renewal')) {
            // The next period's renewal began at the old terms: this change no longer applies.
            renewalBegun = true;
            return lostRace;
          }
          if (failed.size !== 1 || !failed.has('counts')) throw error;
          await transactNamed(deps, base);
        }
        return { outcome: 'applied', chargeId: charge.id } as const;
      } catch (error) {
        // The attempt was recorded by another writer first.
        if (conditionFailedAt(error).includes(0)) return { outcome: 'raced' } as const;
        throw error;
      }
    },
    // Any other condition: the subscription changed since it was read; read it again.
    { tries: 5, lost: (error) => conditionFailedAt(error).length > 0 },
  );
}

/** Recovery's finisher of prorated charges: what the acquirer has under the attempt's key. */
export const changeFinisher = (deps: BillingDeps) =>
  chargeFinisher<'change'>(deps.acquirer, async (attempt, result, now): Promise<Finished> => {
    if (result.status === 'not_found') {
      // Never charged (the key is closed now): nothing changed; the merchant may ask again.
      await moveAttempt(deps, finishWrite(deps.table, attempt, 'failed', { note: 'not_found' }, now));
      return 'failed';
    }
    await settleChange(deps, attempt, result, now);
    return result.status === 'approved' ? 'succeeded' : 'declined';
  });
