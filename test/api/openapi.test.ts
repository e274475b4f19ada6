/**
 * GET /openapi.json is a valid OpenAPI 3.1 document that describes every route of the table and, under
 * `webhooks`, every event type of the catalogue; and every route answers the way it says: each success
 * is checked against the schema the document was made from, each error checked here against the error
 * shape the document names.
 */
import { createHmac } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import * as v from 'valibot';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiKeyRotated } from '../../shared/accounts/events.ts';
import { eventCatalogue } from '../../shared/api/events.ts';
import { routes } from '../../shared/api/routes.ts';
import { errorSchemas } from '../../shared/core/envelopes.ts';
import { defineEvent } from '../../shared/events/event.ts';
import {
  carriesObject,
  webhookBody,
  webhookBodySchema,
  webhookData,
} from '../../shared/events/webhook-body.ts';
import type { HttpMethod, Route } from '../../shared/http/route.ts';
import {
  cardFields,
  createPayment,
  csrfOf,
  openPage,
  paymentPath,
  payThroughCheckout,
  postForm,
  submitCard,
  testCards,
} from '../support/checkout.ts';
import { type DashboardAnswer, DashboardClient, formToken, hiddenField } from '../support/dashboard.ts';
import { hostileRequest } from '../support/hostile.ts';
import { jpeg } from '../support/images.ts';
import { waitForMail } from '../support/mail.ts';
import { api, apiKey, apiUrl, clientCredentials, type Merchant, newMerchant } from '../support/stack.ts';
import { connectStripe, payStripeSession, sessionIdOf, stripeApi } from '../support/stripe.ts';
import { subscribe } from '../support/subscriptions.ts';

// biome-ignore lint/suspicious/noExplicitAny: the document is read at arbitrary paths
type Doc = Record<string, any>;

async function servedDocument(): Promise<Doc> {
  const response = await api('GET', '/openapi.json');
  expect(response.status, response.text).toBe(200);
  return response.json;
}

/** A schema, or the component its `$ref` names. */
const resolved = (doc: Doc, schema: Doc): Doc =>
  typeof schema.$ref === 'string'
    ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')]
    : schema;

/**
 * A check of values against a component of the document, by a JSON Schema 2020-12 validator that
 * knows nothing of valibot: the messages of what does not match, none when it does. Ajv reads no
 * discriminator with a mapping, so the union is checked as the `oneOf` the discriminator qualifies.
 */
function componentCheck(doc: Doc, name: string): (value: unknown) => string[] {
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

/** Every value under `node` for which `test` holds, with its JSON path. */
function findAll(node: unknown, test: (key: string, value: unknown) => boolean, path = ''): string[] {
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => [
    ...(test(key, value) ? [`${path}/${key}`] : []),
    ...findAll(value, test, `${path}/${key}`),
  ]);
}

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document: JSON Schema 2020-12 nulls, unique operationIds', async () => {
    const doc = await servedDocument();
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)).toEqual([]);
    expect(result.valid).toBe(true);
    // 3.0's `nullable` means nothing in 3.1, and each schema is of the document's dialect.
    expect(findAll(doc, (key) => key === 'nullable' || key === '$schema')).toEqual([]);
    const image = doc.paths['/v1/plans/{id}/'].get.responses['200'].content['application/json'].schema;
    expect(findAll(image, (key, value) => key === 'type' && value === 'null').length).toBeGreaterThan(0);
    const ids = Object.values(doc.paths).flatMap((item) =>
      Object.values(item as Doc).map((operation) => operation.operationId),
    );
    expect(ids).toHaveLength(routes.length);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/v1/payments/internal'].get.operationId).toBe('listPaymentsInternal');
  });

  it('lists every route with its security, request body, answers and errors', async () => {
    const doc = await servedDocument();
    expect(doc.servers).toEqual([{ url: apiUrl }]);
    for (const route of routes) {
      const operation = doc.paths[route.path][route.method.toLowerCase()];
      expect(operation.operationId).toBe(route.operationId);
      expect(operation.summary).toBe(route.summary);
      expect(operation.security).toHaveLength(route.auth ? 3 : 0);
      expect(Boolean(operation.requestBody)).toBe(Boolean(route.body ?? route.bodyTypes));
      const statuses = Object.keys(operation.responses);
      expect(statuses).toEqual(expect.arrayContaining(Object.keys(route.answers)));
      expect(statuses).toEqual(expect.arrayContaining(Object.keys(route.errors ?? {})));
      expect(statuses).not.toContain('2XX');
      for (const status of statuses.filter((code) => Number(code) >= 400)) {
        const content = operation.responses[status].content;
        const ref = content['application/json']?.schema.$ref;
        if (ref) expect(Object.keys(errorSchemas)).toContain(ref.split('/').pop());
        else expect(Object.keys(content)).toEqual(['text/html']);
      }
    }
    const rotate = doc.paths['/v1/auth/api-keys/'].patch;
    expect(rotate.requestBody.content['application/json'].schema.properties.type.enum).toEqual([
      'test',
      'live',
    ]);
    expect(rotate.responses['403'].description).toContain('test key may rotate only the test key');
    const listPlans = doc.paths['/v1/plans/'].get;
    expect(listPlans.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['test', 'page', 'page_size', 'name', 'price_min', 'subscribers_max', 'status']),
    );
    expect(listPlans.responses['200'].content['application/json'].schema.required).toEqual([
      'count',
      'current_page',
      'total_pages',
      'results',
    ]);
    const createPlan = doc.paths['/v1/plans/'].post;
    expect(Object.keys(createPlan.responses)).toContain('201');
    expect(createPlan.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
    expect(createPlan.responses['409']).toBeDefined();
    expect(createPlan.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['name', 'currency', 'amount', 'interval', 'interval_count']),
    );
    const redeliver = doc.paths['/v1/events/{id}/redeliver/'].post;
    expect(redeliver.responses['429'].description).toContain('at most 5 redeliveries of an event');
    expect(redeliver.responses['429'].headers['Retry-After']).toBeDefined();
    expect(doc.paths['/v1/webhook-endpoints/{id}/'].put.responses['409'].description).toContain(
      'at the same time',
    );
    expect(Object.keys(doc.paths['/v1/payments/'].post.responses)).toContain('202');
    const legacy = doc.paths['/v1/charges/simple/create/'].post;
    expect(legacy.deprecated).toBe(true);
    expect(Object.keys(legacy.requestBody.content).sort()).toEqual([
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]);
    expect(legacy.responses['402'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/ErrorObject',
    );
    expect(doc.paths['/checkout/{token}'].post.responses['303'].headers.Location).toBeDefined();
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'apiKeyAuth',
      'basicAuth',
      'bearerAuth',
    ]);
  });

  it('names the configured base URL as its server, whatever Host and X-Forwarded-Proto say', async () => {
    const response = await hostileRequest('GET', '/openapi.json');
    expect(response.status, response.text).toBe(200);
    expect(response.json.servers).toEqual([{ url: apiUrl }]);
    expect(response.text).not.toContain('evil.example');
  });
});

