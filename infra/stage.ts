/**
 * The deployment stages and everything that differs between them, read from CDK context
 * (`cdk synth -c stage=prod -c alarmEmail=ops@example.org ...`) and checked before anything is
 * built: a wrong value fails the synth with one line naming its context key. docs/operations.md
 * lists the keys.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import { isHostName } from '../shared/core/host-name.ts';

export type Stage = 'dev' | 'staging' | 'prod';

/** The stages the app can be synthesized for. */
export const stages: readonly Stage[] = ['dev', 'staging', 'prod'];

/** Placeholder sender; SES only sends from a verified identity, so set `mailFrom` before real mail. */
export const defaultMailFrom = 'no-reply@example.com';

export interface StageConfig {
  readonly stage: Stage;
  /** Steady requests per second the API stage accepts before answering 429. */
  readonly throttlingRateLimit: number;
  /** Requests the API stage accepts in a burst above the rate. */
  readonly throttlingBurstLimit: number;
  /** How long function and access logs are kept. */
  readonly logRetention: logs.RetentionDays;
  /** Where alarms notify (an SNS e-mail subscription); unset only in dev. */
  readonly alarmEmail?: string;
  /** Start of every URL cobro answers (a custom domain); unset: the API's own execute-api URL. */
  readonly baseUrl?: string;
  /** Sender of every e-mail: an SES-verified address or an address of a verified domain. */
  readonly mailFrom: string;
  /** The SES identity the mail functions may send through: `mailFrom` itself or its domain. */
  readonly mailIdentity: string;
  /** What deleting the stack does to the buckets and log groups; the table is always retained. */
  readonly removalPolicy: RemovalPolicy;
  /** DynamoDB refuses to delete the table while this is on. */
  readonly tableDeletionProtection: boolean;
}

/** What each stage starts from; context keys override the throttles and the log retention. */
const defaults: Record<Stage, Omit<StageConfig, 'stage' | 'mailFrom' | 'mailIdentity'>> = {
  dev: {
    throttlingRateLimit: 100,
    throttlingBurstLimit: 200,
    logRetention: logs.RetentionDays.ONE_WEEK,
    removalPolicy: RemovalPolicy.DESTROY,
    tableDeletionProtection: false,
  },
  staging: {
    throttlingRateLimit: 100,
    throttlingBurstLimit: 200,
    logRetention: logs.RetentionDays.ONE_MONTH,
    removalPolicy: RemovalPolicy.RETAIN,
    tableDeletionProtection: true,
  },
  prod: {
    throttlingRateLimit: 500,
    throttlingBurstLimit: 1000,
    logRetention: logs.RetentionDays.THREE_MONTHS,
    removalPolicy: RemovalPolicy.RETAIN,
    tableDeletionProtection: true,
  },
};

/** The context keys the app reads, each checked by `stageConfig`. */
export const contextKeys = [
  'stage',
  'alarmEmail',
  'baseUrl',
  'mailFrom',
  'mailIdentity',
  'throttlingRateLimit',
  'throttlingBurstLimit',
  'logRetentionDays',
] as const;
export type ContextKey = (typeof contextKeys)[number];

/** A context value that is wrong: the message is one line and names the key. */
export class ContextError extends Error {
  constructor(key: ContextKey, value: unknown, expected: string) {
    super(`Invalid context ${key}=${JSON.stringify(value)}: ${expected} (-c ${key}=...)`);
    this.name = 'ContextError';
  }
}

const unset = (value: unknown) => value === undefined || value === null || value === '';
const emailShape = /^[A-Za-z0-9._%+-]+@([A-Za-z0-9-]+\.)+[A-Za-z]{2,}$/;

/**
 * The configuration of the stage named by the `stage` context key (unset: dev), from the other
 * keys and the stage's defaults. Throws a ContextError on the first wrong value.
 */
