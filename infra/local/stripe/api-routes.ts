/**
 * The part of Stripe's API the stand-in answers, as data: method, path, the fault operations a call
 * counts as, and the handler. Every handler reads its parameters first and calls `params.done()`
 * before it changes anything, so an unknown parameter is refused with nothing done.
 */
import type Stripe from 'stripe';
import { randomToken } from '../../../shared/core/ids.ts';
import { createSession, expireSession, readSession } from './checkout.ts';
import { type Context, get, owned } from './context.ts';
import { invalidRequest } from './errors.ts';
import type { StandInOperation } from './faults.ts';
import { page, readPaging } from './lists.ts';
import { customerObject, webhookEndpointObject } from './objects.ts';
import type { Params } from './params.ts';
import { createPaymentIntent, listPaymentIntents, searchPaymentIntents } from './payment-intents.ts';
import { listBalanceTransactions, listPayouts } from './payouts.ts';
import { createRefund, listRefunds } from './refunds.ts';
import type { Collections } from './store.ts';

export interface ApiCall {
  params: Params;
  /** The path's `:name` parts, decoded. */
  path: Record<string, string>;
}

export interface ApiRoute {
  method: 'GET' | 'POST' | 'DELETE';
  /** `/v1/checkout/sessions/:id`: `:name` matches one path segment. */
  path: string;
  /** The fault operations a call of this route counts as (faults.ts). */
  faults: readonly StandInOperation[];
  /** Answers the object (200); throws StripeFailure for Stripe's errors. */
  handle(ctx: Context, call: ApiCall): unknown;
}

const lookup: readonly StandInOperation[] = ['lookup'];

/** GET of one object by the `:id` of the path. */
const retrieve =
  (collection: keyof Collections) =>
  (ctx: Context, { params, path }: ApiCall) => {
    params.done();
    return get(ctx, collection, path.id as string).object;
  };

function createCustomer(ctx: Context, params: Params): Stripe.Customer {
  const input = {
    email: params.string('email', { max: 512 }) ?? null,
    name: params.string('name', { max: 256 }) ?? null,
    metadata: params.metadata('metadata') ?? {},
    description: params.string('description', { max: 350 }) ?? null,
    phone: params.string('phone', { max: 20 }) ?? null,
  };
  params.done();
  const customer = owned(ctx, customerObject(ctx, input));
  ctx.store.add('customers', customer);
  return customer.object;
}

/** `*` or a dotted event type: Stripe's own list is longer than what the stand-in emits. */
const eventTypePattern = /^(\*|[a-z_]+(\.[a-z_]+)+)$/;

function createWebhookEndpoint(ctx: Context, params: Params): Stripe.WebhookEndpoint {
  const url = params.string('url', { required: true, max: 5000 }) as string;
  const events = params.strings('enabled_events');
  const description = params.string('description', { max: 5000 }) ?? null;
  const metadata = params.metadata('metadata') ?? {};
  const apiVersion = params.string('api_version') ?? null;
  params.done();
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol))
    throw invalidRequest('Invalid URL: must be an http or https URL.', { code: 'url_invalid', param: 'url' });
  if (!events || events.length === 0)
    throw invalidRequest('Missing required param: enabled_events.', {
      code: 'parameter_missing',
      param: 'enabled_events',
    });
  const wrong = events.find((type) => !eventTypePattern.test(type));
  if (wrong !== undefined)
    throw invalidRequest(`Invalid enabled_events: ${wrong} is not an event type.`, {
      code: 'parameter_invalid_string',
      param: 'enabled_events',
    });
  const endpoint = owned(
    ctx,
    webhookEndpointObject(ctx, {
      url,
      enabled_events: events,
      description,
      metadata,
      api_version: apiVersion,
    }),
  );
  const secret = `whsec_${randomToken(32)}`;
  ctx.store.add('webhookEndpoints', { ...endpoint, secret });
  // The secret is shown once, in the answer that made the endpoint, as at Stripe.
  return { ...endpoint.object, secret };
}

function deleteWebhookEndpoint(ctx: Context, params: Params, id: string) {
  params.done();
  const endpoint = get(ctx, 'webhookEndpoints', id);
  endpoint.object.status = 'disabled';
  ctx.store.collections.webhookEndpoints.delete(id);
  ctx.store.changed();
  return { id, object: 'webhook_endpoint', deleted: true };
}

function listEvents(ctx: Context, params: Params) {
  const type = params.string('type');
  const types = params.strings('types');
  const paging = readPaging(params);
  params.done();
  const wanted = types ?? (type === undefined ? undefined : [type]);
  // `charge.*`: Stripe's wildcard for every type under a prefix.
  const matches = (eventType: string) =>
    wanted === undefined ||
    wanted.some((want) =>
      want.endsWith('.*') ? eventType.startsWith(want.slice(0, -1)) : want === eventType,
    );
  const records = [...ctx.store.collections.events.values()].filter((record) => matches(record.object.type));
  return page(ctx, records, paging, '/v1/events');
}

function listSessions(ctx: Context, params: Params) {
  const customer = params.string('customer');
  const intent = params.string('payment_intent');
  const status = params.string('status', { oneOf: ['open', 'complete', 'expired'] });
  const paging = readPaging(params);
  params.done();
  const sessions = [...ctx.store.collections.checkoutSessions.values()];
  for (const record of sessions) {
    if (record.account === ctx.account.object.id && record.livemode === ctx.livemode)
      readSession(ctx, record.object.id);
  }
  const records = sessions.filter(
    (record) =>
      (customer === undefined || record.object.customer === customer) &&
      (intent === undefined || record.object.payment_intent === intent) &&
      (status === undefined || record.object.status === status),
  );
  return page(ctx, records, paging, '/v1/checkout/sessions');
}

