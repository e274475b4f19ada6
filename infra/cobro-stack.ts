/**
 * The cobro stack, wired from its constructs: the stateful resources (infra/data.ts), the secrets
 * (infra/secrets.ts), one function per handler named in the shared tables (infra/functions.ts), the
 * event pipeline (infra/events.ts), the schedules (infra/schedules.ts) and the REST API
 * (infra/api.ts). Everything is derived from `shared/`, the same data the local stack reads, and
 * from the stage's configuration (infra/stage.ts).
 */
import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { eventRules, schedules } from '../shared/api/event-rules.ts';
import { authorizer, fallback, routedFunctions, routes } from '../shared/api/routes.ts';
import { envNames } from '../shared/core/config.ts';
import type { Access, Route } from '../shared/http/route.ts';
import { encodeRouteTable, routeTableOf } from '../shared/http/route.ts';
import type { EventRule, Schedule } from '../shared/stack/area.ts';
import { CobroApi, splitRoutes } from './api.ts';
import { CobroData } from './data.ts';
import { CobroEvents } from './events.ts';
import { CobroFunctions } from './functions.ts';
import { Observability } from './observability.ts';
import { mergeAccess } from './permissions.ts';
import { CobroSchedules } from './schedules.ts';
import { CobroSecrets } from './secrets.ts';
import type { StageConfig } from './stage.ts';

/**
 * What a route's function may touch: its row's access, and the fingerprint secret for every
 * authenticated POST and PUT (they all honour Idempotency-Key, whose fingerprint is keyed with it).
 */
export function routeAccess(route: Pick<Route, 'auth' | 'method' | 'access'>): Access {
  return route.auth && (route.method === 'POST' || route.method === 'PUT')
    ? { ...route.access, fingerprintSecret: true }
    : route.access;
}

/** The variables `rows` give their one function together; two may not give one different values. */
function rowsEnvironment(handler: string, rows: readonly Route[]): Record<string, string> {
  return rows.reduce<Record<string, string>>((all, route) => {
    for (const [name, value] of Object.entries(route.environment ?? {})) {
      if (name in all && all[name] !== value)
        throw new Error(`rows of ${handler} give ${name} different values`);
      all[name] = value;
    }
    return all;
  }, {});
}

/** A function that serves routes: its handler, what it may touch, its own variables. */
export interface RouteFunction {
  readonly handler: string;
  readonly access: Access;
  readonly environment?: Readonly<Record<string, string>>;
}

/**
 * The functions route rows make: one per handler of the rows that get a method each (a handler
 * named by two rows is one function, and the rows must grant the same), and one per routed
 * function, granted the union of its rows' access (each row's, as routeAccess gives it) with the
 * variables its rows give (two rows may not give one variable different values).
 */
export function routeFunctions(rows: readonly Route[]): RouteFunction[] {
  const { methods, routed } = splitRoutes(rows, routedFunctions);
  // A handler two rows name (GET /v1/payments/ and /v1/payments/internal) gets both rows' variables:
  // each row's documented query names are its own (shared/http/query-names.ts).
  const byHandler = new Map<string, Route[]>();
  for (const route of methods) byHandler.set(route.handler, [...(byHandler.get(route.handler) ?? []), route]);
  return [
    ...methods.map((route) => ({
      handler: route.handler,
      access: routeAccess(route),
      environment: rowsEnvironment(route.handler, byHandler.get(route.handler) ?? [route]),
    })),
    ...routed.map((fn) => ({
      handler: fn.handler,
      access: mergeAccess(fn.rows.map(routeAccess)),
      environment: rowsEnvironment(fn.handler, fn.rows),
    })),
  ];
}

export interface CobroStackProps extends StackProps {
  /** The stage and everything that differs with it (infra/stage.ts). */
  readonly config: StageConfig;
  /**
   * The API's route rows. Tests pass a projected table here to measure the template a larger API
   * would make.
   * @default the route table in shared/api/routes.ts
   */
  readonly routes?: readonly Route[];
  /** @default the event rules in shared/api/event-rules.ts */
  readonly eventRules?: readonly EventRule[];
  /** @default the schedules in shared/api/event-rules.ts */
  readonly schedules?: readonly Schedule[];
  /**
   * The source file bundled for a handler module.
   * @default the handler path under the repository root
   */
  readonly entryFor?: (handler: string) => string;
}

