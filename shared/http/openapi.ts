/**
 * The OpenAPI 3.0 document of the running API, built from the route table and the same valibot
 * schemas the handlers validate with, so it cannot drift from what the service does.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import { routes, segments } from './routes.ts';

const envelope = {
  type: 'object',
  description:
    'Message envelope; `code` always equals the HTTP status. `Accept-Language: es` answers in Spanish.',
  required: ['code', 'title', 'content', 'type'],
  properties: {
    code: { type: 'integer' },
    title: { type: 'string' },
    content: { type: 'string' },
    type: { type: 'string', enum: ['success', 'info', 'warning', 'danger', 'error'] },
    data: {},
    request_id: { type: 'string', description: 'On 500 only: quote it when reporting the failure.' },
  },
};

const authenticationError = {
  type: 'object',
  description:
    '`{"detail"}` for missing, malformed or unknown keys; with `code` `token_not_valid` and `messages` for a bad or expired token.',
  properties: {
    detail: { type: 'string' },
    code: { type: 'string' },
    messages: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          token_class: { type: 'string' },
          token_type: { type: 'string' },
          message: { type: 'string' },
        },
      },
    },
  },
};

const json = (ref: string, description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } },
});

const testParameter = {
  name: 'test',
  in: 'query',
  required: false,
  schema: { type: 'boolean' },
  description:
    'Mode. A key fixes it (`sk_test_` test, `sk_live_` live) and a contradicting value is 403; with a bearer token it chooses (absent = live).',
};

const idempotencyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255 },
  description:
    'Scoped to the account and mode, kept 24 hours: the same request replays the first 2xx answer (with `Idempotent-Replayed: true`); another request under the key, or one sent while the first runs, is 409.',
};

function operationId(handler: string): string {
  const name = handler.split('/').pop()?.replace(/\.ts$/, '') ?? handler;
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** The document, with `serverUrl` as its only server. */
export function openApiDocument(serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const parameters: unknown[] = segments(route.path)
      .filter((part) => part.startsWith('{'))
      .map((part) => ({ name: part.slice(1, -1), in: 'path', required: true, schema: { type: 'string' } }));
    if (route.auth) parameters.push(testParameter);
    for (const query of route.query ?? []) {
      parameters.push({
        name: query.name,
        in: 'query',
        required: false,
        schema: { type: query.type },
        description: query.description,
      });
    }
    const idempotent = route.auth && route.method === 'POST';
    if (idempotent) parameters.push(idempotencyParameter);
    const schema = route.body
      ? toJsonSchema(route.body, { target: 'openapi-3.0', errorMode: 'ignore' })
      : undefined;
    const responses: Record<string, unknown> = {
      '2XX': { description: 'Success' },
      '400': json('MessageEnvelope', 'Invalid input, malformed JSON'),
      '404': json('MessageEnvelope', 'Not found (also records of another account or mode)'),
      '405': json('MessageEnvelope', 'Method not allowed on this path'),
      '413': json('MessageEnvelope', 'Body over 6 MB'),
      '500': json('MessageEnvelope', 'Unexpected failure, with a request id'),
    };
    if (idempotent) {
      responses['409'] = json(
        'MessageEnvelope',
        'The Idempotency-Key was used with another request, or its request is still running',
      );
    }
    if (route.auth) {
      responses['401'] = json('AuthenticationError', 'Missing or invalid credentials');
      responses['403'] = json(
        'MessageEnvelope',
        'The test parameter contradicts the key, or the key may not do this',
      );
    }
    const operation = {
      operationId: operationId(route.handler),
      summary: route.summary,
      security: route.auth ? [{ basicAuth: [] }, { apiKeyAuth: [] }, { bearerAuth: [] }] : [],
      ...(parameters.length ? { parameters } : {}),
      ...(schema
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
            },
          }
        : {}),
      responses,
    };
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'cobro',
      version: '1',
      description:
        'Self-hostable payments and recurring billing API. Every POST body may be JSON or form-encoded (bracketed keys nest).',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      securitySchemes: {
        basicAuth: {
          type: 'http',
          scheme: 'basic',
          description: 'The API key as user name, an empty password.',
        },
        apiKeyAuth: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The header value is `Api-Key <key>`.',
        },
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'An access token from POST /authentication/token/.',
        },
      },
      schemas: { MessageEnvelope: envelope, AuthenticationError: authenticationError },
    },
  };
}