function listWebhookEndpoints(ctx: Context, params: Params) {
  const paging = readPaging(params);
  params.done();
  return page(ctx, ctx.store.collections.webhookEndpoints.values(), paging, '/v1/webhook_endpoints');
}

export const apiRoutes: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/v1/account',
    faults: lookup,
    handle: (ctx, { params }) => {
      params.done();
      return ctx.account.object;
    },
  },
  {
    method: 'POST',
    path: '/v1/customers',
    faults: [],
    handle: (ctx, { params }) => createCustomer(ctx, params),
  },
  { method: 'GET', path: '/v1/customers/:id', faults: lookup, handle: retrieve('customers') },
  {
    method: 'POST',
    path: '/v1/checkout/sessions',
    faults: ['checkout_session_create'],
    handle: (ctx, { params }) => createSession(ctx, params),
  },
  {
    method: 'GET',
    path: '/v1/checkout/sessions',
    faults: lookup,
    handle: (ctx, { params }) => listSessions(ctx, params),
  },
  {
    method: 'GET',
    path: '/v1/checkout/sessions/:id',
    faults: ['checkout_session_read', 'lookup'],
    handle: (ctx, { params, path }) => {
      params.done();
      return readSession(ctx, path.id as string).object;
    },
  },
  {
    method: 'POST',
    path: '/v1/checkout/sessions/:id/expire',
    faults: ['checkout_session_expire'],
    handle: (ctx, { params, path }) => expireSession(ctx, path.id as string, params),
  },
  {
    method: 'POST',
    path: '/v1/payment_intents',
    faults: ['payment_intent_create'],
    handle: (ctx, { params }) => createPaymentIntent(ctx, params),
  },
  {
    method: 'GET',
    path: '/v1/payment_intents',
    faults: lookup,
    handle: (ctx, { params }) => listPaymentIntents(ctx, params),
  },
  {
    method: 'GET',
    path: '/v1/payment_intents/search',
    faults: lookup,
    handle: (ctx, { params }) => searchPaymentIntents(ctx, params),
  },
  { method: 'GET', path: '/v1/payment_intents/:id', faults: lookup, handle: retrieve('paymentIntents') },
  { method: 'GET', path: '/v1/setup_intents/:id', faults: lookup, handle: retrieve('setupIntents') },
  { method: 'GET', path: '/v1/payment_methods/:id', faults: lookup, handle: retrieve('paymentMethods') },
  { method: 'GET', path: '/v1/charges/:id', faults: lookup, handle: retrieve('charges') },
  {
    method: 'POST',
    path: '/v1/refunds',
    faults: ['refund_create'],
    handle: (ctx, { params }) => createRefund(ctx, params),
  },
  {
    method: 'GET',
    path: '/v1/refunds',
    faults: lookup,
    handle: (ctx, { params }) => listRefunds(ctx, params),
  },
  { method: 'GET', path: '/v1/refunds/:id', faults: lookup, handle: retrieve('refunds') },
  {
    method: 'GET',
    path: '/v1/balance_transactions',
    faults: lookup,
    handle: (ctx, { params }) => listBalanceTransactions(ctx, params),
  },
  {
    method: 'GET',
    path: '/v1/balance_transactions/:id',
    faults: lookup,
    handle: retrieve('balanceTransactions'),
  },
  {
    method: 'GET',
    path: '/v1/payouts',
    faults: lookup,
    handle: (ctx, { params }) => listPayouts(ctx, params),
  },
  { method: 'GET', path: '/v1/payouts/:id', faults: lookup, handle: retrieve('payouts') },
  { method: 'GET', path: '/v1/disputes/:id', faults: lookup, handle: retrieve('disputes') },
  { method: 'GET', path: '/v1/events', faults: lookup, handle: (ctx, { params }) => listEvents(ctx, params) },
  { method: 'GET', path: '/v1/events/:id', faults: lookup, handle: retrieve('events') },
  {
    method: 'POST',
    path: '/v1/webhook_endpoints',
    faults: [],
    handle: (ctx, { params }) => createWebhookEndpoint(ctx, params),
  },
  {
    method: 'GET',
    path: '/v1/webhook_endpoints',
    faults: lookup,
    handle: (ctx, { params }) => listWebhookEndpoints(ctx, params),
  },
  { method: 'GET', path: '/v1/webhook_endpoints/:id', faults: lookup, handle: retrieve('webhookEndpoints') },
  {
    method: 'DELETE',
    path: '/v1/webhook_endpoints/:id',
    faults: [],
    handle: (ctx, { params, path }) => deleteWebhookEndpoint(ctx, params, path.id as string),
  },
];

/** The route and path parameters for a request, if any route takes it. */
export function matchRoute(
  routes: readonly { method: string; path: string }[],
  method: string,
  pathname: string,
): { index: number; path: Record<string, string> } | undefined {
  const parts = pathname.split('/');
  for (const [index, route] of routes.entries()) {
    if (route.method !== method) continue;
    const pattern = route.path.split('/');
    if (pattern.length !== parts.length) continue;
    const path: Record<string, string> = {};
    const matched = pattern.every((segment, at) => {
      const part = parts[at] as string;
      if (!segment.startsWith(':')) return segment === part;
      if (part === '') return false;
      try {
        path[segment.slice(1)] = decodeURIComponent(part);
      } catch {
        return false;
      }
      return true;
    });
    if (matched) return { index, path };
  }
  return undefined;
}
