/** Events of the customer portal: a subscriber replaced the card a subscription is charged to. */
import * as v from 'valibot';
import { defineEvent } from '../events/event.ts';
import { SubscriptionViewSchema } from '../subscriptions/subscription.ts';

/** What the event tells of the new card: never more than its brand, last 4 digits and expiry. */
export const CardSummarySchema = v.object({
  brand: v.string(),
  last4: v.string(),
  exp_month: v.number(),
  exp_year: v.number(),
});

export const subscriptionCardUpdated = defineEvent(
  'subscription.card_updated',
  v.object({ object: SubscriptionViewSchema, card: CardSummarySchema }),
);
