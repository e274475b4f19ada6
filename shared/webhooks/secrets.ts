/**
 * Signing secrets: made here (`whsec_` and 32 random bytes, base64, as Standard Webhooks writes
 * them), kept encrypted at rest with AES-256-GCM under the stage's webhook key, a Secrets Manager
 * secret (they must be read back to sign, so a keyed hash would not do), and used through the
 * `standardwebhooks` package.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { envNames } from '../core/config.ts';
import { type SecretBox, secretBox as sealedBox } from '../core/secret-box.ts';
import { type Secret, stageSecret } from '../core/secrets.ts';

/** A new signing secret, in the form receivers paste into their Standard Webhooks library. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export type { SecretBox } from '../core/secret-box.ts';

/**
 * Seals and opens signing secrets under the stage's webhook key (made once per process); after the
 * key was replaced, endpoints sealed before keep signing (see docs/operations.md).
 */
export const secretBox = (key: Secret = stageSecret(envNames.webhookKey)): SecretBox =>
  sealedBox(key, 'webhook secrets');

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
