/**
 * The CDK app, checked against the shared tables it is built from, on the one prod synth the infra
 * tests share (test/infra/synth.ts: cdk-nag attached, every function bundled).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { splitRoutes } from '../../infra/api.ts';
import { functionBundling } from '../../infra/bundling.ts';
import { routeAccess, routeFunctions } from '../../infra/cobro-stack.ts';
import { functionId, pascalCase } from '../../infra/functions.ts';
import { applyNag } from '../../infra/nag.ts';
import { mergeAccess } from '../../infra/permissions.ts';
import { defaultMailFrom, parseBaseUrl, parseStage, stageConfig } from '../../infra/stage.ts';
import { eventRules, schedules } from '../../shared/api/event-rules.ts';
import { eventCatalogue } from '../../shared/api/events.ts';
import { outboxRelay } from '../../shared/api/outbox-relay.ts';
import { routes as allRoutes, authorizer, fallback, routedFunctions } from '../../shared/api/routes.ts';
import { envNames } from '../../shared/core/config.ts';
import { dashboardFunction } from '../../shared/dashboard/area.ts';
import { tableDefinition } from '../../shared/db/table.ts';
import { eventSource } from '../../shared/events/event.ts';
import { gatewayAnswers } from '../../shared/http/gateway-responses.ts';
import { queryNamesVariable } from '../../shared/http/query-names.ts';
import { type Access, decodeRouteTable, segments } from '../../shared/http/route.ts';
import { documentedQueryNames } from '../../shared/http/route-query.ts';
import {
  fnLogicalId as findFn,
  prodConfig,
  type Resource,
  sharedSynth,
  roleStatements as statementsOf,
} from './synth.ts';

/**
 * As long as test/infra/synth.ts lets a worker wait for the shared synth: a cold one bundles every
 * function (87 today) and took about 6 minutes on a loaded 2-core machine. Under a shorter timeout
 * the hook failed, and the next test that asked for the synth made it all over again.
 */
const synthTimeout = 600_000;

/**
 * The rows that get a method each: every row but the dashboard's, whose one function takes every
 * request under /dashboard (shared/api/routes.ts `routedFunctions`).
 */
const { methods: routes, routed } = splitRoutes(allRoutes, routedFunctions);

/**
 * Every function the app makes: one per handler of the routes, the dashboard's one (granted the
 * union of its rows' access), the fallback, the authorizer, each event target.
 */
const handlers: { handler: string; access: Access }[] = [
  ...routeFunctions(allRoutes),
  fallback,
  authorizer,
  ...eventRules.map((rule) => ({ handler: rule.target, access: rule.access })),
  ...schedules.map((schedule) => ({ handler: schedule.target, access: schedule.access })),
  { handler: outboxRelay.handler, access: outboxRelay.access },
];

type MethodRow = {
  HttpMethod: string;
  AuthorizationType: string;
  AuthorizerId?: unknown;
  ResourceId: unknown;
  /** Resource path, `/` for the root. */
  path: string;
};

