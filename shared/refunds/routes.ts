/** The refunds area's routes (assembled with the others in shared/api/routes.ts). */
import * as v from 'valibot';
import type { Route } from '../http/route.ts';
import { RefundListQuerySchema } from './list-query.ts';
import { CreateRefundSchema } from './refund.ts';
import { RefundViewSchema } from './schemas.ts';

export const refundsRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/v1/refunds/',
    handler: 'functions/refunds/create-refund.ts',
    operationId: 'createRefund',
    auth: true,
    // The webhook key opens the Stripe key of a charge made through Stripe (its refund goes there).
    access: {
      table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], indexes: ['gsi1'] },
      webhookKey: true,
    },
    summary: 'Refund a charge in full or in part; 201 with the refund',
    description:
      'Refunds the rest of a charge, or `amount` of it, for a required reason. The amount is held on the charge before the acquirer is asked, so concurrent refunds never exceed the charge; a refusal by the acquirer stores nothing (502), and a lost answer (504) is settled by sending the same request with the same Idempotency-Key.',
    body: CreateRefundSchema,
    answers: { 201: { description: 'Refunded', json: RefundViewSchema } },
    errors: {
      400: {
        description:
          "Invalid input; the charge is absent (a `pay_…` payment id says to send its `ch_…` charge id), already refunded, or smaller than the amount; or the amount has more decimals than the charge's currency",
        body: 'MessageEnvelope',
      },
      409: {
        description:
          'The charge was already paid out; or the Idempotency-Key was used with another request, or its request is still running',
        body: 'MessageEnvelope',
      },
      502: { description: 'The acquirer refused the refund; nothing was refunded', body: 'MessageEnvelope' },
      504: {
        description:
          'The acquirer did not answer in time: the refund is being confirmed; the same request with the same Idempotency-Key answers its outcome',
        body: 'MessageEnvelope',
      },
    },
  },
  {
    method: 'GET',
    path: '/v1/refunds/',
    handler: 'functions/refunds/list-refunds.ts',
    operationId: 'listRefunds',
    auth: true,
    access: { table: { actions: ['GetItem', 'Query'], indexes: ['gsi1', 'gsi2'] } },
    summary: 'Refunds, newest first, as a bare array; charge_id narrows to one charge',
    description:
      'Lists the refunds of the account and mode, newest first, as a bare array; `charge_id` keeps those of one charge.',
    query: RefundListQuerySchema,
    answers: { 200: { description: 'The refunds', json: v.array(RefundViewSchema) } },
  },
  {
    method: 'GET',
    path: '/v1/refunds/{refund_id}/',
    handler: 'functions/refunds/get-refund.ts',
    operationId: 'getRefund',
    auth: true,
    access: { table: { actions: ['GetItem', 'Query'] } },
    summary: 'One refund, by its id or its re_ provider id',
    description: 'Shows one refund, looked up by its id or by its `re_` provider id.',
    answers: { 200: { description: 'The refund', json: RefundViewSchema } },
    errors: { 404: { description: 'No such refund', body: 'DetailError' } },
  },
];
