/**
 * Requests generated from the OpenAPI document the stack serves: for each operation, path
 * parameters, query parameters, headers and bodies drawn from its own schemas, mixed with what an
 * attacker or a broken client sends (wrong types, malformed percent-encoding, names of object
 * properties, NUL bytes and lone surrogates, long strings, unknown fields). fast-check draws them and
 * shrinks a failing request to a small one.
 */
import fc from 'fast-check';

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI and JSON Schema nodes are read at arbitrary paths
export type Json = Record<string, any>;

export interface Operation {
  method: string;
  path: string;
  op: Json;
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Every operation of the document. */
export function operationsOf(doc: Json): Operation[] {
  return Object.entries(doc.paths as Json).flatMap(([path, methods]) =>
    Object.entries(methods as Json).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
}

/** Names that are properties of every plain object: a parser keyed by plain objects trips on them. */
export const propertyNames = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype'];

/** Text a broken or hostile client sends. */
const hostileText = fc.oneof(
  fc.constantFrom('', ' ', 'a\u0000b', 'a\ud800b', '\udfff', '%', '%ED%A0%80', '"\'<>`', '../../etc/passwd'),
  fc.constantFrom(...propertyNames),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 3000 }),
  fc.constant('x'.repeat(20_000)),
);

/** A path parameter as it appears in the URL (already encoded, or malformed on purpose). */
const pathSegment = fc.oneof(
  fc.uuid(),
  fc.constantFrom('%ED%A0%80', '%E0%A4%A', '%', '%zz', '%00', '..', '%2e%2e', '%2F'),
  fc.constantFrom(...propertyNames),
  fc.string({ unit: 'binary', maxLength: 60 }).map(encodeURIComponent),
  fc.constant('a'.repeat(2000)),
);

function resolve(doc: Json, schema: Json | undefined): Json {
  let node = schema ?? {};
  for (let depth = 0; typeof node.$ref === 'string' && depth < 20; depth++) {
    const path = (node.$ref as string).replace(/^#\//, '').split('/');
    node = path.reduce<Json>((at, key) => at?.[key], doc) ?? {};
  }
  return node;
}

/** Values that fit `schema` (mostly), at most `depth` objects deep. */
function fitting(doc: Json, raw: Json | undefined, depth: number): fc.Arbitrary<unknown> {
  const schema = resolve(doc, raw);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const choices = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (choices?.length) return fc.oneof(...choices.map((choice) => fitting(doc, choice, depth)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.format === 'uri') return fc.webUrl();
      return fc.string({
        minLength: schema.minLength ?? 0,
        maxLength: Math.min(schema.maxLength ?? 30, 300),
      });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth <= 0
        ? fc.constant([])
        : fc.array(fitting(doc, schema.items, depth - 1), { maxLength: Math.min(schema.maxItems ?? 3, 5) });
    default: {
      if (depth <= 0 || !schema.properties) return fc.dictionary(fc.string({ maxLength: 8 }), fc.string());
      const properties = Object.entries(schema.properties as Json);
      const required = new Set((schema.required as string[] | undefined) ?? []);
      const model = Object.fromEntries(properties.map(([name, sub]) => [name, fitting(doc, sub, depth - 1)]));
      return fc.record(model, {
        requiredKeys: properties.map(([name]) => name).filter((name) => required.has(name)),
      });
    }
  }
}

/** Values of any JSON type, often hostile. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  fc.integer(),
  fc.constantFrom(1e308, -0, 0.1 + 0.2, Number.MAX_SAFE_INTEGER + 2),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom(...propertyNames, 'a'), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

/** A value for `schema`: fitting, or (a third of the time) of any type. */
const valueFor = (doc: Json, schema: Json | undefined, depth = 3) =>
  fc.oneof({ weight: 2, arbitrary: fitting(doc, schema, depth) }, { weight: 1, arbitrary: anyJson });

/** A body fitting the schema, with some fields replaced by hostile values and unknown fields added. */
function bodyFor(doc: Json, raw: Json | undefined): fc.Arbitrary<unknown> {
  const schema = resolve(doc, raw);
  if (!schema.properties) return valueFor(doc, schema);
  const properties = Object.entries(schema.properties as Json);
  const model = Object.fromEntries(properties.map(([name, sub]) => [name, valueFor(doc, sub)]));
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return fc.oneof(
    { weight: 4, arbitrary: fitting(doc, schema, 3) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.record(model, {
            requiredKeys: properties.map(([name]) => name).filter((name) => required.has(name)),
          }),
          fc.dictionary(fc.constantFrom(...propertyNames, 'unknown_field'), anyJson, { maxKeys: 2 }),
        )
        .map(([known, extra]) => ({ ...extra, ...known })),
    },
    { weight: 1, arbitrary: anyJson },
  );
}