describe('CobroStack (prod)', () => {
  let template: Template;
  let resources: Record<string, Resource>;
  let outdir: string;

  beforeAll(async () => {
    const synth = await sharedSynth();
    template = Template.fromJSON(synth.template);
    outdir = synth.outdir;
    resources = synth.template.Resources;
  }, synthTimeout);

  /** Logical id of a resource that keeps its stack-level id (`Table`, `Bus`, `TokenSecret`, ...). */
  const logicalId = (constructId: string): string => {
    const id = Object.keys(resources).find((key) => new RegExp(`^${constructId}[0-9A-F]{8}$`).test(key));
    if (!id) throw new Error(`no resource ${constructId}`);
    return id;
  };
  const fnLogicalId = (handler: string) => findFn(resources, functionId(handler));
  const fnProps = (handler: string) => {
    const found = resources[fnLogicalId(handler)];
    if (!found) throw new Error(`no function for ${handler}`);
    return found.Properties;
  };
  /** Every statement of the inline policies attached to a handler's function role. */
  const roleStatements = (handler: string) => statementsOf(resources, fnLogicalId(handler)).statements;
  /** Every action in the inline policies attached to a handler's function role. */
  const roleActions = (handler: string): string[] =>
    roleStatements(handler).flatMap((statement) => statement.Action);
  /** The secrets, by the access flag that reads each, with the variable that names each to a function. */
  const secrets = () =>
    [
      { flag: 'tokenSecret', construct: 'TokenSecret', variable: envNames.tokenSecret },
      { flag: 'fingerprintSecret', construct: 'FingerprintSecret', variable: envNames.fingerprintSecret },
      { flag: 'webhookKey', construct: 'WebhookKey', variable: envNames.webhookKey },
    ] as const;
  /** A Lambda proxy integration that invokes a handler's function. */
  const invokes = (handler: string) =>
    Match.objectLike({
      Type: 'AWS_PROXY',
      Uri: { 'Fn::Join': ['', Match.arrayWith([{ 'Fn::GetAtt': [fnLogicalId(handler), 'Arn'] }])] },
    });
  /** Full path (`/v1/auth/api-keys`) of an API Gateway resource reference. */
  const resourcePath = (ref: unknown): string => {
    const id = (ref as { Ref?: string }).Ref;
    if (id === undefined) return ''; // Fn::GetAtt RootResourceId
    const resource = resources[id];
    if (!resource) throw new Error(`unknown resource ${id}`);
    return `${resourcePath(resource.Properties.ParentId)}/${resource.Properties.PathPart as string}`;
  };
  const methods = (): MethodRow[] =>
    Object.values(resources)
      .filter((r) => r.Type === 'AWS::ApiGateway::Method')
      .map((r) => ({ ...r.Properties, path: resourcePath(r.Properties.ResourceId) || '/' }) as MethodRow);
  const apiPath = (routePath: string) => `/${segments(routePath).join('/')}`;

  it('makes one nodejs24.x arm64 ESM function per route, fallback, authorizer and event target', () => {
    const distinct = new Set(handlers.map((h) => h.handler));
    template.resourceCountIs('AWS::Lambda::Function', distinct.size);
    template.allResourcesProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      LoggingConfig: { LogGroup: Match.anyValue() },
    });
    for (const { handler } of handlers)
      expect(resources[fnLogicalId(handler)]?.Type).toBe('AWS::Lambda::Function');
    expect(functionId('functions/auth/get-api-keys.ts')).toBe('GetApiKeysFn');
  });

  it('bundles the AWS SDK into each function and runs it without source maps (infra/bundling.ts)', () => {
    expect(functionBundling).toEqual({ bundleAwsSdk: true, sourceMap: false });
    for (const { handler } of handlers) {
      const props = fnProps(handler);
      const variables = (props.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(variables, handler).not.toHaveProperty('NODE_OPTIONS');
      // The staged asset: asset.<hash>/ beside the template, named by the function's S3 key.
      const key = (props.Code as { S3Key: string }).S3Key;
      const asset = path.join(outdir, `asset.${key.replace(/\.zip$/, '')}`);
      expect(fs.readdirSync(asset), handler).toEqual(['index.mjs']);
      const code = fs.readFileSync(path.join(asset, 'index.mjs'), 'utf8');
      expect(code, handler).not.toMatch(/from\s*["']@aws-sdk\//);
      expect(code, handler).not.toContain('sourceMappingURL');
    }
    // Bundled for real: the DynamoDB client's code is in a function that queries the table.
    const getApiKeys = fnProps('functions/auth/get-api-keys.ts');
    const key = (getApiKeys.Code as { S3Key: string }).S3Key.replace(/\.zip$/, '');
    expect(fs.readFileSync(path.join(outdir, `asset.${key}`, 'index.mjs'), 'utf8')).toContain('DynamoDB');
  });

  it('sizes API functions, the authorizer and event targets differently', () => {
    for (const route of allRoutes)
      expect(fnProps(route.handler)).toMatchObject({ MemorySize: 512, Timeout: 10 });
    expect(fnProps(authorizer.handler)).toMatchObject({ MemorySize: 256, Timeout: 10 });
    for (const rule of eventRules)
      expect(fnProps(rule.target)).toMatchObject({ MemorySize: 512, Timeout: 30 });
    template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: prodConfig.logRetention });
  });

  it('gives every function the shared environment', () => {
    for (const { handler } of handlers) {
      const variables = (fnProps(handler).Environment as { Variables: Record<string, unknown> }).Variables;
      expect(Object.keys(variables)).toEqual(
        expect.arrayContaining([envNames.table, envNames.eventBus, envNames.mediaBucket, envNames.mailFrom]),
      );
      expect(variables[envNames.mailFrom]).toBe(defaultMailFrom);
    }
  });

  it("gives a function its route row's variables: the endpoint functions the catalogue's types", () => {
    // The dashboard's function takes the variables of all its rows: its webhook pages offer the types.
    const given = new Set(
      allRoutes.filter((route) => route.environment?.[envNames.eventTypes]).map((route) => route.handler),
    );
    expect([...given].sort()).toEqual([
      dashboardFunction.handler,
      'functions/webhooks/create-endpoint.ts',
      'functions/webhooks/update-endpoint.ts',
    ]);
    for (const { handler } of handlers) {
      const variables = (fnProps(handler).Environment as { Variables: Record<string, unknown> }).Variables;
      if (given.has(handler)) {
        expect(variables[envNames.eventTypes], handler).toBe(
          eventCatalogue.map((type) => type.type).join(','),
        );
      } else {
        expect(variables, handler).not.toHaveProperty(envNames.eventTypes);
      }
    }
  });

  it('gives each function the query names of every row it serves, so an undocumented one is refused deployed too', () => {
    const checked: string[] = [];
    for (const route of allRoutes) {
      if (routedFunctions.some((fn) => fn.handler === route.handler)) continue; // the router checks its rows
      const variables = (fnProps(route.handler).Environment as { Variables: Record<string, unknown> })
        .Variables;
      const names = [...documentedQueryNames(route)].filter((name) => name !== 'test');
      const variable = queryNamesVariable(route.method, route.path);
      if (names.length === 0) expect(variables, `${route.method} ${route.path}`).not.toHaveProperty(variable);
      else {
        expect(variables[variable], `${route.method} ${route.path}`).toBe(names.join(','));
        checked.push(`${route.method} ${route.path}`);
      }
    }
    // Both rows of the one function that serves two: each row's names, side by side.
    expect(checked).toEqual(expect.arrayContaining(['GET /v1/payments/', 'GET /v1/payments/internal']));
    expect(checked.length).toBeGreaterThan(8);
  });

  it("puts no secret's value in any function's environment: only the ARNs of the secrets its row reads", () => {
    // Nothing in the template resolves a secret's value: no dynamic reference, no SecretString.
    const whole = JSON.stringify(template.toJSON());
    expect(whole).not.toContain('resolve:secretsmanager');
    expect(whole).not.toContain('"SecretString"');
    const secretIds = new Set(
      Object.keys(resources).filter((id) => resources[id]?.Type === 'AWS::SecretsManager::Secret'),
    );
    expect(secretIds.size).toBe(secrets().length);
    for (const { handler, access } of handlers) {
      const variables = (fnProps(handler).Environment as { Variables: Record<string, unknown> }).Variables;
      for (const { flag, construct, variable } of secrets()) {
        if (access[flag]) expect(variables[variable], handler).toEqual({ Ref: logicalId(construct) });
        else expect(variables, handler).not.toHaveProperty(variable);
      }
      // No other variable touches a secret in any way (a Ref is its ARN; anything else could be its value).
      const others = Object.entries(variables).filter(
        ([name]) => !secrets().some((s) => s.variable === name),
      );
      for (const [name, value] of others)
        for (const id of secretIds) expect(JSON.stringify(value), `${handler} ${name}`).not.toContain(id);
    }
    // The rows that read secrets, spelled out: the token secret for the authorizer and the token
    // endpoint, the fingerprint secret for every authenticated POST and PUT (Idempotency-Key), for the
    // receipt functions (it keys receipt links), for the portal's page functions (it keys portal
    // links; the form also makes receipt links), the checkout page (it opens a saved card's sealed
    // portal token to link back) and the subscription e-mails (the failed-renewal
    // notice makes a portal link) and the dashboard's function (its sessions are keyed with it), the
    // webhook key for the functions that seal or open webhook signing secrets.
    const readers = (flag: keyof Access) =>
      handlers
        .filter((h) => h.access[flag])
        .map((h) => h.handler)
        .sort();
    expect(readers('tokenSecret')).toEqual([authorizer.handler, 'functions/auth/create-token.ts'].sort());
    // (The checkout page's function serves two routes: its page and its challenge's address.)
    expect([...new Set(readers('fingerprintSecret'))]).toEqual(
      [
        ...new Set([
          ...routes
            .filter((r) => r.auth && (r.method === 'POST' || r.method === 'PUT'))
            .map((r) => r.handler),
          'functions/checkout/show-checkout.ts',
          dashboardFunction.handler,
          'functions/receipts/send-receipt.ts',
          'functions/receipts/show-receipt.ts',
          'functions/portal/show-portal.ts',
          'functions/portal/submit-portal.ts',
          'functions/subscriptions/send-subscription-email.ts',
        ]),
      ].sort(),
    );
    expect(readers('webhookKey').length).toBeGreaterThan(0);
  });

  it("gives every function PUBLIC_BASE_URL: the API's own URL, built from the RestApi id", () => {
    // From the RestApi's id: the stage's URL would close a cycle (function → stage → deployment →
    // methods → function), which Template.fromStack above refuses as undeployable.
    const restApi = Object.keys(resources).find((id) => resources[id]?.Type === 'AWS::ApiGateway::RestApi');
    expect(restApi).toBeDefined();
    const apiUrl = {
      'Fn::Join': [
        '',
        [
          'https://',
          { Ref: restApi },
          '.execute-api.',
          { Ref: 'AWS::Region' },
          '.',
          { Ref: 'AWS::URLSuffix' },
          '/prod',
        ],
      ],
    };
    for (const { handler } of handlers) {
      const variables = (fnProps(handler).Environment as { Variables: Record<string, unknown> }).Variables;
      expect(variables[envNames.publicBaseUrl], handler).toEqual(apiUrl);
    }
    template.hasOutput('PublicBaseUrl', { Value: apiUrl });
  });

  it('grants each function exactly its access row', () => {
    for (const { handler, access } of handlers) {
      const actions = roleActions(handler);
      const streamActions = [
        'dynamodb:DescribeStream',
        'dynamodb:GetRecords',
        'dynamodb:GetShardIterator',
        'dynamodb:ListStreams',
      ];
      const stream = actions.filter((action) => streamActions.includes(action));
      // Without table access, only the outbox relay reads the stream (its event source mapping's grant).
      if (!access.table) expect(stream.length > 0, handler).toBe(handler === outboxRelay.handler);
      // The table: exactly the row's actions on the table, Query on exactly the row's indexes.
      const table = { 'Fn::GetAtt': [logicalId('Table'), 'Arn'] };
      const onTable = roleStatements(handler).filter(
        (statement) => JSON.stringify(statement.Resource) === JSON.stringify(table),
      );
      const dynamo = actions.filter(
        (action) => action.startsWith('dynamodb:') && !streamActions.includes(action),
      );
      if (!access.table) expect(dynamo, handler).toEqual([]);
      else {
        expect(onTable, handler).toHaveLength(1);
        expect([onTable[0]?.Action].flat().sort(), handler).toEqual(
          access.table.actions.map((action) => `dynamodb:${action}`).sort(),
        );
        const onIndexes = roleStatements(handler).filter((statement) =>
          JSON.stringify(statement.Resource).includes('/index/'),
        );
        const indexes = access.table.indexes ?? [];
        if (indexes.length === 0) expect(onIndexes, handler).toEqual([]);
        else {
          expect(onIndexes, handler).toHaveLength(1);
          expect(onIndexes[0]?.Action, handler).toBe('dynamodb:Query');
          const named = JSON.stringify(onIndexes[0]?.Resource);
          for (const index of ['gsi1', 'gsi2'])
            expect(named.includes(`/index/${index}"`), `${handler} ${index}`).toBe(
              indexes.includes(index as 'gsi1'),
            );
          expect(named, handler).not.toContain('/index/*');
        }
        expect(dynamo.length, handler).toBe(access.table.actions.length + (indexes.length > 0 ? 1 : 0));
      }
      expect(actions.includes('events:PutEvents'), handler).toBe(access.events === true);
      expect(actions.includes('ses:SendEmail'), handler).toBe(access.mail === true);
      const s3 = actions.filter((action) => action.startsWith('s3:'));
      expect(s3.length > 0, handler).toBe(access.media !== undefined);
      if (access.media === 'read')
        expect(
          s3.some((action) => /^s3:(Put|Delete)/.test(action)),
          handler,
        ).toBe(false);
      if (access.media === 'write')
        expect(s3.sort(), handler).toEqual(['s3:GetObject', 's3:ListBucket', 's3:PutObject']);
      if (access.media === 'read') expect(s3.sort(), handler).toEqual(['s3:GetObject', 's3:ListBucket']);
      // Secrets Manager: GetSecretValue alone, on exactly the secrets the row reads.
      const secretStatements = roleStatements(handler).filter((statement) =>
        [statement.Action].flat().some((action) => action.startsWith('secretsmanager:')),
      );
      const read = secrets().filter(({ flag }) => access[flag]);
      if (read.length === 0) expect(secretStatements, handler).toEqual([]);
      else {
        expect(secretStatements, handler).toHaveLength(1);
        expect(secretStatements[0]?.Action, handler).toBe('secretsmanager:GetSecretValue');
        const granted = [secretStatements[0]?.Resource].flat();
        expect(granted, handler).toEqual(
          expect.arrayContaining(read.map(({ construct }) => ({ Ref: logicalId(construct) }))),
        );
        expect(granted, handler).toHaveLength(read.length);
      }
    }
    // One read-only route spelled out: reading the API keys may not write to the table.
    const getApiKeys = routes.find((route) => route.handler === 'functions/auth/get-api-keys.ts');
    expect(getApiKeys?.access.table?.actions).toEqual(['GetItem', 'Query']);
    expect(roleActions('functions/auth/get-api-keys.ts')).not.toContain('dynamodb:PutItem');
  });

  it('limits SES sending to the configured sender, through its one identity (not identity/*)', () => {
    const mailers = handlers.filter((h) => h.access.mail);
    expect(mailers.length).toBeGreaterThan(0);
    for (const { handler } of mailers) {
      const ses = roleStatements(handler).filter((s) => [s.Action].flat().some((a) => a.startsWith('ses:')));
      expect(ses, handler).toHaveLength(1);
      expect(ses[0]?.Action).toBe('ses:SendEmail');
      expect(ses[0]?.Condition).toEqual({ StringEquals: { 'ses:FromAddress': defaultMailFrom } });
      // arn:<partition>:ses:<region>:<account>:identity/example.com, the sender's domain by default.
      const arn = JSON.stringify(ses[0]?.Resource);
      expect(arn).toMatch(/:identity\/example\.com"\]\]\}$/);
    }
  });

  it('keeps the table: on demand, PITR, TTL, the GSIs, retained', () => {
    template.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    const key = (name: string, type: 'HASH' | 'RANGE') => ({ AttributeName: name, KeyType: type });
    template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [key(tableDefinition.partitionKey, 'HASH'), key(tableDefinition.sortKey, 'RANGE')],
        TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
        GlobalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((index) => ({
          IndexName: index.indexName,
          KeySchema: [key(index.partitionKey, 'HASH'), key(index.sortKey, 'RANGE')],
          Projection: { ProjectionType: 'ALL' },
        })),
        SSESpecification: { SSEEnabled: true, SSEType: 'KMS' },
        Replicas: [
          Match.objectLike({
            PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
            DeletionProtectionEnabled: true,
          }),
        ],
      }),
    });
  });

  it('puts the Lambda REQUEST authorizer on the auth routes and nothing on the public ones', () => {
    template.resourceCountIs('AWS::ApiGateway::Authorizer', 1);
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: `method.request.header.${authorizer.identityHeader}`,
      AuthorizerResultTtlInSeconds: 60,
      AuthorizerUri: {
        'Fn::Join': ['', Match.arrayWith([{ 'Fn::GetAtt': [fnLogicalId(authorizer.handler), 'Arn'] }])],
      },
    });
    for (const route of routes) {
      const found = methods().filter((m) => m.HttpMethod === route.method && m.path === apiPath(route.path));
      expect(found, `${route.method} ${route.path}`).toHaveLength(1);
      const method = found[0];
      expect(method?.AuthorizationType).toBe(route.auth ? 'CUSTOM' : 'NONE');
      if (route.auth) expect(method?.AuthorizerId).toEqual({ Ref: expect.stringMatching(/^ApiAuthorizer/) });
      else expect(method).not.toHaveProperty('AuthorizerId');
      template.hasResourceProperties('AWS::ApiGateway::Method', {
        HttpMethod: route.method,
        ResourceId: method?.ResourceId,
        Integration: invokes(route.handler),
      });
    }
  });

  it('sends every other method and path to the fallback, without auth', () => {
    const fallbackPaths = new Set(['/', '/{proxy+}', ...routes.map((route) => apiPath(route.path))]);
    const dashboardPaths = new Set([dashboardFunction.prefix, `${dashboardFunction.prefix}/{proxy+}`]);
    const anyMethods = methods().filter((m) => m.HttpMethod === 'ANY');
    expect(new Set(anyMethods.map((m) => m.path))).toEqual(new Set([...fallbackPaths, ...dashboardPaths]));
    expect(anyMethods).toHaveLength(fallbackPaths.size + dashboardPaths.size);
    for (const method of anyMethods) expect(method.AuthorizationType).toBe('NONE');
    template.resourcePropertiesCountIs(
      'AWS::ApiGateway::Method',
      { HttpMethod: 'ANY', Integration: invokes(fallback.handler) },
      fallbackPaths.size,
    );
    // It knows the methods and paths of those routes, and of no dashboard page: those never reach it.
    const table = decodeRouteTable(
      String(
        (fnProps(fallback.handler).Environment as { Variables: Record<string, unknown> }).Variables[
          envNames.routeTable
        ],
      ),
    );
    expect(table).toEqual(routes.map((route) => [route.method, route.path]));
    expect(table.filter(([, path]) => path.startsWith(dashboardFunction.prefix))).toEqual([]);
  });

  it("sends every method of every path under /dashboard to the dashboard's one function, without auth", () => {
    // Its rows are in the route table (each with its access and its OpenAPI entry), but API Gateway
    // routes none of them: the function finds the page of a method and path itself.
    expect(routed.map((fn) => fn.handler)).toEqual([dashboardFunction.handler]);
    const rows = routed[0]?.rows ?? [];
    expect(rows.length).toBeGreaterThan(30);
    expect(rows).toEqual(allRoutes.filter((route) => route.path.startsWith('/dashboard')));
    const under = methods().filter((m) => m.path === '/dashboard' || m.path.startsWith('/dashboard/'));
    expect(under.map((m) => `${m.HttpMethod} ${m.path}`).sort()).toEqual([
      'ANY /dashboard',
      'ANY /dashboard/{proxy+}',
    ]);
    for (const method of under) {
      expect(method.AuthorizationType).toBe('NONE');
      expect(method).not.toHaveProperty('AuthorizerId');
      template.hasResourceProperties('AWS::ApiGateway::Method', {
        HttpMethod: 'ANY',
        ResourceId: method.ResourceId,
        Integration: invokes(dashboardFunction.handler),
      });
    }
    // One function for every page, as a Lambda permission counts it: the API may invoke it, once.
    const permissions = Object.values(resources).filter(
      (r) =>
        r.Type === 'AWS::Lambda::Permission' &&
        JSON.stringify(r.Properties.FunctionName).includes(`"${fnLogicalId(dashboardFunction.handler)}"`),
    );
    expect(permissions).toHaveLength(1);
  });

  it("grants the dashboard's function the union of its rows' access, and nothing else", () => {
    const rows = routed[0]?.rows ?? [];
    const access = handlers.find((h) => h.handler === dashboardFunction.handler)?.access;
    expect(access).toEqual(mergeAccess(rows.map(routeAccess)));
    // Wider than any one page (the refund form writes, the sign-in reads a session), never more
    // than some page's row: each action, index and secret is one a row names.
    const actions = new Set(roleActions(dashboardFunction.handler));
    for (const row of rows)
      for (const action of row.access.table?.actions ?? [])
        expect(actions.has(`dynamodb:${action}`), `${row.method} ${row.path} ${action}`).toBe(true);
    for (const action of access?.table?.actions ?? [])
      expect(rows.some((row) => row.access.table?.actions.includes(action))).toBe(true);
    expect(actions.has('s3:PutObject')).toBe(rows.some((row) => row.access.media === 'write'));
    expect(actions.has('events:PutEvents')).toBe(rows.some((row) => row.access.events === true));
    expect(actions.has('dynamodb:Scan')).toBe(false);
  });

  it('configures the stage: name, binary types, access logs, throttling', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      Name: 'cobro-prod',
      BinaryMediaTypes: ['*/*'],
      EndpointConfiguration: { Types: ['REGIONAL'] },
    });
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'prod',
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
      MethodSettings: [
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          ThrottlingRateLimit: prodConfig.throttlingRateLimit,
          ThrottlingBurstLimit: prodConfig.throttlingBurstLimit,
          DataTraceEnabled: false,
        }),
      ],
    });
  });

  it('answers with each gateway response row', () => {
    template.resourceCountIs('AWS::ApiGateway::GatewayResponse', gatewayAnswers.length);
    for (const answer of gatewayAnswers) {
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: answer.type,
        StatusCode: String(answer.statusCode),
        ResponseTemplates: { 'application/json': answer.template },
        ResponseParameters: Match.objectLike({
          'gatewayresponse.header.Content-Type': "'application/json'",
          ...Object.fromEntries(
            Object.entries(answer.headers ?? {}).map(([name, value]) => [
              `gatewayresponse.header.${name}`,
              `'${value}'`,
            ]),
          ),
        }),
      });
    }
  });

  it('keeps the media bucket private, encrypted, versioned, logged and SSL-only', () => {
    const blocked = {
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    };
    const encrypted = {
      ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
    };
    template.resourceCountIs('AWS::S3::Bucket', 2);
    template.allResourcesProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: blocked,
      BucketEncryption: encrypted,
    });
    template.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        VersioningConfiguration: { Status: 'Enabled' },
        LoggingConfiguration: Match.objectLike({
          DestinationBucketName: { Ref: logicalId('AccessLogBucket') },
        }),
      }),
    });
    for (const bucket of ['MediaBucket', 'AccessLogBucket']) {
      template.hasResourceProperties('AWS::S3::BucketPolicy', {
        Bucket: { Ref: logicalId(bucket) },
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      });
    }
  });

  it('feeds the outbox relay from the table stream: new events and webhook tasks only, failures parked', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnLogicalId(outboxRelay.handler) },
      StartingPosition: 'TRIM_HORIZON',
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT'],
              dynamodb: { NewImage: { entity: { S: [...outboxRelay.entities] } } },
            }),
          },
        ],
      },
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
    });
    // The relay is the only function that may put cobro events on the bus; besides it only the retry
    // sweep (delivery tasks) and the fanned-out runs (partition entries: dispatchers, and the
    // workers that hand an unfinished partition on) put work entries there.
    const publishers = handlers.filter((h) => h.access.events).map((h) => h.handler);
    expect(publishers.sort()).toEqual(
      [
        outboxRelay.handler,
        'functions/webhooks/retry-due.ts',
        'functions/subscriptions/run-billing.ts',
        'functions/ledger/recover-attempts.ts',
        'functions/ledger/reconcile-ledger.ts',
        'functions/ledger/run-partition.ts',
      ].sort(),
    );
  });

  it('routes each event rule row to its target, with an encrypted dead-letter queue per kind', () => {
    template.hasResourceProperties('AWS::Events::EventBus', { Name: 'cobro-prod' });
    template.resourceCountIs('AWS::Events::Rule', eventRules.length + schedules.length);
    for (const rule of eventRules) {
      template.hasResourceProperties('AWS::Events::Rule', {
        EventBusName: { Ref: logicalId('Bus') },
        EventPattern: { source: [rule.source ?? eventSource], 'detail-type': [...rule.detailTypes] },
        Targets: [
          Match.objectLike({
            Arn: { 'Fn::GetAtt': [fnLogicalId(rule.target), 'Arn'] },
            DeadLetterConfig: { Arn: Match.anyValue() },
            RetryPolicy: { MaximumRetryAttempts: 2 },
          }),
        ],
      });
    }
    for (const schedule of schedules) {
      template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: schedule.expression,
        Targets: [
          Match.objectLike({
            Arn: { 'Fn::GetAtt': [fnLogicalId(schedule.target), 'Arn'] },
            DeadLetterConfig: { Arn: Match.anyValue() },
            RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 3600 },
          }),
        ],
      });
    }
    // One queue for every event rule, one for every schedule, and the outbox relay's (see the next
    // test). Each is both its rules' dead-letter queue (what a rule could not deliver) and their
    // targets' own (what a function still failed on after Lambda's retries).
    template.resourceCountIs('AWS::SQS::Queue', 3);
    template.allResourcesProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true });
    for (const [queueId, rows, nameOf] of [
      ['EventRuleDlq', eventRules, (name: string) => name],
      ['ScheduleDlq', schedules, (name: string) => `cobro-prod-${name}`],
    ] as const) {
      const queueArn = { 'Fn::GetAtt': [logicalId(queueId), 'Arn'] };
      const ruleIds = rows.map((row) => {
        const [id, rule] =
          Object.entries(resources).find(
            ([, r]) => r.Type === 'AWS::Events::Rule' && r.Properties.Name === nameOf(row.name),
          ) ?? [];
        const ruleTargets = (rule?.Properties.Targets ?? []) as { DeadLetterConfig?: { Arn: unknown } }[];
        expect(ruleTargets, row.name).toHaveLength(1);
        expect(ruleTargets[0]?.DeadLetterConfig?.Arn, row.name).toEqual(queueArn);
        expect(fnProps(row.target).DeadLetterConfig, row.name).toEqual({ TargetArn: queueArn });
        return id;
      });
      // EventBridge may send to it for these rules alone, in one statement however many rules there
      // are (a queue policy holds at most 20 statements), and only over TLS.
      const policies = Object.values(resources).filter(
        (r) =>
          r.Type === 'AWS::SQS::QueuePolicy' &&
          JSON.stringify(r.Properties.Queues) === JSON.stringify([{ Ref: logicalId(queueId) }]),
      );
      expect(policies, queueId).toHaveLength(1);
      const statements = (
        (policies[0] as Resource).Properties.PolicyDocument as {
          Statement: {
            Effect: string;
            Principal?: unknown;
            Condition?: Record<string, Record<string, unknown>>;
          }[];
        }
      ).Statement;
      expect(statements, queueId).toHaveLength(2);
      expect(statements, queueId).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
      const allow = statements.filter((statement) => statement.Effect === 'Allow');
      expect(allow, queueId).toEqual([
        expect.objectContaining({
          Action: 'sqs:SendMessage',
          Principal: { Service: 'events.amazonaws.com' },
          Resource: queueArn,
          Condition: { ArnEquals: { 'aws:SourceArn': ruleIds.map((id) => ({ 'Fn::GetAtt': [id, 'Arn'] })) } },
        }),
      ]);
    }
  });

  it('generates the token signing secret without punctuation', () => {
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true },
    });
  });

  it("outputs the API URL, table, bus and bucket names, and the secrets' ARNs", () => {
    for (const output of ['ApiUrl', 'TableName', 'EventBusName', 'MediaBucketName']) {
      template.hasOutput(output, { Value: Match.anyValue() });
    }
    for (const { construct } of secrets())
      template.hasOutput(`${construct}Arn`, { Value: { Ref: logicalId(construct) } });
  });
});

