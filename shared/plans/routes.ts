/** The plans area's routes (assembled with the others in shared/api/routes.ts). */
import * as v from 'valibot';
import { MessageSchema, messageEnvelope, numberedPageSchema } from '../core/envelopes.ts';
import type { Route } from '../http/route.ts';
import { PlanListQuerySchema } from './list-query.ts';
import { CreatePlanSchema, PlanViewSchema, UpdatePlanSchema } from './schemas.ts';

export const plansRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/v1/plans/',
    handler: 'functions/plans/create-plan.ts',
    operationId: 'createPlan',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
      media: 'write',
    },
    summary: 'Create a plan; 201 with data.id',
    description:
      'Stores a plan: its price (amount, currency, interval and interval count, none of which can change afterwards), name, description, trial days and an optional image.',
    body: CreatePlanSchema,
    answers: {
      201: { description: 'Created', json: messageEnvelope(v.strictObject({ id: v.string() })) },
    },
  },
  {
    method: 'GET',
    path: '/v1/plans/',
    handler: 'functions/plans/list-plans.ts',
    operationId: 'listPlans',
    auth: true,
    access: { table: { actions: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['gsi1'] } },
    summary: 'Plans, newest first, in Envelope A; filters combine with AND',
    description:
      "Lists the plans of the account and mode, newest first, one numbered page at a time; each shows the account's profile and `count`, its active subscriptions.",
    query: PlanListQuerySchema,
    answers: { 200: { description: 'One page (Envelope A)', json: numberedPageSchema(PlanViewSchema) } },
    errors: {
      400: {
        description:
          'Invalid input; or price_max below price_min, or subscribers_max below subscribers_min; or no plan matches the filters (No plans found, type warning)',
        body: 'MessageEnvelope',
      },
      404: { description: 'A page past the last (type warning)', body: 'MessageEnvelope' },
    },
  },
  {
    method: 'GET',
    path: '/v1/plans/{id}/',
    handler: 'functions/plans/get-plan.ts',
    operationId: 'getPlan',
    auth: true,
    access: { table: { actions: ['GetItem', 'BatchGetItem', 'Query'] } },
    summary: 'One plan',
    description:
      "Shows one plan with the account's profile, read when answering, and `count`, the number of its active subscriptions.",
    answers: { 200: { description: 'The plan', json: PlanViewSchema } },
  },
  {
    method: 'PUT',
    path: '/v1/plans/{id}/',
    handler: 'functions/plans/update-plan.ts',
    operationId: 'updatePlan',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
      media: 'write',
    },
    summary: 'Change name, description, image, trial days or active; price and interval never change',
    description:
      "Changes the plan's name, description, image, trial days or `active` (false archives it: no new subscriptions). Naming the price, currency or interval is refused with 400, and a request that changes nothing answers with type `info`.",
    body: UpdatePlanSchema,
    answers: {
      200: {
        description: 'Updated (type success), or nothing changed (type info); `data` is the plan key',
        json: messageEnvelope(v.string()),
      },
    },
  },
  {
    method: 'DELETE',
    path: '/v1/plans/{id}/',
    handler: 'functions/plans/delete-plan.ts',
    operationId: 'deletePlan',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
    },
    summary: 'Delete a plan for good; its active subscriptions are canceled',
    description:
      'Deletes the plan for good. Each of its running subscriptions is then canceled on its own, and the merchant and every customer with an active subscription are e-mailed.',
    answers: { 200: { description: 'Deleted', json: MessageSchema } },
  },
];
