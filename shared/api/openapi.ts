/**
 * The OpenAPI 3.1 document of the running API, built from the route table, the event catalogue and
 * the same valibot schemas the handlers validate requests with and type their answers by (and events
 * their data by), so it cannot drift from what the service does.
 */
import { type ConversionConfig, toJsonSchema } from '@valibot/to-json-schema';
import type { GenericSchema } from 'valibot';
import { errorSchemas } from '../core/envelopes.ts';
import type { EventType } from '../events/event.ts';
import { webhookBodySchema } from '../events/webhook-body.ts';
import { idempotencyKeyLength, idempotencyKeyPattern } from '../http/headers.ts';
import { type Answer, type ErrorAnswer, type NamedHeader, type Route, segments } from '../http/route.ts';
import { documentedQueryParameters } from '../http/route-query.ts';
import type { PublishedEvent } from '../stack/area.ts';
import { EventViewSchema } from '../webhooks/events.ts';
import { areas, publishedEvents } from './areas.ts';
import { routeGroups, systemTag } from './routes.ts';

type Json = Record<string, unknown>;

/**
 * A JSON Schema of the OpenAPI 3.1 dialect (JSON Schema 2020-12): what a client sends (`input`:
 * defaults make a field optional) or what it receives (`output`). The document's dialect is the
 * default, so the converter's `$schema` is left out.
 */
export function openApiSchema(
  schema: GenericSchema,
  typeMode: ConversionConfig['typeMode'],
  /** The component being written, which is itself and not a reference to itself. */
  self?: string,
): Json {
  const { $schema: _dialect, ...json } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    errorMode: 'ignore',
    typeMode,
    overrideSchema: ({ valibotSchema }) => {
      const name = componentNames.get(valibotSchema);
      return name && name !== self ? { $ref: schemaRef(name) } : undefined;
    },
  });
  return json;
}

const schemaRef = (name: string) => `#/components/schemas/${name}`;

/**
 * Schemas the document writes once, under `components.schemas`, and refers to wherever another
 * schema holds them: the error bodies (inside the unions of error bodies), and the event as the
 * events API shows it, which is the `Event` union of the typed variants below.
 */
const componentNames = new Map<unknown, string>([
  ...Object.entries(errorSchemas).map(([name, schema]) => [schema, name] as const),
  [EventViewSchema, 'Event'],
]);