describe('stage configuration (-c stage and the other context keys)', () => {
  const config = (context: Record<string, unknown>) => stageConfig((key) => context[key]);

  it('knows dev, staging and prod, dev by default', () => {
    expect(parseStage('dev')).toBe('dev');
    expect(parseStage('staging')).toBe('staging');
    expect(parseStage('prod')).toBe('prod');
    expect(config({}).stage).toBe('dev');
    expect(() => parseStage('test')).toThrow(/^Invalid context stage="test": one of dev, staging, prod/);
  });

  it('gives each stage its throttles, retention, removal and deletion protection', () => {
    const dev = config({ stage: 'dev' });
    expect(dev).toMatchObject({ throttlingRateLimit: 100, throttlingBurstLimit: 200, logRetention: 7 });
    expect(dev.removalPolicy).toBe('destroy');
    expect(dev.tableDeletionProtection).toBe(false);
    expect(dev.alarmEmail).toBeUndefined();
    const staging = config({ stage: 'staging', alarmEmail: 'ops@example.org' });
    expect(staging).toMatchObject({
      logRetention: 30,
      removalPolicy: 'retain',
      tableDeletionProtection: true,
    });
    const prod = config({ stage: 'prod', alarmEmail: 'ops@example.org' });
    expect(prod).toMatchObject({
      throttlingRateLimit: 500,
      throttlingBurstLimit: 1000,
      logRetention: 90,
      removalPolicy: 'retain',
      tableDeletionProtection: true,
      alarmEmail: 'ops@example.org',
    });
    expect(
      config({ throttlingRateLimit: '20', throttlingBurstLimit: 40, logRetentionDays: '14' }),
    ).toMatchObject({ throttlingRateLimit: 20, throttlingBurstLimit: 40, logRetention: 14 });
  });

  it('takes the SES identity as the sender or its domain, the domain by default', () => {
    expect(config({ mailFrom: 'billing@pay.example.org' })).toMatchObject({
      mailFrom: 'billing@pay.example.org',
      mailIdentity: 'pay.example.org',
    });
    expect(
      config({ mailFrom: 'billing@pay.example.org', mailIdentity: 'billing@pay.example.org' }).mailIdentity,
    ).toBe('billing@pay.example.org');
    expect(config({}).mailFrom).toBe(defaultMailFrom);
  });

  it.each([
    ['alarmEmail', { stage: 'prod' }],
    ['alarmEmail', { stage: 'staging' }],
    ['alarmEmail', { alarmEmail: 'not-an-address' }],
    ['mailFrom', { mailFrom: 'nobody' }],
    ['mailIdentity', { mailFrom: 'a@example.org', mailIdentity: 'other.example.org' }],
    ['throttlingRateLimit', { throttlingRateLimit: 'fast' }],
    ['throttlingRateLimit', { throttlingRateLimit: 0 }],
    ['throttlingBurstLimit', { throttlingRateLimit: 100, throttlingBurstLimit: 50 }],
    ['logRetentionDays', { logRetentionDays: 10 }],
    ['baseUrl', { baseUrl: 'http://pay.example.com' }],
  ])('refuses a wrong %s in one line naming the key (%j)', (key, context) => {
    expect(() => config(context)).toThrow(
      new RegExp(`^Invalid context ${key}=[^\\n]*\\(-c ${key}=\\.\\.\\.\\)$`),
    );
  });
});

