/** The customer portal's routes: the link a merchant asks for, and the page it opens. */
import { sizeText } from '../core/limits.ts';
import type { ErrorAnswer, Route } from '../http/route.ts';
import { PortalLinkViewSchema, portalFormBytes } from './schemas.ts';

const html = ['text/html'] as const;

const pageErrors = {
  404: { description: 'No portal under this token', body: 'html' },
  410: { description: 'The portal link expired', body: 'html' },
  500: { description: 'Unexpected failure, with a request id', body: 'MessageEnvelope' },
} as const satisfies Record<number, ErrorAnswer>;

export const portalRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/v1/customers/{id}/portal/',
    handler: 'functions/portal/create-portal.ts',
    operationId: 'createCustomerPortal',
    auth: true,
    access: { table: { actions: ['GetItem', 'PutItem'] } },
    summary: "A link to the customer's hosted portal, valid for one hour (201 `{url, expires_at}`)",
    description:
      'Makes a hosted page for one customer of the account and mode, where they see their subscriptions and payments, cancel a subscription and replace the card one is charged to. The link opens it for one hour; only a keyed hash of its token is stored.',
    answers: { 201: { description: 'The portal link and when it expires', json: PortalLinkViewSchema } },
    errors: { 404: { description: 'No such customer in this account and mode', body: 'MessageEnvelope' } },
  },
  {
    method: 'GET',
    path: '/portal/{token}',
    handler: 'functions/portal/show-portal.ts',
    operationId: 'showPortal',
    auth: false,
    access: { table: { actions: ['GetItem', 'Query'], indexes: ['gsi3'] }, fingerprintSecret: true },
    summary: "The customer portal page (HTML): the customer's subscriptions and payments",
    description:
      "Renders one customer's subscriptions (plan, amount per interval, status, next billing date, or the day one set to end ends) with forms to cancel one, resume one set to end, or replace its card, and their payments, in the reader's language, under a strict Content-Security-Policy, never framed or cached. An unknown link is 404, an expired one 410.",
    answers: { 200: { description: 'The portal page', media: html } },
    errors: pageErrors,
  },
  {
    method: 'POST',
    path: '/portal/{token}',
    handler: 'functions/portal/submit-portal.ts',
    operationId: 'submitPortal',
    auth: false,
    access: {
      table: {
        actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
        indexes: ['gsi3'],
      },
      fingerprintSecret: true,
    },
    summary:
      'A portal form posts here (form-encoded): cancel a subscription at the period’s end or at once, resume one set to end, or 303 to the page that replaces its card',
    description:
      'Checks the CSRF token, then acts on one of the customer\'s subscriptions. `cancel` answers a confirmation page with two choices, each posting a CSRF token of the confirmation\'s own (valid once, for 15 minutes): "Cancel at end of period" posts `cancel_at_period_end`, which sets `cancel_at_period_end` on the subscription (as `PUT /v1/subscriptions/{id}` does; the page then says the day it ends, the current period\'s or the trial\'s end, and nothing more is charged); "Cancel now" posts `confirm_cancel`, which cancels it at once (as the merchant\'s cancellation does, saying the customer asked for it; nothing paid is refunded). A past-due subscription is offered "Cancel now" alone. `resume` (the page\'s token) clears `cancel_at_period_end` until that day comes. `card` opens a card check page for it: once the new card is approved it is charged from then on, and a past-due period is charged on it at once.',
    bodyTypes: ['application/x-www-form-urlencoded'],
    answers: {
      200: {
        description:
          'The cancel confirmation page, or the portal page again saying what was done (canceled; ends on a date; resumed)',
        media: html,
      },
      303: {
        description: 'To the page where the new card is typed in',
        headers: { Location: 'The card page (`/checkout/{token}`).' },
      },
    },
    errors: {
      ...pageErrors,
      400: { description: 'No such subscription of this customer: the page again, saying so', body: 'html' },
      403: {
        description:
          'The form expired (CSRF token, or a cancel confirmation spent or too old): the page again',
        body: 'html',
      },
      409: {
        description:
          'The subscription is already canceled or has ended (nothing left to resume), is no longer billed, or is past due (it can only be canceled now): the page again, saying so',
        body: 'html',
      },
      413: { description: `A form body over ${sizeText(portalFormBytes)}`, body: 'MessageEnvelope' },
    },
  },
];
