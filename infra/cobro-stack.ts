/**
 * The cobro stack: the table, event bus, media bucket, the Secrets Manager secrets and one Lambda
 * function per handler named in the shared route and event-rule tables, behind a REST API
 * (infra/api.ts). Everything here is derived from `shared/`, the same data the local stack reads.
 */
import * as path from 'node:path';
import {
  type CfnElement,
  CfnOutput,
  Duration,
  RemovalPolicy,
  Stack,
  type StackProps,
  Validations,
} from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as lambdaEvents from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { eventRules, schedules } from '../shared/api/event-rules.ts';
import { outboxRelay } from '../shared/api/outbox-relay.ts';
import { authorizer, fallback, routes } from '../shared/api/routes.ts';
import { envNames } from '../shared/core/config.ts';
import { isHostName } from '../shared/core/host-name.ts';
import { tableDefinition } from '../shared/db/table.ts';
import { eventSource } from '../shared/events/event.ts';
import { outboxFilterPattern } from '../shared/events/outbox.ts';
import type { EventRule, Schedule } from '../shared/http/area.ts';
import type { Access, Route } from '../shared/http/route.ts';
import { routeTableOf } from '../shared/http/route.ts';
import { CobroApi } from './api.ts';
import { esmRequireBanner, externalModulesOf, functionBundling } from './bundling.ts';
import { Observability } from './observability.ts';
import type { Stage } from './stage.ts';

/** Placeholder sender; SES only sends from a verified identity, so set `mailFrom` before real mail. */
export const defaultMailFrom = 'no-reply@example.com';

/** Repository root: handler paths in `shared/` are relative to it, and bundling needs its lock file. */
const repoRoot = path.resolve(import.meta.dirname, '..');

/**
 * Checks the `baseUrl` context value (a custom domain in front of the API): absolute https, a host
 * name, at most a path prefix, no trailing slash, query, fragment or user info. Unset (undefined or
 * empty) means the API's own execute-api URL.
 */
