/**
 * GET /openapi.json is a valid OpenAPI 3.1 document that describes every route of the table and, under
 * `webhooks`, every event type of the catalogue; and every route answers the way it says
 * (openapi-routes-*.test.ts, whose tests between them exercise every route of the table).
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
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
import { hostileRequest } from '../support/hostile.ts';
import { apiUrl } from '../support/stack.ts';
import { type Doc, issuesOf, routeCoverage, routeName, servedDocument } from './openapi-routes.ts';

/** A schema, or the component its `$ref` names. */
const resolved = (doc: Doc, schema: Doc): Doc =>
  typeof schema.$ref === 'string'
    ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')]
    : schema;

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

describe('every route answers as the document says', () => {
  it('the route tests (openapi-routes-*.test.ts) exercise every route of the table between them', () => {
    const declared = Object.values(routeCoverage).flatMap((tests) => Object.values(tests).flat());
    const covered = new Set(declared);
    expect(routes.map(routeName).filter((name) => !covered.has(name))).toEqual([]);
    // ...and name none that is not in it.
    expect(declared.filter((name) => !routes.some((route) => routeName(route) === name))).toEqual([]);
  });
});
