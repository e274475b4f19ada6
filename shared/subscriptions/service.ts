/**
 * The subscriptions API (docs/design.md#subscriptions): creation with its hosted checkout, activation
 * once the checkout is paid (through the bus), the views, cancellation and the plan-deletion cascade.
 */
import { merchantName, statementDescriptor } from '../accounts/account.ts';
import { getAccount } from '../accounts/repository.ts';
import { refuseUnconnected } from '../acquirer/connection.ts';
import { checkoutKeys } from '../checkout/keys.ts';
import { sessionEntity } from '../checkout/repository.ts';
import { type CheckoutSession, newSubscriptionSession } from '../checkout/session.ts';
import { assertModeFlags, type Scope } from '../core/account.ts';
import { Conflict, Invalid, NotFound } from '../core/errors.ts';
import { isPrefixedId, prefixedId } from '../core/ids.ts';
import { maxMinorUnits } from '../core/money/amount.ts';
import { assertPageExists, type NumberedPage, numberedPage, type PageRequest } from '../core/pagination.ts';
import * as rules from '../core/rules.ts';
import { InvalidInput } from '../core/validation.ts';
import { findCustomer } from '../customers/repository.ts';
import { putAll } from '../db/batch.ts';
import type { Deps } from '../db/deps.ts';
import { lostRace, retryOptimistic } from '../db/optimistic.ts';
import { eventWrite, internalEventWrite } from '../events/event.ts';
import { checkReturnUrl } from '../payments/payment.ts';
import { planMessages } from '../plans/messages.ts';
import { getPlan } from '../plans/repository.ts';
import {
  type cancelReasons,
  subscriptionCanceled,
  subscriptionCancelRequested,
  subscriptionCreated,
} from './events.ts';
import { subscriptionMessages } from './messages.ts';
import {
  eachSubscription,
  getSubscription,
  planCountChange,
  saveSubscription,
  storeSubscription,
} from './repository.ts';
import type { CreateSubscriptionInput } from './schemas.ts';
import {
  countedStatuses,
  type Subscription,
  type SubscriptionStatus,
  subscriptionView,
} from './subscription.ts';

/** The `{id}` of a subscription path: `sub_…`. */
export const isSubscriptionId = (value: string) => isPrefixedId(value, 'sub');

/** A pending subscription and its checkout session, stored with `subscription.created`. */
export async function createSubscription(
  deps: Deps,
  scope: Scope,
  input: CreateSubscriptionInput,
): Promise<{ subscription: Subscription; session: CheckoutSession }> {
  assertModeFlags(input, scope.mode);
  const returnUrl = checkReturnUrl(input.return_url, scope.mode);
  const [plan, customer, owner] = await Promise.all([
    getPlan(deps, scope, input.plan_id.toLowerCase()),
    input.customer_id ? findCustomer(deps, scope, input.customer_id.toLowerCase()) : undefined,
    getAccount(deps, scope.developerId),
    refuseUnconnected(deps, scope),
  ]);
  // A plan named in the body that is absent (or another account's, or archived) is 400, not 404.
  if (!plan?.active) throw new Invalid(subscriptionMessages.subscription_plan_absent);
  if (input.customer_id && !customer) throw new Invalid(subscriptionMessages.subscription_customer_absent);
  // Every charge is amount × quantity: it must stay a chargeable amount.
  if (plan.amount * input.quantity > maxMinorUnits) {
    const limit = String(Math.floor(maxMinorUnits / plan.amount));
    throw new InvalidInput([{ field: 'quantity', rule: rules.max_value, params: { limit } }]);
  }
  const now = deps.clock();
  const at = now.toISOString();
  const trialDays = input.trial_days ?? plan.trial_period_days;
  const subscription: Subscription = {
    id: prefixedId('sub'),
    developer_id: scope.developerId,
    mode: scope.mode,
    plan_id: plan.id,
    plan: {
      name: plan.name,
      amount: plan.amount,
      currency: plan.currency,
      interval: plan.interval,
      interval_count: plan.interval_count,
    },
    quantity: input.quantity,
    customer_id: customer?.id ?? null,
    status: 'pending',
    active: true,
    statement_descriptor: statementDescriptor(owner),
    card_token: null,
    anchor: null,
    trial_end: null,
    paid_through: -1,
    failed_attempts: 0,
    failed_at: null,
    next_action_at: null,
    cancel_at_period_end: false,
    pending_change: null,
    metadata: input.metadata ?? null,
    version: 1,
    created_at: at,
    updated_at: at,
    canceled_at: null,
  };
  const session = newSubscriptionSession(
    {
      id: subscription.id,
      developer_id: scope.developerId,
      mode: scope.mode,
      return_url: returnUrl,
      trial_days: trialDays,
      // The page says what is charged per period and, with a trial, from when.
      recurrence: { interval: plan.interval, interval_count: plan.interval_count },
    },
    {
      // Each period's charge: the plan's amount times the quantity (nothing today in a trial).
      amount: plan.amount * input.quantity,
      currency: plan.currency,
      description: plan.name,
      items: input.quantity > 1 ? [`${plan.name} × ${input.quantity}`] : [plan.name],
    },
    { name: merchantName(owner), statementDescriptor: subscription.statement_descriptor },
    customer?.email ?? null,
    now,
  );
  subscription.checkout_token = session.token;
  const created = subscriptionCreated.of(scope, { object: subscriptionView(subscription) }, now);
  await storeSubscription(deps, subscription, [
    sessionEntity.create(deps.table, session),
    eventWrite(deps.table, created),
  ]);
  return { subscription, session };
}