describe('the webhooks of GET /openapi.json', () => {
  it('describe every event type of the catalogue: body, signature headers, answers', async () => {
    const doc = await servedDocument();
    const types = eventCatalogue.map((eventType) => eventType.type);
    expect(types.length).toBeGreaterThan(0);
    expect(Object.keys(doc.webhooks).sort()).toEqual([...types].sort());
    for (const eventType of eventCatalogue) {
      const label = eventType.type;
      const hook = doc.webhooks[eventType.type].post;
      expect(hook.summary, label).toMatch(/\S/);
      expect(hook.description, label).toContain('5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h');
      expect(hook.requestBody.required, label).toBe(true);
      const body = resolved(doc, hook.requestBody.content['application/json'].schema);
      expect(body.required, label).toEqual(['id', 'type', 'created_at', 'test', 'data']);
      expect(body.properties.type.const, label).toBe(eventType.type);
      expect(body.properties.created_at.format, label).toBe('date-time');
      expect(body.properties.test.type, label).toBe('boolean');
      expect(body.properties.data.required, label).toContain('object');
      expect(
        hook.parameters.map((parameter: { name: string; in: string; required: boolean }) => [
          parameter.name,
          parameter.in,
          parameter.required,
        ]),
        label,
      ).toEqual([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
      ]);
      expect(Object.keys(hook.responses), label).toEqual(expect.arrayContaining(['2XX', '410']));
    }
    // Data that carries its record is sent as stored; any other is wrapped as `object`.
    const paid = resolved(
      doc,
      doc.webhooks['payment.succeeded'].post.requestBody.content['application/json'].schema,
    );
    expect(paid.properties.data.properties.object.required).toEqual(expect.arrayContaining(['charge_id']));
    const rotated = resolved(
      doc,
      doc.webhooks['api_key.rotated'].post.requestBody.content['application/json'].schema,
    );
    expect(rotated.properties.data.properties.object.required).toEqual(['type', 'key', 'created_at']);
  });

  it('are typed variants of one Event, told apart by `type`, which the events API answers', async () => {
    const doc = await servedDocument();
    const event = doc.components.schemas.Event;
    const variants = event.oneOf.map(({ $ref }: { $ref: string }) => $ref);
    expect(event.discriminator.propertyName).toBe('type');
    for (const eventType of eventCatalogue) {
      const ref = doc.webhooks[eventType.type].post.requestBody.content['application/json'].schema.$ref;
      expect(event.discriminator.mapping[eventType.type], eventType.type).toBe(ref);
      expect(variants, eventType.type).toContain(ref);
      expect(resolved(doc, { $ref: ref }).properties.type.const, eventType.type).toBe(eventType.type);
    }
    expect(variants).toHaveLength(eventCatalogue.length);
    const one = doc.paths['/v1/events/{id}/'].get.responses['200'].content['application/json'].schema;
    expect(one).toEqual({ $ref: '#/components/schemas/Event' });
    const page = doc.paths['/v1/events/'].get.responses['200'].content['application/json'].schema;
    expect(page.properties.results.items).toEqual({ $ref: '#/components/schemas/Event' });
  });

  it('sign with Standard Webhooks headers: one or two `v1,` signatures, a seconds timestamp', async () => {
    const doc = await servedDocument();
    const headers = doc.webhooks['payment.succeeded'].post.parameters;
    const patternOf = (name: string) =>
      new RegExp(headers.find((parameter: { name: string }) => parameter.name === name).schema.pattern);
    const signature = patternOf('webhook-signature');
    expect(signature.test('v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=')).toBe(true);
    expect(signature.test('v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4= v1,bm9wZQ==')).toBe(true);
    expect(signature.test('K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=')).toBe(false);
    expect(patternOf('webhook-timestamp').test('1767225600')).toBe(true);
    expect(patternOf('webhook-timestamp').test('2026-01-01T00:00:00Z')).toBe(false);
  });
});

describe('webhookData', () => {
  it('keeps data that has an `object` key, the same value', () => {
    const data = { object: { id: 'pay_1' }, decline_reason: 'insufficient_funds' };
    expect(webhookData('payment.failed', data)).toBe(data);
    const empty = { object: null };
    expect(webhookData('x.y', empty)).toBe(empty);
  });

  it('wraps anything else as `object`', () => {
    const data = { type: 'test', key: 'sk_test_…', created_at: '2026-01-01T00:00:00.000Z' };
    expect(webhookData('api_key.rotated', data)).toEqual({ object: data });
    expect(webhookData('x.y', null)).toEqual({ object: null });
    expect(webhookData('x.y', 'text')).toEqual({ object: 'text' });
    expect(webhookData('x.y', [{ object: 1 }])).toEqual({ object: [{ object: 1 }] });
    expect(webhookData('x.y', Object.create({ object: 1 }))).toEqual({ object: {} });
  });

  it('agrees with the schema the document shows, for wrapped and carried data', () => {
    const now = new Date('2026-01-01T00:00:00.000Z');
    const owner = { developerId: 7, mode: 'test' as const };
    const rotated = apiKeyRotated.of(
      owner,
      { type: 'test', key: 'sk_test_…', created_at: now.toISOString() },
      now,
    );
    expect(carriesObject(apiKeyRotated.data)).toBe(false);
    const body = webhookBody(rotated);
    expect(body).toEqual({
      id: rotated.id,
      type: 'api_key.rotated',
      created_at: now.toISOString(),
      test: true,
      data: { object: rotated.data },
    });
    expect(issuesOf(v.safeParse(webhookBodySchema(apiKeyRotated), body))).toEqual([]);

    const carried = defineEvent(
      'thing.happened',
      v.object({ object: v.object({ id: v.string() }), n: v.number() }),
    );
    expect(carriesObject(carried.data)).toBe(true);
    const detail = carried.of(owner, { object: { id: 'a' }, n: 1 }, now);
    expect(webhookBody(detail).data).toBe(detail.data);
    expect(issuesOf(v.safeParse(webhookBodySchema(carried), webhookBody(detail)))).toEqual([]);
    expect(v.safeParse(webhookBodySchema(carried), { ...webhookBody(detail), type: 'other' }).success).toBe(
      false,
    );
  });
});

interface Answered {
  status: number;
  headers: Headers;
  text: string;
}

/** A dashboard page's answer as the document's checks read an answer. */
const asAnswer = (answer: DashboardAnswer): Answered => ({
  status: answer.status,
  headers: answer.headers,
  text: answer.html,
});

const routeName = (route: Route) => `${route.method} ${route.path}`;

const routeOf = (method: HttpMethod, path: string): Route => {
  const route = routes.find((candidate) => candidate.method === method && candidate.path === path);
  if (!route) throw new Error(`no route ${method} ${path} in the table`);
  return route;
};

