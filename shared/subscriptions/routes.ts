/** The subscriptions area's routes (assembled with the others in shared/api/routes.ts). */
import * as v from 'valibot';
import { messageEnvelope, numberedPageSchema } from '../core/envelopes.ts';
import type { Route } from '../http/route.ts';
import {
  CanceledSubscriptionSchema,
  CreatedSubscriptionSchema,
  CreateSubscriptionSchema,
  PlanSubscriptionSchema,
  SubscriptionListItemSchema,
  SubscriptionListQuerySchema,
  UpdateSubscriptionSchema,
} from './schemas.ts';
import { SubscriptionViewSchema } from './subscription.ts';

const notFound = {
  404: { description: 'No such subscription (or plan) in this account and mode', body: 'MessageEnvelope' },
} as const;

export const subscriptionsRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/v1/subscriptions',
    handler: 'functions/subscriptions/create-subscription.ts',
    operationId: 'createSubscription',
    auth: true,
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
    summary:
      'A pending subscription to a plan and its hosted checkout (the first charge, or a card check for a trial); activation follows the checkout',
    description:
      'Stores a pending subscription of a customer to an active plan, with a hosted checkout to send the customer to. That checkout charges the first period, or only checks the card when there is a trial; the subscription becomes active or trialing when it succeeds.',
    body: CreateSubscriptionSchema,
    answers: { 201: { description: 'Created', json: messageEnvelope(CreatedSubscriptionSchema) } },
  },
  {
    method: 'GET',
    path: '/v1/subscriptions',
    handler: 'functions/subscriptions/list-subscriptions.ts',
    operationId: 'listSubscriptions',
    auth: true,
    access: { table: { actions: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['gsi1', 'gsi2'] } },
    summary: 'Subscriptions, newest first, in Envelope A, by status and plan',
    description:
      'Lists the subscriptions of the account and mode, pending ones included, newest first, one numbered page at a time, optionally of one status or plan.',
    query: SubscriptionListQuerySchema,
    answers: { 200: { description: 'Envelope A', json: numberedPageSchema(SubscriptionListItemSchema) } },
  },
  {
    method: 'GET',
    path: '/v1/subscriptions/{id}',
    handler: 'functions/subscriptions/get-subscription.ts',
    operationId: 'getSubscription',
    auth: true,
    access: { table: { actions: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['gsi1', 'gsi2'] } },
    summary: 'A subscription (`sub_…`), or the subscriptions of a plan (its key, a UUID) as a bare array',
    description:
      "Shows one subscription when the id starts with `sub_`. Given a plan's key (a UUID), it answers that plan's subscriptions as a bare array, or 404 when the plan is absent.",
    answers: {
      200: {
        description: 'The subscription, or the plan’s subscriptions',
        json: v.union([SubscriptionViewSchema, v.array(PlanSubscriptionSchema)]),
      },
    },
    errors: notFound,
  },
  {
    method: 'PUT',
    path: '/v1/subscriptions/{id}',
    handler: 'functions/subscriptions/update-subscription.ts',
    operationId: 'updateSubscription',
    auth: true,
    // ConditionCheckItem: a change applied at once is written on condition that no renewal of the
    // next period has begun (a check of that attempt's item, in the change's transaction).
    access: {
      table: {
        actions: [
          'GetItem',
          'BatchGetItem',
          'Query',
          'PutItem',
          'UpdateItem',
          'DeleteItem',
          'ConditionCheckItem',
        ],
      },
      webhookKey: true,
    },
    summary:
      'Change the plan or quantity (an upgrade at once with a prorated charge, anything else at the period’s end), cancel at the period’s end, or the metadata',
    description:
      "Changes a subscription. `plan_id`/`quantity`: while trialing, applied at once and nothing charged; on the same interval with a higher amount per period (plan amount × quantity), applied at once and the difference for the time left of the period charged now on the saved card ((new − old) × seconds left ÷ seconds in the period, rounded half up; not charged below the equivalent of USD 0.50), keyed by the Idempotency-Key when given; otherwise recorded as `pending_change` and applied by the renewal at the period's end (asking for the current plan and quantity clears it). `cancel_at_period_end`: true ends it at the current period's (or trial's) end instead of renewing; false undoes that. Every change stores `subscription.updated` with `previous_attributes`.",
    body: UpdateSubscriptionSchema,
    answers: { 200: { description: 'The subscription as it is now', json: SubscriptionViewSchema } },
    errors: {
      ...notFound,
      402: {
        description:
          'The prorated difference was declined (`type` payment_failed with `decline_reason`); nothing changed',
        body: 'ErrorObject',
      },
      409: {
        description:
          'Canceled; past due or not started yet (only metadata may change); the subscription changed while its prorated difference was charged (refunded); or the change is being charged by another request',
        body: 'MessageEnvelope',
      },
      504: {
        description:
          'The payment processor did not answer: send the same request again (same Idempotency-Key) for the outcome',
        body: 'MessageEnvelope',
      },
    },
  },
  {
    method: 'DELETE',
    path: '/v1/subscriptions/{id}',
    handler: 'functions/subscriptions/cancel-subscription.ts',
    operationId: 'cancelSubscription',
    auth: true,
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
    summary: 'Cancel a subscription: never charged again; 409 when already canceled',
    description:
      "Cancels the subscription: it is never charged again, leaves its plan's count, and the customer is e-mailed. It answers at once even while a charge is in flight; an approval that arrives afterwards is recorded and refunded.",
    answers: { 200: { description: 'Canceled', json: CanceledSubscriptionSchema } },
    errors: {
      ...notFound,
      409: { description: 'Already canceled', body: 'MessageEnvelope' },
    },
  },
];
