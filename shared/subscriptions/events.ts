/** Events about subscriptions, each carrying the subscription as the API shows it. */
import * as v from 'valibot';
import { declineReasons } from '../acquirer/acquirer.ts';
import { defineEvent, defineInternalEvent } from '../events/event.ts';
import { PendingChangeViewSchema, SubscriptionViewSchema } from './subscription.ts';

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
 * its renewals kept failing, its plan was deleted, or it was set to end at its period's end and
 * that end came.
 */
export const cancelReasons = [
  'requested',
  'customer_requested',
  'payment_failed',
  'plan_deleted',
  'period_ended',
] as const;

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

/**
 * The fields of a subscription's view that a change may move (`PUT /v1/subscriptions/{id}`, the
 * portal, the dashboard, a renewal applying a pending change): `previous_attributes` holds the
 * former value of each that moved.
 */
export const PreviousAttributesSchema = v.pipe(
  v.strictObject({
    plan_id: v.optional(v.string()),
    quantity: v.optional(v.number()),
    cancel_at_period_end: v.optional(v.boolean()),
    cancel_at: v.optional(v.nullable(v.string())),
    pending_change: v.optional(v.nullable(PendingChangeViewSchema)),
    metadata: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
  }),
  v.description('The fields that changed, with their former values.'),
);

/**
 * A subscription changed: its plan or quantity (at once, with `charge_id` when a prorated
 * difference was charged, or when a renewal applied a pending change), a pending change set or
 * cleared, its cancel at the period's end set or undone, its metadata.
 */
export const subscriptionUpdated = defineEvent(
  'subscription.updated',
  v.object({
    object: SubscriptionViewSchema,
    previous_attributes: PreviousAttributesSchema,
    charge_id: v.optional(v.string()),
  }),
);
