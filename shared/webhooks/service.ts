/** Endpoint operations the handlers call: registration (SSRF-checked), changes, secret rotation. */
import { assertModeFlags, type Scope } from '../core/account.ts';
import { Invalid, NotFound } from '../core/errors.ts';
import { isPrefixedId, prefixedId } from '../core/ids.ts';
import type { Deps } from '../db/deps.ts';
import { checkWebhookUrl, UnsafeWebhookUrl } from './address.ts';
import type { CreateEndpointInput, UpdateEndpointInput, WebhookEndpoint } from './endpoint.ts';
import { webhookMessages } from './messages.ts';
import { changeEndpoint, createEndpoint } from './repository.ts';
import { newSigningSecret, type SecretBox } from './secrets.ts';

/** How long a rotated-out secret still signs deliveries, beside the new one. */
export const rotationOverlapMs = 24 * 3_600_000;

/** The `{id}` of an endpoint path: `we_…`; anything else names no endpoint. */
export function endpointIdParam(value: string | undefined): string {
  if (!value || !isPrefixedId(value, 'we')) throw new NotFound(webhookMessages.webhook_endpoint_not_found);
  return value;
}

/** The `{id}` of an event path: `evt_…`. */
export function eventIdParam(value: string | undefined): string {
  if (!value || !isPrefixedId(value, 'evt')) throw new NotFound(webhookMessages.event_not_found);
  return value;
}

/** A URL an endpoint of this mode may have (live: https, public addresses only); 400 otherwise. */
async function allowedUrl(url: string, mode: Scope['mode']): Promise<string> {
  try {
    return (await checkWebhookUrl(url, mode)).url.href;
  } catch (error) {
    if (error instanceof UnsafeWebhookUrl) {
      throw new Invalid(webhookMessages.webhook_url_unsafe, { params: { reason: error.message } });
    }
    throw error;
  }
}

/** Registers an endpoint; answers it with its secret in the clear (shown this once). */
export async function registerEndpoint(
  deps: Deps & { secrets: SecretBox },
  scope: Scope,
  input: CreateEndpointInput,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  assertModeFlags(input, scope.mode);
  const url = await allowedUrl(input.url, scope.mode);
  const secret = newSigningSecret();
  const now = deps.clock().toISOString();
  const endpoint: WebhookEndpoint = {
    id: prefixedId('we'),
    developer_id: scope.developerId,
    mode: scope.mode,
    url,
    events: input.events,
    description: input.description,
    enabled: true,
    secret: await deps.secrets.seal(secret),
    previous_secret: null,
    previous_until: null,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  await createEndpoint(deps, endpoint);
  return { endpoint, secret };
}

/** PUT: url (checked again), events, description, enabled. */
export async function updateEndpoint(
  deps: Deps,
  scope: Scope,
  id: string,
  input: UpdateEndpointInput,
): Promise<WebhookEndpoint> {
  assertModeFlags(input, scope.mode); // records never change mode
  const url = input.url === undefined ? undefined : await allowedUrl(input.url, scope.mode);
  return changeEndpoint(deps, scope, id, () => ({
    ...(url !== undefined ? { url } : {}),
    ...(input.events !== undefined ? { events: input.events } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
  }));
}

/** A new secret; the current one keeps signing beside it for 24 hours. */
export async function rotateSecret(
  deps: Deps & { secrets: SecretBox },
  scope: Scope,
  id: string,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const secret = newSigningSecret();
  const sealed = await deps.secrets.seal(secret);
  const until = new Date(deps.clock().getTime() + rotationOverlapMs).toISOString();
  const endpoint = await changeEndpoint(deps, scope, id, (current) => ({
    secret: sealed,
    previous_secret: current.secret,
    previous_until: until,
  }));
  return { endpoint, secret };
}
