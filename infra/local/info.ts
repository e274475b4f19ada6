/**
 * A running local stack as its clients see it (the operator CLI, the tests, the soak): where
 * `.cobro/local.json` is, what it holds, and the environment that points the AWS SDK and cobro's
 * code at that stack. bin/start.ts writes it (infra/local/stack.ts); the CLI reads it.
 *
 * This module loads nothing of the stack itself (no emulator, gateway or DynamoDB Local): the CLI
 * imports it and must start as fast against a deployed table as against the local stack. The
 * dependency rules hold that (bin-imports-no-infra in .dependency-cruiser.cjs).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AccountCredentials } from '../../shared/accounts/repository.ts';
import { fallback, routesEnvironment } from '../../shared/api/routes.ts';
import { envNames } from '../../shared/core/config.ts';

/** The checkout this code runs from: its `.cobro` folder is a stack's state folder unless one is given. */
export const projectRoot = resolve(import.meta.dirname, '../..');

/**
 * The state folder a stack and its clients use when none is given (--state-dir): COBRO_STATE_DIR when
 * set (a script, or a test, points every command at one stack with it), else this checkout's `.cobro`.
 */
export const defaultStateDir = (): string => process.env.COBRO_STATE_DIR || join(projectRoot, '.cobro');

/** The access key pair every local client signs with. */
export interface LocalCredentials {
  /**
   * DynamoDB Local keeps one database per access key id and region (no -sharedDb), in a file named
   * after it, and checks no signature: this id is what keeps the store unreadable to anyone on this
   * machine who does not hold it (and the state folder is the owner's only, so its name is too).
   */
  access_key_id: string;
  /** Checked by the S3 emulator (signature v4); DynamoDB Local ignores it. */
  secret_access_key: string;
}

/**
 * A Stripe account at the local stand-in ready to connect to a cobro account (stripe-accounts.ts): its
 * keys, and in each mode the signing secret of its webhook endpoint pointed at cobro.
 */
export interface StandInStripeAccount {
  account_id: string;
  test_key: string;
  live_key: string;
  test_webhook_secret: string;
  live_webhook_secret: string;
}

/** The demo account's credentials, as `accounts create` prints them. */
export type DemoAccount = AccountCredentials;

/**
 * The stack's secrets as its Secrets Manager endpoint names them, by the field of persistent.json
 * that keeps each (infra/local/state.ts). Functions get these names, never the values.
 */
export const localSecretNames = {
  token_secret: 'cobro-local/token-secret',
  fingerprint_secret: 'cobro-local/fingerprint-secret',
  webhook_key: 'cobro-local/webhook-key',
} as const;

/**
 * What `.cobro/local.json` holds while a stack runs: enough for the CLI and tests to find it and
 * reach its store. It describes the running stack only (a persistent one's secrets live in
 * persistent.json, an in-memory one's nowhere else, and both are read through the stack's Secrets
 * Manager endpoint) and is removed when the stack stops.
 */
export interface LocalInfo {
  /** The process running the stack. */
  pid: number;
  in_memory: boolean;
  api_url: string;
  checkout_url: string;
  health_url: string;
  mail_inbox_url: string;
  /** The same inbox at a fixed place of the API's origin (`<api_url>/_mail`, a redirect). */
  mail_url?: string;
  region: string;
  table: string;
  event_bus: string;
  media_bucket: string;
  mail_from: string;
  ports: {
    api: number;
    dynamodb: number;
    s3: number;
    ses: number;
    eventbridge: number;
    secretsmanager: number;
    /** The stand-in of Stripe's API (absent in a local.json written before it existed). */
    stripe?: number;
  };
  endpoints: { dynamodb: string; s3: string; ses: string; eventbridge: string; secretsmanager: string };
  /**
   * The key pair DynamoDB Local, the S3 emulator and the Secrets Manager endpoint know this stack
   * by. Local only: .cobro is git-ignored and the file is owner-only.
   */
  aws_credentials: LocalCredentials;
  /** The stand-in of Stripe's API (infra/local/stripe): where the Stripe connector calls, locally. */
  stripe_url?: string;
  /** Its control API's Bearer token (stand-in accounts, faults, payouts, disputes); local only. */
  stripe_control_token?: string;
  /** The control server (infra/local/control.ts): the simulated acquirer's faults, for tests and the soak. */
  control_url?: string;
  /** Its Bearer token; local only, like aws_credentials. */
  control_token?: string;
  demo?: DemoAccount;
  /** The demo account's Stripe account at the stand-in, ready to connect (start banner). */
  stripe_demo?: StandInStripeAccount;
}

