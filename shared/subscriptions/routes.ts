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
