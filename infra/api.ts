/**
 * The REST API, built from the route table: one method per route, a fallback function behind every
 * method no route takes, the Lambda authorizer in front of `auth: true` routes, and the gateway's
 * own answers in the contract's error envelope. A routed function (the merchant dashboard: one
 * function for all its pages, shared/api/routes.ts `routedFunctions`) takes every method of its
 * prefix and of every path under it instead, through two ANY methods, and routes inside.
 */
import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { authorizer, binaryMediaTypes, fallback, type RoutedFunction } from '../shared/api/routes.ts';
import { gatewayAnswers } from '../shared/http/gateway-responses.ts';
import { type Route, segments } from '../shared/http/route.ts';
import type { Stage } from './stage.ts';

/** A routed function with the route rows it serves. */
export interface RoutedRows extends RoutedFunction {
  readonly rows: readonly Route[];
}

const under = (prefix: string, path: string) => {
  const [want, got] = [segments(prefix), segments(path)];
  return want.every((part, i) => got[i] === part);
};

/**
 * Splits the route rows into those API Gateway gives a method each and those of each routed
 * function (a routed function with no row is left out: it would serve nothing). A routed function
 * takes every request under its prefix, so a row there must name it, and a row naming it must lie
 * there: either mistake throws, as the row would never be reached, or reached through the wrong
 * function.
 */
export function splitRoutes(
  rows: readonly Route[],
  routedFunctions: readonly RoutedFunction[],
): { methods: Route[]; routed: RoutedRows[] } {
  const methods: Route[] = [];
  const routed = new Map(routedFunctions.map((fn) => [fn.handler, { ...fn, rows: [] as Route[] }]));
  for (const route of rows) {
    const owner = routedFunctions.find((fn) => under(fn.prefix, route.path));
    const named = routed.get(route.handler);
    if (owner && owner.handler !== route.handler)
      throw new Error(
        `${route.method} ${route.path} names ${route.handler}, but ${owner.handler} takes every request under ${owner.prefix}`,
      );
    if (named && !owner)
      throw new Error(
        `${route.method} ${route.path} names ${route.handler}, which serves only paths under ${named.prefix}`,
      );
    if (named) named.rows.push(route);
    else methods.push(route);
  }
  return { methods, routed: [...routed.values()].filter((fn) => fn.rows.length > 0) };
}

export interface CobroApiProps {
  /** Names the API and its deployment stage. */
  readonly stage: Stage;
  /** The route rows that get a method each: every row but the routed functions' (splitRoutes). */
  readonly routes: readonly Route[];
  /**
   * The routed functions: each gets ANY on its prefix and on `<prefix>/{proxy+}`, and none of its
   * rows a method of its own (it answers their 404 and 405 itself).
   */
  readonly routedFunctions: readonly RoutedFunction[];
  /** The function of a handler module named in shared/api/routes.ts (routes, fallback, authorizer). */
  readonly functionFor: (handler: string) => lambda.IFunction;
  /** Steady-state requests per second the stage accepts before answering 429. */
  readonly throttlingRateLimit: number;
  /** Burst of requests the stage accepts above the rate. */
  readonly throttlingBurstLimit: number;
  /** How long access logs are kept. */
  readonly logRetention: logs.RetentionDays;
  /** What deleting the stack does to the access log group. */
  readonly removalPolicy: RemovalPolicy;
}

export class CobroApi extends Construct {
  readonly restApi: apigateway.RestApi;
  /** The Lambda authorizer in front of every `auth: true` route. */
  readonly authorizer: apigateway.RequestAuthorizer;

