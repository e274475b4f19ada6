/** The payments area's routes (assembled with the others in shared/api/routes.ts). */
import * as v from 'valibot';
import { ChargeViewSchema } from '../charges/schemas.ts';
import { messageEnvelope } from '../core/envelopes.ts';
import type { Route } from '../http/route.ts';
import { PaymentListQuerySchema } from './list-query.ts';
import { CreatedPaymentSchema, CreatePaymentSchema, PaymentViewSchema } from './schemas.ts';

export const paymentsRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/v1/payments/',
    handler: 'functions/payments/create-payment.ts',
    operationId: 'createPayment',
    auth: true,
    access: { table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] } },
    summary: 'Create a payment; 202 with id_payment and the hosted checkout URL to redirect to',
    description:
      'Stores a payment for an amount and currency with a checkout session, and answers the URL of its hosted checkout page to send the cardholder to; the card is charged only when that page is paid. `return_url`, where the page sends the cardholder after paying, is checked here (https in live mode).',
    body: CreatePaymentSchema,
    errors: {
      400: {
        description:
          'Invalid input or malformed body; or the amount is below the equivalent of USD 1.00 in its currency',
        body: 'MessageEnvelope',
      },
    },
    answers: {
      202: { description: 'Pending, with its checkout page', json: messageEnvelope(CreatedPaymentSchema) },
    },
  },
  {
    method: 'GET',
    path: '/v1/payments/',
    handler: 'functions/payments/list-payments.ts',
    operationId: 'listPayments',
    auth: true,
    access: { table: { actions: ['GetItem', 'Query'], indexes: ['gsi1'] } },
    summary: 'Charges of the account (list view), newest first, as a bare array',
    description:
      'Lists every charge of the account and mode, whatever made it (payments, subscriptions, payment links, direct charges), newest first, in the list view with amounts in major units. At most `limit` charges (100 by default), older ones with `created_before`.',
    query: PaymentListQuerySchema,
    answers: { 200: { description: 'The charges (list view)', json: v.array(ChargeViewSchema) } },
  },
  {
    method: 'GET',
    path: '/v1/payments/internal',
    handler: 'functions/payments/list-payments.ts',
    operationId: 'listPaymentsInternal',
    auth: true,
    access: { table: { actions: ['GetItem', 'Query'], indexes: ['gsi1'] } },
    summary: 'The same list as GET /v1/payments/',
    description: 'Answers exactly what GET /v1/payments/ answers, under the path some older clients call.',
    query: PaymentListQuerySchema,
    answers: { 200: { description: 'The charges (list view)', json: v.array(ChargeViewSchema) } },
  },
  {
    method: 'GET',
    path: '/v1/payments/{id}',
    handler: 'functions/payments/get-payment.ts',
    operationId: 'getPayment',
    auth: true,
    access: { table: { actions: ['GetItem', 'Query'] } },
    summary: 'One payment (single view, with charge_id)',
    description:
      'Shows one payment in its single view: decimal-string amounts, an upper-case currency, its status and `charge_id`, which is null until the payment is paid.',
    answers: { 200: { description: 'The payment (single view)', json: PaymentViewSchema } },
    errors: { 404: { description: 'Payments not found (type danger)', body: 'MessageEnvelope' } },
  },
];
