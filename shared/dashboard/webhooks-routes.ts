/**
 * The dashboard's routes for webhook endpoints, their deliveries, events and API keys. The create
 * form and the events filter offer the event catalogue's types, which the list of areas hands in
 * (set in those functions' environment, as the API's create route does).
 */

import * as v from 'valibot';
import { pageRequestSchema } from '../core/pagination.ts';
import { queryParameter } from '../core/query.ts';
import type { Answer } from '../http/route.ts';
import { eventTypesEnvironment } from '../webhooks/endpoint.ts';
import { EventListQuerySchema, redeliveryLimits } from '../webhooks/events.ts';
import {
  type DashboardRoute,
  dashboardHandler,
  form,
  formErrors,
  html,
  pageErrors,
  signedIn,
  toSignIn,
} from './common-routes.ts';
import { withNotices } from './notice-query.ts';

const page: Answer = { description: 'The page', media: html };
const endpointNotFound = {
  404: { description: 'No such webhook endpoint in this account and mode', body: 'html' },
} as const;
const pageQuery = pageRequestSchema();
const badPage = {
  400: { description: 'A malformed `page` or `page_size`: the page, saying so', body: 'html' },
  404: { description: 'A page past the last, as the API refuses it: the page, saying so', body: 'html' },
} as const;
/** What the endpoints' reads and writes ask of the table, as the API's endpoint routes do. */
const endpointReads = { actions: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['gsi1'] } as const;
const endpointWrites = ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] as const;

