/** Events about subscriptions, each carrying the subscription as the API shows it. */
import * as v from 'valibot';
import { declineReasons } from '../acquirer/acquirer.ts';
import { defineEvent, defineInternalEvent } from '../events/event.ts';
import { SubscriptionViewSchema } from './subscription.ts';

const carrying = v.object({ object: SubscriptionViewSchema });

export const subscriptionRenewed = defineEvent(
  'subscription.renewed',
  v.object({ object: SubscriptionViewSchema, charge_id: v.string(), period: v.number() }),
);
export const subscriptionPaymentFailed = defineEvent(
  'subscription.payment_failed',
  v.object({
    object: SubscriptionViewSchema,
    decline_reason: v.picklist(declineReasons),
    attempt: v.number(),
    next_retry_at: v.nullable(v.string()),
  }),
);
/**
 * Why a subscription ended: its merchant canceled it, its customer did (from the customer portal),
 * its renewals kept failing, or its plan was deleted.
 */
export const cancelReasons = ['requested', 'customer_requested', 'payment_failed', 'plan_deleted'] as const;

export const subscriptionCanceled = defineEvent(
  'subscription.canceled',
  v.object({ object: SubscriptionViewSchema, reason: v.optional(v.picklist(cancelReasons)) }),
);
export const subscriptionCreated = defineEvent('subscription.created', carrying);

/** Internal: one subscription of a deleted plan to cancel, each handled on its own. */
export const subscriptionCancelRequested = defineInternalEvent(
  'subscription.cancel_requested',
  v.object({ subscription_id: v.string(), reason: v.picklist(cancelReasons) }),
);
/**
 * What an activated subscription charges each period: the plan's amount (per unit, major units),
 * its currency, how often, and how many units. Optional for readers: events stored before it was
 * added lack it.
 */
export const SubscriptionPriceSchema = v.strictObject({
  amount: v.pipe(
    v.string(),
    v.description("The plan's amount per unit: decimal in major units at the currency precision."),
  ),
  currency: v.pipe(v.string(), v.description('Upper-case code.')),
  interval: v.picklist(['month', 'year']),
  interval_count: v.pipe(v.number(), v.description('Intervals between charges.')),
  quantity: v.pipe(v.number(), v.description('Units charged each period: each charge is amount × quantity.')),
});

export const subscriptionActivated = defineEvent(
  'subscription.activated',
  v.object({ object: SubscriptionViewSchema, price: v.optional(SubscriptionPriceSchema) }),
);