export class CobroStack extends Stack {
  readonly config: StageConfig;
  readonly data: CobroData;
  readonly secrets: CobroSecrets;
  readonly functions: CobroFunctions;
  readonly events: CobroEvents;
  readonly schedules: CobroSchedules;
  readonly api: CobroApi;

  /** Every dead-letter queue: the event rules', the schedules', the outbox relay's. */
  get deadLetterQueues(): sqs.Queue[] {
    return [this.events.deadLetters, this.schedules.deadLetters, this.events.relayDeadLetters];
  }

  /** Every function. */
  get allFunctions(): NodejsFunction[] {
    return this.functions.all.map(({ fn }) => fn);
  }

  constructor(scope: Construct, id: string, props: CobroStackProps) {
    super(scope, id, props);
    const { config } = props;
    this.config = config;
    const routeRows = props.routes ?? routes;
    // The routed functions' rows (the dashboard's) get no method of their own: their function takes
    // every request under its prefix.
    const split = splitRoutes(routeRows, routedFunctions);

    // Server access logs are delivered under a bucket policy rather than the legacy
    // LogDeliveryWrite ACL, which new buckets (ACLs disabled) reject. Must be set before any child.
    this.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);

    this.data = new CobroData(this, 'Data', config);
    this.secrets = new CobroSecrets(this, 'Secrets', config.stage);
    this.functions = new CobroFunctions(this, 'Functions', {
      config,
      data: this.data,
      secrets: this.secrets,
      entryFor: props.entryFor,
    });

    const apiFunction = (handler: string, access: Access, environment?: Readonly<Record<string, string>>) =>
      this.functions.add({ handler, access, timeout: Duration.seconds(10), environment });
    for (const fn of routeFunctions(routeRows)) apiFunction(fn.handler, fn.access, fn.environment);
    // The fallback knows the routes whose paths reach it: not the routed functions', which answer
    // their own 404 and 405.
    apiFunction(fallback.handler, fallback.access, {
      [envNames.routeTable]: encodeRouteTable(routeTableOf(split.methods)),
    });
    this.functions.add({
      handler: authorizer.handler,
      access: authorizer.access,
      memorySize: 256,
      timeout: Duration.seconds(10),
    });

    this.events = new CobroEvents(this, 'Events', {
      data: this.data,
      functions: this.functions,
      rules: props.eventRules ?? eventRules,
    });
    this.schedules = new CobroSchedules(this, 'Schedules', {
      stage: config.stage,
      functions: this.functions,
      schedules: props.schedules ?? schedules,
    });

    this.api = new CobroApi(this, 'Api', {
      stage: config.stage,
      routes: split.methods,
      routedFunctions: split.routed,
      functionFor: (handler) => this.functions.functionFor(handler),
      throttlingRateLimit: config.throttlingRateLimit,
      throttlingBurstLimit: config.throttlingBurstLimit,
      logRetention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });

    // Built from the RestApi's id, not the deployment stage's URL: the stage depends on every method,
    // the methods on the functions, so a function naming the stage would close a cycle.
    const baseUrl =
      config.baseUrl ??
      `https://${this.api.restApi.restApiId}.execute-api.${this.region}.${this.urlSuffix}/${config.stage}`;

    for (const fn of this.allFunctions) fn.addEnvironment(envNames.publicBaseUrl, baseUrl);

    new Observability(this, 'Observability', {
      stage: config.stage,
      alarmEmail: config.alarmEmail,
      functions: this.allFunctions,
      deadLetterQueues: this.deadLetterQueues,
      restApi: this.api.restApi,
      relay: this.events.relay,
    });

    new CfnOutput(this, 'PublicBaseUrl', {
      value: baseUrl,
      description: 'Start of every URL cobro answers: checkout pages, images, the OpenAPI server',
    });
    new CfnOutput(this, 'ApiUrl', {
      value: this.api.restApi.url,
      description: 'Base URL of the REST API stage',
    });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'EventBusName', { value: this.data.bus.eventBusName });
    new CfnOutput(this, 'MediaBucketName', { value: this.data.mediaBucket.bucketName });
    // Where to put a new value when rotating (docs/operations.md); an ARN is not the secret.
    new CfnOutput(this, 'TokenSecretArn', { value: this.secrets.tokenSecret.secretArn });
    new CfnOutput(this, 'FingerprintSecretArn', { value: this.secrets.fingerprintSecret.secretArn });
    new CfnOutput(this, 'WebhookKeyArn', { value: this.secrets.webhookKey.secretArn });
  }
}
