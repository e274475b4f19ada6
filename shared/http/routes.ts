/**
 * The API's routes as data. The CDK app turns each row into an API Gateway method backed by its own
 * Lambda function; the local gateway reads the same rows. Adding an endpoint is one row here plus one
 * handler file.
 */

/** What a function may touch; the CDK app grants exactly this and nothing more. */
export interface Access {
  /** DynamoDB table access. @default none */
  table?: 'read' | 'write';
  /** May publish to the event bus. @default false */
  events?: boolean;
  /** May send e-mail through SES. @default false */
  mail?: boolean;
  /** Media bucket access. @default none */
  media?: 'read' | 'write';
  /** Reads the token signing secret. @default false */
  tokenSecret?: boolean;
  /**
   * Reads the secret that keys idempotency fingerprints. The CDK app sets it for every
   * authenticated POST (they all honour Idempotency-Key); rows need not. @default false
   */
  fingerprintSecret?: boolean;
}

import type { GenericSchema } from 'valibot';
import { RotateApiKeySchema, TokenRequestSchema } from '../auth/schemas.ts';
import { LegacyChargeSchema } from '../charges/legacy.ts';
import { paymentListParameters } from '../payments/list-query.ts';
import { CreatePaymentSchema } from '../payments/schemas.ts';
import { planListParameters } from '../plans/list-query.ts';
import { CreatePlanSchema, UpdatePlanSchema } from '../plans/schemas.ts';
import { CreateRefundSchema } from '../refunds/refund.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  method: HttpMethod;
  /** Path as the contract writes it; `{name}` marks a path parameter. */
  path: string;
  /** Handler module, relative to the project root; it exports `handler`. */
  handler: string;
  /** Whether the Lambda authorizer guards this route. */
  auth: boolean;
  access: Access;
  /** One line for the OpenAPI document. */
  summary: string;
  /** The request body the handler validates against, for the OpenAPI document. @default none */
  body?: GenericSchema;
  /** Query parameters the handler reads (besides `test`), for the OpenAPI document. @default none */
  query?: readonly QueryParameter[];
}

export interface QueryParameter {
  name: string;
  type: 'integer' | 'number' | 'string';
  description: string;
}

