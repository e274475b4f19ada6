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
    body: CreatePaymentSchema,
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
    answers: { 200: { description: 'The payment (single view)', json: PaymentViewSchema } },
    errors: { 404: { description: 'Payments not found (type danger)', body: 'MessageEnvelope' } },
  },
];