const formEncode = (value: unknown): string =>
  value !== null && typeof value === 'object'
    ? new URLSearchParams(
        Object.entries(value as Json).map(([key, field]): [string, string] => [
          key,
          typeof field === 'string' ? field : JSON.stringify(field),
        ]),
      ).toString()
    : String(value);

/** A query string value for a parameter: fitting its schema or hostile. */
const queryValue = (doc: Json, schema: Json | undefined) =>
  fc.oneof(
    fitting(doc, schema, 0).map((value) => (typeof value === 'string' ? value : JSON.stringify(value))),
    hostileText,
  );

/** Requests for one operation, authorized with `auth` most of the time. */
export function requestsFor(doc: Json, operation: Operation, auth: string): fc.Arbitrary<FuzzRequest> {
  const parameters = (operation.op.parameters ?? []) as Json[];
  const pathNames = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
  const query = parameters.filter((parameter) => parameter.in === 'query');
  const content = (operation.op.requestBody?.content ?? {}) as Json;
  const types = Object.keys(content).filter((type) => type !== 'multipart/form-data');
  const secured = Array.isArray(operation.op.security) && operation.op.security.length > 0;
  const body =
    types.length === 0
      ? fc.constant(undefined)
      : fc
          .constantFrom(...types)
          .chain((type) => bodyFor(doc, content[type]?.schema).map((value) => ({ type, value })));
  return fc
    .record({
      segments: fc.tuple(...pathNames.map(() => pathSegment)),
      // Mostly the operation's own parameters (a route refuses one it does not document, 400), now
      // and then one named like an object property.
      query: fc.array(
        fc.oneof(
          {
            weight: 10,
            arbitrary: query.length
              ? fc
                  .constantFrom(...query)
                  .chain((parameter) =>
                    queryValue(doc, parameter.schema).map(
                      (value) => [parameter.name as string, value] as const,
                    ),
                  )
              : fc.constant(['test', 'true'] as const),
          },
          { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...propertyNames), hostileText) },
        ),
        { maxLength: 4 },
      ),
      // Header values a client can send at all (visible ASCII), under names of object properties.
      headers: fc.dictionary(
        fc.constantFrom(...propertyNames, 'x-extra'),
        fc.stringMatching(/^[\x21-\x7e]{0,20}$/),
        {
          maxKeys: 2,
        },
      ),
      // One request in seven sends broken credentials instead of the real ones.
      broken: fc.nat(6).map((draw) => draw === 0),
      unauthorized: fc.constantFrom(undefined, 'Api-Key nope', 'Bearer %', 'Basic ::::'),
      body,
    })
    .map(({ segments, query: pairs, headers, broken, unauthorized, body: sent }) => {
      let path = operation.path;
      pathNames.forEach((name, index) => {
        path = path.replace(`{${name}}`, segments[index] as string);
      });
      const search = new URLSearchParams(
        pairs.map(([key, value]): [string, string] => [key, value]),
      ).toString();
      const request: FuzzRequest = {
        method: operation.method,
        path: search ? `${path}?${search}` : path,
        headers: { ...headers },
      };
      // Mostly the real credentials (so validation is reached), sometimes broken ones.
      const credentials = broken ? unauthorized : secured ? auth : undefined;
      if (credentials) request.headers.Authorization = credentials;
      if (sent) {
        request.headers['Content-Type'] = sent.type;
        request.body = sent.type === 'application/json' ? JSON.stringify(sent.value) : formEncode(sent.value);
      }
      return request;
    });
}
