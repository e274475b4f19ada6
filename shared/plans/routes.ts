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
    query: PlanListQuerySchema,
    answers: { 200: { description: 'One page (Envelope A)', json: numberedPageSchema(PlanViewSchema) } },
    errors: { 404: { description: 'A page past the last (type warning)', body: 'MessageEnvelope' } },
  },
  {
    method: 'GET',
    path: '/v1/plans/{id}/',
    handler: 'functions/plans/get-plan.ts',
    operationId: 'getPlan',
    auth: true,
    access: { table: { actions: ['GetItem', 'BatchGetItem', 'Query'] } },
    summary: 'One plan',
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
    answers: { 200: { description: 'Deleted', json: MessageSchema } },
  },
];
