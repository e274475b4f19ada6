/**
 * The local stack's secrets. A persistent stack keeps them in `.cobro/persistent.json`, written only
 * by persistent starts, so a throwaway (`--in-memory`) run can never replace them; an in-memory run
 * makes its own and keeps them only while it runs.
 */

import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { randomToken } from '../../shared/core/ids.ts';
import type { DemoAccount, LocalCredentials, localSecretNames, StandInStripeAccount } from './info.ts';
import { lockFile } from './lock.ts';

/** The fields of the secrets the stack's Secrets Manager endpoint serves. */
export type SecretField = keyof typeof localSecretNames;

export interface StackSecrets {
  /** Signs local bearer tokens; kept so tokens survive a restart. */
  token_secret: string;
  /** Keys the fingerprints of idempotent requests. */
  fingerprint_secret: string;
  /** Encrypts webhook endpoints' signing secrets at rest. */
  webhook_key: string;
  /**
   * The values a PutSecretValue to the stack's endpoint replaced, by field: served as AWSPREVIOUS
   * after a restart too, so what they signed or sealed still verifies or opens.
   */
  previous?: Partial<Record<SecretField, string>>;
  aws_credentials: LocalCredentials;
  demo?: DemoAccount;
  /** The demo account's Stripe account at the stand-in, kept with the stand-in's state. */
  stripe_demo?: StandInStripeAccount;
}

/** The key the local stack used before it had its own: DynamoDB Local's database was stored under it. */
export const legacyAccessKeyId = 'S3RVER';

export const persistentFile = 'persistent.json';

/** DynamoDB Local accepts only letters and digits in an access key id: 40 of them, about 238 bits. */
export function newCredentials(): LocalCredentials {
  return { access_key_id: `COBRO${randomToken(35)}`, secret_access_key: randomToken(40) };
}

export function newSecrets(): StackSecrets {
  return {
    token_secret: randomBytes(48).toString('base64url'),
    fingerprint_secret: randomBytes(48).toString('base64url'),
    webhook_key: randomBytes(48).toString('base64url'),
    aws_credentials: newCredentials(),
  };
}

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** What the stack keeps in its state folder (a name, or the start of one: `local.json.<pid>.tmp`). */
const stateEntries = [
  persistentFile,
  'local.json',
  lockFile,
  'stream-checkpoint.json',
  // The operator CLI's `webhooks listen` endpoints, and rehearsal mode's function logs.
  'webhooks-listen.json',
  'rehearsal',
  'dynamodb',
  's3',
  'ses',
];
const isStateEntry = (name: string) =>
  stateEntries.some((entry) => name === entry || name.startsWith(`${entry}.`));

/** Makes `path` owner-only (folders 0700, files 0600), all the way down; links are left alone. */
function chmodTree(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (!stat.isDirectory()) {
    chmodSync(path, 0o600);
    return;
  }
  chmodSync(path, 0o700);
  for (const entry of readdirSync(path)) chmodTree(join(path, entry));
}

/**
 * Makes the state folder the owner's only: every file the stack keeps there (the stack's own, and
 * those an older cobro, DynamoDB Local or the emulators wrote under a looser umask) 0600, its
 * folders 0700. The folder itself becomes 0700 unless it also holds files that are not the stack's
 * (a folder given with --state-dir, say): then only the stack's entries change, and false is
 * answered.
 */
export function makeStatePrivate(stateDir: string): boolean {
  const entries = readdirSync(stateDir);
  for (const entry of entries.filter(isStateEntry)) chmodTree(join(stateDir, entry));
  if (!entries.every(isStateEntry)) return false;
  chmodSync(stateDir, 0o700);
  return true;
}

/** Writes a file only its owner can read, replacing the old one in one step (no torn file). */
export function writePrivate(path: string, value: unknown): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

const isString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * The persistent stack's secrets from `persistent.json`; made (and written) on first start. A
 * checkout from before this file existed kept them in `local.json`: they are taken from there once,
 * unless that file came from an in-memory run.
 */
export function loadPersistentSecrets(stateDir: string): StackSecrets {
  mkdirSync(stateDir, { recursive: true });
  const path = join(stateDir, persistentFile);
  const stored = readJson(path);
  const legacy = stored ? undefined : readJson(join(stateDir, 'local.json'));
  const from = stored ?? (legacy && legacy.in_memory === undefined ? legacy : {});
  const fresh = newSecrets();
  const credentials = from.aws_credentials as Partial<LocalCredentials> | undefined;
  const secrets: StackSecrets = {
    token_secret: isString(from.token_secret) ? from.token_secret : fresh.token_secret,
    fingerprint_secret: isString(from.fingerprint_secret)
      ? from.fingerprint_secret
      : fresh.fingerprint_secret,
    webhook_key: isString(from.webhook_key) ? from.webhook_key : fresh.webhook_key,
    aws_credentials:
      isString(credentials?.access_key_id) && isString(credentials?.secret_access_key)
        ? { access_key_id: credentials.access_key_id, secret_access_key: credentials.secret_access_key }
        : fresh.aws_credentials,
    ...(from.previous && typeof from.previous === 'object'
      ? { previous: from.previous as StackSecrets['previous'] }
      : {}),
    ...(from.demo ? { demo: from.demo as DemoAccount } : {}),
  };
  if (JSON.stringify(stored) !== JSON.stringify(secrets)) writePrivate(path, secrets);
  return secrets;
}

/** Records the persistent stack's secrets (after its demo account was made, say). */
export function savePersistentSecrets(stateDir: string, secrets: StackSecrets): void {
  writePrivate(join(stateDir, persistentFile), secrets);
}

/**
 * A database DynamoDB Local stored under the old fixed key moves to this stack's key, once, so its
 * data stays readable by the stack and by nobody else. Nothing happens when the stack's own database
 * already exists.
 */
export function migrateDynamoData(dataDir: string, accessKeyId: string, region: string): boolean {
  const legacy = join(dataDir, `${legacyAccessKeyId}_${region}.db`);
  const own = join(dataDir, `${accessKeyId}_${region}.db`);
  if (accessKeyId === legacyAccessKeyId || !existsSync(legacy) || existsSync(own)) return false;
  renameSync(legacy, own);
  return true;
}