/** One subscription of the account and mode, or 404. */
export async function subscriptionOf(deps: Deps, scope: Scope, id: string): Promise<Subscription> {
  const subscription = isSubscriptionId(id) ? await getSubscription(deps, scope, id) : undefined;
  if (!subscription) throw new NotFound(subscriptionMessages.subscription_not_found);
  return subscription;
}

/** Envelope A of the account's subscriptions, newest first, by status and plan. */
export async function listSubscriptions(
  deps: Deps,
  scope: Scope,
  query: { page: PageRequest; status?: SubscriptionStatus | undefined; planId?: string | undefined },
): Promise<NumberedPage<Subscription>> {
  const offset = (query.page.page - 1) * query.page.pageSize;
  const results: Subscription[] = [];
  let count = 0;
  await eachSubscription(
    deps,
    scope,
    { planId: query.planId?.toLowerCase(), status: query.status },
    (found) => {
      if (count >= offset && results.length < query.page.pageSize) results.push(found);
      count += 1;
    },
  );
  assertPageExists(count, query.page);
  return numberedPage(count, query.page, results);
}

/** Every subscription of a plan (`GET /v1/subscriptions/{plan key}`); 404 when the plan is absent. */
export async function planSubscriptions(deps: Deps, scope: Scope, planId: string): Promise<Subscription[]> {
  const plan = await getPlan(deps, scope, planId.toLowerCase());
  if (!plan) throw new NotFound(planMessages.plan_not_found);
  const found: Subscription[] = [];
  await eachSubscription(deps, scope, { planId: plan.id }, (subscription) => found.push(subscription));
  return found;
}

/**
 * Cancels a subscription (DELETE, or its plan's deletion): `canceled`, never billed again, its plan
 * counts one fewer, `subscription.canceled` stored. 409 when it already was. It answers even
 * while a charge of it is under way: a charge approved after it is recorded and refunded.
 */
export async function cancelSubscription(
  deps: Deps,
  scope: Scope,
  id: string,
  reason: (typeof cancelReasons)[number],
): Promise<Subscription> {
  return retryOptimistic(async () => {
    const before = await subscriptionOf(deps, scope, id);
    if (before.status === 'canceled') throw new Conflict(subscriptionMessages.subscription_already_canceled);
    const now = deps.clock();
    const after: Subscription = {
      ...before,
      status: 'canceled',
      active: false,
      next_action_at: null,
      canceled_at: now.toISOString(),
      version: before.version + 1,
      updated_at: now.toISOString(),
    };
    const event = subscriptionCanceled.of(scope, { object: subscriptionView(after), reason }, now);
    const counted = countedStatuses.includes(before.status);
    const optional = [
      ...(counted ? [planCountChange(deps, before, -1)] : []),
      // A pending subscription's checkout page closes (as expired): nobody can pay for it any more.
      // A payment under way on it still ends: its approval finds the subscription canceled and is
      // refunded at once, so the cancel never waits for it and never leaves a charge kept.
      ...(before.status === 'pending' && before.checkout_token
        ? [
            {
              Update: {
                TableName: deps.table,
                Key: checkoutKeys.session(before.checkout_token),
                UpdateExpression: 'SET expires_at_ms = :now',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':now': now.getTime() },
              },
            },
          ]
        : []),
    ];
    const saved = await saveSubscription(deps, before, after, [eventWrite(deps.table, event)], optional);
    return saved ? after : lostRace;
  });
}

/**
 * The plan-deletion cascade: one internal `subscription.cancel_requested` per subscription of the
 * plan still running, so that each is canceled by its own invocation (cancelRequested). Run twice,
 * it asks twice; a second cancellation is a Conflict, and nothing happens.
 */
export async function requestPlanCancellations(deps: Deps, scope: Scope, planId: string): Promise<number> {
  const items: Record<string, unknown>[] = [];
  const now = deps.clock();
  await eachSubscription(deps, scope, { planId }, (subscription) => {
    if (subscription.status === 'canceled') return;
    const request = subscriptionCancelRequested.of(
      scope,
      { subscription_id: subscription.id, reason: 'plan_deleted' },
      now,
    );
    items.push(internalEventWrite(deps.table, request).Put.Item);
  });
  await putAll(deps, items);
  return items.length;
}

/** One requested cancellation; one already canceled (or gone) is left as it is. */
export async function cancelRequested(
  deps: Deps,
  scope: Scope,
  input: { subscriptionId: string; reason: (typeof cancelReasons)[number] },
): Promise<void> {
  try {
    await cancelSubscription(deps, scope, input.subscriptionId, input.reason);
  } catch (error) {
    if (!(error instanceof Conflict) && !(error instanceof NotFound)) throw error;
  }
}