/** The ports this stack's own services listen on (those not yet listening are 0, left out). */
export function ownPorts(info: LocalInfo): number[] {
  const control = info.control_url ? Number(new URL(info.control_url).port) : 0;
  return [...Object.values(info.ports), control].filter((port) => port > 0);
}

/** The environment handler code sees, locally: only names the functions also get in AWS. */
export function localEnvironment(info: LocalInfo): Record<string, string> {
  return {
    AWS_REGION: info.region,
    AWS_ACCESS_KEY_ID: info.aws_credentials.access_key_id,
    AWS_SECRET_ACCESS_KEY: info.aws_credentials.secret_access_key,
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_ENDPOINT_URL_DYNAMODB: info.endpoints.dynamodb,
    AWS_ENDPOINT_URL_S3: info.endpoints.s3,
    AWS_ENDPOINT_URL_SES: info.endpoints.ses,
    AWS_ENDPOINT_URL_SESV2: info.endpoints.ses,
    AWS_ENDPOINT_URL_EVENTBRIDGE: info.endpoints.eventbridge,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: info.endpoints.secretsmanager,
    [envNames.table]: info.table,
    [envNames.eventBus]: info.event_bus,
    [envNames.mediaBucket]: info.media_bucket,
    [envNames.mailFrom]: info.mail_from,
    // Where each secret is, as deployed: the values stay in the Secrets Manager endpoint.
    [envNames.tokenSecret]: localSecretNames.token_secret,
    [envNames.fingerprintSecret]: localSecretNames.fingerprint_secret,
    [envNames.webhookKey]: localSecretNames.webhook_key,
    // A developer's laptop receives test webhooks on loopback (never so when deployed).
    [envNames.webhookPrivateTargets]: 'allow',
    // The local stack connects the simulated acquirer to live mode (labelled so everywhere): never
    // a deployed stage.
    [envNames.simulatedLive]: 'allow',
    ...(info.stripe_url ? { [envNames.stripeApiUrl]: info.stripe_url } : {}),
    // ...but never on the stack's own ports: a webhook must not drive its own services.
    [envNames.webhookRefusedPorts]: ownPorts(info).join(','),
    [envNames.publicBaseUrl]: info.api_url,
    ...fallback.environment,
    ...routesEnvironment,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'WARN',
  };
}

/**
 * What a process calling the simulated acquirer apart from the stack needs to meet the stack's
 * faults (a rehearsal function, the operator CLI): where its control server is, and its token. Not
 * part of localEnvironment: the stack's own process and a test's hold registries of their own.
 */
export function faultsEnvironment(info: LocalInfo): Record<string, string> {
  return info.control_url && info.control_token
    ? { [envNames.faultsUrl]: info.control_url, [envNames.faultsToken]: info.control_token }
    : {};
}

/** Reads `.cobro/local.json` of a running stack. */
export function readLocalInfo(stateDir = defaultStateDir()): LocalInfo {
  const path = join(stateDir, 'local.json');
  if (!existsSync(path)) throw new Error(`no local stack found (${path} is missing): run npm start first`);
  return JSON.parse(readFileSync(path, 'utf8')) as LocalInfo;
}

/** Whether a process with this pid exists (EPERM: it does, under another user). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