export const routes: readonly Route[] = [
  {
    method: 'GET',
    path: '/health',
    handler: 'functions/system/health.ts',
    auth: false,
    access: {},
    summary: 'Liveness, without credentials',
  },
  {
    method: 'GET',
    path: '/openapi.json',
    handler: 'functions/system/get-openapi.ts',
    auth: false,
    access: {},
    summary: 'This document',
  },
  {
    method: 'POST',
    path: '/authentication/token/',
    handler: 'functions/auth/create-token.ts',
    auth: false,
    access: { table: 'read', tokenSecret: true },
    summary: 'OAuth 2.0 client credentials: an access token for Bearer',
    body: TokenRequestSchema,
  },
  {
    method: 'GET',
    path: '/v1/auth/api-keys/',
    handler: 'functions/auth/get-api-keys.ts',
    auth: true,
    access: { table: 'read' },
    summary: 'Both API keys of the account, masked',
  },
  {
    method: 'PATCH',
    path: '/v1/auth/api-keys/',
    handler: 'functions/auth/rotate-api-key.ts',
    auth: true,
    access: { table: 'write', events: true },
    summary: 'Rotate the test or live key; the answer shows the new key once',
    body: RotateApiKeySchema,
  },
  {
    method: 'POST',
    path: '/v1/plans/',
    handler: 'functions/plans/create-plan.ts',
    auth: true,
    access: { table: 'write', media: 'write' },
    summary: 'Create a plan; 201 with data.id',
    body: CreatePlanSchema,
  },
  {
    method: 'GET',
    path: '/v1/plans/',
    handler: 'functions/plans/list-plans.ts',
    auth: true,
    access: { table: 'read' },
    summary: 'Plans, newest first, in Envelope A; filters combine with AND',
    query: planListParameters,
  },
  {
    method: 'GET',
    path: '/v1/plans/{id}/',
    handler: 'functions/plans/get-plan.ts',
    auth: true,
    access: { table: 'read' },
    summary: 'One plan',
  },
  {
    method: 'PUT',
    path: '/v1/plans/{id}/',
    handler: 'functions/plans/update-plan.ts',
    auth: true,
    access: { table: 'write', media: 'write' },
    summary: 'Change name, description, image, trial days or active; price and interval never change',
    body: UpdatePlanSchema,
  },
  {
    method: 'DELETE',
    path: '/v1/plans/{id}/',
    handler: 'functions/plans/delete-plan.ts',
    auth: true,
    access: { table: 'write', events: true },
    summary: 'Delete a plan for good; its active subscriptions are canceled',
  },
  {
    method: 'POST',
    path: '/v1/payments/',
    handler: 'functions/payments/create-payment.ts',
    auth: true,
    access: { table: 'write' },
    summary: 'Create a payment; 202 with id_payment and the hosted checkout URL to redirect to',
    body: CreatePaymentSchema,
  },
  {
    method: 'GET',
    path: '/v1/payments/',
    handler: 'functions/payments/list-payments.ts',
    auth: true,
    access: { table: 'read' },
    summary: 'Charges of the account (list view), newest first, as a bare array',
    query: paymentListParameters,
  },
  {
    method: 'GET',
    path: '/v1/payments/internal',
    handler: 'functions/payments/list-payments.ts',
    auth: true,
    access: { table: 'read' },
    summary: 'The same list as GET /v1/payments/',
    query: paymentListParameters,
  },
  {
    method: 'GET',
    path: '/v1/payments/{id}',
    handler: 'functions/payments/get-payment.ts',
    auth: true,
    access: { table: 'read' },
    summary: 'One payment (single view, with charge_id)',
  },
  {
    method: 'POST',
    path: '/v1/refunds/',
    handler: 'functions/refunds/create-refund.ts',
    auth: true,
    access: { table: 'write', events: true },
    summary: 'Refund a charge in full or in part; 201 with the refund',
    body: CreateRefundSchema,
  },
  {
    method: 'GET',
    path: '/v1/refunds/',
    handler: 'functions/refunds/list-refunds.ts',
    auth: true,
    access: { table: 'read' },
    summary: 'Refunds, newest first, as a bare array; charge_id narrows to one charge',
    query: [{ name: 'charge_id', type: 'string', description: 'Only the refunds of this charge.' }],
  },
  {
    method: 'GET',
    path: '/v1/refunds/{refund_id}/',
    handler: 'functions/refunds/get-refund.ts',
    auth: true,
    access: { table: 'read' },
    summary: 'One refund, by its id or its re_ provider id',
  },
  {
    method: 'POST',
    path: '/v1/charges/simple/create/',
    handler: 'functions/charges/create-simple-charge.ts',
    auth: true,
    access: { table: 'write', events: true },
    summary: 'Deprecated (use /v1/payments/): charge a card directly; multipart or form fields',
    body: LegacyChargeSchema,
  },
  {
    method: 'GET',
    path: '/checkout/{token}',
    handler: 'functions/checkout/show-checkout.ts',
    auth: false,
    access: { table: 'read' },
    summary: 'The hosted checkout page (HTML)',
  },
  {
    method: 'POST',
    path: '/checkout/{token}',
    handler: 'functions/checkout/submit-checkout.ts',
    auth: false,
    access: { table: 'write', events: true },
    summary: 'Pay: the checkout form posts here (form-encoded); 303 to return_url on success',
  },
  {
    method: 'GET',
    path: '/checkout/{token}/challenge',
    handler: 'functions/checkout/show-checkout.ts',
    auth: false,
    access: { table: 'read' },
    summary:
      'The checkout page again (HTML): the pending 3-D Secure challenge, or what GET /checkout/{token} shows',
  },
  {
    method: 'POST',
    path: '/checkout/{token}/challenge',
    handler: 'functions/checkout/complete-challenge.ts',
    auth: false,
    access: { table: 'write', events: true },
    summary: 'The answer to the 3-D Secure challenge (form-encoded)',
  },
  {
    method: 'GET',
    path: '/media/{name}',
    handler: 'functions/media/get-image.ts',
    auth: false,
    access: { media: 'read' },
    summary: 'A stored image (plan images), without credentials',
  },
];

/** Answers every request no route takes: 405 on a known path, 404 otherwise. */
export const fallback = { handler: 'functions/system/not-routed.ts', access: {} } as const;

/** The Lambda authorizer in front of every `auth: true` route. */
export const authorizer = {
  handler: 'functions/authorizer/authorize.ts',
  identityHeader: 'Authorization',
  /** API Gateway caches a result per Authorization value this long; a rotated key dies within it. */
  cacheTtlSeconds: 60,
  access: { table: 'read', tokenSecret: true } satisfies Access,
} as const;

/** Largest request body a handler receives (the Lambda synchronous payload limit). */
export const maxBodyBytes = 6 * 1024 * 1024;

/**
 * Content types API Gateway treats as binary. `*\/*`: API Gateway decides by the first type of a
 * request's Accept header, and a browser loading an image asks for image/avif or text/html first;
 * only this makes stored images arrive as images. The price is that every request body reaches
 * handlers base64-encoded, which they decode (shared/http/handler.ts bodyText).
 */
export const binaryMediaTypes = ['*/*'] as const;

/** Path segments, without empty ones: `/v1/plans/` and `/v1/plans` are the same resource. */
export function segments(path: string): string[] {
  return path.split('/').filter((part) => part.length > 0);
}

/** Matches a concrete path against a route path; returns its parameters, or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = segments(pattern);
  const got = segments(path);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const actual = got[i] as string;
    if (part.startsWith('{') && part.endsWith('}')) params[part.slice(1, -1)] = decodeURIComponent(actual);
    else if (part !== actual) return null;
  }
  return params;
}

/** The methods the routes allow on a path; empty when no route has that path. */
export function allowedMethods(path: string): HttpMethod[] {
  return routes.filter((route) => matchPath(route.path, path) !== null).map((route) => route.method);
}

/** The route for a method and path, with its path parameters. */
export function findRoute(
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | undefined {
  for (const route of routes) {
    if (route.method !== method) continue;
    const params = matchPath(route.path, path);
    if (params) return { route, params };
  }
  return undefined;
}