export function stageConfig(context: (key: ContextKey) => unknown): StageConfig {
  const stage = parseStage(context('stage') ?? 'dev');
  const base = defaults[stage];

  const alarmEmail = context('alarmEmail');
  if (unset(alarmEmail) && stage !== 'dev')
    throw new ContextError('alarmEmail', alarmEmail, `required for stage ${stage}: an e-mail address`);
  if (!unset(alarmEmail) && (typeof alarmEmail !== 'string' || !emailShape.test(alarmEmail)))
    throw new ContextError('alarmEmail', alarmEmail, 'an e-mail address');

  const mailFromValue = context('mailFrom');
  if (!unset(mailFromValue) && (typeof mailFromValue !== 'string' || !emailShape.test(mailFromValue)))
    throw new ContextError('mailFrom', mailFromValue, 'an e-mail address verified in SES');
  const mailFrom = unset(mailFromValue) ? defaultMailFrom : (mailFromValue as string);
  const domain = mailFrom.slice(mailFrom.lastIndexOf('@') + 1);
  // SES authorizes a send against the identity that verifies the sender: the address itself, or
  // its domain. The policy names that one identity; unset means the domain.
  const identity = context('mailIdentity');
  if (!unset(identity) && identity !== mailFrom && identity !== domain)
    throw new ContextError('mailIdentity', identity, `the sender ${mailFrom} or its domain ${domain}`);
  const mailIdentity = unset(identity) ? domain : (identity as string);

  const positive = (key: ContextKey, fallback: number): number => {
    const value = context(key);
    if (unset(value)) return fallback;
    const number = typeof value === 'string' ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isInteger(number) || number < 1)
      throw new ContextError(key, value, 'a whole number of at least 1');
    return number;
  };
  const throttlingRateLimit = positive('throttlingRateLimit', base.throttlingRateLimit);
  const throttlingBurstLimit = positive('throttlingBurstLimit', base.throttlingBurstLimit);
  if (throttlingBurstLimit < throttlingRateLimit)
    throw new ContextError(
      'throttlingBurstLimit',
      throttlingBurstLimit,
      `at least the rate (${throttlingRateLimit})`,
    );

  const retentionDays = positive('logRetentionDays', base.logRetention);
  const retentions = Object.values(logs.RetentionDays).filter(
    (days): days is logs.RetentionDays => typeof days === 'number' && days !== logs.RetentionDays.INFINITE,
  );
  if (!retentions.includes(retentionDays))
    throw new ContextError(
      'logRetentionDays',
      retentionDays,
      `one of CloudWatch's periods: ${retentions.join(', ')}`,
    );

  return {
    ...base,
    stage,
    throttlingRateLimit,
    throttlingBurstLimit,
    logRetention: retentionDays,
    ...(unset(alarmEmail) ? {} : { alarmEmail: alarmEmail as string }),
    ...(parseBaseUrl(context('baseUrl')) ? { baseUrl: parseBaseUrl(context('baseUrl')) } : {}),
    mailFrom,
    mailIdentity,
  };
}

/** Checks the `stage` context value. */
export function parseStage(value: unknown): Stage {
  if (typeof value === 'string' && (stages as readonly string[]).includes(value)) return value as Stage;
  throw new ContextError('stage', value, `one of ${stages.join(', ')} (default: dev, from cdk.json)`);
}

/**
 * Checks the `baseUrl` context value (a custom domain in front of the API): absolute https, a host
 * name, at most a path prefix, no trailing slash, query, fragment or user info. Unset (undefined or
 * empty) means the API's own execute-api URL.
 */
export function parseBaseUrl(value: unknown): string | undefined {
  if (unset(value)) return undefined;
  const problem = new ContextError(
    'baseUrl',
    value,
    'an absolute https URL with at most a path prefix (https://pay.example.com or https://example.com/pay), no trailing slash, query or user info',
  );
  // The shape first (no user info, query, fragment or trailing slash), then the parser's view of it.
  const shape = /^https:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/[A-Za-z0-9._~-]+)*$/;
  if (typeof value !== 'string' || !shape.test(value)) throw problem;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw problem;
  }
  if (!isHostName(url.hostname)) throw problem;
  return value;
}
