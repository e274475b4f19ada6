/**
 * What the route tests of the OpenAPI document share (openapi-routes-*.test.ts, one file per area):
 * the document as served, which routes each test exercises, and the checks of an answer against the
 * document (each success against the schema the document was made from, each error against the
 * error shape the document names).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { routes } from '../../shared/api/routes.ts';
import { errorSchemas } from '../../shared/core/envelopes.ts';
import type { HttpMethod, Route } from '../../shared/http/route.ts';
import type { DashboardAnswer } from '../support/dashboard.ts';
import { api, type Merchant, newMerchant } from '../support/stack.ts';

// biome-ignore lint/suspicious/noExplicitAny: the document is read at arbitrary paths
export type Doc = Record<string, any>;

export async function servedDocument(): Promise<Doc> {
  const response = await api('GET', '/openapi.json');
  expect(response.status, response.text).toBe(200);
  return response.json;
}

/**
 * A check of values against a component of the document, by a JSON Schema 2020-12 validator that
 * knows nothing of valibot: the messages of what does not match, none when it does. Ajv reads no
 * discriminator with a mapping, so the union is checked as the `oneOf` the discriminator qualifies.
 */
export function componentCheck(doc: Doc, name: string): (value: unknown) => string[] {
  const { discriminator: _read, ...union } = doc.components.schemas[name];
  const schemas = { ...doc.components.schemas, [name]: union };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validate = ajv.compile({
    $id: 'cobro',
    components: { schemas },
    $ref: `#/components/schemas/${name}`,
  });
  return (value) =>
    validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

export interface Answered {
  status: number;
  headers: Headers;
  text: string;
}

/** A dashboard page's answer as the document's checks read an answer. */
export const asAnswer = (answer: DashboardAnswer): Answered => ({
  status: answer.status,
  headers: answer.headers,
  text: answer.html,
});

export const routeName = (route: Route) => `${route.method} ${route.path}`;

const routeOf = (method: HttpMethod, path: string): Route => {
  const route = routes.find((candidate) => candidate.method === method && candidate.path === path);
  if (!route) throw new Error(`no route ${method} ${path} in the table`);
  return route;
};

export const issuesOf = (result: v.SafeParseResult<v.GenericSchema>) =>
  result.success ? [] : result.issues.map((issue) => `${v.getDotPath(issue) ?? '(body)'}: ${issue.message}`);

/**
 * The routes each route test exercises, by the file it is in (its area) and its name: between them,
 * the whole table, as openapi.test.ts checks. A test fails unless it exercised exactly its routes.
 */
export const routeCoverage = {
  payments: {
    'payments through the hosted checkout, with and without a 3-D Secure challenge': [
      'POST /v1/payments/',
      'GET /checkout/{token}',
      'POST /checkout/{token}',
      'GET /checkout/{token}/challenge',
      'POST /checkout/{token}/challenge',
      'GET /v1/payments/{id}',
      'GET /v1/payments/',
      'GET /v1/payments/internal',
    ],
    "a charge's receipt: the page and the PDF its e-mail links to": ['GET /receipts/{token}'],
    'refunds of a charge': [
      'POST /v1/refunds/',
      'GET /v1/refunds/',
      'GET /v1/refunds/{refund_id}/',
      'GET /v1/charges/{charge_id}/',
    ],
    'the deprecated legacy charge, from multipart fields': ['POST /v1/charges/simple/create/'],
    "the Stripe connector's routes: the return from Stripe's page, and Stripe's events": [
      'POST /v1/payments/',
      'GET /checkout/{token}',
      'POST /checkout/{token}',
      'GET /checkout/{token}/return',
      'POST /v1/connectors/stripe/{account_id}/events/',
    ],
  },
  resources: {
    'system and authentication routes': [
      'GET /health',
      'GET /openapi.json',
      'POST /authentication/token/',
      'GET /v1/auth/api-keys/',
    ],
    'plans, and the stored image a plan shows': [
      'POST /v1/plans/',
      'GET /v1/plans/',
      'GET /v1/plans/{id}/',
      'GET /media/{name}',
      'PUT /v1/plans/{id}/',
      'DELETE /v1/plans/{id}/',
    ],
    'key rotation: a test key may not rotate the live key (403); the live key rotates the test key': [
      'PATCH /v1/auth/api-keys/',
    ],
    'customers: the record, its photo, its addresses, the list and the search view': [
      'POST /v1/customers/',
      'GET /v1/customers/{id}/',
      'PUT /v1/customers/{id}/',
      'GET /v1/customers/',
      'PUT /v1/customers/{id}/photo/',
      'POST /v1/customers/{id}/addresses/',
      'GET /v1/customers/{id}/addresses/',
      'DELETE /v1/customers/{id}/addresses/{address_id}/',
      'DELETE /v1/customers/{id}/',
    ],
    'taxes and products, multipart with images': [
      'POST /v1/taxes/',
      'GET /v1/taxes/',
      'POST /v1/products/',
      'GET /v1/products/',
      'GET /v1/products/{id}/',
      'PUT /v1/products/{id}/',
      'DELETE /v1/products/{id}/',
    ],
    'webhook endpoints, their deliveries, and events': [
      'POST /v1/webhook-endpoints/',
      'GET /v1/webhook-endpoints/',
      'GET /v1/webhook-endpoints/{id}/',
      'PUT /v1/webhook-endpoints/{id}/',
      'POST /v1/webhook-endpoints/{id}/rotate-secret/',
      'GET /v1/webhook-endpoints/{id}/deliveries/',
      'GET /v1/events/',
      'GET /v1/events/{id}/',
      'POST /v1/events/{id}/redeliver/',
      'DELETE /v1/webhook-endpoints/{id}/',
    ],
    'subscriptions: create, get, the by-plan list, the list, a change and cancel': [
      'POST /v1/subscriptions',
      'GET /v1/subscriptions/{id}',
      'GET /v1/subscriptions',
      'PUT /v1/subscriptions/{id}',
      'DELETE /v1/subscriptions/{id}',
    ],
    'payment links: create (with and without customers), list, get, update and delete': [
      'POST /v1/payment-links/',
      'GET /v1/payment-links/',
      'GET /v1/payment-links/{id}/',
      'PUT /v1/payment-links/{id}/',
      'DELETE /v1/payment-links/{id}/',
    ],
    'the customer portal: its link, its page and a form of it': [
      'POST /v1/customers/{id}/portal/',
      'GET /portal/{token}',
      'POST /portal/{token}',
    ],
  },
  dashboard: {
    'the merchant dashboard: sign-in, its pages, a refund, the language switch and sign-out': [
      'GET /dashboard/sign-in',
      'POST /dashboard/sign-in',
      'GET /dashboard/',
      'GET /dashboard/charges',
      'GET /dashboard/charges/{id}',
      'POST /dashboard/charges/{id}/refunds',
      'POST /dashboard/language',
      'POST /dashboard/sign-out',
    ],
    'a person’s sign-in: the code step, a one-time link and the mode switch': [
      'POST /dashboard/sign-in',
      'POST /dashboard/sign-in/code',
      'GET /dashboard/access/{token}',
      'POST /dashboard/access/{token}',
      'POST /dashboard/mode',
    ],
    'the dashboard’s plans, products and payment links: lists, create forms, delete confirmations and forms':
      [
        'GET /dashboard/plans',
        'POST /dashboard/plans',
        'GET /dashboard/plans/{id}/delete',
        'POST /dashboard/plans/{id}/delete',
        'POST /dashboard/plans/{id}/active',
        'GET /dashboard/products',
        'POST /dashboard/products',
        'GET /dashboard/products/{id}/delete',
        'POST /dashboard/products/{id}/delete',
        'GET /dashboard/links',
        'POST /dashboard/links',
        'GET /dashboard/links/{id}/delete',
        'POST /dashboard/links/{id}/delete',
      ],
    'the dashboard’s webhook endpoints, events and API keys: lists, forms, confirmations': [
      'GET /dashboard/webhooks',
      'POST /dashboard/webhooks',
      'GET /dashboard/webhooks/{id}',
      'POST /dashboard/webhooks/{id}/redeliver',
      'GET /dashboard/webhooks/{id}/rotate-secret',
      'POST /dashboard/webhooks/{id}/rotate-secret',
      'GET /dashboard/webhooks/{id}/delete',
      'POST /dashboard/webhooks/{id}/delete',
      'GET /dashboard/events',
      'GET /dashboard/events/{id}',
      'GET /dashboard/api-keys',
      'GET /dashboard/api-keys/rotate',
      'POST /dashboard/api-keys/rotate',
    ],
    "the dashboard's customers and subscriptions: the lists, a customer, a portal link, a subscription, its end at the period's end, Resume and its cancel":
      [
        'GET /dashboard/customers',
        'GET /dashboard/customers/{id}',
        'POST /dashboard/customers/{id}/portal',
        'GET /dashboard/subscriptions',
        'GET /dashboard/subscriptions/{id}',
        'POST /dashboard/subscriptions/{id}/cancel-at-period-end',
        'POST /dashboard/subscriptions/{id}/resume',
        'GET /dashboard/subscriptions/{id}/cancel',
        'POST /dashboard/subscriptions/{id}/cancel',
      ],
    'the dashboard’s admin pages: users (an invitation, a role change, a removal), the audit log and the connectors':
      [
        'GET /dashboard/users',
        'POST /dashboard/users',
        'POST /dashboard/users/{id}/role',
        'GET /dashboard/users/{id}/remove',
        'POST /dashboard/users/{id}/remove',
        'GET /dashboard/audit',
        'GET /dashboard/connectors',
        'POST /dashboard/connectors/{mode}',
        'GET /dashboard/connectors/{mode}/disconnect',
        'POST /dashboard/connectors/{mode}/disconnect',
      ],
    'the dashboard’s profile: the page, a password change, and two-factor sign-in set up and turned off': [
      'GET /dashboard/profile',
      'POST /dashboard/profile/password',
      'POST /dashboard/profile/two-factor/start',
      'POST /dashboard/profile/two-factor',
      'POST /dashboard/profile/two-factor/remove',
    ],
  },
} satisfies Record<string, Record<string, readonly string[]>>;

export type RouteArea = keyof typeof routeCoverage;

/**
 * The route tests of an area, in the describe block that calls it: each with a merchant of its own,
 * exercising exactly the routes `routeCoverage` gives its name (as it checks at its end: no test
 * relies on what another made or answered), and the file holding every test the table names for
 * its area (checked once its tests ran).
 */
export function routeSuite(area: RouteArea) {
  let doc: Doc;
  beforeAll(async () => {
    doc = await servedDocument();
  });

  /** The routes a test answered with expectAnswer, cleared before each. */
  const exercised = new Set<Route>();
  beforeEach(() => exercised.clear());
  const covering: Record<string, readonly string[]> = routeCoverage[area];
  const registered: string[] = [];
  afterAll(() => {
    expect(registered.sort(), `the route tests of ${area}`).toEqual(Object.keys(covering).sort());
  });

  function routeTest(name: string, body: (merchant: Merchant) => Promise<void>) {
    registered.push(name);
    const covers = covering[name] ?? [];
    it(name, async () => {
      await body(await newMerchant('openapi'));
      expect([...exercised].map(routeName).sort()).toEqual([...covers].sort());
    });
  }

  /** A success answer: a declared status, and a body of the declared schema or media type. */
  function expectAnswer(method: HttpMethod, path: string, response: Answered): void {
    const route = routeOf(method, path);
    const label = `${method} ${path} → ${response.status}: ${response.text.slice(0, 500)}`;
    const answer = route.answers[response.status];
    expect(answer, label).toBeDefined();
    expect(doc.paths[path][method.toLowerCase()].responses[String(response.status)], label).toBeDefined();
    const type = response.headers.get('content-type') ?? '';
    if (answer?.json) {
      expect(type, label).toMatch(/^application\/json/);
      expect(issuesOf(v.safeParse(answer.json, JSON.parse(response.text))), label).toEqual([]);
    } else if (answer?.media) {
      expect(
        answer.media.some((media) => type.startsWith(media)),
        `${label} (${type})`,
      ).toBe(true);
    } else {
      expect(response.text, label).toBe('');
      for (const name of Object.keys(answer?.headers ?? {})) expect(response.headers.get(name)).toBeTruthy();
    }
    exercised.add(route);
  }

  /** An error answer: a status the document lists, with a body of the shape it names. */
  function expectError(method: HttpMethod, path: string, response: Answered, status: number): void {
    const label = `${method} ${path} → ${response.status}: ${response.text.slice(0, 500)}`;
    expect(response.status, label).toBe(status);
    const declared = doc.paths[path][method.toLowerCase()].responses[String(status)];
    expect(declared, `${label}: not in the document`).toBeDefined();
    const name = String(declared.content['application/json'].schema.$ref).split('/').pop();
    const schema = errorSchemas[name as keyof typeof errorSchemas];
    expect(issuesOf(v.safeParse(schema, JSON.parse(response.text))), `${label} as ${name}`).toEqual([]);
  }

  return {
    /** The document as served, read before the tests. */
    get doc() {
      return doc;
    },
    routeTest,
    expectAnswer,
    expectError,
  };
}