describe('baseUrl (-c baseUrl)', () => {
  it('takes an absolute https URL with at most a path prefix; unset means the API URL', () => {
    expect(parseBaseUrl(undefined)).toBeUndefined();
    expect(parseBaseUrl('')).toBeUndefined();
    expect(parseBaseUrl('https://pay.example.com')).toBe('https://pay.example.com');
    expect(parseBaseUrl('https://pay.example.com:8443/cobro/v1')).toBe(
      'https://pay.example.com:8443/cobro/v1',
    );
  });

  it.each([
    ['http', 'http://pay.example.com'],
    ['a trailing slash', 'https://pay.example.com/'],
    ['a prefix with a trailing slash', 'https://pay.example.com/cobro/'],
    ['a query', 'https://pay.example.com?x=1'],
    ['a fragment', 'https://pay.example.com#x'],
    ['user info', 'https://user:pw@pay.example.com'],
    ['no host', 'https:///cobro'],
    ['a host that is no DNS name', 'https://pay_1.example.com'],
    ['a relative path', '/cobro'],
    ['not text', 42],
  ])('refuses %s', (_, value) => {
    expect(() => parseBaseUrl(value)).toThrow(/^Invalid context baseUrl=.*\(-c baseUrl=\.\.\.\)$/);
  });

  /** Runs the CDK app as `cdk synth` would, with bundling off (the template is what counts here). */
  function runApp(context: Record<string, unknown>) {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cobro-synth-'));
    const root = path.resolve(import.meta.dirname, '../..');
    const run = spawnSync(process.execPath, [path.join(root, 'bin/app.ts')], {
      cwd: root,
      encoding: 'utf8',
      timeout: synthTimeout,
      env: {
        ...process.env,
        CDK_OUTDIR: outdir,
        CDK_CONTEXT_JSON: JSON.stringify({ stage: 'dev', 'aws:cdk:bundling-stacks': [], ...context }),
      },
    });
    const file = path.join(outdir, 'cobro-dev.template.json');
    const template = fs.existsSync(file)
      ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { Resources: Record<string, Resource> })
      : undefined;
    fs.rmSync(outdir, { recursive: true, force: true });
    return { status: run.status, stderr: run.stderr, template };
  }

  it(
    'the app puts -c baseUrl into every function and refuses an invalid one',
    () => {
      const used = runApp({ baseUrl: 'https://pay.example.com/cobro' });
      expect(used.status, used.stderr).toBe(0);
      const functions = Object.values(used.template?.Resources ?? {}).filter(
        (resource) => resource.Type === 'AWS::Lambda::Function',
      );
      expect(functions).toHaveLength(new Set(handlers.map((h) => h.handler)).size);
      for (const fn of functions) {
        const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
        expect(variables[envNames.publicBaseUrl]).toBe('https://pay.example.com/cobro');
      }

      const refused = runApp({ baseUrl: 'https://pay.example.com/' });
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toContain('Invalid context baseUrl="https://pay.example.com/"');
      expect(refused.template).toBeUndefined();
    },
    synthTimeout,
  );
});