/** The component name of an event type's variant: `payment_link.paid` → `PaymentLinkPaidEvent`. */
const eventSchemaName = (type: string) =>
  `${type
    .split(/[._]/)
    .map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`)
    .join('')}Event`;

/**
 * The events as typed variants: per event type, the body its webhook delivers (`type` a constant,
 * `data.object` the schema of its record), described by its webhook's line; and `Event`, any one
 * of them, told apart by `type`, which is what the events API answers.
 */
function eventComponents(): Record<string, Json> {
  const named = publishedEvents.map(({ event, summary }) => ({
    event,
    summary,
    name: eventSchemaName(event.type),
  }));
  return {
    ...Object.fromEntries(
      named.map(({ event, summary, name }) => [
        name,
        { description: summary, ...openApiSchema(webhookBodySchema(event), 'output') },
      ]),
    ),
    Event: {
      description: 'An event, as the events API shows it and its webhook delivers it: one variant per type.',
      oneOf: named.map(({ name }) => ({ $ref: schemaRef(name) })),
      discriminator: {
        propertyName: 'type',
        mapping: Object.fromEntries(named.map(({ event, name }) => [event.type, schemaRef(name)])),
      },
    },
  };
}

const errorRef = (body: ErrorAnswer['body']) => schemaRef(body);

/** An answer's named headers as the document lists them (none: nothing); one always sent is required. */
function headersOf(named: Readonly<Record<string, NamedHeader>> | undefined): Json {
  const headers = Object.entries(named ?? {}).map(([name, header]) => [
    name,
    typeof header === 'string'
      ? { description: header, required: true, schema: { type: 'string' } }
      : { description: header.description, schema: { type: 'string' } },
  ]);
  return headers.length ? { headers: Object.fromEntries(headers) } : {};
}

function errorResponse(answer: ErrorAnswer): Json {
  const content =
    answer.body === 'html'
      ? { 'text/html': { schema: { type: 'string' } } }
      : { 'application/json': { schema: { $ref: errorRef(answer.body) } } };
  return { description: answer.description, ...headersOf(answer.headers), content };
}

function successResponse(answer: Answer): Json {
  const content: Json = {};
  if (answer.json) content['application/json'] = { schema: openApiSchema(answer.json, 'output') };
  for (const type of answer.media ?? []) {
    content[type] = {
      schema: { type: 'string', ...(type.startsWith('image/') ? { format: 'binary' } : {}) },
    };
  }
  return {
    description: answer.description,
    ...headersOf(answer.headers),
    ...(Object.keys(content).length ? { content } : {}),
  };
}

const hasPathParameters = (route: Route) => segments(route.path).some((part) => part.startsWith('{'));
const isIdempotent = (route: Route) => route.auth && (route.method === 'POST' || route.method === 'PUT');
const isPaged = (route: Route) => route.query !== undefined && 'page' in route.query.entries;

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
  // A list that reads `page` answers 404 "Invalid page" for a page past the last (core/pagination.ts).
  const notFound = [
    ...(hasPathParameters(route) ? ['Not found (also records of another account or mode)'] : []),
    ...(isPaged(route) ? ['Invalid page: a page past the last (type warning)'] : []),
  ];
  if (notFound.length) errors[404] = { description: notFound.join('; or '), body: 'MessageEnvelope' };
  // Every write may lose a race with other requests changing the same record (db/optimistic.ts).
  const raced =
    'other requests changed the same record at the same time, every time it tried (send it again)';
  if (isIdempotent(route)) {
    errors[409] = {
      description: `The Idempotency-Key was used with another request, or its request is still running; or ${raced}`,
      body: 'MessageEnvelope',
    };
  } else if (route.auth && route.method !== 'GET') {
    errors[409] = { description: `Conflict: ${raced}`, body: 'MessageEnvelope' };
  }
  if (route.body || route.bodyTypes) errors[413] = { description: 'Body over 6 MB', body: 'MessageEnvelope' };
  errors[500] = { description: 'Unexpected failure, with a request id', body: 'MessageEnvelope' };
  errors[503] = {
    description:
      'The service is busy (its database throttled the request): send it again after Retry-After seconds',
    body: 'MessageEnvelope',
    headers: { 'Retry-After': 'Seconds to wait before sending the request again' },
  };
  return errors;
}

const idempotencyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: {
    type: 'string',
    minLength: idempotencyKeyLength.min,
    maxLength: idempotencyKeyLength.max,
    pattern: idempotencyKeyPattern.source,
  },
  description:
    'Scoped to the account and mode, kept 24 hours: the same request replays the first 2xx answer (with `Idempotent-Replayed: true`); another request under the key, or one sent while the first runs, is 409.',
};

const defaultBodyTypes = ['application/json', 'application/x-www-form-urlencoded'] as const;

const isFile = (schema: Json | undefined): boolean =>
  schema?.format === 'binary' || (schema?.type === 'array' && isFile(schema.items as Json));

/**
 * A body schema as a content type other than multipart takes it: files come only in multipart, so a
 * field that is a file is left out, and one that is a file or text keeps only the text.
 */
function withoutFiles(schema: Json): Json {
  if (!schema.properties) return schema;
  const properties: Record<string, Json> = {};
  for (const [name, field] of Object.entries(schema.properties as Record<string, Json>)) {
    if (isFile(field)) continue;
    const choices = field.anyOf as Json[] | undefined;
    const texts = choices?.filter((choice) => !isFile(choice));
    if (!choices || !texts || texts.length === choices.length) properties[name] = field;
    else {
      const { anyOf: _files, ...rest } = field;
      properties[name] = texts.length === 1 ? { ...texts[0], ...rest } : { ...rest, anyOf: texts };
    }
  }
  const required = (schema.required as string[] | undefined)?.filter((name) => name in properties);
  return { ...schema, properties, ...(required ? { required } : {}) };
}

function operation(route: Route, tag: string): Json {
  const parameters: unknown[] = segments(route.path)
    .filter((part) => part.startsWith('{'))
    .map((part) => ({ name: part.slice(1, -1), in: 'path', required: true, schema: { type: 'string' } }));
  for (const query of documentedQueryParameters(route)) {
    parameters.push({
      name: query.name,
      in: 'query',
      required: false,
      schema: { type: query.type, ...query.keywords },
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
    description: route.description,
    tags: [tag],
    ...(route.deprecated ? { deprecated: true } : {}),
    security: route.auth ? [{ basicAuth: [] }, { apiKeyAuth: [] }, { bearerAuth: [] }] : [],
    ...(parameters.length ? { parameters } : {}),
    ...(bodyTypes.length
      ? {
          requestBody: {
            // A PUT of no fields changes nothing and is answered; a POST always needs its fields.
            required:
              route.method === 'POST' ||
              (Array.isArray(bodySchema.required) && bodySchema.required.length > 0),
            content: Object.fromEntries(
              bodyTypes.map((type) => [
                type,
                { schema: type === 'multipart/form-data' ? bodySchema : withoutFiles(bodySchema) },
              ]),
            ),
          },
        }
      : {}),
    responses,
  };
}

const retrySchedule = '5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h';

const deliveryDescription = `Delivered per Standard Webhooks (verify with the \`standardwebhooks\` package and the endpoint's secret) to every enabled endpoint of the account and mode that subscribes to the type. At least once: an answer other than 2xx, or none within 10 s, is retried after ${retrySchedule} (about 3 days), then the delivery is marked failed; deduplicate by \`webhook-id\`.`;

const webhookHeaders = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description: 'The message id: the same on every retry of a delivery, so a receiver can drop duplicates.',
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    schema: { type: 'string', pattern: '^[0-9]+$' },
    description:
      'When this attempt was sent, in seconds since the Unix epoch; it is part of the signed content.',
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$' },
    description:
      "Space-separated signatures `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint's secret. For 24 hours after the secret is rotated there are two, one by the old secret and one by the new.",
  },
];

