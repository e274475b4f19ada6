/**
 * The stage's secrets (the token signing secret, the fingerprint secret, the webhook key), read at
 * run time from AWS Secrets Manager and kept in the function for a cache age, never from the
 * environment: the environment names each secret (its ARN deployed, its name locally), so whoever
 * may read a function's configuration learns where a secret is, not what it is. The local stack
 * answers the same calls (infra/local/secrets.ts), so a handler reads a secret the same way both.
 *
 * A secret is read with the value before it (Secrets Manager's AWSPREVIOUS stage), so a new value
 * can be put without a redeploy and without a moment where one function signs with a value another
 * cannot check yet (see secretUse). Powertools' parameter provider does the caching.
 */
import { BaseProvider } from '@aws-lambda-powertools/parameters/base';
import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { requireEnv } from './config.ts';

/** How long a function keeps a secret before reading it again: a new value reaches every function within it. */
export const secretCacheSeconds = 300;

/**
 * Clocks of functions and of Secrets Manager differ a little; the windows of secretUse are this
 * much longer so a function whose clock runs behind still switches after every cache is renewed.
 */
const clockSlackMs = 30_000;

/** A secret as read: the value in force and the one it replaced. */
export interface SecretValues {
  current: string;
  /** The value before the current one, if a value was ever replaced. */
  previous?: string;
  /** When the current value was put (its version's creation date). */
  since: Date;
}

/** Which value to use for what, at one moment. */
export interface SecretUse {
  /** The value to sign or seal with now. */
  sign: string;
  /** The values a signature made lately may be checked with: `sign`'s first. */
  verify: readonly string[];
  /** The values anything sealed since the previous value was put may be opened with: the current one first. */
  open: readonly string[];
}

/**
 * Which value signs and which verify at `now`, for functions that renew their copy of the secret
 * every `cacheSeconds`. Right after a new value is put, some functions still hold the old one and
 * cannot check what the new one signs; so the previous value keeps signing until the new one is
 * older than the cache age (every function has read it by then), and keeps verifying for one cache
 * age more, so what it signed last is not refused at once. Anything sealed under the previous value
 * still opens with it (authenticated encryption tells which value sealed it).
 */
export function secretUse(values: SecretValues, now: Date, cacheSeconds = secretCacheSeconds): SecretUse {
  const { current, previous } = values;
  if (previous === undefined || previous === current)
    return { sign: current, verify: [current], open: [current] };
  const age = now.getTime() - values.since.getTime();
  const cacheMs = cacheSeconds * 1000;
  const young = age < cacheMs + clockSlackMs;
  const overlapping = age < 2 * cacheMs + clockSlackMs;
  return {
    sign: young ? previous : current,
    verify: young ? [previous, current] : overlapping ? [current, previous] : [current],
    open: [current, previous],
  };
}

/** A secret of the stage, read through Secrets Manager and cached. */
export interface Secret {
  /** The values as last read (read again once they are older than the cache age). */
  values(): Promise<SecretValues>;
  /** What to sign, verify and open with now (secretUse of the values). */
  use(): Promise<SecretUse>;
}

/**
 * Powertools' cache around one read of both stages of a secret: the current value with its date,
 * and the previous value (absent until a value was replaced).
 */
class SecretVersions extends BaseProvider {
  private readonly secrets: SecretsManagerClient;

  constructor(client: SecretsManagerClient) {
    super({ awsSdkV3Client: client });
    this.secrets = client;
  }

  protected async _get(id: string): Promise<SecretValues> {
    const [current, previous] = await Promise.all([
      this.secrets.send(new GetSecretValueCommand({ SecretId: id, VersionStage: 'AWSCURRENT' })),
      this.secrets
        .send(new GetSecretValueCommand({ SecretId: id, VersionStage: 'AWSPREVIOUS' }))
        .catch((error: unknown) => {
          if (error instanceof ResourceNotFoundException) return undefined;
          throw error;
        }),
    ]);
    if (!current.SecretString) throw new Error(`secret ${id} has no string value`);
    return {
      current: current.SecretString,
      ...(previous?.SecretString ? { previous: previous.SecretString } : {}),
      since: current.CreatedDate ?? new Date(0),
    };
  }

  protected async _getMultiple(): Promise<undefined> {
    throw new Error('secrets are read one by one');
  }
}

let shared: SecretVersions | undefined;

/** The process's one provider (its client and cache), made on first use. */
function sharedVersions(): SecretVersions {
  shared ??= new SecretVersions(new SecretsManagerClient({}));
  return shared;
}

/**
 * The secret whose id (ARN or name) the environment variable `variable` holds. The variable is read
 * now, so a function missing it fails at cold start; the secret itself on first use. One client and
 * cache per process unless `client` is given (a test's own endpoint).
 */
export function stageSecret(
  variable: string,
  options: { cacheSeconds?: number; client?: SecretsManagerClient } = {},
): Secret {
  const id = requireEnv(variable);
  const cacheSeconds = options.cacheSeconds ?? secretCacheSeconds;
  const provider = options.client ? new SecretVersions(options.client) : sharedVersions();
  const values = async () => (await provider.get(id, { maxAge: cacheSeconds })) as SecretValues;
  return {
    values,
    use: async () => secretUse(await values(), new Date(), cacheSeconds),
  };
}

/**
 * The values of a secret that keys stored tokens (HMACs of a session's, a receipt link's, a portal
 * link's token): one to key new tokens with, and every value a stored one may be keyed with.
 */
export interface TokenKeys {
  /** The value new tokens are keyed with. */
  sign(): Promise<string>;
  /** Every value a stored token may be keyed with: the current one and the one before it. */
  lookup(): Promise<readonly string[]>;
}

/**
 * `secret` as token keys (read from Secrets Manager, cached): a token stays found after the secret
 * is replaced once (its previous value is still tried); a second replacement makes the tokens keyed
 * before the first unreachable.
 */
export function tokenKeys(secret: Secret): TokenKeys {
  return {
    sign: async () => (await secret.use()).sign,
    lookup: async () => {
      const { current, previous } = await secret.values();
      return previous === undefined || previous === current ? [current] : [current, previous];
    },
  };
}
