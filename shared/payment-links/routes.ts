/** The payment links area's routes (assembled with the others in shared/api/routes.ts). */
import * as v from 'valibot';
import { linkedPageSchema, MessageSchema, messageEnvelope } from '../core/envelopes.ts';
import type { Route } from '../http/route.ts';
import { LinkListItemSchema, LinkViewSchema } from './link.ts';
import {
  CreatedCustomerLinkSchema,
  CreatedLinkSchema,
  CreatePaymentLinkSchema,
  LinkListQuerySchema,
  UpdatePaymentLinkSchema,
} from './schemas.ts';

const notFound = {
  404: { description: 'No such payment link in this account and mode', body: 'MessageEnvelope' },
} as const;

export const paymentLinksRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/v1/payment-links/',
    handler: 'functions/payment-links/create-payment-link.ts',
    operationId: 'createPaymentLink',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
    },
    summary:
      'A payment link (its page is a hosted checkout), or one per customer; customers by id, or found or created by e-mail',
    description:
      'Stores a payment link for a description and an amount (at least USD 1.00), whose hosted checkout page the merchant shares. With `customers` it makes one link per customer, each named by id or found or created by e-mail, and checks every entry before storing anything.',
    body: CreatePaymentLinkSchema,
    answers: {
      201: {
        description: 'Created: `data` {id, link}, or an array of {id, customer, customer_name, link}',
        json: messageEnvelope(v.union([CreatedLinkSchema, v.array(CreatedCustomerLinkSchema)])),
      },
    },
    errors: {
      400: {
        description:
          'Invalid input or malformed body; or the amount is below the equivalent of USD 1.00 in its currency',
        body: 'MessageEnvelope',
      },
      406: { description: 'No description: title Missing Data', body: 'MessageEnvelope' },
    },
  },
  {
    method: 'GET',
    path: '/v1/payment-links/',
    handler: 'functions/payment-links/list-payment-links.ts',
    operationId: 'listPaymentLinks',
    auth: true,
    access: { table: { actions: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['gsi1'] } },
    summary: 'Payment links, newest first, in Envelope B (`amount` a decimal string)',
    description:
      'Lists the payment links of the account and mode, newest first, one page at a time, with `amount` as a decimal string.',
    query: LinkListQuerySchema,
    answers: { 200: { description: 'Envelope B', json: linkedPageSchema(LinkListItemSchema) } },
  },
  {
    method: 'GET',
    path: '/v1/payment-links/{id}/',
    handler: 'functions/payment-links/get-payment-link.ts',
    operationId: 'getPaymentLink',
    auth: true,
    access: { table: { actions: ['GetItem', 'BatchGetItem', 'Query'] } },
    summary:
      'A payment link (`amount` a number) with its `payment_logs`: every payment attempt, newest first',
    description:
      'Shows one payment link with `amount` as a number and its `payment_logs`: every payment attempt made on its page, newest first.',
    answers: { 200: { description: 'The payment link', json: LinkViewSchema } },
    errors: notFound,
  },
  {
    method: 'PUT',
    path: '/v1/payment-links/{id}/',
    handler: 'functions/payment-links/update-payment-link.ts',
    operationId: 'updatePaymentLink',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
    },
    summary:
      'Change product, customer, active, recurring, next_date_of_payment or status; a paid link cannot be modified (406)',
    description:
      "Changes the link's product, customer, active flag, recurrence, next payment date or status; setting a status again reopens a page locked by five declines. A paid link cannot be changed (406), nor one whose page is taking a payment (409).",
    body: UpdatePaymentLinkSchema,
    answers: { 200: { description: 'Updated; data is the link', json: messageEnvelope(LinkListItemSchema) } },
    errors: {
      ...notFound,
      406: { description: 'The link is paid', body: 'MessageEnvelope' },
      409: { description: 'A payment of the link is under way', body: 'MessageEnvelope' },
    },
  },
  {
    method: 'DELETE',
    path: '/v1/payment-links/{id}/',
    handler: 'functions/payment-links/delete-payment-link.ts',
    operationId: 'deletePaymentLink',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
    },
    summary: 'Delete a payment link: its page stops taking payments; its charges stay',
    description:
      'Deletes the link at once, even while a payment is under way, and its page is gone. Charges already made stay; a payment approved after the delete is recorded and refunded in full.',
    answers: { 200: { description: 'Deleted', json: MessageSchema } },
    errors: {
      ...notFound,
      409: { description: 'A payment of the link is under way', body: 'MessageEnvelope' },
    },
  },
];
