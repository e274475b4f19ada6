/**
 * The subscriptions area for the stack: its routes and events, what it does when a plan is deleted
 * or a cancel is requested, its e-mails, and the recurring billing run (payment links' recurring
 * step included).
 */

import { internalEventSource } from '../events/event.ts';
import { planDeleted } from '../plans/events.ts';
import { defineArea } from '../stack/area.ts';
import {
  subscriptionActivated,
  subscriptionCanceled,
  subscriptionCancelRequested,
  subscriptionCreated,
  subscriptionPaymentFailed,
  subscriptionRenewed,
  subscriptionUpdated,
} from './events.ts';
import { subscriptionsRoutes } from './routes.ts';

export const subscriptionsArea = defineArea({
  name: 'subscriptions',
  description: 'Subscriptions of customers to plans, billed every period, with dunning and cancellation.',
  routes: subscriptionsRoutes,
  events: [
    { event: subscriptionCreated, summary: 'A subscription was created.' },
    { event: subscriptionActivated, summary: 'A subscription was activated by its first payment.' },
    { event: subscriptionRenewed, summary: 'A subscription was renewed for another period.' },
    { event: subscriptionPaymentFailed, summary: "A subscription's renewal payment failed." },
    { event: subscriptionCanceled, summary: 'A subscription was canceled.' },
    {
      event: subscriptionUpdated,
      summary:
        'A subscription changed (plan, quantity, a pending change, cancel at period end, metadata): the subscription and previous_attributes.',
    },
  ],
  eventRules: [
    {
      name: 'plan-deleted-subscriptions',
      detailTypes: [planDeleted.type],
      target: 'functions/subscriptions/cancel-plan-subscriptions.ts',
      access: {
        table: {
          actions: [
            'GetItem',
            'BatchGetItem',
            'Query',
            'PutItem',
            'UpdateItem',
            'DeleteItem',
            'BatchWriteItem',
          ],
          indexes: ['gsi1', 'gsi2'],
        },
      },
    },
    {
      name: 'subscription-cancel',
      source: internalEventSource,
      detailTypes: [subscriptionCancelRequested.type],
      target: 'functions/subscriptions/cancel-requested-subscription.ts',
      access: {
        table: {
          actions: [
            'GetItem',
            'BatchGetItem',
            'Query',
            'PutItem',
            'UpdateItem',
            'DeleteItem',
            'BatchWriteItem',
          ],
        },
      },
    },
    {
      // The subscriber's e-mails: the activation receipt and the failed-renewal notice, each with a
      // portal link (which the fingerprint secret keys), the cancellation notice, and the notices of
      // a change (a new plan or quantity, an end at the period's end set or undone).
      name: 'subscription-email',
      detailTypes: [
        subscriptionActivated.type,
        subscriptionCanceled.type,
        subscriptionPaymentFailed.type,
        subscriptionUpdated.type,
      ],
      target: 'functions/subscriptions/send-subscription-email.ts',
      access: {
        table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
        mail: true,
        fingerprintSecret: true,
      },
    },
  ],
  schedules: [
    {
      // The same step as `billing run`, handed out one bus entry per partition (the ledger area's
      // `partition-run` rule takes them); a run does only what is due, so a missed one is caught up.
      // It only puts entries on the bus.
      name: 'billing-run',
      expression: 'rate(15 minutes)',
      target: 'functions/subscriptions/run-billing.ts',
      access: { events: true },
    },
  ],
});