export function parseBaseUrl(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const problem = new Error(
    `Invalid baseUrl ${JSON.stringify(value)}: pass -c baseUrl=https://pay.example.com, an absolute https URL with at most a path prefix (https://example.com/pay), no trailing slash, query or user info.`,
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

/**
 * Construct id of a handler's function, from its file name (`functions/auth/get-api-keys.ts` →
 * `GetApiKeysFn`), so logical ids stay put when rows are reordered or added.
 */
export function functionId(handler: string): string {
  return `${pascalCase(path.basename(handler, path.extname(handler)))}Fn`;
}

/**
 * What a route's function may touch: its row's access, and the fingerprint secret for every
 * authenticated POST (they all honour Idempotency-Key, whose fingerprint is keyed with it).
 */
export function routeAccess(route: Pick<Route, 'auth' | 'method' | 'access'>): Access {
  return route.auth && route.method === 'POST' ? { ...route.access, fingerprintSecret: true } : route.access;
}

/**
 * Construct id part of the IAM access a row grants (`{ table: 'write', events: true }` →
 * `TableWriteEvents`, `{ tokenSecret: true }` → `TokenSecret`, `{}` → `NoData`). Each secret read
 * is a grant of its own, so it is part of the name.
 */
function profileName(access: Access): string {
  const parts = [
    access.table && `Table-${access.table}`,
    access.events && 'Events',
    access.mail && 'Mail',
    access.media && `Media-${access.media}`,
    access.tokenSecret && 'TokenSecret',
    access.fingerprintSecret && 'FingerprintSecret',
    access.webhookKey && 'WebhookKey',
  ].filter((part): part is string => typeof part === 'string');
  return parts.length > 0 ? pascalCase(parts.join('-')) : 'NoData';
}

/** `api-key-rotated-email` → `ApiKeyRotatedEmail`. */
function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

export interface CobroStackProps extends StackProps {
  /** Deployment stage: names the bus and the API; `prod` turns on table deletion protection. */
  readonly stage: Stage;
  /**
   * Sender of every e-mail, and the only `ses:FromAddress` the mail functions may use. It must be an
   * SES-verified identity in the target account and region.
   * @default 'no-reply@example.com' (a placeholder that SES will refuse until replaced)
   */
  readonly mailFrom?: string;
  /**
   * Where clients reach the API (a custom domain, checked by `parseBaseUrl`): every URL cobro
   * answers (checkout pages, images, the OpenAPI server) starts with it, never with a request header.
   * @default the API's own URL, https://<restApiId>.execute-api.<region>.<urlSuffix>/<stage>
   */
  readonly baseUrl?: string;
  /**
   * The API's route rows. Tests pass a projected table here to measure the template a larger API
   * would make.
   * @default the route table in shared/http/routes.ts
   */
  readonly routes?: readonly Route[];
  /** @default the event rules in shared/events/rules.ts */
  readonly eventRules?: readonly EventRule[];
  /** @default the schedules in shared/events/rules.ts */
  readonly schedules?: readonly Schedule[];
  /**
   * The source file bundled for a handler module.
   * @default the handler path under the repository root
   */
  readonly entryFor?: (handler: string) => string;
  /** Where the stage's alarms are e-mailed (infra/observability.ts). @default no subscription */
  readonly alarmEmail?: string;
}

/** What a handler's function differs in; everything else is shared by all functions. */
interface FunctionSpec {
  /** Handler module, relative to the repository root. */
  readonly handler: string;
  readonly access: Access;
  /** @default 512 */
  readonly memorySize?: number;
  readonly timeout: Duration;
  /** Where asynchronous invocations that still fail after Lambda's retries end up. @default none */
  readonly deadLetterQueue?: sqs.IQueue;
  /** Variables of this function alone. @default none */
  readonly environment?: Readonly<Record<string, string>>;
}

export class CobroStack extends Stack {
  readonly table: dynamodb.TableV2;
  readonly bus: events.EventBus;
  readonly mediaBucket: s3.Bucket;
  readonly tokenSecret: secretsmanager.Secret;
  readonly fingerprintSecret: secretsmanager.Secret;
  readonly webhookKey: secretsmanager.Secret;
  readonly api: CobroApi;
  private readonly mailFrom: string;
  private readonly functions = new Map<string, { fn: NodejsFunction; access: Access }>();
  private readonly entryFor: (handler: string) => string;
  private readonly profiles = new Map<string, { role: iam.Role; logGroup: logs.LogGroup }>();

  constructor(scope: Construct, id: string, props: CobroStackProps) {
    super(scope, id, props);
    const { stage } = props;
    this.mailFrom = props.mailFrom ?? defaultMailFrom;
    this.entryFor = props.entryFor ?? ((handler) => path.join(repoRoot, handler));
    const routeRows = props.routes ?? routes;

    // Server access logs are delivered under a bucket policy rather than the legacy
    // LogDeliveryWrite ACL, which new buckets (ACLs disabled) reject. Must be set before any child.
    this.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);

    const key = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });
    this.table = new dynamodb.TableV2(this, 'Table', {
      partitionKey: key(tableDefinition.partitionKey),
      sortKey: key(tableDefinition.sortKey),
      globalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((index) => ({
        indexName: index.indexName,
        partitionKey: key(index.partitionKey),
        sortKey: key(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      })),
      timeToLiveAttribute: tableDefinition.ttlAttribute,
      dynamoStream: dynamodb.StreamViewType[tableDefinition.streamView],
      billing: dynamodb.Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: stage === 'prod',
      // Payment records outlive any stack: deleting the stack must never delete the data.
      removalPolicy: RemovalPolicy.RETAIN,
      encryption: dynamodb.TableEncryptionV2.awsManagedKey(),
    });

    this.bus = new events.EventBus(this, 'Bus', { eventBusName: `cobro-${stage}` });

    const accessLogBucket = new s3.Bucket(this, 'AccessLogBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.mediaBucket = new s3.Bucket(this, 'MediaBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      serverAccessLogsBucket: accessLogBucket,
      serverAccessLogsPrefix: 'media/',
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Functions read these at run time (shared/core/secrets.ts), keeping each for a few minutes: a
    // value put with `aws secretsmanager put-secret-value` reaches them without a redeploy. What a
    // rotation does to each is in docs/operations.md.
    this.tokenSecret = new secretsmanager.Secret(this, 'TokenSecret', {
      description: `cobro ${stage}: HMAC key that signs bearer tokens`,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(this.tokenSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'A new token signing key signs out every bearer token once the previous one stops verifying (two cache ages after the change): a schedule would do that to every client on its own timetable. Tokens live one hour; rotate deliberately by putting a new value (docs/operations.md).',
    });

    this.fingerprintSecret = new secretsmanager.Secret(this, 'FingerprintSecret', {
      description: `cobro ${stage}: HMAC key of idempotency fingerprints (request bodies may hold card data)`,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(this.fingerprintSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'A new key makes every Idempotency-Key stored in the last 24 hours answer 409 instead of replaying its answer; rotate only when the key leaked, by putting a new value (docs/operations.md).',
    });

    this.webhookKey = new secretsmanager.Secret(this, 'WebhookKey', {
      description: `cobro ${stage}: AES key that encrypts webhook endpoints' signing secrets at rest`,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(this.webhookKey).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Stored signing secrets are sealed under this key and open with the current or the previous value only: a second change before every endpoint was sealed again makes the oldest unreadable. Rotate deliberately (docs/operations.md).',
    });

    const apiFunction = (
      handler: string,
      access: Access,
      memorySize?: number,
      environment?: Record<string, string>,
    ) => this.handlerFunction({ handler, access, memorySize, timeout: Duration.seconds(10), environment });
    for (const route of routeRows)
      apiFunction(route.handler, routeAccess(route), undefined, route.environment);
    apiFunction(fallback.handler, fallback.access, undefined, {
      [envNames.routeTable]: JSON.stringify(routeTableOf(routeRows)),
    });
    apiFunction(authorizer.handler, authorizer.access, 256);

    for (const rule of props.eventRules ?? eventRules) {
      const ruleId = `${pascalCase(rule.name)}Rule`;
      // One queue catches both failures: events the rule could not deliver, and (as the function's
      // own DLQ) events the function still failed on after Lambda's asynchronous retries, which the
      // rule's dead-letter config alone would silently drop.
      const deadLetterQueue = new sqs.Queue(this, `${ruleId}Dlq`, {
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
      });
      const target = this.handlerFunction({
        handler: rule.target,
        access: rule.access,
        timeout: Duration.seconds(30),
        deadLetterQueue,
      });
      new events.Rule(this, ruleId, {
        eventBus: this.bus,
        ruleName: rule.name,
        eventPattern: { source: [rule.source ?? eventSource], detailType: [...rule.detailTypes] },
        targets: [new targets.LambdaFunction(target, { deadLetterQueue, retryAttempts: 2 })],
      });
    }

    // The outbox relay: stored events leave the table through its stream (shared/events/outbox.ts).
    // Lambda's event source mapping filters for new event items, retries a failed batch from the
    // first record the relay reports, and after a day of failures parks the batch's description in
    // a queue an operator reads (the records themselves stay in the table, listed by GET /v1/events/).
    const relayDeadLetters = new sqs.Queue(this, 'OutboxRelayDlq', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(relayDeadLetters).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "This queue is itself a dead-letter queue: the stream mapping's on-failure destination for the outbox relay.",
    });
    const relay = this.handlerFunction({
      handler: outboxRelay.handler,
      access: outboxRelay.access,
      timeout: Duration.seconds(60),
    });
    relay.addEventSource(
      new lambdaEvents.DynamoEventSource(this.table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(0),
        reportBatchItemFailures: true,
        retryAttempts: 10_000,
        maxRecordAge: Duration.days(1),
        parallelizationFactor: 4,
        onFailure: new lambdaEvents.SqsDlq(relayDeadLetters),
        filters: [lambda.FilterCriteria.filter(outboxFilterPattern(outboxRelay.entities))],
      }),
    );

    for (const schedule of props.schedules ?? schedules) {
      const ruleId = `${pascalCase(schedule.name)}Schedule`;
      const target = this.handlerFunction({
        handler: schedule.target,
        access: schedule.access,
        timeout: Duration.minutes(5),
      });
      // A run that fails is simply retried by the next one: the step only does what is due.
      new events.Rule(this, ruleId, {
        ruleName: `cobro-${stage}-${schedule.name}`,
        schedule: events.Schedule.expression(schedule.expression),
        targets: [new targets.LambdaFunction(target, { retryAttempts: 0 })],
      });
    }

    this.api = new CobroApi(this, 'Api', {
      stage,
      routes: routeRows,
      functionFor: (handler) => {
        const made = this.functions.get(handler);
        if (!made) throw new Error(`no function for handler ${handler}`);
        return made.fn;
      },
    });

    // Built from the RestApi's id, not the deployment stage's URL: the stage depends on every method,
    // the methods on the functions, so a function naming the stage would close a cycle.
    const baseUrl =
      parseBaseUrl(props.baseUrl) ??
      `https://${this.api.restApi.restApiId}.execute-api.${this.region}.${this.urlSuffix}/${stage}`;
    for (const { fn } of this.functions.values()) fn.addEnvironment(envNames.publicBaseUrl, baseUrl);

    new Observability(this, 'Observability', {
      stage,
      alarmEmail: props.alarmEmail,
      functions: [...this.functions.values()].map(({ fn }) => fn),
      deadLetterQueues: this.node.findAll().filter((child): child is sqs.Queue => child instanceof sqs.Queue),
      restApi: this.api.restApi,
      relay,
    });

    new CfnOutput(this, 'PublicBaseUrl', {
      value: baseUrl,
      description: 'Start of every URL cobro answers: checkout pages, images, the OpenAPI server',
    });
    new CfnOutput(this, 'ApiUrl', {
      value: this.api.restApi.url,
      description: 'Base URL of the REST API stage',
    });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'EventBusName', { value: this.bus.eventBusName });
    new CfnOutput(this, 'MediaBucketName', { value: this.mediaBucket.bucketName });
    // Where to put a new value when rotating (docs/operations.md); an ARN is not the secret.
    new CfnOutput(this, 'TokenSecretArn', { value: this.tokenSecret.secretArn });
    new CfnOutput(this, 'FingerprintSecretArn', { value: this.fingerprintSecret.secretArn });
    new CfnOutput(this, 'WebhookKeyArn', { value: this.webhookKey.secretArn });
  }

  /** The function for a handler module, made once however many rows name it, granted exactly `access`. */
  private handlerFunction(spec: FunctionSpec): NodejsFunction {
    const existing = this.functions.get(spec.handler);
    if (existing) {
      if (JSON.stringify(existing.access) !== JSON.stringify(spec.access)) {
        throw new Error(
          `${spec.handler} is named twice with different access; give each row its own handler`,
        );
      }
      return existing.fn;
    }
    const id = functionId(spec.handler);
    const { role, logGroup } = this.profile(spec.access, spec.deadLetterQueue);

    const environment: Record<string, string> = {
      [envNames.table]: this.table.tableName,
      [envNames.eventBus]: this.bus.eventBusName,
      [envNames.mediaBucket]: this.mediaBucket.bucketName,
      [envNames.mailFrom]: this.mailFrom,
      ...spec.environment,
    };
    // Source maps cost every cold start (`npm run bench -- --only cold`): see infra/bundling.ts.
    if (functionBundling.sourceMap) environment.NODE_OPTIONS = '--enable-source-maps';
    // A secret's ARN, never its value: whoever may read the function's configuration learns only
    // where the secret is. The function reads the value itself, under its role's grant.
    for (const { secret, variable } of this.secretsOf(spec.access)) environment[variable] = secret.secretArn;

    const fn = new NodejsFunction(this, id, {
      entry: this.entryFor(spec.handler),
      projectRoot: repoRoot,
      depsLockFilePath: path.join(repoRoot, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: spec.memorySize ?? 512,
      timeout: spec.timeout,
      role,
      logGroup,
      environment,
      deadLetterQueue: spec.deadLetterQueue,
      tracing: lambda.Tracing.ACTIVE,
      bundling: {
        format: OutputFormat.ESM,
        mainFields: ['module', 'main'],
        // Some CommonJS dependencies call require(); an ESM bundle has none unless we make one.
        banner: esmRequireBanner,
        minify: true,
        sourceMap: functionBundling.sourceMap,
        // Bundled, the SDK is tree-shaken and loads faster than the runtime's copy; Powertools Logger
        // and Metrics come from their layer instead, to keep bundles small (infra/bundling.ts).
        externalModules: externalModulesOf(functionBundling),
        target: 'node24',
      },
    });
    this.functions.set(spec.handler, { fn, access: spec.access });
    return fn;
  }

  /**
   * The role and log group of every function with this access (and dead-letter queue). Functions
   * whose rows grant the same IAM access share one role, its one policy and one log group: the
   * role's statements are exactly what each of them would get alone, so sharing widens no data
   * access, and it keeps the per-function cost at the function, its method and its invoke
   * permission (a role, a policy and a log group per function would take the contract's endpoints
   * past CloudFormation's 500 resources). Each secret a row reads is a grant, so it is part of the
   * profile: a role reads exactly the secrets of its functions. A function with a dead-letter queue
   * gets a role of its own, since that queue is a grant only it has. Lambda names each log stream of a
   * shared log group after its function (`YYYY/MM/DD/<function name>[<version>]<id>`).
   */
  private profile(access: Access, deadLetterQueue?: sqs.IQueue): { role: iam.Role; logGroup: logs.LogGroup } {
    const name = `${profileName(access)}${deadLetterQueue?.node.id ?? ''}`;
    const existing = this.profiles.get(name);
    if (existing) return existing;
    const logGroup = new logs.LogGroup(this, `${name}Logs`, { retention: logs.RetentionDays.ONE_MONTH });
    // Own role instead of the default one: AWSLambdaBasicExecutionRole may write to every log group
    // in the account, this role only to its profile's.
    const role = new iam.Role(this, `${name}Role`, {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `cobro functions with access: ${name}`,
    });
    logGroup.grantWrite(role);
    this.grant(role, access);
    const made = { role, logGroup };
    this.profiles.set(name, made);
    return made;
  }

  /** The secrets an `access` row reads, with the variable that names each to the function. */
  private secretsOf(access: Access): { secret: secretsmanager.Secret; variable: string }[] {
    return [
      ...(access.tokenSecret ? [{ secret: this.tokenSecret, variable: envNames.tokenSecret }] : []),
      ...(access.fingerprintSecret
        ? [{ secret: this.fingerprintSecret, variable: envNames.fingerprintSecret }]
        : []),
      ...(access.webhookKey ? [{ secret: this.webhookKey, variable: envNames.webhookKey }] : []),
    ];
  }

  /** Grants a role what an `access` row names, and acknowledges the wildcards those grants carry. */
  private grant(role: iam.Role, access: Access): void {
    const ack = (finding: string, reason: string) =>
      Validations.of(role).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason });

    if (access.table) {
      if (access.table === 'write') this.table.grantReadWriteData(role);
      else this.table.grantReadData(role);
      ack(
        `Resource::<${this.logicalIdOf(this.table)}.Arn>/index/*`,
        'Queries go through the GSIs named in shared/db/table.ts; index/* covers exactly those indexes of this one table.',
      );
    }
    if (access.events) this.bus.grantPutEventsTo(role);
    const secrets = this.secretsOf(access);
    if (secrets.length > 0) {
      // Reading the value (any version: the current and the previous one) and nothing else; not
      // grantRead, which adds DescribeSecret.
      role.addToPolicy(
        new iam.PolicyStatement({
          actions: ['secretsmanager:GetSecretValue'],
          resources: secrets.map(({ secret }) => secret.secretArn),
        }),
      );
    }
    if (access.media === 'read') {
      this.mediaBucket.grantRead(role);
      ack(
        `Resource::<${this.logicalIdOf(this.mediaBucket)}.Arn>/*`,
        'Serves stored images by name; the wildcard covers objects of the media bucket only.',
      );
      for (const action of ['s3:GetObject*', 's3:GetBucket*', 's3:List*']) {
        ack(`Action::${action}`, `${action} is part of grantRead, on the media bucket and its objects only.`);
      }
    }
    if (access.media === 'write') {
      this.mediaBucket.grantReadWrite(role);
      const bucket = `<${this.logicalIdOf(this.mediaBucket)}.Arn>`;
      ack(
        `Resource::${bucket}/*`,
        'Uploads are stored under keys made at request time, unknown at synth; the wildcard covers objects of the media bucket only.',
      );
      for (const action of ['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*']) {
        ack(
          `Action::${action}`,
          `${action} is part of grantReadWrite (object versions, tags and multipart uploads of a versioned bucket), on the media bucket and its objects only.`,
        );
      }
    }
    if (access.mail) {
      role.addToPolicy(
        new iam.PolicyStatement({
          actions: ['ses:SendEmail', 'ses:SendRawEmail'],
          resources: [`arn:${this.partition}:ses:${this.region}:${this.account}:identity/*`],
          conditions: { StringEquals: { 'ses:FromAddress': this.mailFrom } },
        }),
      );
      ack(
        'Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*',
        'SES authorizes against whichever identity (address or domain) verifies the sender, unknown at synth; the ses:FromAddress condition pins the only sender to mailFrom.',
      );
    }
  }

  private logicalIdOf(construct: Construct): string {
    return this.getLogicalId(construct.node.defaultChild as CfnElement);
  }
}
