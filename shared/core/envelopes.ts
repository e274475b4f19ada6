/**
 * The shapes answers share: the contract's message envelope, Envelope A pages and the error bodies.
 * Handlers answer in these shapes and the OpenAPI document shows them, both from these schemas.
 */
import * as v from 'valibot';

export const envelopeTypes = ['success', 'info', 'warning', 'danger', 'error'] as const;

const integer = (description: string) => v.pipe(v.number(), v.integer(), v.description(description));

const envelopeFields = {
  code: integer('Always equals the HTTP status.'),
  title: v.string(),
  content: v.pipe(v.string(), v.description('Human text; `Accept-Language: es` answers in Spanish.')),
  type: v.picklist(envelopeTypes),
};

/** A message envelope without `data` (a deletion's answer). */
export const MessageSchema = v.strictObject(envelopeFields);

/** A message envelope whose `data` is `data`. */
export function messageEnvelope<TData extends v.GenericSchema>(data: TData) {
  return v.strictObject({ ...envelopeFields, data });
}

/** Envelope B around one page of `item`s: absolute URLs of the pages beside it. */
export function linkedPageSchema<TItem extends v.GenericSchema>(item: TItem) {
  const link = v.pipe(v.nullable(v.string()), v.description('Absolute URL of that page, or null.'));
  return v.strictObject({
    count: integer('How many records match, on every page.'),
    next: link,
    previous: link,
    results: v.array(item),
  });
}

/** Envelope A around one page of `item`s. */
export function numberedPageSchema<TItem extends v.GenericSchema>(item: TItem) {
  return v.strictObject({
    count: integer('How many records match, on every page.'),
    current_page: integer('From 1.'),
    total_pages: integer('0 when nothing matches.'),
    results: v.array(item),
  });
}

/** The message envelope of an error: `data.errors` lists a 400's problems by field, `request_id` names a 500. */
export const ErrorEnvelopeSchema = v.strictObject({
  ...envelopeFields,
  data: v.optional(
    v.looseObject({
      errors: v.optional(v.array(v.strictObject({ field: v.string(), message: v.string() }))),
      more: v.optional(integer('Problems beyond the listed ones.')),
    }),
  ),
  request_id: v.optional(
    v.pipe(v.string(), v.description('On 500 only: quote it when reporting the failure.')),
  ),
});

/** The envelope nested in a top-level `message`, as some contract errors answer. */
export const WrappedErrorSchema = v.strictObject({ message: ErrorEnvelopeSchema });

/** A search that matched nothing (customers): the wrapped envelope with the `query` asked. */
export const SearchNoMatchSchema = v.strictObject({
  message: v.strictObject({ ...envelopeFields, query: v.string() }),
});

/** The contract's "Refund or charge 404": a body with `detail`. */
export const DetailErrorSchema = v.strictObject({ detail: v.string() });

/** An `error` object: OAuth errors of the token endpoint and the legacy charge's 402 `payment_failed`. */
export const ErrorObjectSchema = v.strictObject({
  error: v.strictObject({
    code: v.string(),
    type: v.string(),
    message: v.string(),
    decline_reason: v.optional(v.pipe(v.string(), v.description('On a 402 `payment_failed` only.'))),
  }),
});

/** 401 from the authorizer: `detail` for a missing, malformed or unknown key; `code` and `messages` for a bad token. */
export const AuthenticationErrorSchema = v.strictObject({
  detail: v.string(),
  code: v.optional(v.string()),
  messages: v.optional(
    v.array(v.strictObject({ token_class: v.string(), token_type: v.string(), message: v.string() })),
  ),
});

/** GET /health when the table does not answer (503), or answers with an error. */
export const HealthUnavailableSchema = v.strictObject({
  status: v.literal('unavailable'),
  dynamodb: v.picklist(['unreachable', 'error']),
});

/** The error bodies, by the component name the OpenAPI document gives them. */
export const errorSchemas = {
  MessageEnvelope: ErrorEnvelopeSchema,
  WrappedMessageEnvelope: WrappedErrorSchema,
  DetailError: DetailErrorSchema,
  ErrorObject: ErrorObjectSchema,
  AuthenticationError: AuthenticationErrorSchema,
  HealthUnavailable: HealthUnavailableSchema,
  SearchNoMatch: SearchNoMatchSchema,
  /** A list that is also a search view: no match (with `query`) or a page past the last. */
  SearchNoMatchOrMessageEnvelope: v.union([SearchNoMatchSchema, ErrorEnvelopeSchema]),
  /** A handler's own 400 that nests the envelope, beside the flat one of the request's parsing. */
  WrappedOrMessageEnvelope: v.union([WrappedErrorSchema, ErrorEnvelopeSchema]),
} as const;

export type ErrorSchemaName = keyof typeof errorSchemas;

/** GET /health. */
export const HealthSchema = v.strictObject({ status: v.literal('ok') });

/** GET /openapi.json, as far as a client relies on it. */
export const OpenApiDocumentSchema = v.looseObject({
  openapi: v.literal('3.1.0'),
  info: v.looseObject({ title: v.string(), version: v.string() }),
  servers: v.array(v.strictObject({ url: v.string() })),
  paths: v.record(v.string(), v.record(v.string(), v.unknown())),
  webhooks: v.record(v.string(), v.record(v.string(), v.unknown())),
  components: v.looseObject({}),
});
