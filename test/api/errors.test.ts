/**
 * The error model (message envelopes whose `code` is the HTTP status): unknown routes, wrong methods,
 * bad bodies, oversize bodies, faults, language.
 */
import { describe, expect, it } from 'vitest';
import { expectEnvelope } from '../support/answers.ts';
import { api, apiKey, newAccount, useLocalEnvironment } from '../support/stack.ts';

describe('routing', () => {
  it('GET /health answers without credentials', async () => {
    const response = await api('GET', '/health');
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ status: 'ok' });
  });

  it('an unknown path is 404 in the message envelope, with or without credentials', async () => {
    const account = await newAccount();
    for (const auth of [undefined, apiKey(account.testKey)]) {
      const response = await api('GET', '/v1/nothing-here/', auth ? { auth } : {});
      expectEnvelope(response, 404, { title: 'Not found', type: 'error' });
    }
  });

  it('a wrong method on a known path is 405 with Allow', async () => {
    const response = await api('DELETE', '/v1/auth/api-keys/');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, PATCH');
    expect(response.json).toMatchObject({ code: 405, type: 'error' });
  });

  it('a path with or without its trailing slash is the same route', async () => {
    const account = await newAccount();
    expect((await api('GET', '/v1/auth/api-keys', { auth: apiKey(account.testKey) })).status).toBe(200);
    expect((await api('GET', '/health/')).status).toBe(200);
  });
});

describe('bodies', () => {
  it('malformed JSON is 400 and changes nothing', async () => {
    const account = await newAccount();
    const before = await api('GET', '/v1/auth/api-keys/', { auth: apiKey(account.liveKey) });
    const response = await api('PATCH', '/v1/auth/api-keys/', {
      auth: apiKey(account.liveKey),
      rawBody: '{"type": "test"',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 400, title: 'Malformed JSON', type: 'error' });
    const after = await api('GET', '/v1/auth/api-keys/', { auth: apiKey(account.liveKey) });
    expect(after.json).toEqual(before.json);
  });

  it('a body over 6 MB is 413 before any handler runs', async () => {
    const response = await api('POST', '/authentication/token/', {
      rawBody: `{"pad":"${'x'.repeat(6 * 1024 * 1024)}"}`,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expect(response.json).toMatchObject({ code: 413, type: 'error' });
  });
});

describe('languages', () => {
  it('Accept-Language: es answers titles and contents in Spanish', async () => {
    const response = await api('GET', '/v1/nothing/', {
      headers: { 'Accept-Language': 'es-CR,es;q=0.9,en;q=0.5' },
    });
    expect(response.status).toBe(404);
    expect(response.json.title).toBe('No encontrado');
    const english = await api('GET', '/v1/nothing/', { headers: { 'Accept-Language': 'fr, en;q=0.4' } });
    expect(english.json.title).toBe('Not found');
  });
});

describe('unexpected failures', () => {
  it('answer 500 with a request id and nothing internal', async () => {
    // A real fault, not a mock: the handler's table does not exist.
    useLocalEnvironment();
    process.env.TABLE_NAME = 'no-such-table';
    process.env.LOG_LEVEL = 'SILENT'; // the expected error log would only be noise here
    const { handler } = await import('../../functions/auth/get-api-keys.ts');
    const requestId = 'req-fault-1';
    const result = await handler(
      {
        resource: '/v1/auth/api-keys',
        path: '/v1/auth/api-keys/',
        httpMethod: 'GET',
        headers: {},
        multiValueHeaders: {},
        queryStringParameters: null,
        multiValueQueryStringParameters: null,
        pathParameters: null,
        stageVariables: null,
        body: null,
        isBase64Encoded: false,
        requestContext: {
          requestId,
          authorizer: { developer_id: '1', mode: 'test', credential: 'key', principalId: '1' },
        },
      } as never,
      { getRemainingTimeInMillis: () => 10_000 } as never,
    );
    expect(result.statusCode).toBe(500);
    const body = JSON.parse(result.body);
    expect(body).toEqual({
      code: 500,
      title: 'Internal server error',
      content: 'An unexpected error occurred.',
      type: 'error',
      request_id: requestId,
    });
    expect(result.body).not.toMatch(/no-such-table|ResourceNotFound|at .*\.ts/);
  });
});