describe('cdk-nag AwsSolutions', () => {
  it('fails synth on an unacknowledged finding (so a passing synth means something)', () => {
    const app = new App();
    const stack = new Stack(app, 'careless');
    new s3.Bucket(stack, 'Bucket');
    applyNag(app);
    expect(() => app.synth()).toThrow(/AwsSolutions-S1/);
  });

  it(
    'reports no unacknowledged errors on the prod stack',
    async () => {
      // The shared synth ran with the AwsSolutions pack attached (test/infra/synth.ts).
      expect((await sharedSynth()).unacknowledged).toEqual([]);
    },
    synthTimeout,
  );
});

describe('logical ids that must never change', () => {
  it(
    'keeps the table, bus, buckets, secrets, dead-letter queues and named rules at their stack-level ids',
    async () => {
      const { Resources } = (await sharedSynth()).template;
      // A changed id would make CloudFormation replace the resource: the data, the secrets' values
      // and the parked failures would be gone, and a named rule or bus would fail the deploy.
      const pinned: Record<string, string> = {
        TableCD117FA1: 'AWS::DynamoDB::GlobalTable',
        BusEA82B648: 'AWS::Events::EventBus',
        AccessLogBucketDA470295: 'AWS::S3::Bucket',
        MediaBucketBCBB02BA: 'AWS::S3::Bucket',
        TokenSecret75569B26: 'AWS::SecretsManager::Secret',
        FingerprintSecret66C56949: 'AWS::SecretsManager::Secret',
        WebhookKeyFF363931: 'AWS::SecretsManager::Secret',
        OutboxRelayDlq09899D52: 'AWS::SQS::Queue',
        EventRuleDlq84CB8C02: 'AWS::SQS::Queue',
        ScheduleDlqBC80447A: 'AWS::SQS::Queue',
        ApiKeyRotatedEmailRule0D47A395: 'AWS::Events::Rule',
        WebhooksDeliverRule78A320C1: 'AWS::Events::Rule',
        PayoutsRunSchedule51432BB0: 'AWS::Events::Rule',
        LedgerReconcileSchedule6B43423F: 'AWS::Events::Rule',
        ApiRestApiE35FEAFE: 'AWS::ApiGateway::RestApi',
        // A new stream mapping would read the stream again from its oldest record.
        RelayEventsFnDynamoDBEventSourcecobroprodTableC637B060A034C375: 'AWS::Lambda::EventSourceMapping',
      };
      for (const [id, type] of Object.entries(pinned)) expect(Resources[id]?.Type, id).toBe(type);
      // Every rule and queue keeps its id that way, not only the ones spelled out above.
      for (const [id, resource] of Object.entries(Resources)) {
        if (['AWS::Events::Rule', 'AWS::SQS::Queue'].includes(resource.Type))
          expect(id, resource.Type).toMatch(
            /^(?!Events|Schedules)[A-Z][A-Za-z0-9]*(Rule|Schedule|Dlq)[0-9A-F]{8}$/,
          );
      }
      // A rule's or schedule's target keeps the role and log group of its own that are named after
      // its rule (made when every rule had a queue of its own): a new log group would split its logs.
      const profiles = new Map<string, string[]>();
      const named = (handler: string, profile: string) =>
        profiles.set(handler, [...(profiles.get(handler) ?? []), profile]);
      for (const row of eventRules) named(row.target, `${pascalCase(row.name)}RuleDlq`);
      for (const row of schedules) named(row.target, `${pascalCase(row.name)}ScheduleDlq`);
      for (const [handler, names] of profiles) {
        const fn = findFn(Resources, functionId(handler));
        const { role } = statementsOf(Resources, fn);
        const logGroup = (
          (Resources[fn] as Resource).Properties.LoggingConfig as { LogGroup: { Ref: string } }
        ).LogGroup.Ref;
        const ofOneRule = (kind: string, id: string) =>
          names.some((name) => new RegExp(`^FunctionsAccess[0-9A-F]{8}${name}${kind}[0-9A-F]{8}$`).test(id));
        expect(ofOneRule('Role', role), `${handler} ${role}`).toBe(true);
        expect(ofOneRule('Logs', logGroup), `${handler} ${logGroup}`).toBe(true);
      }
    },
    synthTimeout,
  );
});

