/**
 * The webhooks area's routes: endpoints (docs/design.md#webhooks) and the events API. The event types
 * an endpoint may name come from the catalogue, which the list of areas hands in
 * (shared/api/areas.ts).
 */
import { linkedPageSchema, MessageSchema, messageEnvelope } from '../core/envelopes.ts';
import { pageRequestSchema } from '../core/pagination.ts';
import type { Route } from '../http/route.ts';
import {
  CreatedEndpointSchema,
  createEndpointSchema,
  DeliveryViewSchema,
  EndpointViewSchema,
  eventTypesEnvironment,
  RedeliverSchema,
  RotatedSecretSchema,
  updateEndpointSchema,
} from './endpoint.ts';
import { EventListQuerySchema, EventViewSchema, redeliveryLimits } from './events.ts';

const endpointNotFound = {
  404: { description: 'No such endpoint in this account and mode', body: 'MessageEnvelope' },
} as const;
const pageQuery = pageRequestSchema();

export const webhooksRoutes = (eventTypes: readonly string[]): readonly Route[] => [
  {
    method: 'GET',
    path: '/v1/webhook-endpoints/',
    handler: 'functions/webhooks/list-endpoints.ts',
    operationId: 'listWebhookEndpoints',
    auth: true,
    access: { table: { actions: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['gsi1'] } },
    summary: 'Webhook endpoints of the account in the request mode, newest first (Envelope B)',
    description:
      'Lists the webhook endpoints of the account and mode, newest first, one page at a time, never with their secrets.',
    query: pageQuery,
    answers: { 200: { description: 'Envelope B', json: linkedPageSchema(EndpointViewSchema) } },
  },
  {
    method: 'POST',
    path: '/v1/webhook-endpoints/',
    handler: 'functions/webhooks/create-endpoint.ts',
    operationId: 'createWebhookEndpoint',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
      webhookKey: true,
    },
    summary:
      'Register an endpoint (live: https, public addresses only); the answer is the only one besides rotation that shows the secret',
    description:
      'Registers a URL to receive the chosen event types (or `*` for all), at most 16 endpoints per account and mode. The address is checked before it is stored (live: https and public addresses only); the answer shows the signing secret, which is stored encrypted.',
    body: createEndpointSchema(eventTypes),
    environment: eventTypesEnvironment(eventTypes),
    errors: {
      400: {
        description:
          "Invalid input or malformed body; or the URL is refused: its host does not resolve, or resolves to an address cobro never calls (link-local, cloud metadata, the stack's own services; in live mode any private address); or the account already has 16 endpoints in the mode",
        body: 'MessageEnvelope',
      },
    },
    answers: {
      201: { description: 'Created; data has the secret', json: messageEnvelope(CreatedEndpointSchema) },
    },
  },
  {
    method: 'GET',
    path: '/v1/webhook-endpoints/{id}/',
    handler: 'functions/webhooks/get-endpoint.ts',
    operationId: 'getWebhookEndpoint',
    auth: true,
    access: { table: { actions: ['GetItem', 'BatchGetItem', 'Query'] } },
    summary: 'One endpoint (never its secret)',
    description:
      'Shows one endpoint: its URL, event types, description and whether it is enabled, never its secret.',
    answers: { 200: { description: 'The endpoint', json: EndpointViewSchema } },
    errors: endpointNotFound,
  },
  {
    method: 'PUT',
    path: '/v1/webhook-endpoints/{id}/',
    handler: 'functions/webhooks/update-endpoint.ts',
    operationId: 'updateWebhookEndpoint',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
    },
    summary: 'Change url, events, description or enabled (a disabled endpoint receives nothing)',
    description:
      'Changes the fields sent; a new URL is checked as on creation. `enabled: true` turns back on an endpoint that was disabled by a 410 answer.',
    body: updateEndpointSchema(eventTypes),
    environment: eventTypesEnvironment(eventTypes),
    answers: {
      200: { description: 'Updated; data is the endpoint', json: messageEnvelope(EndpointViewSchema) },
    },
    errors: {
      ...endpointNotFound,
      400: {
        description:
          "Invalid input or malformed body; or the URL is refused: its host does not resolve, or resolves to an address cobro never calls (link-local, cloud metadata, the stack's own services; in live mode any private address)",
        body: 'MessageEnvelope',
      },
    },
  },
  {
    method: 'DELETE',
    path: '/v1/webhook-endpoints/{id}/',
    handler: 'functions/webhooks/delete-endpoint.ts',
    operationId: 'deleteWebhookEndpoint',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
    },
    summary: 'Remove an endpoint',
    description: 'Removes the endpoint: it receives nothing more, from later events or from retries.',
    answers: { 200: { description: 'Deleted', json: MessageSchema } },
    errors: endpointNotFound,
  },
  {
    method: 'POST',
    path: '/v1/webhook-endpoints/{id}/rotate-secret/',
    handler: 'functions/webhooks/rotate-endpoint-secret.ts',
    operationId: 'rotateWebhookEndpointSecret',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
      webhookKey: true,
    },
    summary: 'A new signing secret; for 24 hours deliveries carry signatures with both',
    description:
      'Makes a new signing secret and shows it once. For 24 hours each delivery carries two signatures, by the old and the new secret, so the receiver can switch without losing a delivery.',
    answers: {
      200: { description: 'Rotated; data has the new secret', json: messageEnvelope(RotatedSecretSchema) },
    },
    errors: endpointNotFound,
  },
  {
    method: 'GET',
    path: '/v1/webhook-endpoints/{id}/deliveries/',
    handler: 'functions/webhooks/list-deliveries.ts',
    operationId: 'listWebhookDeliveries',
    auth: true,
    access: { table: { actions: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['gsi1'] } },
    summary: 'Every delivery attempt to the endpoint, newest first (Envelope B)',
    description:
      'Lists every attempt to deliver an event to the endpoint, newest first: the status code the endpoint answered or the error met, how long it took and when the next retry is due, so a merchant can see what failed and why.',
    query: pageQuery,
    answers: { 200: { description: 'Envelope B', json: linkedPageSchema(DeliveryViewSchema) } },
    errors: {
      404: {
        description: `${endpointNotFound[404].description}; or Invalid page: a page past the last (type warning)`,
        body: 'MessageEnvelope',
      },
    },
  },
  {
    method: 'GET',
    path: '/v1/events/',
    handler: 'functions/events/list-events.ts',
    operationId: 'listEvents',
    auth: true,
    access: { table: { actions: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['gsi1', 'gsi2'] } },
    summary: 'Events of the last 30 days, newest first (Envelope B), optionally of one `type`',
    description:
      "Lists the events of the account and mode stored in the last 30 days, newest first, one page at a time; `type` keeps those of one type. cobro's internal events are never listed.",
    query: EventListQuerySchema,
    answers: { 200: { description: 'Envelope B', json: linkedPageSchema(EventViewSchema) } },
  },
  {
    method: 'GET',
    path: '/v1/events/{id}/',
    handler: 'functions/events/get-event.ts',
    operationId: 'getEvent',
    auth: true,
    access: { table: { actions: ['GetItem', 'BatchGetItem', 'Query'] } },
    summary: 'One event, as webhooks deliver it',
    description:
      'Shows one event of the last 30 days with the body webhooks deliver: its id, type, creation time, mode and `data.object`.',
    answers: { 200: { description: 'The event', json: EventViewSchema } },
    errors: {
      404: {
        description: 'No such event in this account and mode, or older than 30 days',
        body: 'MessageEnvelope',
      },
    },
  },
  {
    method: 'POST',
    path: '/v1/events/{id}/redeliver/',
    handler: 'functions/events/redeliver-event.ts',
    operationId: 'redeliverEvent',
    auth: true,
    access: {
      table: {
        actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
        indexes: ['gsi1'],
      },
    },
    summary:
      'Send the event again (same webhook-id) to `endpoint_id`, or to every enabled endpoint that takes its type',
    description:
      'Sends the event again with its original webhook-id, to one endpoint or to every enabled endpoint that takes its type, and answers 202 before the deliveries run. At most 5 redeliveries per event and 100 per account and mode each hour, then 429.',
    body: RedeliverSchema,
    answers: { 202: { description: 'Queued', json: MessageSchema } },
    errors: {
      404: {
        description: 'No such event in this account and mode, or older than 30 days',
        body: 'MessageEnvelope',
      },
      409: { description: 'The endpoint named is disabled', body: 'MessageEnvelope' },
      429: {
        description: `Sent again too often: at most ${redeliveryLimits.perEvent} redeliveries of an event, and ${redeliveryLimits.perAccount} of an account's events in each mode, an hour (each hour counted from its first redelivery). Nothing is sent.`,
        body: 'MessageEnvelope',
        headers: { 'Retry-After': 'Seconds until the event (or account) may be sent again' },
      },
    },
  },
];
