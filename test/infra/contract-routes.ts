/**
 * Every endpoint of the contract (the API's documented routes, with those of customers, taxes,
 * webhook endpoints and events), and the event rules and schedules the remaining features need, as
 * data: the stack test synthesizes a stack from them to project the template's size before the
 * endpoints exist. Handlers and access rows of endpoints not built yet are guesses, erring toward
 * more access (each distinct access row costs its own role, policy and log group); a row the route
 * table already has is taken from the route table instead.
 */
import { eventRules, schedules } from '../../shared/api/event-rules.ts';
import { routes } from '../../shared/api/routes.ts';
import { dashboardFunction } from '../../shared/dashboard/area.ts';
import {
  type Access,
  type HttpMethod,
  type Route,
  segments,
  type TableAction,
  type TableIndex,
} from '../../shared/http/route.ts';
import type { EventRule, Schedule } from '../../shared/stack/area.ts';

type Row = readonly [method: HttpMethod, path: string, handler: string, access: Access, auth?: false];

const read: Access = { table: { actions: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['gsi1', 'gsi2'] } };
const write: Access = {
  table: {
    actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
    indexes: ['gsi1', 'gsi2'],
  },
};
const writeEvents: Access = { ...write, events: true };
const writeMedia: Access = { ...write, media: 'write' };