describe('rows of a routed function', () => {
  const row = (method: 'GET' | 'POST', path: string, handler: string) =>
    ({ ...allRoutes[0], method, path, handler }) as (typeof allRoutes)[number];
  const dashboard = routedFunctions.map((fn) => ({ ...fn }));

  it('get no method of their own; every other row does', () => {
    const { methods, routed: split } = splitRoutes(
      [
        row('GET', '/dashboard/', dashboardFunction.handler),
        row('POST', '/dashboard/x/{id}', dashboardFunction.handler),
        row('GET', '/dashboards', 'functions/x/other.ts'),
      ],
      dashboard,
    );
    expect(methods.map((r) => r.path)).toEqual(['/dashboards']);
    expect(split.map((fn) => [fn.handler, fn.rows.map((r) => r.path)])).toEqual([
      [dashboardFunction.handler, ['/dashboard/', '/dashboard/x/{id}']],
    ]);
    // A routed function no row names makes nothing.
    expect(splitRoutes([row('GET', '/health', 'functions/system/health.ts')], dashboard).routed).toEqual([]);
  });

  it('refuse a row under the prefix that names another handler, and the function named elsewhere', () => {
    expect(() => splitRoutes([row('GET', '/dashboard/x', 'functions/x/page.ts')], dashboard)).toThrow(
      /takes every request under \/dashboard/,
    );
    expect(() => splitRoutes([row('GET', '/v1/x', dashboardFunction.handler)], dashboard)).toThrow(
      /serves only paths under \/dashboard/,
    );
  });
});
