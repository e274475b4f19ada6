/** Events about subscriptions (D11), each carrying the subscription in its interface shape. */
import * as v from 'valibot';
import { declineReasons } from '../acquirer/acquirer.ts';
import { defineEvent } from '../events/event.ts';
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
export const subscriptionCanceled = defineEvent('subscription.canceled', carrying);
