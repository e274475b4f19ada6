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
import { authorizer, fallback, routes } from '../shared/api/routes.ts';
import { envNames } from '../shared/core/config.ts';
import type { Access, Route } from '../shared/http/route.ts';
import { encodeRouteTable, routeTableOf } from '../shared/http/route.ts';
import type { EventRule, Schedule } from '../shared/stack/area.ts';
import { CobroApi } from './api.ts';
import { CobroData } from './data.ts';
import { CobroEvents } from './events.ts';
import { CobroFunctions, pascalCase } from './functions.ts';
import { Observability } from './observability.ts';
import { RouteGroupStack, routeGroupOf, splitRoutes } from './route-groups.ts';
import { CobroSchedules } from './schedules.ts';
import { CobroSecrets } from './secrets.ts';
import type { StageConfig } from './stage.ts';

/**
 * What a route's function may touch: its row's access, and the fingerprint secret for every
 * authenticated POST (they all honour Idempotency-Key, whose fingerprint is keyed with it).
 */
export function routeAccess(route: Pick<Route, 'auth' | 'method' | 'access'>): Access {
  return route.auth && route.method === 'POST' ? { ...route.access, fingerprintSecret: true } : route.access;
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
  /** The route groups built in nested stacks of their own (infra/route-groups.ts), by group. */
  readonly routeGroups = new Map<string, RouteGroupStack>();

  /** Every dead-letter queue: the event rules', the schedules', the outbox relay's, the route groups'. */
  get deadLetterQueues(): sqs.Queue[] {
    return [
      this.events.deadLetters,
      this.schedules.deadLetters,
      this.events.relayDeadLetters,
      ...[...this.routeGroups.values()].flatMap((group) => (group.deadLetters ? [group.deadLetters] : [])),
    ];
  }

  /** Every function, the parent's and the route groups'. */
  get allFunctions(): NodejsFunction[] {
    return [this.functions, ...[...this.routeGroups.values()].map((group) => group.functions)].flatMap(
      (functions) => functions.all.map(({ fn }) => fn),
    );
  }

  constructor(scope: Construct, id: string, props: CobroStackProps) {
    super(scope, id, props);
    const { config } = props;
    this.config = config;
    const routeRows = props.routes ?? routes;
    // The rows of a nested route group are built in its own template (infra/route-groups.ts).
    const split = splitRoutes(routeRows);
    const ruleRows = props.eventRules ?? eventRules;
    const parentRules = ruleRows.filter((row) => !routeGroupOf(row.target));

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
    for (const route of split.parent) apiFunction(route.handler, routeAccess(route), route.environment);
    // The fallback knows every route, the nested groups' too: it answers 405 on their paths as well.
    apiFunction(fallback.handler, fallback.access, {
      [envNames.routeTable]: encodeRouteTable(routeTableOf(routeRows)),
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
      rules: parentRules,
    });
    this.schedules = new CobroSchedules(this, 'Schedules', {
      stage: config.stage,
      functions: this.functions,
      schedules: props.schedules ?? schedules,
    });

    this.api = new CobroApi(this, 'Api', {
      stage: config.stage,
      routes: split.parent,
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

    for (const [group, groupRoutes] of split.groups) {
      const groupStack = new RouteGroupStack(this, `${pascalCase(group)}Routes`, {
        group,
        config,
        data: this.data,
        secrets: this.secrets,
        routes: groupRoutes,
        rules: ruleRows.filter((row) => routeGroupOf(row.target) === group),
        restApi: this.api.restApi,
        authorizer: this.api.authorizer,
        fallback: this.functions.functionFor(fallback.handler),
        routeAccess,
        entryFor: props.entryFor,
      });
      this.routeGroups.set(group, groupStack);
      // The stage's deployment must hold the group's methods: it waits for the nested stack, and a
      // change of the group's routes gives it a new logical id (a new deployment), as a parent
      // route's change does.
      const deployment = this.api.restApi.latestDeployment;
      if (deployment) {
        deployment.node.addDependency(groupStack);
        deployment.addToLogicalId({
          group,
          routes: groupRoutes.map((route) => [route.method, route.path, route.handler, route.auth]),
        });
      }
    }
    // Rules whose target is in a group with no routes would be lost: refuse them.
    for (const row of ruleRows) {
      const group = routeGroupOf(row.target);
      if (group && !split.groups.has(group))
        throw new Error(
          `event rule ${row.name} targets ${row.target} of route group ${group}, which has no routes`,
        );
    }

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