  constructor(scope: Construct, id: string, props: CobroApiProps) {
    super(scope, id);
    const { stage } = props;

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    const api = new apigateway.RestApi(this, 'RestApi', {
      restApiName: `cobro-${stage}`,
      description: `cobro payments API (${stage})`,
      endpointTypes: [apigateway.EndpointType.REGIONAL],
      binaryMediaTypes: [...binaryMediaTypes],
      // Execution logging (below) needs the account-level CloudWatch role.
      cloudWatchRole: true,
      deployOptions: {
        stageName: stage,
        accessLogDestination: new apigateway.LogGroupLogDestination(accessLogs),
        accessLogFormat: apigateway.AccessLogFormat.jsonWithStandardFields(),
        methodOptions: {
          '/*/*': {
            throttlingRateLimit: props.throttlingRateLimit,
            throttlingBurstLimit: props.throttlingBurstLimit,
            // Errors only, and never request data: bodies carry card and account details.
            loggingLevel: apigateway.MethodLoggingLevel.ERROR,
            dataTraceEnabled: false,
          },
        },
      },
    });
    this.restApi = api;

    Validations.of(api).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason:
        'Requests are validated in the handlers with valibot so that every validation error answers in the contract error envelope; API Gateway request validators answer in their own format.',
    });
    Validations.of(api.deploymentStage).acknowledge({
      id: 'AwsSolutions-APIG3',
      reason:
        'A WAF web ACL is an operator choice (cost, rules, managed rule groups) documented in the README; the stage has throttling and the Lambda authorizer regardless.',
    });
    const cloudWatchRole = api.node.tryFindChild('CloudWatchRole');
    if (cloudWatchRole) {
      Validations.of(cloudWatchRole).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason:
          'The account-level role API Gateway assumes to write execution and access logs; AWS maintains this policy for exactly that purpose and it grants only CloudWatch Logs writes.',
      });
    }

    const requestAuthorizer = new apigateway.RequestAuthorizer(this, 'Authorizer', {
      handler: props.functionFor(authorizer.handler),
      identitySources: [apigateway.IdentitySource.header(authorizer.identityHeader)],
      resultsCacheTtl: Duration.seconds(authorizer.cacheTtlSeconds),
    });
    this.authorizer = requestAuthorizer;

    // One integration per function, with one invoke permission for this API (source arn
    // `<api>/*/*/*`, test-invoke included) instead of two per method: a function costs one
    // permission however many methods it serves, and its resource policy does not grow toward
    // Lambda's 20 KB cap. The API is this stack's own, so only methods declared here reach it.
    const integrations = new Map<string, apigateway.LambdaIntegration>();
    const integrationFor = (handler: string): apigateway.LambdaIntegration => {
      let integration = integrations.get(handler);
      if (!integration) {
        integration = new apigateway.LambdaIntegration(props.functionFor(handler), {
          scopePermissionToMethod: false,
        });
        integrations.set(handler, integration);
      }
      return integration;
    };
    const fallbackIntegration = integrationFor(fallback.handler);
    const routed = addRouteMethods({
      root: api.root,
      routes: props.routes,
      integrationFor,
      authorizer: requestAuthorizer,
    });

    // The fallback answers 405 on a known path with a method no route takes, 404 anywhere else.
    const proxy = api.root.addResource('{proxy+}');
    for (const resource of [api.root, ...routed, proxy]) addFallbackMethod(resource, fallbackIntegration);

    // A routed function takes whatever comes under its prefix, any method, with no authorizer: the
    // dashboard opens its session from its cookie (a browser sends no API key). Its prefix's own
    // resource, and `{proxy+}` under it for every deeper path; nothing else under the prefix.
    for (const { handler, prefix } of props.routedFunctions) {
      const base = segments(prefix).reduce<apigateway.IResource>(
        (parent, part) => parent.getResource(part) ?? parent.addResource(part),
        api.root,
      );
      for (const resource of [base, base.addResource('{proxy+}')]) {
        const method = resource.addMethod('ANY', integrationFor(handler), {
          authorizationType: apigateway.AuthorizationType.NONE,
        });
        acknowledgePublic(
          method,
          `${handler} serves every page under ${prefix} without the authorizer: a browser sends a session cookie, not an API key, and the function opens the session itself (its sign-in form is public on purpose).`,
        );
      }
    }

    for (const answer of gatewayAnswers) {
      api.addGatewayResponse(answer.type, {
        type: apigateway.ResponseType.of(answer.type),
        statusCode: String(answer.statusCode),
        templates: { 'application/json': answer.template },
        // Gateway response header values are static strings, written in single quotes.
        responseHeaders: {
          'Content-Type': "'application/json'",
          ...Object.fromEntries(
            Object.entries(answer.headers ?? {}).map(([name, value]) => [name, `'${value}'`]),
          ),
        },
      });
    }
  }
}

export interface RouteMethodsProps {
  /** Where the routes' paths start: the API's root resource (the stack's own, or imported). */
  readonly root: apigateway.IResource;
  readonly routes: readonly Route[];
  /** The integration of a handler module's function. */
  readonly integrationFor: (handler: string) => apigateway.Integration;
  /** What checks `auth: true` routes. */
  readonly authorizer: apigateway.IAuthorizer;
}

/**
 * One method per route on the resource of its path (made once per path segment). Returns the
 * resources a route took: each needs the fallback's ANY (addFallbackMethod), so that a known path
 * with a method no route takes answers 405.
 */
export function addRouteMethods(props: RouteMethodsProps): Set<apigateway.IResource> {
  const routed = new Set<apigateway.IResource>();
  for (const route of props.routes) {
    const resource = segments(route.path).reduce<apigateway.IResource>(
      (parent, part) => parent.getResource(part) ?? parent.addResource(part),
      props.root,
    );
    routed.add(resource);
    const integration = props.integrationFor(route.handler);
    if (route.auth) {
      const method = resource.addMethod(route.method, integration, {
        authorizationType: apigateway.AuthorizationType.CUSTOM,
        authorizer: props.authorizer,
      });
      acknowledgeCognito(method, 'The Lambda REQUEST authorizer checks the API key or bearer token.');
    } else {
      const method = resource.addMethod(route.method, integration, {
        authorizationType: apigateway.AuthorizationType.NONE,
      });
      acknowledgePublic(
        method,
        `${route.method} ${route.path} is declared auth: false in its route row: the API contract serves it without the authorizer (the health probe; the token endpoint, whose handler checks the client credentials itself; the hosted pages, which check their own token or session).`,
      );
    }
  }
  return routed;
}

/** The fallback's ANY method on a resource: 404/405 in the error envelope, without credentials. */
export function addFallbackMethod(resource: apigateway.IResource, integration: apigateway.Integration): void {
  const method = resource.addMethod('ANY', integration, {
    authorizationType: apigateway.AuthorizationType.NONE,
  });
  acknowledgePublic(
    method,
    'Fallback that only answers 404/405 in the error envelope and touches no data; it must answer unauthenticated callers too, or a wrong path or method would look like a 401.',
  );
}

/** cdk-nag asks for Cognito on every method; cobro's callers are API clients, not user-pool users. */
function acknowledgeCognito(method: apigateway.Method, how: string): void {
  Validations.of(method).acknowledge({
    id: 'AwsSolutions-COG4',
    reason: `${how} cobro authenticates API clients with its own keys and tokens; there is no Cognito user pool.`,
  });
}

/** Acknowledges that a method is public on purpose. */
function acknowledgePublic(method: apigateway.Method, reason: string): void {
  Validations.of(method).acknowledge({ id: 'AwsSolutions-APIG4', reason });
  acknowledgeCognito(method, 'This method is public on purpose.');
}