const issuesOf = (result: v.SafeParseResult<v.GenericSchema>) =>
  result.success ? [] : result.issues.map((issue) => `${v.getDotPath(issue) ?? '(body)'}: ${issue.message}`);

describe('every route answers as the document says', () => {
  let doc: Doc;
  beforeAll(async () => {
    doc = await servedDocument();
  });

  /** The routes a test answered with expectAnswer, cleared before each. */
  const exercised = new Set<Route>();
  beforeEach(() => exercised.clear());
  /** The routes the tests below say they exercise: between them, the whole table (the last test). */
  const declared: string[] = [];

  /**
   * A test with a merchant of its own, which exercises exactly `covers` (routes of the table as
   * "METHOD /path"), as it checks at its end: no test relies on what another made or answered.
   */
  function routeTest(name: string, covers: readonly string[], body: (merchant: Merchant) => Promise<void>) {
    declared.push(...covers);
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

  routeTest(
    'system and authentication routes',
    ['GET /health', 'GET /openapi.json', 'POST /authentication/token/', 'GET /v1/auth/api-keys/'],
    async ({ account, auth }) => {
      expectAnswer('GET', '/health', await api('GET', '/health'));
      expectAnswer('GET', '/openapi.json', await api('GET', '/openapi.json'));
      const token = await api('POST', '/authentication/token/', { body: clientCredentials(account) });
      expectAnswer('POST', '/authentication/token/', token);
      const badGrant = await api('POST', '/authentication/token/', {
        body: { ...clientCredentials(account), grant_type: 'password' },
      });
      expectError('POST', '/authentication/token/', badGrant, 400);
      const wrongSecret = await api('POST', '/authentication/token/', {
        body: { ...clientCredentials(account), client_secret: 'nope' },
      });
      expectError('POST', '/authentication/token/', wrongSecret, 401);
      expectError('GET', '/v1/auth/api-keys/', await api('GET', '/v1/auth/api-keys/'), 401);
      expectAnswer('GET', '/v1/auth/api-keys/', await api('GET', '/v1/auth/api-keys/', { auth }));
    },
  );

  routeTest(
    'plans, and the stored image a plan shows',
    [
      'POST /v1/plans/',
      'GET /v1/plans/',
      'GET /v1/plans/{id}/',
      'GET /media/{name}',
      'PUT /v1/plans/{id}/',
      'DELETE /v1/plans/{id}/',
    ],
    async ({ auth }) => {
      const photo = jpeg();
      const created = await api('POST', '/v1/plans/', {
        auth,
        body: {
          name: 'Gold',
          currency: 'USD',
          amount: '10.00',
          interval: 'month',
          interval_count: 1,
          image: `data:image/jpeg;base64,${photo.toString('base64')}`,
        },
      });
      expectAnswer('POST', '/v1/plans/', created);
      const id = created.json.data.id as string;
      expectAnswer('GET', '/v1/plans/', await api('GET', '/v1/plans/', { auth }));
      expectError('GET', '/v1/plans/', await api('GET', '/v1/plans/?page=9', { auth }), 404);
      const one = await api('GET', `/v1/plans/${id}/`, { auth });
      expectAnswer('GET', '/v1/plans/{id}/', one);
      const image = await fetch(one.json.information.image);
      expectAnswer('GET', '/media/{name}', {
        status: image.status,
        headers: image.headers,
        text: `${(await image.arrayBuffer()).byteLength} bytes`,
      });
      const renamed = await api('PUT', `/v1/plans/${id}/`, { auth, body: { name: 'Platinum' } });
      expectAnswer('PUT', '/v1/plans/{id}/', renamed);
      expect(renamed.json.type).toBe('success');
      const unchanged = await api('PUT', `/v1/plans/${id}/`, { auth, body: { name: 'Platinum' } });
      expectAnswer('PUT', '/v1/plans/{id}/', unchanged);
      expect(unchanged.json.type).toBe('info');
      expectError(
        'POST',
        '/v1/plans/',
        await api('POST', '/v1/plans/', { auth, body: { name: 'No price' } }),
        400,
      );
      expectAnswer('DELETE', '/v1/plans/{id}/', await api('DELETE', `/v1/plans/${id}/`, { auth }));
      expectError('GET', '/v1/plans/{id}/', await api('GET', `/v1/plans/${id}/`, { auth }), 404);
    },
  );

  routeTest(
    'payments through the hosted checkout, with and without a 3-D Secure challenge',
    [
      'POST /v1/payments/',
      'GET /checkout/{token}',
      'POST /checkout/{token}',
      'GET /checkout/{token}/challenge',
      'POST /checkout/{token}/challenge',
      'GET /v1/payments/{id}',
      'GET /v1/payments/',
      'GET /v1/payments/internal',
    ],
    async ({ auth }) => {
      const first = await api('POST', '/v1/payments/', {
        auth,
        body: {
          amount: '25.00',
          description: 'Order 1',
          currency: 'USD',
          items: ['Mug'],
          return_url: 'https://shop.example.com/return',
        },
      });
      expectAnswer('POST', '/v1/payments/', first);
      const url = first.json.data.redirect as string;
      const page = await openPage(url);
      const asAnswer = (answer: Awaited<ReturnType<typeof openPage>>): Answered => ({
        status: answer.status,
        headers: answer.headers,
        text: answer.html,
      });
      expectAnswer('GET', '/checkout/{token}', asAnswer(page));
      const paid = await postForm(url, {
        csrf_token: csrfOf(page.html),
        email: 'buyer@example.com',
        cardholder_name: 'Ada Lovelace',
        card_number: testCards.approved,
        exp_month: '12',
        exp_year: String(new Date().getUTCFullYear() + 3),
        cvc: '123',
      });
      expectAnswer('POST', '/checkout/{token}', asAnswer(paid));
      expect(paid.status).toBe(303);

      const second = await createPayment(auth);
      const challenge = await submitCard(second.url, { card_number: testCards.challenge });
      expectAnswer('POST', '/checkout/{token}', asAnswer(challenge));
      expect(challenge.status).toBe(200);
      expectAnswer('GET', '/checkout/{token}/challenge', asAnswer(await openPage(`${second.url}/challenge`)));
      const passed = await postForm(`${second.url}/challenge`, {
        csrf_token: csrfOf(challenge.html),
        outcome: 'pass',
      });
      expectAnswer('POST', '/checkout/{token}/challenge', asAnswer(passed));
      expect(passed.status).toBe(303);

      const view = await api('GET', paymentPath(first.json.data.id_payment), { auth });
      expectAnswer('GET', '/v1/payments/{id}', view);
      expectError(
        'GET',
        '/v1/payments/{id}',
        await api('GET', paymentPath(`pay_${'x'.repeat(24)}`), { auth }),
        404,
      );
      for (const path of ['/v1/payments/', '/v1/payments/internal'] as const) {
        const list = await api('GET', `${path}?status=succeeded`, { auth });
        expectAnswer('GET', path, list);
        expect(list.json).toHaveLength(2);
      }
    },
  );

  routeTest(
    "a charge's receipt: the page and the PDF its e-mail links to",
    ['GET /receipts/{token}'],
    async ({ auth, account }) => {
      const email = `openapi-receipt-${account.developerId}@example.com`;
      await payThroughCheckout(auth, { card: { ...cardFields({ email }) } });
      const mail = await waitForMail(email, 'Test openapi: your receipt for "Order 1001"');
      const url = /^\S+\/receipts\/[A-Za-z0-9]+$/m.exec(mail?.body.text ?? '')?.[0] ?? '';
      const asAnswered = async (response: Response): Promise<Answered> => ({
        status: response.status,
        headers: response.headers,
        text: response.headers.get('content-type')?.startsWith('application/pdf')
          ? `${(await response.arrayBuffer()).byteLength} bytes`
          : await response.text(),
      });
      expectAnswer('GET', '/receipts/{token}', await asAnswered(await fetch(url)));
      const pdf = await asAnswered(await fetch(`${url}.pdf`));
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expectAnswer('GET', '/receipts/{token}', pdf);
      // An unknown token is the documented 404, an HTML page, for either form.
      for (const suffix of ['', '.pdf']) {
        const unknown = await fetch(`${apiUrl}/receipts/${'A'.repeat(43)}${suffix}`);
        expect(unknown.status).toBe(404);
        expect(unknown.headers.get('content-type')).toMatch(/^text\/html/);
      }
      expect(doc.paths['/receipts/{token}'].get.responses['404'].content['text/html']).toBeDefined();
    },
  );

  routeTest(
    'refunds of a charge',
    ['POST /v1/refunds/', 'GET /v1/refunds/', 'GET /v1/refunds/{refund_id}/', 'GET /v1/charges/{charge_id}/'],
    async ({ auth }) => {
      const { chargeId } = await payThroughCheckout(auth);
      const refund = await api('POST', '/v1/refunds/', {
        auth,
        body: { charge_id: chargeId, amount: '5.00', reason: 'requested_by_customer' },
      });
      expectAnswer('POST', '/v1/refunds/', refund);
      const tooMuch = await api('POST', '/v1/refunds/', {
        auth,
        body: { charge_id: chargeId, amount: '500.00', reason: 'duplicate' },
      });
      expectError('POST', '/v1/refunds/', tooMuch, 400);
      const list = await api('GET', `/v1/refunds/?charge_id=${chargeId}`, { auth });
      expectAnswer('GET', '/v1/refunds/', list);
      expect(list.json).toHaveLength(1);
      const path = '/v1/refunds/{refund_id}/';
      expectAnswer('GET', path, await api('GET', `/v1/refunds/${refund.json.provider_refund_id}/`, { auth }));
      expectError('GET', path, await api('GET', `/v1/refunds/${'x'.repeat(24)}/`, { auth }), 404);
      const charge = await api('GET', `/v1/charges/${chargeId}/`, { auth });
      expectAnswer('GET', '/v1/charges/{charge_id}/', charge);
      expect(charge.json).toMatchObject({
        id: chargeId,
        amount_refunded: 5,
        refund: { amount: 5, refunded: false },
      });
      expectError(
        'GET',
        '/v1/charges/{charge_id}/',
        await api('GET', `/v1/charges/ch_${'x'.repeat(24)}/`, { auth }),
        404,
      );
    },
  );

  routeTest(
    'the deprecated legacy charge, from multipart fields',
    ['POST /v1/charges/simple/create/'],
    async ({ auth }) => {
      const charge = async (number: string) => {
        const form = new FormData();
        const fields = {
          amount: '10.00',
          currency: 'usd',
          description: 'Legacy order',
          credit_card_number: number,
          credit_card_security_code_number: '123',
          exp_month: '12',
          exp_year: String(new Date().getUTCFullYear() + 3),
        };
        for (const [name, value] of Object.entries(fields)) form.append(name, value);
        const response = await fetch(`${apiUrl}/v1/charges/simple/create/`, {
          method: 'POST',
          headers: { Authorization: auth },
          body: form,
        });
        return { status: response.status, headers: response.headers, text: await response.text() };
      };
      expectAnswer('POST', '/v1/charges/simple/create/', await charge(testCards.approved));
      expectError('POST', '/v1/charges/simple/create/', await charge(testCards.genericDecline), 402);
    },
  );

  routeTest(
    'key rotation: a test key may not rotate the live key (403); the live key rotates the test key',
    ['PATCH /v1/auth/api-keys/'],
    async ({ account, auth }) => {
      const path = '/v1/auth/api-keys/';
      const refused = await api('PATCH', path, { auth, body: { type: 'live' } });
      expectError('PATCH', path, refused, 403);
      expectError('PATCH', path, await api('PATCH', path, { auth, body: { type: 'both' } }), 400);
      // The request's parsing answers its own 400s flat (not nested in `message`), which the document lists too.
      for (const flat of [
        await api('PATCH', path, {
          auth,
          rawBody: '{"type":',
          headers: { 'Content-Type': 'application/json' },
        }),
        await api('PATCH', `${path}?test=true&test=true`, { auth, body: { type: 'test' } }),
      ]) {
        expectError('PATCH', path, flat, 400);
        expect(issuesOf(v.safeParse(errorSchemas.MessageEnvelope, JSON.parse(flat.text))), flat.text).toEqual(
          [],
        );
      }
      const rotated = await api('PATCH', path, { auth: apiKey(account.liveKey), body: { type: 'test' } });
      expectAnswer('PATCH', path, rotated);
      expect(rotated.json.data.key).toMatch(/^sk_test_/);
    },
  );

  routeTest(
    'customers: the record, its photo, its addresses, the list and the search view',
    [
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
    async ({ auth }) => {
      const email = `openapi-${Date.now()}@example.com`;
      const created = await api('POST', '/v1/customers/', {
        auth,
        body: { first_name: 'Opal', last_name: 'Api', email, metadata: { k: 'v' } },
      });
      expectAnswer('POST', '/v1/customers/', created);
      const id = created.json.data.id as string;
      const path = `/v1/customers/${id}/`;
      expectAnswer('GET', '/v1/customers/{id}/', await api('GET', path, { auth }));
      expectError(
        'GET',
        '/v1/customers/{id}/',
        await api('GET', '/v1/customers/00000000-0000-4000-8000-000000000000/', { auth }),
        404,
      );
      expectAnswer('PUT', '/v1/customers/{id}/', await api('PUT', path, { auth, body: { phone: '1' } }));
      // The table stores no map with an empty key: such metadata is refused, never a 500.
      for (const metadata of [{ '': 'x' }, { a: { '': 'x' } }]) {
        expectError('PUT', '/v1/customers/{id}/', await api('PUT', path, { auth, body: { metadata } }), 400);
      }
      expectAnswer('GET', '/v1/customers/', await api('GET', '/v1/customers/', { auth }));
      expectAnswer('GET', '/v1/customers/', await api('GET', '/v1/customers/?search=opal', { auth }));
      expectError(
        'GET',
        '/v1/customers/',
        await api('GET', '/v1/customers/?search=nobody-here', { auth }),
        404,
      );
      expectError('GET', '/v1/customers/', await api('GET', '/v1/customers/?page=9', { auth }), 404);
      const form = new FormData();
      const png = Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      );
      form.set('photo', new Blob([png], { type: 'image/png' }), 'p.png');
      const photo = await fetch(`${apiUrl}${path}photo/`, {
        method: 'PUT',
        headers: { Authorization: auth },
        body: form,
      });
      expectAnswer('PUT', '/v1/customers/{id}/photo/', {
        status: photo.status,
        headers: photo.headers,
        text: await photo.text(),
      });
      const addresses = `${path}addresses/`;
      const added = await api('POST', addresses, { auth, body: { line1: '1 Main St' } });
      expectAnswer('POST', '/v1/customers/{id}/addresses/', added);
      await api('POST', addresses, { auth, body: { line1: '2 Main St' } });
      await api('POST', addresses, { auth, body: { line1: '3 Main St' } });
      expectError(
        'POST',
        '/v1/customers/{id}/addresses/',
        await api('POST', addresses, { auth, body: { line1: '4' } }),
        406,
      );
      expectAnswer('GET', '/v1/customers/{id}/addresses/', await api('GET', addresses, { auth }));
      expectAnswer(
        'DELETE',
        '/v1/customers/{id}/addresses/{address_id}/',
        await api('DELETE', `${addresses}${added.json.data.id}/`, { auth }),
      );
      expectAnswer('DELETE', '/v1/customers/{id}/', await api('DELETE', path, { auth }));
    },
  );

  routeTest(
    'taxes and products, multipart with images',
    [
      'POST /v1/taxes/',
      'GET /v1/taxes/',
      'POST /v1/products/',
      'GET /v1/products/',
      'GET /v1/products/{id}/',
      'PUT /v1/products/{id}/',
      'DELETE /v1/products/{id}/',
    ],
    async ({ auth }) => {
      const tax = await api('POST', '/v1/taxes/', { auth, body: { name: 'IVA', value: '13' } });
      expectAnswer('POST', '/v1/taxes/', tax);
      expectAnswer('GET', '/v1/taxes/', await api('GET', '/v1/taxes/', { auth }));
      const png = Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      );
      const send = async (method: string, path: string, fields: Record<string, string | Buffer>) => {
        const form = new FormData();
        for (const [name, value] of Object.entries(fields)) {
          if (typeof value === 'string') form.append(name, value);
          else form.append(name, new Blob([value], { type: 'image/png' }), 'p.png');
        }
        const response = await fetch(`${apiUrl}${path}`, {
          method,
          headers: { Authorization: auth },
          body: form,
        });
        return { status: response.status, headers: response.headers, text: await response.text() };
      };
      const created = await send('POST', '/v1/products/', {
        name: 'Mug',
        price: '10.00',
        taxes: String(tax.json.data.id),
        recurrence: '{"recurrence":"period","duration_period":1}',
        image_default: png,
        images: png,
      });
      expectAnswer('POST', '/v1/products/', created);
      const id = JSON.parse(created.text).data.id as string;
      expectAnswer('GET', '/v1/products/', await api('GET', '/v1/products/?search=mug', { auth }));
      expectError('GET', '/v1/products/', await api('GET', '/v1/products/?page=99', { auth }), 404);
      expectAnswer('GET', '/v1/products/{id}/', await api('GET', `/v1/products/${id}/`, { auth }));
      expectAnswer(
        'PUT',
        '/v1/products/{id}/',
        await send('PUT', `/v1/products/${id}/`, { name: 'Cup', default: '-remove-' }),
      );
      expectAnswer('DELETE', '/v1/products/{id}/', await api('DELETE', `/v1/products/${id}/`, { auth }));
      expectError('GET', '/v1/products/{id}/', await api('GET', `/v1/products/${id}/`, { auth }), 404);
    },
  );

  routeTest(
    'webhook endpoints, their deliveries, and events',
    [
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
    async ({ auth }) => {
      const endpoints = '/v1/webhook-endpoints/';
      const created = await api('POST', endpoints, { auth, body: { url: 'http://127.0.0.1:9/hooks' } });
      expectAnswer('POST', endpoints, created);
      const id = created.json.data.id as string;
      expectError('POST', endpoints, await api('POST', endpoints, { auth, body: { url: 'ftp://x' } }), 400);
      expectAnswer('GET', endpoints, await api('GET', endpoints, { auth }));
      expectError('GET', endpoints, await api('GET', `${endpoints}?page=99`, { auth }), 404);
      const one = `${endpoints}${id}/`;
      expectAnswer('GET', '/v1/webhook-endpoints/{id}/', await api('GET', one, { auth }));
      expectError(
        'GET',
        '/v1/webhook-endpoints/{id}/',
        await api('GET', `${endpoints}we_AAAAAAAAAAAAAAAAAAAAAAAA/`, { auth }),
        404,
      );
      expectAnswer(
        'PUT',
        '/v1/webhook-endpoints/{id}/',
        await api('PUT', one, { auth, body: { enabled: false } }),
      );
      expectAnswer(
        'POST',
        '/v1/webhook-endpoints/{id}/rotate-secret/',
        await api('POST', `${one}rotate-secret/`, { auth }),
      );
      expectAnswer(
        'GET',
        '/v1/webhook-endpoints/{id}/deliveries/',
        await api('GET', `${one}deliveries/`, { auth }),
      );
      expectError(
        'GET',
        '/v1/webhook-endpoints/{id}/deliveries/',
        await api('GET', `${one}deliveries/?page=99`, { auth }),
        404,
      );
      const { id: paymentId } = await payThroughCheckout(auth); // stores payment.succeeded
      const events = await api('GET', '/v1/events/', { auth });
      expectAnswer('GET', '/v1/events/', events);
      expectAnswer('GET', '/v1/events/', await api('GET', '/v1/events/?type=payment.succeeded', { auth }));
      expectError('GET', '/v1/events/', await api('GET', '/v1/events/?page=99', { auth }), 404);
      const eventId = events.json.results[0]?.id as string;
      expect(events.json.results.map((event: Doc) => event.data.object.id)).toContain(paymentId);
      const event = await api('GET', `/v1/events/${eventId}/`, { auth });
      expectAnswer('GET', '/v1/events/{id}/', event);
      // Each event is the typed variant of its type that the document's Event union names.
      const asEvent = componentCheck(await servedDocument(), 'Event');
      for (const shown of [...events.json.results, event.json])
        expect(asEvent(shown), shown.type).toEqual([]);
      expect(asEvent({ ...event.json, type: 'plan.deleted' }), 'a payment as plan.deleted').not.toEqual([]);
      expectError(
        'GET',
        '/v1/events/{id}/',
        await api('GET', '/v1/events/evt_AAAAAAAAAAAAAAAAAAAAAAAA/', { auth }),
        404,
      );
      expectAnswer(
        'POST',
        '/v1/events/{id}/redeliver/',
        await api('POST', `/v1/events/${eventId}/redeliver/`, { auth, body: {} }),
      );
      expectError(
        'POST',
        '/v1/events/{id}/redeliver/',
        await api('POST', `/v1/events/${eventId}/redeliver/`, { auth, body: { endpoint_id: id } }),
        409,
      );
      expectAnswer('DELETE', '/v1/webhook-endpoints/{id}/', await api('DELETE', one, { auth }));
    },
  );

  routeTest(
    'subscriptions: create, get, the by-plan list, the list and cancel',
    [
      'POST /v1/subscriptions',
      'GET /v1/subscriptions/{id}',
      'GET /v1/subscriptions',
      'DELETE /v1/subscriptions/{id}',
    ],
    async ({ auth }) => {
      const plan = await api('POST', '/v1/plans/', {
        auth,
        body: { name: 'Docs', amount: '3.00', currency: 'USD', interval: 'month', interval_count: 1 },
      });
      const planId = plan.json.data.id as string;
      const created = await api('POST', '/v1/subscriptions', {
        auth,
        body: { plan_id: planId, return_url: 'https://shop.example/ok' },
      });
      expectAnswer('POST', '/v1/subscriptions', created);
      expectError(
        'POST',
        '/v1/subscriptions',
        await api('POST', '/v1/subscriptions', { auth, body: {} }),
        400,
      );
      const id = created.json.data.subscription_id as string;
      expectAnswer('GET', '/v1/subscriptions/{id}', await api('GET', `/v1/subscriptions/${id}`, { auth }));
      expectAnswer(
        'GET',
        '/v1/subscriptions/{id}',
        await api('GET', `/v1/subscriptions/${planId}`, { auth }),
      );
      expectError('GET', '/v1/subscriptions/{id}', await api('GET', '/v1/subscriptions/nope', { auth }), 404);
      expectError('GET', '/v1/subscriptions', await api('GET', '/v1/subscriptions?page=99', { auth }), 404);
      expectAnswer(
        'GET',
        '/v1/subscriptions',
        await api('GET', `/v1/subscriptions?plan_id=${planId}`, { auth }),
      );
      expectAnswer(
        'DELETE',
        '/v1/subscriptions/{id}',
        await api('DELETE', `/v1/subscriptions/${id}`, { auth }),
      );
      expectError(
        'DELETE',
        '/v1/subscriptions/{id}',
        await api('DELETE', `/v1/subscriptions/${id}`, { auth }),
        409,
      );
    },
  );

  routeTest(
    'payment links: create (with and without customers), list, get, update and delete',
    [
      'POST /v1/payment-links/',
      'GET /v1/payment-links/',
      'GET /v1/payment-links/{id}/',
      'PUT /v1/payment-links/{id}/',
      'DELETE /v1/payment-links/{id}/',
    ],
    async ({ auth }) => {
      const base = '/v1/payment-links/';
      const one = '/v1/payment-links/{id}/';
      const created = await api('POST', base, { auth, body: { description: 'Docs', amount: '5.00' } });
      expectAnswer('POST', base, created);
      expectAnswer(
        'POST',
        base,
        await api('POST', base, {
          auth,
          body: {
            description: 'Docs',
            amount: 5,
            customers: [{ first_name: 'Doc', last_name: 'Reader', email: `docs-${Date.now()}@example.com` }],
          },
        }),
      );
      expectError('POST', base, await api('POST', base, { auth, body: { amount: '5.00' } }), 406);
      expectError('POST', base, await api('POST', base, { auth, body: { description: 'x' } }), 400);
      const id = created.json.data.id as string;
      expectAnswer('GET', base, await api('GET', `${base}?page_size=2`, { auth }));
      expectError('GET', base, await api('GET', `${base}?page=99`, { auth }), 404);
      expectAnswer('GET', one, await api('GET', `${base}${id}/`, { auth }));
      expectError(
        'GET',
        one,
        await api('GET', `${base}00000000-0000-4000-8000-000000000000/`, { auth }),
        404,
      );
      expectAnswer('PUT', one, await api('PUT', `${base}${id}/`, { auth, body: { recurring: true } }));
      expectError('PUT', one, await api('PUT', `${base}${id}/`, { auth, body: { status: 'nope' } }), 400);
      expectAnswer('PUT', one, await api('PUT', `${base}${id}/`, { auth, body: { status: 'paid' } }));
      expectError('PUT', one, await api('PUT', `${base}${id}/`, { auth, body: { active: false } }), 406);
      expectAnswer('DELETE', one, await api('DELETE', `${base}${id}/`, { auth }));
      expectError('DELETE', one, await api('DELETE', `${base}${id}/`, { auth }), 404);
    },
  );

  routeTest(
    'the customer portal: its link, its page and a form of it',
    ['POST /v1/customers/{id}/portal/', 'GET /portal/{token}', 'POST /portal/{token}'],
    async ({ account, auth }) => {
      const customer = await api('POST', '/v1/customers/', {
        auth,
        body: { first_name: 'Doc', last_name: 'Reader', email: `portal-docs-${Date.now()}@example.com` },
      });
      expect(customer.status, customer.text).toBe(201);
      const customerId = customer.json.data.id as string;
      const plan = await api('POST', '/v1/plans/', {
        auth,
        body: { name: 'Docs', amount: '1.00', currency: 'USD', interval: 'month', interval_count: 1 },
      });
      const subscription = await subscribe({
        account,
        planId: plan.json.data.id as string,
        anchor: new Date().toISOString(),
        customerId,
      });
      const path = '/v1/customers/{id}/portal/';
      const link = await api('POST', `/v1/customers/${customerId}/portal/`, { auth });
      expectAnswer('POST', path, link);
      expectError(
        'POST',
        path,
        await api('POST', '/v1/customers/00000000000000000000000000000000/portal/', { auth }),
        404,
      );
      const asAnswer = (answer: Awaited<ReturnType<typeof openPage>>): Answered => ({
        status: answer.status,
        headers: answer.headers,
        text: answer.html,
      });
      const url = link.json.url as string;
      const page = await openPage(url);
      expectAnswer('GET', '/portal/{token}', asAnswer(page));
      const canceled = await postForm(url, {
        csrf_token: csrfOf(page.html),
        action: 'cancel',
        subscription_id: subscription.id,
      });
      expect(canceled.status, canceled.html).toBe(200);
      expectAnswer('POST', '/portal/{token}', asAnswer(canceled));
    },
  );

  routeTest(
    'the merchant dashboard: sign-in, its pages, a refund, the language switch and sign-out',
    [
      'GET /dashboard/sign-in',
      'POST /dashboard/sign-in',
      'GET /dashboard/',
      'GET /dashboard/charges',
      'GET /dashboard/charges/{id}',
      'POST /dashboard/charges/{id}/refunds',
      'POST /dashboard/language',
      'POST /dashboard/sign-out',
    ],
    async ({ account, auth }) => {
      const { chargeId } = await payThroughCheckout(auth);
      const browser = new DashboardClient();
      expectAnswer('GET', '/dashboard/', asAnswer(await browser.get('')));
      const form = await browser.get('sign-in');
      expectAnswer('GET', '/dashboard/sign-in', asAnswer(form));
      const signedIn = await browser.post('sign-in', {
        csrf_token: formToken(form.html),
        api_key: account.testKey,
      });
      expect(signedIn.status, signedIn.html).toBe(303);
      expectAnswer('POST', '/dashboard/sign-in', asAnswer(signedIn));
      expectAnswer('GET', '/dashboard/', asAnswer(await browser.get('')));
      expectAnswer('GET', '/dashboard/charges', asAnswer(await browser.get('charges')));
      const page = await browser.get(`charges/${chargeId}`);
      expectAnswer('GET', '/dashboard/charges/{id}', asAnswer(page));
      const refunded = await browser.post(`charges/${chargeId}/refunds`, {
        csrf_token: formToken(page.html),
        idempotency_key: hiddenField(page.html, 'idempotency_key'),
        amount: '',
        reason: 'duplicate',
      });
      expect(refunded.status, refunded.html).toBe(303);
      expectAnswer('POST', '/dashboard/charges/{id}/refunds', asAnswer(refunded));
      const switched = await browser.post('language', {
        csrf_token: formToken(page.html),
        lang: 'es',
        back: '',
      });
      expectAnswer('POST', '/dashboard/language', asAnswer(switched));
      const out = await browser.post('sign-out', { csrf_token: formToken(page.html) });
      expectAnswer('POST', '/dashboard/sign-out', asAnswer(out));
    },
  );

  routeTest(
    'the dashboard’s plans, products and payment links: lists, create forms, delete confirmations and forms',
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
    async ({ account }) => {
      const browser = await new DashboardClient().signedIn(account.testKey);
      const sections: { list: string; fields: Record<string, string> }[] = [
        {
          list: 'plans',
          fields: {
            name: 'Doc plan',
            amount: '9.90',
            currency: 'USD',
            interval: 'month',
            interval_count: '1',
          },
        },
        { list: 'products', fields: { name: 'Doc product', price: '5.00' } },
        { list: 'links', fields: { description: 'Doc link', amount: '5.00' } },
      ];
      for (const { list, fields } of sections) {
        const page = await browser.get(list);
        expectAnswer('GET', `/dashboard/${list}`, asAnswer(page));
        const created = await browser.post(list, {
          csrf_token: formToken(page.html),
          idempotency_key: hiddenField(page.html, 'idempotency_key'),
          ...fields,
        });
        expect(created.status, created.html).toBe(303);
        expectAnswer('POST', `/dashboard/${list}`, asAnswer(created));
        const id = new URL(created.location as string).searchParams.get('created') as string;
        if (list === 'plans') {
          const archived = await browser.post(`plans/${id}/active`, {
            csrf_token: formToken(page.html),
            active: 'false',
          });
          expect(archived.status, archived.html).toBe(303);
          expectAnswer('POST', '/dashboard/plans/{id}/active', asAnswer(archived));
        }
        const confirm = await browser.get(`${list}/${id}/delete`);
        expectAnswer('GET', `/dashboard/${list}/{id}/delete`, asAnswer(confirm));
        const deleted = await browser.post(`${list}/${id}/delete`, { csrf_token: formToken(confirm.html) });
        expect(deleted.status, deleted.html).toBe(303);
        expectAnswer('POST', `/dashboard/${list}/{id}/delete`, asAnswer(deleted));
      }
    },
  );

  routeTest(
    'the dashboard’s webhook endpoints, events and API keys: lists, forms, confirmations',
    [
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
    async ({ account, auth }) => {
      const browser = await new DashboardClient().signedIn(account.testKey);
      const list = await browser.get('webhooks');
      expectAnswer('GET', '/dashboard/webhooks', asAnswer(list));
      const created = await browser.post('webhooks', {
        csrf_token: formToken(list.html),
        idempotency_key: hiddenField(list.html, 'idempotency_key'),
        url: 'http://127.0.0.1:9/hooks',
        description: 'Doc endpoint',
      });
      expect(created.status, created.html).toBe(201);
      expectAnswer('POST', '/dashboard/webhooks', asAnswer(created));
      const id = /<code>(we_[A-Za-z0-9]+)<\/code>/.exec(created.html)?.[1] as string;
      expect(id).toMatch(/^we_/);
      const one = `webhooks/${id}`;
      const page = await browser.get(one);
      expectAnswer('GET', '/dashboard/webhooks/{id}', asAnswer(page));
      // An event of the account, which the endpoint (every type) is sent: a plan made and deleted.
      const plan = await api('POST', '/v1/plans/', {
        auth,
        body: { name: 'Doc hooks', amount: '1.00', currency: 'USD', interval: 'month', interval_count: 1 },
      });
      expect(plan.status, plan.text).toBe(201);
      expect((await api('DELETE', `/v1/plans/${plan.json.data.id}/`, { auth })).status).toBe(200);
      const events = await api('GET', '/v1/events/?type=plan.deleted&page_size=1', { auth });
      const eventId = events.json.results[0].id as string;
      const redelivered = await browser.post(`${one}/redeliver`, {
        csrf_token: formToken(page.html),
        event_id: eventId,
        idempotency_key: 'R'.repeat(32),
      });
      expect(redelivered.status, redelivered.html).toBe(303);
      expectAnswer('POST', '/dashboard/webhooks/{id}/redeliver', asAnswer(redelivered));
      const askRotate = await browser.get(`${one}/rotate-secret`);
      expectAnswer('GET', '/dashboard/webhooks/{id}/rotate-secret', asAnswer(askRotate));
      const rotated = await browser.post(`${one}/rotate-secret`, { csrf_token: formToken(askRotate.html) });
      expect(rotated.status, rotated.html).toBe(200);
      expectAnswer('POST', '/dashboard/webhooks/{id}/rotate-secret', asAnswer(rotated));
      const askDelete = await browser.get(`${one}/delete`);
      expectAnswer('GET', '/dashboard/webhooks/{id}/delete', asAnswer(askDelete));
      const deleted = await browser.post(`${one}/delete`, { csrf_token: formToken(askDelete.html) });
      expect(deleted.status, deleted.html).toBe(303);
      expectAnswer('POST', '/dashboard/webhooks/{id}/delete', asAnswer(deleted));
      expectAnswer('GET', '/dashboard/events', asAnswer(await browser.get('events')));
      expectAnswer('GET', '/dashboard/events/{id}', asAnswer(await browser.get(`events/${eventId}`)));
      expectAnswer('GET', '/dashboard/api-keys', asAnswer(await browser.get('api-keys')));
      const askKey = await browser.get('api-keys/rotate?type=test');
      expectAnswer('GET', '/dashboard/api-keys/rotate', asAnswer(askKey));
      // The session's own key: the answer shows the new key and the session ends.
      const key = await browser.post('api-keys/rotate', { csrf_token: formToken(askKey.html), type: 'test' });
      expect(key.status, key.html).toBe(200);
      expectAnswer('POST', '/dashboard/api-keys/rotate', asAnswer(key));
    },
  );

  routeTest(
    "the dashboard's customers and subscriptions: the lists, a customer, a portal link, a subscription and its cancel",
    [
      'GET /dashboard/customers',
      'GET /dashboard/customers/{id}',
      'POST /dashboard/customers/{id}/portal',
      'GET /dashboard/subscriptions',
      'GET /dashboard/subscriptions/{id}',
      'GET /dashboard/subscriptions/{id}/cancel',
      'POST /dashboard/subscriptions/{id}/cancel',
    ],
    async ({ account, auth }) => {
      const customer = await api('POST', '/v1/customers/', {
        auth,
        body: { first_name: 'Dash', last_name: 'Reader', email: `dash-docs-${Date.now()}@example.com` },
      });
      expect(customer.status, customer.text).toBe(201);
      const customerId = customer.json.data.id as string;
      const plan = await api('POST', '/v1/plans/', {
        auth,
        body: { name: 'Docs', amount: '1.00', currency: 'USD', interval: 'month', interval_count: 1 },
      });
      const subscription = await subscribe({
        account,
        planId: plan.json.data.id as string,
        anchor: new Date().toISOString(),
        customerId,
      });
      const browser = await new DashboardClient().signedIn(account.testKey);
      expectAnswer('GET', '/dashboard/customers', asAnswer(await browser.get('customers?search=dash')));
      const page = await browser.get(`customers/${customerId}`);
      expectAnswer('GET', '/dashboard/customers/{id}', asAnswer(page));
      const link = await browser.post(`customers/${customerId}/portal`, {
        csrf_token: formToken(page.html),
        idempotency_key: hiddenField(page.html, 'idempotency_key'),
      });
      expectAnswer('POST', '/dashboard/customers/{id}/portal', asAnswer(link));
      expectAnswer(
        'GET',
        '/dashboard/subscriptions',
        asAnswer(await browser.get('subscriptions?status=active')),
      );
      const one = `subscriptions/${subscription.id}`;
      expectAnswer('GET', '/dashboard/subscriptions/{id}', asAnswer(await browser.get(one)));
      const confirm = await browser.get(`${one}/cancel`);
      expectAnswer('GET', '/dashboard/subscriptions/{id}/cancel', asAnswer(confirm));
      const canceled = await browser.post(`${one}/cancel`, { csrf_token: formToken(confirm.html) });
      expect(canceled.status, canceled.html).toBe(303);
      expectAnswer('POST', '/dashboard/subscriptions/{id}/cancel', asAnswer(canceled));
      // Its refusals are pages, with statuses the document lists.
      const again = await browser.post(`${one}/cancel`, { csrf_token: formToken(confirm.html) });
      expect(again.status).toBe(409);
      expect(doc.paths['/dashboard/subscriptions/{id}/cancel'].post.responses['409'].content).toHaveProperty(
        'text/html',
      );
      const missing = await browser.get(`customers/${crypto.randomUUID()}`);
      expect(missing.status).toBe(404);
      expect(doc.paths['/dashboard/customers/{id}'].get.responses['404'].content).toHaveProperty('text/html');
    },
  );

  routeTest(
    "the Stripe connector's routes: the return from Stripe's page, and Stripe's events",
    [
      'POST /v1/payments/',
      'GET /checkout/{token}',
      'POST /checkout/{token}',
      'GET /checkout/{token}/return',
      'POST /v1/connectors/stripe/{account_id}/events/',
    ],
    async ({ account }) => {
      const stripe = await connectStripe(account, 'live');
      const created = await api('POST', '/v1/payments/', {
        auth: apiKey(account.liveKey),
        body: {
          amount: '12.00',
          currency: 'USD',
          description: 'Tea',
          items: ['Tea'],
          return_url: 'https://shop.example/',
        },
      });
      expectAnswer('POST', '/v1/payments/', created);
      const url = created.json.data.redirect as string;
      const page = await openPage(url);
      expectAnswer('GET', '/checkout/{token}', {
        status: page.status,
        text: page.html,
        headers: page.headers,
      });
      const submitted = await postForm(url, { csrf_token: csrfOf(page.html) });
      expectAnswer('POST', '/checkout/{token}', {
        status: submitted.status,
        text: submitted.html,
        headers: submitted.headers,
      });
      await payStripeSession(sessionIdOf(submitted.location as string));
      const back = await openPage(`${url}/return`);
      expect(back.status).toBe(303);
      expectAnswer('GET', '/checkout/{token}/return', {
        status: back.status,
        text: back.html,
        headers: back.headers,
      });
      // Stripe's events: an unsigned one is refused; a signed copy of one Stripe sent is a duplicate.
      const path = `/v1/connectors/stripe/${account.developerId}/events/`;
      const unsigned = await api('POST', path, {
        rawBody: '{}',
        headers: { 'Content-Type': 'application/json' },
      });
      expectError('POST', '/v1/connectors/stripe/{account_id}/events/', unsigned, 400);
      const { json: events } = await stripeApi(stripe.live_key, 'GET', '/v1/events?limit=1');
      const body = JSON.stringify(events.data[0]);
      const at = Math.floor(Date.now() / 1000);
      const signature = `t=${at},v1=${createHmac('sha256', stripe.live_webhook_secret).update(`${at}.${body}`).digest('hex')}`;
      const taken = await api('POST', path, {
        rawBody: body,
        headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
      });
      expectAnswer('POST', '/v1/connectors/stripe/{account_id}/events/', taken);
    },
  );

  it('the tests above exercise every route of the table between them', () => {
    const covered = new Set(declared);
    expect(routes.map(routeName).filter((name) => !covered.has(name))).toEqual([]);
    // ...and name none that is not in it.
    expect(declared.filter((name) => !routes.some((route) => routeName(route) === name))).toEqual([]);
  });
});
