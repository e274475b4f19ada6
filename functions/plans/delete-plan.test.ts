/**
 * DELETE /v1/plans/{id}/ when the event bus cannot be reached: the deletion and its stored
 * `plan.deleted` record stand, and the caller still gets 200. The fault is real: the handler's
 * EventBridge client points at a port where nothing listens.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, apiKey, newAccount, type TestAccount, useLocalEnvironment } from '../../test/support/stack.ts';
import { storedEventItems } from '../../test/support/table.ts';

let handler: typeof import('./delete-plan.ts').handler;
let account: TestAccount;

const request = (planId: string) =>
  ({
    resource: '/v1/plans/{id}',
    path: `/v1/plans/${planId}/`,
    httpMethod: 'DELETE',
    headers: { Host: 'cobro.example' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { id: planId },
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {
      requestId: 'bus-down',
      path: `/v1/plans/${planId}/`,
      authorizer: { developer_id: String(account.developerId), credential: 'key', mode: 'test' },
    },
  }) as unknown as APIGatewayProxyEvent;

beforeAll(async () => {
  useLocalEnvironment();
  account = await newAccount('bus-down');
  vi.stubEnv('AWS_ENDPOINT_URL_EVENTBRIDGE', 'http://127.0.0.1:9');
  vi.stubEnv('AWS_MAX_ATTEMPTS', '1');
  ({ handler } = await import('./delete-plan.ts'));
});

// The worker's environment outlives this file: later files must see the real bus again.
afterAll(() => vi.unstubAllEnvs());

describe('delete-plan with the event bus down', () => {
  it('deletes the plan, keeps the plan.deleted record and answers 200', async () => {
    const auth = apiKey(account.testKey);
    const created = await api('POST', '/v1/plans/', {
      auth,
      body: { name: 'Doomed', currency: 'USD', amount: '9.00', interval: 'month', interval_count: 1 },
    });
    expect(created.status).toBe(201);
    const planId = created.json.data.id as string;

    const answer = await handler(request(planId), {} as Context);
    expect(answer.statusCode).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 200, type: 'success' });

    expect((await api('GET', `/v1/plans/${planId}/`, { auth })).status).toBe(404);
    const stored = await storedEventItems(account.developerId, 'test');
    expect(stored.map((item) => item.detail.type)).toEqual(['plan.deleted']);
    expect(stored[0]?.detail.data.object.key).toBe(planId);
    expect(stored[0]?.detail.data.account.email).toBe(account.email);
  });
});
