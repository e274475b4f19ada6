/**
 * The Secrets Manager secrets. Functions read them at run time (shared/core/secrets.ts), keeping
 * each for a few minutes: a value put with `aws secretsmanager put-secret-value` reaches them
 * without a redeploy. What a rotation does to each is in docs/operations.md. Each keeps the logical
 * id it had at stack level: a replaced secret would get a new value.
 */
import { Validations } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { envNames } from '../shared/core/config.ts';
import type { Access } from '../shared/http/route.ts';
import { keepStackLevelId } from './logical-ids.ts';
import type { Stage } from './stage.ts';

/** The access flags that read a secret. */
export type SecretFlag = 'tokenSecret' | 'fingerprintSecret' | 'webhookKey';

export class CobroSecrets extends Construct {
  readonly tokenSecret: secretsmanager.Secret;
  readonly fingerprintSecret: secretsmanager.Secret;
  readonly webhookKey: secretsmanager.Secret;

  constructor(scope: Construct, id: string, stage: Stage) {
    super(scope, id);
    const secret = (name: string, description: string, rotation: string) => {
      const made = new secretsmanager.Secret(this, name, {
        description: `cobro ${stage}: ${description}`,
        generateSecretString: { passwordLength: 64, excludePunctuation: true },
      });
      Validations.of(made).acknowledge({ id: 'AwsSolutions-SMG4', reason: rotation });
      keepStackLevelId(made);
      return made;
    };
    this.tokenSecret = secret(
      'TokenSecret',
      'HMAC key that signs bearer tokens',
      'A new token signing key signs out every bearer token once the previous one stops verifying (two cache ages after the change): a schedule would do that to every client on its own timetable. Tokens live one hour; rotate deliberately by putting a new value (docs/operations.md).',
    );
    this.fingerprintSecret = secret(
      'FingerprintSecret',
      'HMAC key of idempotency fingerprints (request bodies may hold card data)',
      'A new key makes every Idempotency-Key stored in the last 24 hours answer 409 instead of replaying its answer; rotate only when the key leaked, by putting a new value (docs/operations.md).',
    );
    this.webhookKey = secret(
      'WebhookKey',
      "AES key that encrypts webhook endpoints' signing secrets at rest",
      'Stored signing secrets are sealed under this key and open with the current or the previous value only: a second change before every endpoint was sealed again makes the oldest unreadable. Rotate deliberately (docs/operations.md).',
    );
  }

  /** The secrets an `access` row reads, with the variable that names each to the function. */
  readBy(access: Access): { flag: SecretFlag; secret: secretsmanager.Secret; variable: string }[] {
    const all = [
      { flag: 'tokenSecret', secret: this.tokenSecret, variable: envNames.tokenSecret },
      { flag: 'fingerprintSecret', secret: this.fingerprintSecret, variable: envNames.fingerprintSecret },
      { flag: 'webhookKey', secret: this.webhookKey, variable: envNames.webhookKey },
    ] as const;
    return all.filter(({ flag }) => access[flag] === true);
  }
}
