/**
 * The event catalogue: every event type cobro publishes, with the schema of its `data`, assembled
 * from the areas' events.ts. Publishers and consumers use the areas' definitions; this list is for
 * what needs them all (the event rules' check, and the webhook documentation to come).
 */
import { apiKeyRotated } from '../accounts/events.ts';
import { chargeSucceeded } from '../charges/events.ts';
import type { EventType } from '../events/event.ts';
import { paymentLinkPaid } from '../payment-links/events.ts';
import { paymentFailed, paymentSucceeded } from '../payments/events.ts';
import { planDeleted } from '../plans/events.ts';
import { refundCreated } from '../refunds/events.ts';
import {
  subscriptionActivated,
  subscriptionCanceled,
  subscriptionCreated,
  subscriptionPaymentFailed,
  subscriptionRenewed,
} from '../subscriptions/events.ts';

export const eventCatalogue: readonly EventType<unknown>[] = [
  apiKeyRotated,
  chargeSucceeded,
  paymentSucceeded,
  paymentFailed,
  refundCreated,
  planDeleted,
  subscriptionCreated,
  subscriptionActivated,
  subscriptionRenewed,
  subscriptionPaymentFailed,
  subscriptionCanceled,
  paymentLinkPaid,
];