/** The contract's endpoints, in its order; `{id}` where two routes share a path parameter. */
export const contractEndpoints: readonly Row[] = [
  // Served without credentials.
  ['GET', '/health', 'functions/system/health.ts', {}, false],
  ['GET', '/openapi.json', 'functions/system/get-openapi.ts', {}, false],
  ['POST', '/authentication/token/', 'functions/auth/create-token.ts', { ...read, tokenSecret: true }, false],
  ['GET', '/checkout/{token}', 'functions/checkout/show-checkout.ts', read, false],
  ['POST', '/checkout/{token}', 'functions/checkout/submit-checkout.ts', writeEvents, false],
  ['GET', '/checkout/{token}/challenge', 'functions/checkout/show-checkout.ts', read, false],
  ['POST', '/checkout/{token}/challenge', 'functions/checkout/complete-challenge.ts', writeEvents, false],
  ['GET', '/media/{name}', 'functions/media/get-image.ts', { media: 'read' }, false],
  // API keys.
  ['GET', '/v1/auth/api-keys/', 'functions/auth/get-api-keys.ts', read],
  ['PATCH', '/v1/auth/api-keys/', 'functions/auth/rotate-api-key.ts', writeEvents],
  // Plans.
  ['POST', '/v1/plans/', 'functions/plans/create-plan.ts', writeMedia],
  ['GET', '/v1/plans/', 'functions/plans/list-plans.ts', read],
  ['GET', '/v1/plans/{id}/', 'functions/plans/get-plan.ts', read],
  ['PUT', '/v1/plans/{id}/', 'functions/plans/update-plan.ts', writeMedia],
  ['DELETE', '/v1/plans/{id}/', 'functions/plans/delete-plan.ts', writeEvents],
  // Subscriptions: GET /v1/subscriptions/{x} is one route for a subscription id or a plan key.
  ['POST', '/v1/subscriptions', 'functions/subscriptions/create-subscription.ts', writeEvents],
  ['GET', '/v1/subscriptions', 'functions/subscriptions/list-subscriptions.ts', read],
  ['GET', '/v1/subscriptions/{id}', 'functions/subscriptions/get-subscription.ts', read],
  ['DELETE', '/v1/subscriptions/{id}', 'functions/subscriptions/cancel-subscription.ts', writeEvents],
  // Payment links.
  ['POST', '/v1/payment-links/', 'functions/payment-links/create-payment-link.ts', writeEvents],
  ['GET', '/v1/payment-links/', 'functions/payment-links/list-payment-links.ts', read],
  ['GET', '/v1/payment-links/{id}/', 'functions/payment-links/get-payment-link.ts', read],
  ['PUT', '/v1/payment-links/{id}/', 'functions/payment-links/update-payment-link.ts', writeEvents],
  ['DELETE', '/v1/payment-links/{id}/', 'functions/payment-links/delete-payment-link.ts', write],
  // Products.
  ['POST', '/v1/products/', 'functions/products/create-product.ts', writeMedia],
  ['GET', '/v1/products/', 'functions/products/list-products.ts', read],
  ['GET', '/v1/products/{id}/', 'functions/products/get-product.ts', read],
  ['PUT', '/v1/products/{id}/', 'functions/products/update-product.ts', writeMedia],
  ['DELETE', '/v1/products/{id}/', 'functions/products/delete-product.ts', { ...writeMedia, events: true }],
  // Refunds.
  ['POST', '/v1/refunds/', 'functions/refunds/create-refund.ts', writeEvents],
  ['GET', '/v1/refunds/{refund_id}/', 'functions/refunds/get-refund.ts', read],
  ['GET', '/v1/refunds/', 'functions/refunds/list-refunds.ts', read],
  // Payments.
  ['POST', '/v1/payments/', 'functions/payments/create-payment.ts', write],
  ['GET', '/v1/payments/{id}', 'functions/payments/get-payment.ts', read],
  ['GET', '/v1/payments/internal', 'functions/payments/list-payments.ts', read],
  ['GET', '/v1/payments/', 'functions/payments/list-payments.ts', read],
  // Customers: the search view is GET /v1/customers/ with `search`; then create, update, delete,
  // photo and addresses.
  ['GET', '/v1/customers/', 'functions/customers/list-customers.ts', read],
  ['GET', '/v1/customers/{id}/', 'functions/customers/get-customer.ts', read],
  ['POST', '/v1/customers/', 'functions/customers/create-customer.ts', write],
  ['PUT', '/v1/customers/{id}/', 'functions/customers/update-customer.ts', write],
  ['DELETE', '/v1/customers/{id}/', 'functions/customers/delete-customer.ts', writeMedia],
  ['PUT', '/v1/customers/{id}/photo/', 'functions/customers/put-customer-photo.ts', writeMedia],
  ['GET', '/v1/customers/{id}/addresses/', 'functions/customers/list-addresses.ts', read],
  ['POST', '/v1/customers/{id}/addresses/', 'functions/customers/create-address.ts', write],
  ['DELETE', '/v1/customers/{id}/addresses/{address_id}/', 'functions/customers/delete-address.ts', write],
  // Taxes.
  ['GET', '/v1/taxes/', 'functions/taxes/list-taxes.ts', read],
  ['POST', '/v1/taxes/', 'functions/taxes/create-tax.ts', write],
  // Webhook endpoints.
  ['GET', '/v1/webhook-endpoints/', 'functions/webhooks/list-webhook-endpoints.ts', read],
  ['POST', '/v1/webhook-endpoints/', 'functions/webhooks/create-webhook-endpoint.ts', write],
  ['GET', '/v1/webhook-endpoints/{id}/', 'functions/webhooks/get-webhook-endpoint.ts', read],
  ['PUT', '/v1/webhook-endpoints/{id}/', 'functions/webhooks/update-webhook-endpoint.ts', write],
  ['DELETE', '/v1/webhook-endpoints/{id}/', 'functions/webhooks/delete-webhook-endpoint.ts', write],
  ['GET', '/v1/webhook-endpoints/{id}/deliveries/', 'functions/webhooks/list-deliveries.ts', read],
  ['POST', '/v1/webhook-endpoints/{id}/rotate-secret/', 'functions/webhooks/rotate-webhook-secret.ts', write],
  // Events.
  ['GET', '/v1/events/', 'functions/events/list-events.ts', read],
  ['GET', '/v1/events/{id}/', 'functions/events/get-event.ts', read],
  ['POST', '/v1/events/{id}/redeliver/', 'functions/events/redeliver-event.ts', writeEvents],
  // Legacy charge (deprecated), and one charge by id.
  ['POST', '/v1/charges/simple/create/', 'functions/charges/create-simple-charge.ts', writeEvents],
  ['GET', '/v1/charges/{charge_id}/', 'functions/charges/get-charge.ts', read],
];

