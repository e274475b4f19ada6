/** GET /openapi.json describes every route, its credentials and its body, from the live route table. */
import { describe, expect, it } from 'vitest';
import { routes } from '../../shared/http/routes.ts';
import { hostileRequest } from '../support/hostile.ts';
import { api, apiUrl } from '../support/stack.ts';

describe('GET /openapi.json', () => {
  it('lists every route with its security and request body', async () => {
    const response = await api('GET', '/openapi.json');
    expect(response.status).toBe(200);
    const doc = response.json;
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.servers).toEqual([{ url: apiUrl }]);
    for (const route of routes) {
      const operation = doc.paths[route.path][route.method.toLowerCase()];
      expect(operation.summary).toBe(route.summary);
      expect(operation.security).toHaveLength(route.auth ? 3 : 0);
      expect(Boolean(operation.requestBody)).toBe(Boolean(route.body));
    }
    const rotate = doc.paths['/v1/auth/api-keys/'].patch;
    expect(rotate.requestBody.content['application/json'].schema.properties.type.enum).toEqual([
      'test',
      'live',
    ]);
    const listPlans = doc.paths['/v1/plans/'].get;
    expect(listPlans.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['test', 'page', 'page_size', 'name', 'price_min', 'subscribers_max', 'status']),
    );
    const createPlan = doc.paths['/v1/plans/'].post;
    expect(createPlan.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
    expect(createPlan.responses['409']).toBeDefined();
    expect(createPlan.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['name', 'currency', 'amount', 'interval', 'interval_count']),
    );
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
