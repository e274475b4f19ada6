/**
 * Signing secrets: made here (`whsec_` and 32 random bytes, base64, as Standard Webhooks writes
 * them), kept encrypted at rest with AES-256-GCM under the stage's WEBHOOK_KEY (they must be read
 * back to sign, so a keyed hash would not do), and used through the `standardwebhooks` package.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { envNames, requireEnv } from '../core/config.ts';
import { type Sealer, sealer } from '../core/seal.ts';

/** A new signing secret, in the form receivers paste into their Standard Webhooks library. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** Seals and opens signing secrets under the stage's WEBHOOK_KEY; made once per process. */
export type SecretBox = Sealer;

export const secretBox = (rawKey = requireEnv(envNames.webhookKey)): SecretBox =>
  sealer(rawKey, 'webhook secrets');

/**
 * The Standard Webhooks headers of one delivery: `webhook-id` (the event id, the same on every
 * retry), `webhook-timestamp` (seconds), and one `v1,` signature per secret, space-separated.
 */
export function signedHeaders(
  secrets: readonly string[],
  message: { id: string; body: string; at: Date },
): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(message.id, message.at, message.body));
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(message.at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
