/**
 * The recurring billing step (D14), run by `billing run [--now]` and by the deployed schedule: every
 * subscription whose due entry is at or before `now` gets the one thing due for it.
 *
 * A charge is asked of the acquirer with a key made of the subscription, the period and the attempt
 * (`sub_…:p3:a0`), so a step repeated after a crash, or run by two engines at once, asks the same
 * charge again and gets the same answer instead of a second charge. The charge is then recorded,
 * with the subscription's move to the next period, in one transaction conditioned on the version
 * read: only one runner records it. Exactly one charge per subscription and period follows.
 */
import { createHash } from 'node:crypto';
import type { Acquirer } from '../acquirer/acquirer.ts';
import { newCharge } from '../charges/charge.ts';
import { chargeEntity } from '../charges/repository.ts';
import type { Deps } from '../db/deps.ts';
import { stepEveryDue } from '../db/due.ts';
import { eventWrite } from '../events/event.ts';
import { subscriptionCanceled, subscriptionPaymentFailed, subscriptionRenewed } from './events.ts';
import { periodAt } from './periods.ts';
import {
  type DueRef,
  dropStaleDue,
  dueSubscriptions,
  getSubscription,
  planCountChange,
  saveSubscription,
} from './repository.ts';
import { dunningRetryDays, type Subscription, subscriptionView } from './subscription.ts';

export interface BillingDeps extends Deps {
  acquirer: Acquirer;
}

export type StepOutcome = 'renewed' | 'payment_failed' | 'canceled' | 'not_due' | 'raced';

const day = 86_400_000;

/** A charge id that the charge's acquirer key alone decides (the same attempt, the same id). */
function chargeIdFor(key: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const digest = createHash('sha256').update(`cobro renewal ${key}`).digest();
  return `ch_${Array.from(digest.subarray(0, 24), (byte) => alphabet[byte % alphabet.length]).join('')}`;
}

/** The one step due for a subscription at `now`. */
export async function billingStep(deps: BillingDeps, ref: DueRef, now: Date): Promise<StepOutcome> {
  const scope = { developerId: ref.developer_id, mode: ref.mode };
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

  const period = subscription.paid_through + 1;
  const key = `${subscription.id}:p${period}:a${subscription.failed_attempts}`;
  const { plan } = subscription;
  const result = await deps.acquirer.chargeStored({
    amountMinor: plan.amount * subscription.quantity,
    currency: plan.currency,
    description: plan.name,
    statementDescriptor: subscription.statement_descriptor,
    idempotencyKey: key,
    test: subscription.mode === 'test',
    merchant: subscription.developer_id,
    cardToken: subscription.card_token,
  });
  const at = now.toISOString();
  const base = { ...subscription, version: subscription.version + 1, updated_at: at };

  if (result.status === 'approved') {
    const paid = periodAt(new Date(subscription.anchor), plan.interval, plan.interval_count, period);
    const after: Subscription = {
      ...base,
      status: 'active',
      paid_through: period,
      failed_attempts: 0,
      failed_at: null,
      next_action_at: paid.end.toISOString(),
    };
    const charge = newCharge({
      id: chargeIdFor(key),
      developerId: subscription.developer_id,
      mode: subscription.mode,
      source: 'subscription',
      paymentId: null,
      customerId: subscription.customer_id,
      amount: plan.amount * subscription.quantity,
      currency: plan.currency,
      description: plan.name,
      statementDescription: subscription.statement_descriptor,
      card: result.card,
      acquirerReference: result.acquirerReference,
      now,
    });
    const event = subscriptionRenewed.of(
      { developerId: subscription.developer_id, test: subscription.mode === 'test' },
      { object: subscriptionView(after), charge_id: charge.id, period },
      now,
    );
    const saved = await saveSubscription(deps, subscription, after, [
      chargeEntity.create(deps.table, charge),
      eventWrite(deps.table, event),
    ]);
    return saved ? 'renewed' : 'raced';
  }

  const failures = subscription.failed_attempts + 1;
  const failedAt = subscription.failed_at ?? at;
  const retryIn = dunningRetryDays[failures - 1];
  const owner = { developerId: subscription.developer_id, test: subscription.mode === 'test' };
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
        decline_reason: result.declineReason,
        attempt: failures,
        next_retry_at: nextRetry,
      },
      now,
    );
    const saved = await saveSubscription(deps, subscription, after, [eventWrite(deps.table, event)]);
    return saved ? 'payment_failed' : 'raced';
  }
  // The third retry failed too: the subscription ends (D14).
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
    {
      object: subscriptionView(after),
      decline_reason: result.declineReason,
      attempt: failures,
      next_retry_at: null,
    },
    now,
  );
  const canceled = subscriptionCanceled.of(
    owner,
    { object: subscriptionView(after), reason: 'payment_failed' },
    now,
  );
  const saved = await saveSubscription(
    deps,
    subscription,
    after,
    [eventWrite(deps.table, failed), eventWrite(deps.table, canceled)],
    [planCountChange(deps, subscription, -1)],
  );
  return saved ? 'canceled' : 'raced';
}

/**
 * Every step due at `now`; a summary of what was done. `only` limits it to one account's
 * subscriptions (an operator re-running one merchant; tests sharing a stack, each with its clock).
 */
export async function runBilling(deps: BillingDeps, now: Date, only?: { developerId: number }) {
  const outcomes: Record<StepOutcome, number> = {
    renewed: 0,
    payment_failed: 0,
    canceled: 0,
    not_due: 0,
    raced: 0,
  };
  const due = await stepEveryDue(
    (limit) => dueSubscriptions(deps, now, limit),
    (ref) => billingStep(deps, ref, now),
    outcomes,
    only,
  );
  return { now: now.toISOString(), due, ...outcomes };
}
