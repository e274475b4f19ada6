/**
 * The OpenAPI 3.0 document of the running API, built from the route table and the same valibot
 * schemas the handlers validate requests with and type their answers by, so it cannot drift from
 * what the service does.
 */
import { type ConversionConfig, toJsonSchema } from '@valibot/to-json-schema';
import type { GenericSchema } from 'valibot';
import { errorSchemas } from '../core/envelopes.ts';
import { queryParametersOf } from '../core/validation.ts';
import { type Answer, type ErrorAnswer, type Route, segments } from '../http/route.ts';
import { routes } from './routes.ts';

type Json = Record<string, unknown>;

/**
 * A JSON Schema of the OpenAPI 3.0 dialect: what a client sends (`input`: defaults make a field
 * optional) or what it receives (`output`). Objects whose fields are all optional get no `required`
 * (3.0 wants it non-empty), and a null literal is marked `nullable`, without which 3.0 allows no null.
 */
export function openApiSchema(schema: GenericSchema, typeMode: ConversionConfig['typeMode']): Json {
  const tidy = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(tidy);
    if (!node || typeof node !== 'object') return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'required' && Array.isArray(value) && value.length === 0) continue;
      out[key] = tidy(value);
    }
    if (Array.isArray(out.enum) && out.enum.includes(null)) out.nullable = true;
    return out;
  };
  return tidy(toJsonSchema(schema, { target: 'openapi-3.0', errorMode: 'ignore', typeMode })) as Json;
}

const errorRef = (body: ErrorAnswer['body']) => `#/components/schemas/${body}`;

function errorResponse(answer: ErrorAnswer): Json {
  const content =
    answer.body === 'html'
      ? { 'text/html': { schema: { type: 'string' } } }
      : { 'application/json': { schema: { $ref: errorRef(answer.body) } } };
  return { description: answer.description, content };
}

function successResponse(answer: Answer): Json {
  const content: Json = {};
  if (answer.json) content['application/json'] = { schema: openApiSchema(answer.json, 'output') };
  for (const type of answer.media ?? []) {
    content[type] = {
      schema: { type: 'string', ...(type.startsWith('image/') ? { format: 'binary' } : {}) },
    };
  }
  const headers = Object.entries(answer.headers ?? {}).map(([name, description]) => [
    name,
    { description, schema: { type: 'string' } },
  ]);
  return {
    description: answer.description,
    ...(headers.length ? { headers: Object.fromEntries(headers) } : {}),
    ...(Object.keys(content).length ? { content } : {}),
  };
}

const hasPathParameters = (route: Route) => segments(route.path).some((part) => part.startsWith('{'));
const isIdempotent = (route: Route) => route.auth && route.method === 'POST';

/**
 * The errors every route of a kind can answer, before its own `errors`: a request can be malformed
 * when it has a body, a query or credentials; a path parameter can name nothing.
 */
function commonErrors(route: Route): Record<number, ErrorAnswer> {
  const errors: Record<number, ErrorAnswer> = {};
  if (route.body || route.query || route.auth) {
    errors[400] = { description: 'Invalid input or malformed body', body: 'MessageEnvelope' };
  }
  if (route.auth) {
    errors[401] = { description: 'Missing or invalid credentials', body: 'AuthenticationError' };
    errors[403] = { description: 'The test parameter contradicts the key', body: 'MessageEnvelope' };
  }
  if (hasPathParameters(route)) {
    errors[404] = {
      description: 'Not found (also records of another account or mode)',
      body: 'MessageEnvelope',
    };
  }
  if (isIdempotent(route)) {
    errors[409] = {
      description: 'The Idempotency-Key was used with another request, or its request is still running',
      body: 'MessageEnvelope',
    };
  }
  if (route.body || route.bodyTypes) errors[413] = { description: 'Body over 6 MB', body: 'MessageEnvelope' };
  errors[500] = { description: 'Unexpected failure, with a request id', body: 'MessageEnvelope' };
  return errors;
}

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

const defaultBodyTypes = ['application/json', 'application/x-www-form-urlencoded'] as const;

function operation(route: Route): Json {
  const parameters: unknown[] = segments(route.path)
    .filter((part) => part.startsWith('{'))
    .map((part) => ({ name: part.slice(1, -1), in: 'path', required: true, schema: { type: 'string' } }));
  if (route.auth) parameters.push(testParameter);
  for (const query of route.query ? queryParametersOf(route.query) : []) {
    parameters.push({
      name: query.name,
      in: 'query',
      required: false,
      schema: { type: query.type },
      description: query.description,
    });
  }
  if (isIdempotent(route)) parameters.push(idempotencyParameter);
  const bodySchema = route.body ? openApiSchema(route.body, 'input') : { type: 'object' };
  const bodyTypes = route.bodyTypes ?? (route.body ? defaultBodyTypes : []);
  const responses: Json = {};
  for (const [status, answer] of Object.entries(route.answers)) responses[status] = successResponse(answer);
  for (const [status, answer] of Object.entries({ ...commonErrors(route), ...route.errors })) {
    responses[status] = errorResponse(answer);
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.deprecated ? { deprecated: true } : {}),
    security: route.auth ? [{ basicAuth: [] }, { apiKeyAuth: [] }, { bearerAuth: [] }] : [],
    ...(parameters.length ? { parameters } : {}),
    ...(bodyTypes.length
      ? {
          requestBody: {
            // A PUT of no fields changes nothing and is answered; a POST always needs its fields.
            required: route.method === 'POST' || Array.isArray(bodySchema.required),
            content: Object.fromEntries(bodyTypes.map((type) => [type, { schema: bodySchema }])),
          },
        }
      : {}),
    responses,
  };
}

/** The document, with `serverUrl` as its only server. */
export function openApiDocument(serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route) };
  }
  const components = Object.fromEntries(
    Object.entries(errorSchemas).map(([name, schema]) => [name, openApiSchema(schema, 'output')]),
  );
  return {
    openapi: '3.0.3',
    info: {
      title: 'cobro',
      version: '1',
      description:
        'Self-hostable payments and recurring billing API. POST, PUT and PATCH bodies may be JSON or form-encoded (bracketed keys nest) unless an operation says otherwise.',
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
      schemas: components,
    },
  };
}
