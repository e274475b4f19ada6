/**
 * Route groups built in a nested stack of their own. A CloudFormation template holds at most 500
 * resources, and each API route costs its function, its method, its invoke permission and a path
 * resource (with the fallback's ANY) per new path segment: a group of pages such as the merchant
 * dashboard would take the stack's template past its budget. A group's nested stack holds its path
 * resources, methods, functions (with their roles, log groups and invoke permissions) and the event
 * rules that target its handlers; the parent counts the whole group as one resource.
 *
 * A group is the handlers under `functions/<group>/` (routes and event-rule targets alike), and its
 * routes all lie under paths whose first segment no other route uses, so the API's resource tree
 * splits cleanly between the templates. Its methods are added to the stack's own RestApi, imported by
 * id; the stack's deployment depends on the nested stack and takes the group's routes into its
 * logical id, so a changed group is deployed like a changed route of the parent.
 */
import { Duration, NestedStack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as events from 'aws-cdk-lib/aws-events';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { eventSource } from '../shared/events/event.ts';
import { type Access, type Route, segments } from '../shared/http/route.ts';
import type { EventRule } from '../shared/stack/area.ts';
import { addFallbackMethod, addRouteMethods } from './api.ts';
import type { CobroData } from './data.ts';
import { allowRulesToSend, deadLetterQueue, LambdaTargetWithDeadLetters } from './events.ts';
import { CobroFunctions, pascalCase } from './functions.ts';
import type { CobroSecrets } from './secrets.ts';
import type { StageConfig } from './stage.ts';

/** The handler folders (`functions/<name>/`) whose routes and rules get a nested stack each. */
export const nestedRouteGroups = ['dashboard'] as const;

/** The nested group a handler module belongs to, if any. */
export function routeGroupOf(handler: string): string | undefined {
  return nestedRouteGroups.find((group) => handler.startsWith(`functions/${group}/`));
}

/** The first path segment of a route (`/dashboard/charges` → `dashboard`). */
const firstSegment = (route: Route) => segments(route.path)[0] ?? '';

/**
 * Splits the route rows into the parent's and each nested group's; throws when a group's routes
 * share a first path segment with the parent's (their resources would be made twice).
 */
export function splitRoutes(rows: readonly Route[]): { parent: Route[]; groups: Map<string, Route[]> } {
  const parent: Route[] = [];
  const groups = new Map<string, Route[]>();
  for (const route of rows) {
    const group = routeGroupOf(route.handler);
    if (!group) parent.push(route);
    else groups.set(group, [...(groups.get(group) ?? []), route]);
  }
  const parentSegments = new Set(parent.map(firstSegment));
  for (const [group, groupRoutes] of groups) {
    for (const route of groupRoutes) {
      if (firstSegment(route) === '' || parentSegments.has(firstSegment(route)))
        throw new Error(
          `${route.method} ${route.path} (${route.handler}) is in the nested route group ${group}, but routes outside it use the path's first segment: give the group paths of its own`,
        );
    }
  }
  return { parent, groups };
}

export interface RouteGroupStackProps {
  readonly group: string;
  readonly config: StageConfig;
  readonly data: CobroData;
  readonly secrets: CobroSecrets;
  readonly routes: readonly Route[];
  readonly rules: readonly EventRule[];
  /** The stack's RestApi: the group's methods are added to it. */
  readonly restApi: apigateway.RestApi;
  /** The Lambda authorizer of the stack's API, for the group's `auth: true` routes. */
  readonly authorizer: apigateway.IAuthorizer;
  /** The fallback function: ANY on each of the group's routed resources (its permission covers the API). */
  readonly fallback: lambda.IFunction;
  /** What a route's function may touch (the row's access, with the stack's additions). */
  readonly routeAccess: (route: Route) => Access;
  readonly entryFor?: (handler: string) => string;
}

/** A route group's nested stack: its functions, its API resources and methods, its rules. */
export class RouteGroupStack extends NestedStack {
  readonly functions: CobroFunctions;
  /** Where its rules' failed deliveries are parked; absent when it has no rules. */
  readonly deadLetters?: sqs.Queue;

  constructor(scope: Construct, id: string, props: RouteGroupStackProps) {
    super(scope, id, { description: `cobro ${props.config.stage}: the ${props.group} routes` });
    const { config } = props;
    // The same construct as the parent's: one role and log group per distinct access row (within
    // this template), each function granted exactly its row.
    this.functions = new CobroFunctions(this, 'Functions', {
      config,
      data: props.data,
      secrets: props.secrets,
      entryFor: props.entryFor,
    });
    for (const route of props.routes)
      this.functions.add({
        handler: route.handler,
        access: props.routeAccess(route),
        timeout: Duration.seconds(10),
        environment: route.environment,
      });

    // The stack's API, by id: methods and resources made here belong to it, in this template.
    const api = apigateway.RestApi.fromRestApiAttributes(this, 'Api', {
      restApiId: props.restApi.restApiId,
      rootResourceId: props.restApi.restApiRootResourceId,
    });
    // One invoke permission per function for the API (`<api>/*/*/*`), made here beside it.
    const integrations = new Map<string, apigateway.Integration>();
    const integrationFor = (handler: string) => {
      let integration = integrations.get(handler);
      if (!integration) {
        integration = new apigateway.LambdaIntegration(this.functions.functionFor(handler), {
          scopePermissionToMethod: false,
        });
        integrations.set(handler, integration);
      }
      return integration;
    };
    const routed = addRouteMethods({
      root: api.root,
      routes: props.routes,
      integrationFor,
      // By id, as a plain authorizer: the authorizer construct binds itself to the parent's API object.
      authorizer: {
        authorizerId: props.authorizer.authorizerId,
        authorizationType: apigateway.AuthorizationType.CUSTOM,
      },
    });
    // The fallback's own permission (the parent's) already covers every method of the API: its
    // integration here adds none.
    const fallback = new apigateway.AwsIntegration({
      proxy: true,
      service: 'lambda',
      path: `2015-03-31/functions/${props.fallback.functionArn}/invocations`,
    });
    for (const resource of routed) addFallbackMethod(resource, fallback);

    // The group's event rules, as the parent's (infra/events.ts): one queue for every failed delivery.
    if (props.rules.length > 0) {
      // Named after the group: the alarm on its depth is named after the queue.
      const queue = deadLetterQueue(this, `${pascalCase(props.group)}EventRuleDlq`);
      this.deadLetters = queue;
      const rules = props.rules.map((row) => {
        const ruleId = `${pascalCase(row.name)}Rule`;
        const target = this.functions.add({
          handler: row.target,
          access: row.access,
          timeout: Duration.seconds(30),
          deadLetters: { queue, profile: `${ruleId}Dlq` },
        });
        return new events.Rule(this, ruleId, {
          eventBus: props.data.bus,
          ruleName: row.name,
          eventPattern: { source: [row.source ?? eventSource], detailType: [...row.detailTypes] },
          targets: [new LambdaTargetWithDeadLetters(target, queue, { retryAttempts: 2 })],
        });
      });
      allowRulesToSend(queue, rules);
    }
  }
}
