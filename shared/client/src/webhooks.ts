/**
 * Webhook deliveries, verified as Standard Webhooks (the `standardwebhooks` package) with the
 * endpoint's secret, and typed as the document's events: a union told apart by `type`.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components } from './generated/openapi.ts';

/** An event as a webhook delivers it (and the events API shows it): narrow it on `type`. */
export type CobroEvent = components['schemas']['Event'];

/** Every event type. */
export type CobroEventType = CobroEvent['type'];

/** The event of one type: `EventOf<'payment.succeeded'>`. */
export type EventOf<TType extends CobroEventType> = Extract<CobroEvent, { type: TType }>;

export { WebhookVerificationError };

/** Request headers as `fetch` (a `Headers`) or `node:http` (an object, names lower-case) give them. */
export type IncomingHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

const signatureHeaders = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

function headerOf(headers: IncomingHeaders, name: string): string {
  const value = headers instanceof Headers ? headers.get(name) : headers[name];
  if (typeof value === 'string') return value;
  // A header repeated by a proxy: node:http joins most headers, but not custom ones in every version.
  if (Array.isArray(value)) return value.join(' ');
  throw new WebhookVerificationError(`Missing required header ${name}`);
}

/**
 * The event a delivery carries, once its signature verifies with `secret` (the endpoint's `whsec_…`)
 * and its timestamp is within five minutes of now. `rawBody` is the body exactly as received: a
 * body parsed and serialized again no longer matches its signature. Throws
 * `WebhookVerificationError` when the delivery is not cobro's, was changed, or is too old or new
 * (answer it with a 4xx and it is retried, so a clock that was off heals itself).
 */
export function verifyWebhook(
  secret: string,
  rawBody: string | Buffer,
  headers: IncomingHeaders,
): CobroEvent {
  const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
  const signed = Object.fromEntries(signatureHeaders.map((name) => [name, headerOf(headers, name)]));
  // The signature covers the body cobro wrote, and cobro writes the events the document declares.
  return new Webhook(secret).verify(body, signed) as CobroEvent;
}
