/**
 * Webhook endpoints (docs/design.md#endpoints): where an account's events of one mode are sent, which
 * types, and whether sending is on. The signing secret is stored encrypted (secrets.ts) and shown
 * only by creation and rotation.
 */
import * as v from 'valibot';
import type { Mode } from '../core/account.ts';
import { envNames, requireEnv } from '../core/config.ts';
import * as rules from '../core/rules.ts';
import { booleanField, modeField, plainText, textField, webUrlFormat } from '../core/validation.ts';
import { maxUrlLength } from '../core/web-url.ts';

/** Endpoints per account and mode (as the big providers cap them): fan-out stays one small Query. */
export const maxEndpoints = 16;

export interface WebhookEndpoint {
  id: string;
  developer_id: number;
  mode: Mode;
  url: string;
  /** `['*']` for every type, else the types sent. */
  events: string[];
  description: string;
  enabled: boolean;
  /** The signing secret, encrypted (sealSecret). */
  secret: string;
  /** After a rotation, the previous secret (encrypted), which also signs until `previous_until`. */
  previous_secret?: string | null;
  previous_until?: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

/** `events`: `["*"]` or a list of known types; `knownTypes` is the event catalogue's. */
const eventsField = (knownTypes: readonly string[]) =>
  v.pipe(
    v.array(plainText({ message: rules.string }), 'array of event types'),
    v.minLength(1),
    v.maxLength(64),
    v.metadata({
      anyOf: [
        { type: 'array', items: { const: '*' }, minItems: 1, maxItems: 1 },
        { type: 'array', items: { enum: [...knownTypes] }, minItems: 1, maxItems: 64 },
      ],
    }),
    v.check(
      (types) => (types.length === 1 && types[0] === '*') || types.every((type) => knownTypes.includes(type)),
      `["*"] or event types among: ${knownTypes.join(', ')}`,
    ),
    v.transform((types) => [...new Set(types)]),
  );

/**
 * The catalogue's type names as the create and update functions receive them: in their environment,
 * set from their route rows, so that they bundle no other area's events.
 */
export const eventTypesEnvironment = (types: readonly string[]) => ({
  [envNames.eventTypes]: types.join(','),
});

/** The catalogue's type names, in its order, from the environment the function was given. */
export const eventTypesOfEnvironment = (): string[] => requireEnv(envNames.eventTypes).split(',');

const urlField = v.pipe(plainText(), v.trim(), v.minLength(1), v.maxLength(maxUrlLength), webUrlFormat());

export const createEndpointSchema = (knownTypes: readonly string[]) =>
  v.strictObject({
    url: urlField,
    events: v.optional(eventsField(knownTypes), ['*']),
    description: v.optional(textField(500, { allowEmpty: true, lines: 'many' }), ''),
    // Accepted when they agree with the credential's mode; a contradiction is 400.
    test: v.optional(modeField()),
    is_test: v.optional(modeField()),
  });
export type CreateEndpointInput = v.InferOutput<ReturnType<typeof createEndpointSchema>>;

export const updateEndpointSchema = (knownTypes: readonly string[]) =>
  v.strictObject({
    url: v.optional(urlField),
    events: v.optional(eventsField(knownTypes)),
    description: v.optional(textField(500, { allowEmpty: true, lines: 'many' })),
    enabled: v.optional(booleanField()),
    test: v.optional(modeField()),
    is_test: v.optional(modeField()),
  });
export type UpdateEndpointInput = v.InferOutput<ReturnType<typeof updateEndpointSchema>>;

export const RedeliverSchema = v.strictObject({
  endpoint_id: v.optional(
    v.pipe(plainText(), v.regex(/^we_[A-Za-z0-9]{24}$/, 'a webhook endpoint id (we_…)')),
  ),
});

export const EndpointViewSchema = v.strictObject({
  id: v.string(),
  url: v.string(),
  events: v.array(v.string()),
  description: v.string(),
  enabled: v.boolean(),
  created_at: v.string(),
});
export type EndpointView = v.InferOutput<typeof EndpointViewSchema>;

/** Creation's and rotation's `data`: the only answers that show a secret. */
export const CreatedEndpointSchema = v.strictObject({
  id: v.string(),
  url: v.string(),
  events: v.array(v.string()),
  secret: v.string(),
});
export const RotatedSecretSchema = v.strictObject({ id: v.string(), secret: v.string() });

export const DeliveryViewSchema = v.strictObject({
  id: v.string(),
  event_id: v.string(),
  event_type: v.string(),
  attempt: v.number(),
  status_code: v.nullable(v.number()),
  duration_ms: v.number(),
  error: v.nullable(v.string()),
  created_at: v.string(),
  next_retry_at: v.nullable(v.string()),
});
export type DeliveryView = v.InferOutput<typeof DeliveryViewSchema>;

export const endpointView = (endpoint: WebhookEndpoint): EndpointView => ({
  id: endpoint.id,
  url: endpoint.url,
  events: endpoint.events,
  description: endpoint.description,
  enabled: endpoint.enabled,
  created_at: endpoint.created_at,
});

/** Whether the endpoint is sent events of this type. */
export const subscribes = (endpoint: Pick<WebhookEndpoint, 'events'>, type: string) =>
  endpoint.events.includes('*') || endpoint.events.includes(type);

/** An attempt as the deliveries list shows it. */
export const deliveryView = (attempt: DeliveryView): DeliveryView => ({
  id: attempt.id,
  event_id: attempt.event_id,
  event_type: attempt.event_type,
  attempt: attempt.attempt,
  status_code: attempt.status_code,
  duration_ms: attempt.duration_ms,
  error: attempt.error,
  created_at: attempt.created_at,
  next_retry_at: attempt.next_retry_at,
});