export const webhookDashboardRoutes = (eventTypes: readonly string[]): readonly DashboardRoute[] => [
  {
    method: 'GET',
    path: '/dashboard/webhooks',
    handler: dashboardHandler,
    page: 'webhooks#showEndpoints',
    permission: 'read',
    operationId: 'showDashboardWebhookEndpoints',
    auth: false,
    access: signedIn({ ...endpointReads, actions: [...endpointReads.actions] }),
    environment: eventTypesEnvironment(eventTypes),
    summary: 'The webhook endpoints (HTML): the endpoints list, with its paging, and the form to add one',
    description:
      'Lists the webhook endpoints of the account and mode as GET /v1/webhook-endpoints/ does (never a secret), one numbered page at a time, and a form to add one: its URL, an optional description, and the event types as checkboxes (none: every event).',
    query: withNotices(pageQuery, { deleted: 'The webhook endpoint just deleted' }),
    answers: { 200: page, 303: toSignIn },
    errors: { ...pageErrors, ...badPage },
  },
  {
    method: 'POST',
    path: '/dashboard/webhooks',
    handler: dashboardHandler,
    page: 'webhooks#submitEndpoint',
    permission: 'webhooks',
    audit: 'webhook_endpoint.create',
    operationId: 'createWebhookEndpointFromDashboard',
    auth: false,
    access: { ...signedIn({ actions: [...endpointWrites], indexes: ['gsi1'] }), webhookKey: true },
    environment: eventTypesEnvironment(eventTypes),
    summary:
      'The add-endpoint form (form-encoded `url`, `description`, `events` repeated, `idempotency_key`, `csrf_token`): registers as POST /v1/webhook-endpoints/ does',
    description:
      'Registers the endpoint through the same code as POST /v1/webhook-endpoints/ (the same address checks, at most 16 per account and mode). The answer is the only page that shows its signing secret. The form acts once under its idempotency key: submitted again, it goes to the endpoint made the first time, whose secret is not shown again.',
    bodyTypes: form,
    answers: {
      201: { description: 'Added: the page showing the signing secret, this once', media: html },
      303: {
        description:
          'The same form submitted again: to the endpoint it made (or no session in force: to the sign-in form)',
        headers: { Location: 'The endpoint’s page.' },
      },
    },
    errors: {
      ...formErrors,
      400: {
        description:
          'Refused as POST /v1/webhook-endpoints/ refuses it (a malformed or unsafe URL, an unknown event type, 16 endpoints already): the form again, saying so',
        body: 'html',
      },
    },
  },
  {
    method: 'GET',
    path: '/dashboard/webhooks/{id}',
    handler: dashboardHandler,
    page: 'webhooks#showEndpoint',
    permission: 'read',
    operationId: 'showDashboardWebhookEndpoint',
    auth: false,
    access: signedIn({ ...endpointReads, actions: [...endpointReads.actions] }),
    summary: 'One webhook endpoint (HTML): its settings and its deliveries, each with a Redeliver form',
    description:
      'Shows the endpoint (never its secret) and its delivery attempts as GET /v1/webhook-endpoints/{id}/deliveries/ lists them, newest first and paged: the event, the attempt, the answer code, the error or answer recorded, the time taken and the next retry. Links to rotate its secret and to delete it, each through a confirmation step.',
    query: withNotices(pageQuery, {
      redelivered: 'The event just sent again',
      count: 'How many times that event has been sent again this hour',
      already: '`created` after a repeated create form, `redelivered` after a repeated redelivery',
    }),
    answers: { 200: page, 303: toSignIn },
    errors: {
      ...pageErrors,
      ...badPage,
      404: {
        description:
          'No such webhook endpoint in this account and mode, or a page past the last of its deliveries (then the first page, saying so)',
        body: 'html',
      },
    },
  },
  {
    method: 'POST',
    path: '/dashboard/webhooks/{id}/redeliver',
    handler: dashboardHandler,
    page: 'webhooks#submitRedeliver',
    permission: 'webhooks',
    audit: 'webhook.redeliver',
    operationId: 'redeliverFromDashboard',
    auth: false,
    access: signedIn({ actions: [...endpointWrites], indexes: ['gsi1'] }),
    summary:
      'The Redeliver form (form-encoded `event_id`, `idempotency_key`, `csrf_token`): sends the event to this endpoint again as POST /v1/events/{id}/redeliver/ does; 303 back',
    description: `Redelivers through the same code as POST /v1/events/{id}/redeliver/ with this endpoint named, within its limits (${redeliveryLimits.perEvent} redeliveries of an event, ${redeliveryLimits.perAccount} of the account's events, an hour). The form acts once under its idempotency key, so a double submit queues one redelivery.`,
    bodyTypes: form,
    answers: {
      303: {
        description: 'Queued, or the same form already was (or no session in force: to the sign-in form)',
        headers: { Location: 'The endpoint’s page, saying so.' },
      },
    },
    errors: {
      ...formErrors,
      400: { description: 'A form without its idempotency key: the page, saying so', body: 'html' },
      404: {
        description:
          'No such webhook endpoint in this account and mode, or no such event of the last 30 days',
        body: 'html',
      },
      409: {
        description: 'The endpoint is disabled',
        body: 'html',
      },
      429: {
        description: 'Past the redelivery limits: the page, saying when to try again (also in Retry-After)',
        body: 'html',
      },
    },
  },
  {
    method: 'GET',
    path: '/dashboard/webhooks/{id}/rotate-secret',
    handler: dashboardHandler,
    page: 'webhooks#showRotateSecret',
    permission: 'webhooks',
    operationId: 'confirmDashboardWebhookSecretRotation',
    auth: false,
    access: signedIn({ actions: ['GetItem'] }),
    summary: 'Asks to confirm the rotation of an endpoint’s signing secret (HTML)',
    description:
      'The confirmation step before a secret is rotated: what rotating does, the button, and a way back.',
    answers: { 200: page, 303: toSignIn },
    errors: { ...pageErrors, ...endpointNotFound },
  },
  {
    method: 'POST',
    path: '/dashboard/webhooks/{id}/rotate-secret',
    handler: dashboardHandler,
    page: 'webhooks#submitRotateSecret',
    permission: 'webhooks',
    audit: 'webhook_endpoint.rotate_secret',
    operationId: 'rotateWebhookSecretFromDashboard',
    auth: false,
    access: { ...signedIn({ actions: [...endpointWrites] }), webhookKey: true },
    summary:
      'The confirmed rotation (form-encoded `csrf_token`): rotates as POST /v1/webhook-endpoints/{id}/rotate-secret/ does',
    description:
      'Rotates the signing secret through the same code as the API; the answer is the only page that shows the new secret. The old secret signs beside it for 24 hours.',
    bodyTypes: form,
    answers: {
      200: { description: 'Rotated: the page showing the new secret, this once', media: html },
      303: toSignIn,
    },
    errors: {
      ...formErrors,
      ...endpointNotFound,
      409: { description: 'Other changes to the endpoint kept winning: nothing changed', body: 'html' },
    },
  },
  {
    method: 'GET',
    path: '/dashboard/webhooks/{id}/delete',
    handler: dashboardHandler,
    page: 'webhooks#showDeleteEndpoint',
    permission: 'webhooks',
    operationId: 'confirmDashboardWebhookEndpointDeletion',
    auth: false,
    access: signedIn({ actions: ['GetItem'] }),
    summary: 'Asks to confirm the deletion of a webhook endpoint (HTML)',
    description:
      'The confirmation step before an endpoint is deleted: what deleting does, the button, and a way back.',
    answers: { 200: page, 303: toSignIn },
    errors: { ...pageErrors, ...endpointNotFound },
  },
  {
    method: 'POST',
    path: '/dashboard/webhooks/{id}/delete',
    handler: dashboardHandler,
    page: 'webhooks#submitDeleteEndpoint',
    permission: 'webhooks',
    audit: 'webhook_endpoint.delete',
    operationId: 'deleteWebhookEndpointFromDashboard',
    auth: false,
    access: signedIn({ actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] }),
    summary:
      'The confirmed deletion (form-encoded `csrf_token`): deletes as DELETE /v1/webhook-endpoints/{id}/ does; 303 to the endpoints',
    description: 'Deletes the endpoint through the same code as the API: it receives nothing more.',
    bodyTypes: form,
    answers: {
      303: {
        description: 'Deleted (or no session in force: to the sign-in form)',
        headers: { Location: 'The endpoints list, saying so.' },
      },
    },
    errors: { ...formErrors, ...endpointNotFound },
  },
  {
    method: 'GET',
    path: '/dashboard/events',
    handler: dashboardHandler,
    page: 'events#showEvents',
    permission: 'read',
    operationId: 'showDashboardEvents',
    auth: false,
    access: signedIn({ actions: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['gsi1', 'gsi2'] }),
    environment: eventTypesEnvironment(eventTypes),
    summary: 'The events (HTML): the events list, with its paging (`page`, `page_size`) and `type` filter',
    description:
      'Lists the events of the last 30 days of the account and mode as GET /v1/events/ does, newest first, one numbered page at a time, optionally of one type.',
    query: EventListQuerySchema,
    answers: { 200: page, 303: toSignIn },
    errors: { ...pageErrors, ...badPage },
  },
  {
    method: 'GET',
    path: '/dashboard/events/{id}',
    handler: dashboardHandler,
    page: 'events#showEvent',
    permission: 'read',
    operationId: 'showDashboardEvent',
    auth: false,
    access: signedIn({ actions: ['GetItem', 'BatchGetItem', 'Query'] }),
    summary: 'One event (HTML): its JSON as GET /v1/events/{id}/ and webhooks show it',
    description: 'Shows the event of the last 30 days as the API shows it, pretty-printed.',
    answers: { 200: page, 303: toSignIn },
    errors: {
      ...pageErrors,
      404: { description: 'No such event of the last 30 days in this account and mode', body: 'html' },
    },
  },
  {
    method: 'GET',
    path: '/dashboard/api-keys',
    handler: dashboardHandler,
    page: 'keys#showKeys',
    permission: 'api_keys',
    operationId: 'showDashboardApiKeys',
    auth: false,
    access: signedIn({ actions: ['GetItem'] }),
    summary: 'The API keys (HTML): both keys, masked, as GET /v1/auth/api-keys/ shows them',
    description:
      'Shows the test and the live key as their prefix and last characters, and which of them the session may rotate (a session opened with the test key may rotate only the test key).',
    answers: { 200: page, 303: toSignIn },
    errors: { ...pageErrors, 404: { description: 'The account has no keys', body: 'html' } },
  },
  {
    method: 'GET',
    path: '/dashboard/api-keys/rotate',
    handler: dashboardHandler,
    page: 'keys#showRotateKey',
    permission: 'rotate_keys',
    operationId: 'confirmDashboardApiKeyRotation',
    auth: false,
    access: signedIn({ actions: ['GetItem'] }),
    summary: 'Asks to confirm the rotation of the `type` (test or live) key (HTML)',
    description:
      'The confirmation step before a key is rotated: what rotating does, and that rotating the key the session was opened with signs out. Without a valid `type`, the keys page.',
    query: v.object({
      type: queryParameter('string', 'The key to rotate: `test` or `live`.', v.string()),
    }),
    answers: { 200: page, 303: toSignIn },
    errors: pageErrors,
  },
  {
    method: 'POST',
    path: '/dashboard/api-keys/rotate',
    handler: dashboardHandler,
    page: 'keys#submitRotateKey',
    permission: 'rotate_keys',
    audit: 'api_key.rotate',
    operationId: 'rotateApiKeyFromDashboard',
    auth: false,
    access: signedIn({ actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] }),
    summary:
      'The confirmed key rotation (form-encoded `type`, `csrf_token`): rotates as PATCH /v1/auth/api-keys/ does; the answer shows the new key once',
    description:
      'Rotates through the same code as PATCH /v1/auth/api-keys/, as the key the session was opened with (a test key rotates only the test key). The answer is the only page that shows the new key. Rotating the key the session was opened with ends the session: the answer clears its cookie and links to sign in again.',
    bodyTypes: form,
    answers: {
      200: {
        description: 'Rotated: the new key, this once (and, for the session’s own key, the session cleared)',
        media: html,
        headers: { 'Set-Cookie': 'The session cookie, cleared, when the session’s own key was rotated.' },
      },
      303: toSignIn,
    },
    errors: {
      ...formErrors,
      400: { description: '`type` is not test or live: the keys page, saying so', body: 'html' },
      403: {
        description:
          'A session opened with the test key asked to rotate the live key, or the form expired: nothing changed',
        body: 'html',
      },
      409: { description: 'The key was rotated at the same moment by another request', body: 'html' },
    },
  },
];