/**
 * The webhook of one event type: a POST to the endpoint with the event's body and signature headers,
 * tagged with the area that publishes it. cobro sends it, so it asks the receiver for no credentials:
 * the signature headers are how a receiver knows it is cobro's.
 */
function webhook({ event, summary }: PublishedEvent<EventType<unknown>>, tag: string): Json {
  return {
    post: {
      operationId: webhookOperationId(event.type),
      summary,
      description: `${summary}\n\n${deliveryDescription}`,
      tags: [tag],
      security: [],
      parameters: webhookHeaders,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: schemaRef(eventSchemaName(event.type)) } } },
      },
      responses: {
        '2XX': { description: 'Received: the delivery is done (the answer body is ignored).' },
        '410': {
          description:
            'Gone: cobro disables the endpoint (`enabled` false), which then receives nothing until a PUT with `"enabled": true`.',
        },
        default: { description: `Not received: retried after ${retrySchedule}.` },
      },
    },
  };
}

/** A webhook's operationId, from its event type: `payment_link.paid` → `paymentLinkPaidWebhook`. */
const webhookOperationId = (type: string) =>
  `${type.replace(/[._]([a-z])/g, (_, letter: string) => letter.toUpperCase())}Webhook`;

/** The `webhooks` of the document: one per event type the areas publish, keyed by the type. */
function webhooks(): Record<string, Json> {
  return Object.fromEntries(
    areas.flatMap((area) => (area.events ?? []).map((one) => [one.event.type, webhook(one, area.name)])),
  );
}

/**
 * The document's tags, one per group of routes and per area that publishes events, in the list's
 * order, each with what it is.
 */
function tags(): Json[] {
  const used = new Set(routeGroups.map((group) => group.tag));
  for (const area of areas) if (area.events?.length) used.add(area.name);
  const described = [systemTag, ...areas.map(({ name, description }) => ({ name, description }))];
  return described.filter((tag) => used.has(tag.name));
}

/** The document, with `serverUrl` as its only server. */
export function openApiDocument(serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const { tag, routes } of routeGroups) {
    for (const route of routes) {
      paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route, tag) };
    }
  }
  const schemas = {
    ...Object.fromEntries(
      Object.entries(errorSchemas).map(([name, schema]) => [name, openApiSchema(schema, 'output', name)]),
    ),
    ...eventComponents(),
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'cobro',
      version: '1',
      description:
        'Self-hostable payments and recurring billing API. POST, PUT and PATCH bodies may be JSON or form-encoded (bracketed keys nest) unless an operation says otherwise.',
    },
    servers: [{ url: serverUrl }],
    tags: tags(),
    paths,
    webhooks: webhooks(),
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
      schemas,
    },
  };
}