/**
 * The merchant dashboard's pages and forms not in the route table yet, granted as the sections
 * being built grant them: a list at `/dashboard/<things>`, one thing at `/dashboard/<things>/{id}`,
 * an action as a POST under it, and a destructive action (cancel, delete, rotate) behind a
 * confirmation page at the same path. Every one is served by the dashboard's one function (which
 * takes every request under `/dashboard` and is granted the union of its rows' access), without
 * the API's authorizer (a browser sends a session cookie, not an Authorization header); every row
 * reads the session and the account in one BatchGetItem and the fingerprint secret, as the built
 * pages do. The names say which page each row stands for.
 */
const signedIn = (
  actions: readonly TableAction[],
  extra: Omit<Access, 'table'> = {},
  indexes?: TableIndex[],
): Access => ({
  table: { actions: ['BatchGetItem', ...actions], ...(indexes ? { indexes } : {}) },
  fingerprintSecret: true,
  ...extra,
});
const writes = ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] as const;
const confirm = signedIn(['GetItem']);
export const dashboardEndpoints: readonly Row[] = (
  [
    // Customers and subscriptions.
    ['GET', '/dashboard/customers', 'list-customers', signedIn(['GetItem', 'Query'], {}, ['gsi1'])],
    ['GET', '/dashboard/customers/{id}', 'show-customer', signedIn(['GetItem', 'Query'], {}, ['gsi3'])],
    [
      'POST',
      '/dashboard/customers/{id}/portal',
      'make-portal-link',
      signedIn(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem']),
    ],
    [
      'GET',
      '/dashboard/subscriptions',
      'list-subscriptions',
      signedIn(['GetItem', 'Query'], {}, ['gsi1', 'gsi2']),
    ],
    ['GET', '/dashboard/subscriptions/{id}', 'show-subscription', signedIn(['GetItem'])],
    ['GET', '/dashboard/subscriptions/{id}/cancel', 'confirm-cancel-subscription', confirm],
    [
      'POST',
      '/dashboard/subscriptions/{id}/cancel',
      'cancel-subscription',
      signedIn([...writes, 'BatchWriteItem']),
    ],
    // Plans, products and payment links.
    ['GET', '/dashboard/plans', 'list-plans', signedIn(['GetItem', 'Query'], {}, ['gsi1'])],
    ['POST', '/dashboard/plans', 'create-plan', signedIn(writes, { media: 'write' }, ['gsi1'])],
    ['GET', '/dashboard/plans/{id}/delete', 'confirm-plan-delete', confirm],
    ['POST', '/dashboard/plans/{id}/delete', 'delete-plan', signedIn(writes, {}, ['gsi1'])],
    ['GET', '/dashboard/products', 'list-products', signedIn(['GetItem', 'Query'], {}, ['gsi1'])],
    ['POST', '/dashboard/products', 'create-product', signedIn(writes, { media: 'write' }, ['gsi1'])],
    ['GET', '/dashboard/products/{id}/delete', 'confirm-product-delete', confirm],
    [
      'POST',
      '/dashboard/products/{id}/delete',
      'delete-product',
      signedIn(writes, { media: 'write' }, ['gsi1']),
    ],
    ['GET', '/dashboard/links', 'list-links', signedIn(['GetItem', 'Query'], {}, ['gsi1'])],
    ['POST', '/dashboard/links', 'create-link', signedIn(writes, {}, ['gsi1'])],
    ['GET', '/dashboard/links/{id}/delete', 'confirm-link-delete', signedIn(['GetItem', 'Query'])],
    ['POST', '/dashboard/links/{id}/delete', 'delete-link', signedIn(writes, {}, ['gsi1'])],
    // Webhook endpoints and their deliveries, events, API keys.
    ['GET', '/dashboard/webhooks', 'list-webhook-endpoints', signedIn(['GetItem', 'Query'], {}, ['gsi1'])],
    [
      'POST',
      '/dashboard/webhooks',
      'create-webhook-endpoint',
      signedIn(writes, { webhookKey: true }, ['gsi1']),
    ],
    [
      'GET',
      '/dashboard/webhooks/{id}',
      'show-webhook-endpoint',
      signedIn(['GetItem', 'Query'], {}, ['gsi1']),
    ],
    ['POST', '/dashboard/webhooks/{id}/redeliver', 'redeliver-webhook', signedIn(writes, {}, ['gsi1'])],
    ['GET', '/dashboard/webhooks/{id}/rotate-secret', 'confirm-webhook-secret-rotation', confirm],
    [
      'POST',
      '/dashboard/webhooks/{id}/rotate-secret',
      'rotate-webhook-secret',
      signedIn(writes, { webhookKey: true }),
    ],
    ['GET', '/dashboard/webhooks/{id}/delete', 'confirm-webhook-endpoint-deletion', confirm],
    [
      'POST',
      '/dashboard/webhooks/{id}/delete',
      'delete-webhook-endpoint',
      signedIn(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem']),
    ],
    ['GET', '/dashboard/events', 'list-events', signedIn(['GetItem', 'Query'], {}, ['gsi1', 'gsi2'])],
    ['GET', '/dashboard/events/{id}', 'show-event', signedIn(['GetItem', 'Query'])],
    ['GET', '/dashboard/api-keys', 'list-api-keys', signedIn(['GetItem'])],
    ['GET', '/dashboard/api-keys/rotate', 'confirm-api-key-rotation', confirm],
    ['POST', '/dashboard/api-keys/rotate', 'rotate-api-key', signedIn(writes)],
  ] as const
).map(([method, path, _page, access]) => [method, path, dashboardFunction.handler, access, false]);

const routeKey = (method: string, path: string) => `${method} /${segments(path).join('/')}`;

/**
 * A guessed row yields to the route table's: the table's row is projected instead when it has the
 * guess's method and path. A handler may serve more than one path (the payments list, the
 * dashboard's one function), so only the method and path count.
 */
function built(table: readonly Route[], [method, path]: Row): boolean {
  return table.some((route) => routeKey(route.method, route.path) === routeKey(method, path));
}

/** The dashboard's guessed rows the route table does not have yet. */
export const dashboardGuesses: readonly Row[] = dashboardEndpoints.filter((row) => !built(routes, row));

/** The route table's rows, then a projected row for every contract endpoint the table lacks. */
export const projectedRoutes: readonly Route[] = [
  ...routes,
  ...[...contractEndpoints.filter((row) => !built(routes, row)), ...dashboardGuesses].map(
    ([method, path, handler, access, auth]) => ({
      method,
      path,
      handler,
      auth: auth ?? true,
      access,
      summary: `${method} ${path} (projected)`,
      description: 'A contract endpoint the route table does not have yet, projected for the resource count.',
      operationId: `projected ${method} ${path}`,
      answers: { 200: { description: 'Projected' } },
    }),
  ),
];

/** Every contract endpoint missing from a route table, as `METHOD /path`. */
export function missingFrom(table: readonly Route[]): string[] {
  const have = new Set(table.map((route) => routeKey(route.method, route.path)));
  return contractEndpoints.map(([method, path]) => routeKey(method, path)).filter((key) => !have.has(key));
}

/**
 * The rules there are (e-mail, the webhook fan-out and delivery), and, until a rule of the stats
 * area or the dashboard counts events, the counters behind the dashboard's overview as they are
 * being built: one function under `functions/stats/` taking the counted events and the internal
 * declines, through two rules.
 */
const counting = (target: string) =>
  target.startsWith('functions/stats/') || target.startsWith('functions/dashboard/');
export const projectedEventRules: readonly EventRule[] = [
  ...eventRules,
  ...(eventRules.some((rule) => counting(rule.target))
    ? []
    : (['stats-count', 'stats-count-internal'] as const).map(
        (name) =>
          ({
            name,
            detailTypes: ['charge.succeeded', 'refund.created', 'payment.failed', 'subscription.activated'],
            target: 'functions/stats/count-event.ts',
            access: { table: { actions: ['GetItem', 'PutItem', 'UpdateItem'] } },
          }) satisfies EventRule,
      )),
];

/** The schedules there are: payouts, webhook retries, recurring billing, recovery, reconciliation. */
export const projectedSchedules: readonly Schedule[] = schedules;
