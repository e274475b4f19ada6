/**
 * The template's size: CloudFormation refuses a stack of more than 500 resources, so the stack must
 * stay well under it today and for every endpoint of the contract (test/infra/contract-routes.ts).
 * Today's template is the prod synth the infra tests share (test/infra/synth.ts); the projected one
 * is synthesized only when its tables differ from today's, with bundling skipped
 * (`aws:cdk:bundling-stacks`, one stub entry): the resources do not depend on the code.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, NestedStack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { CobroStack, type CobroStackProps, routeFunctions } from '../../infra/cobro-stack.ts';
import { handlerOf } from '../../infra/function-id.ts';
import { canonicalAccess, functionId } from '../../infra/functions.ts';
import { applyNag } from '../../infra/nag.ts';
import { eventRules, schedules } from '../../shared/api/event-rules.ts';
import { authorizer, fallback, routedFunctionOf, routes } from '../../shared/api/routes.ts';
import { envNames } from '../../shared/core/config.ts';
import { dashboardFunction } from '../../shared/dashboard/area.ts';
import { type Access, decodeRouteTable, type Route, segments } from '../../shared/http/route.ts';
import {
  dashboardGuesses,
  missingFrom,
  projectedEventRules,
  projectedRoutes,
  projectedSchedules,
} from './contract-routes.ts';
import { prodConfig, type Resource, roleStatements, sharedSynth, stackName } from './synth.ts';

/**
 * The most resources a template may hold: 10 below CloudFormation's 500 (exact per-function grants
 * cost a role and a log group per distinct access row, and each rule's or schedule's target a role
 * and log group of its own; the dead-letter queues are one per kind, not one per rule, so a new rule
 * costs no queue). It was 50 below until the stack's own template held every endpoint of the API,
 * and 470 once the Stripe connector's two routes took it to 468 beside the dashboard's nested stack
 * (239 resources: a function per page); PUT /v1/subscriptions/{id} took it to 473. The dashboard is
 * one function now, in the stack's own template (28 November 2026): its function, role, log group
 * and invoke permission, `/dashboard` and `/dashboard/{proxy+}` with an ANY each, and the overview's
 * counting function with its role, log group, two rules and their permissions, less the nested
 * stack's own resource, took the stack's template from 473 to 487, and the nested one (239) is gone.
 * What the budget leaves is less than an endpoint with an access row of its own: the next endpoint
 * comes with a reduction (docs/operations.md, "Templates and the resource budget").
 */
const resourceBudget = 490;
/**
 * As long as test/infra/synth.ts lets a worker wait for the shared synth: a cold one bundles every
 * function (87 today) and took about 6 minutes on a loaded 2-core machine. Under a shorter timeout
 * the hook failed, and the next test that asked for the synth made it all over again.
 */
const synthTimeout = 600_000;
const root = path.resolve(import.meta.dirname, '../..');

interface Synthesized {
  /** The stack's own template's resources. */
  resources: Record<string, Resource>;
  /** `AWS::Type` → how many. */
  counts: Record<string, number>;
  total: number;
  /** `AWS::Type` and severity of every cdk-nag finding nobody acknowledged. */
  unacknowledged: string[];
}

/** Counts a template's resources by type. */
function summarize(resources: Record<string, Resource>, unacknowledged: string[]): Synthesized {
  const counts: Record<string, number> = {};
  for (const resource of Object.values(resources)) counts[resource.Type] = (counts[resource.Type] ?? 0) + 1;
  return { resources, counts, total: Object.keys(resources).length, unacknowledged };
}

/** Synthesizes a prod stack with cdk-nag attached and bundling skipped: the stack's template, then each nested one's. */
function synthesize(props: Partial<CobroStackProps> = {}): Templates {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new CobroStack(app, stackName, { config: prodConfig, ...props });
  applyNag(app);
  const assembly = app.synth();
  const report = JSON.parse(
    fs.readFileSync(path.join(assembly.directory, 'validation-report.json'), 'utf8'),
  ) as { pluginReports: { pluginName: string; violations: { ruleName: string; severity: string }[] }[] };
  const unacknowledged = report.pluginReports
    .filter((plugin) => plugin.pluginName === 'AwsSolutions')
    .flatMap((plugin) => plugin.violations.map((v) => `${v.severity} ${v.ruleName}`));
  const nested = new Map<string, Synthesized>();
  for (const child of stack.node.findAll()) {
    if (child instanceof NestedStack)
      nested.set(
        child.node.path,
        summarize(Template.fromStack(child).toJSON().Resources as Record<string, Resource>, []),
      );
  }
  return {
    parent: summarize(
      Template.fromStack(stack).toJSON().Resources as Record<string, Resource>,
      unacknowledged,
    ),
    nested,
  };
}

/**
 * Every function a table of routes, rules and schedules makes, with the access it is granted (its
 * row's; the union of its rows' for the dashboard's one function).
 */
function functionsOf(
  routeRows: readonly Route[],
  rules: readonly { target: string; access: Access }[],
  steps: readonly { target: string; access: Access }[],
) {
  const all = [
    ...routeFunctions(routeRows).map((fn) => ({ handler: fn.handler, access: fn.access, api: true })),
    { ...fallback, api: true },
    { ...authorizer, api: false },
    ...[...rules, ...steps].map((row) => ({ handler: row.target, access: row.access, api: false })),
  ];
  return [...new Map(all.map((row) => [row.handler, row])).values()];
}

/** The stack's template and each nested one's (by construct path). */
interface Templates {
  parent: Synthesized;
  nested: Map<string, Synthesized>;
}

/** Every template, the stack's own first (named ''). */
const allOf = (t: Templates): [string, Synthesized][] => [['', t.parent], ...t.nested];

/**
 * What rehearsal mode reads (infra/local/rehearsal/template.ts) and the stack's own template must
 * hold alone: a nested template holding one of these would be a function, grant or rule rehearsal
 * never sees.
 */
const stackOwnTypes = [
  'AWS::Lambda::Function',
  'AWS::IAM::Role',
  'AWS::IAM::Policy',
  'AWS::Events::Rule',
  'AWS::Lambda::EventSourceMapping',
];

/** The role a function runs as, its log group, and every action its inline policies allow. */
function roleOf(t: Templates, handler: string) {
  const { resources } = t.parent;
  const fn = resources[fnLogicalId(resources, handler)] as Resource;
  const { role, statements } = roleStatements(resources, fnLogicalId(resources, handler));
  return {
    role,
    logGroup: (fn.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref,
    actions: statements.flatMap((statement) => statement.Action),
    statements,
  };
}

/** The function's grants match its row: the check test/infra/stack.test.ts makes, in short. */
function expectExactly(t: Templates, handler: string, access: Access) {
  const { actions } = roleOf(t, handler);
  for (const action of [
    'GetItem',
    'Query',
    'PutItem',
    'UpdateItem',
    'DeleteItem',
    'BatchWriteItem',
    'Scan',
  ] as const)
    expect(actions.includes(`dynamodb:${action}`), `${handler} ${action}`).toBe(
      access.table?.actions.includes(action) === true,
    );
  expect(actions.includes('events:PutEvents'), handler).toBe(access.events === true);
  expect(actions.includes('ses:SendEmail'), handler).toBe(access.mail === true);
  expect(
    actions.some((action) => action.startsWith('s3:')),
    handler,
  ).toBe(access.media !== undefined);
  expect(actions.includes('s3:PutObject'), handler).toBe(access.media === 'write');
  const readsSecrets = access.tokenSecret || access.fingerprintSecret || access.webhookKey;
  expect(actions.includes('secretsmanager:GetSecretValue'), handler).toBe(readsSecrets === true);
}

describe('the template today', () => {
  let today: Templates;
  beforeAll(async () => {
    const synth = await sharedSynth();
    today = {
      parent: summarize(synth.template.Resources, synth.unacknowledged),
      nested: new Map([...synth.nested].map(([file, template]) => [file, summarize(template.Resources, [])])),
    };
  }, synthTimeout);

  it(`holds at most ${resourceBudget} resources in each template`, () => {
    // Every template's figures first, then the check: one over budget hides none of the others.
    for (const [name, one] of allOf(today))
      console.log(`template today ${name || stackName}: ${one.total} resources`, one.counts);
    for (const [name, one] of allOf(today))
      expect(one.total, name || stackName).toBeLessThanOrEqual(resourceBudget);
  });

  it('keeps every function, role, policy, rule and stream mapping in the stack’s own template', () => {
    // The one nested stack is the alarms' (infra/observability.ts).
    expect([...today.nested.keys()]).toEqual([expect.stringMatching(/Alarms/)]);
    for (const [name, one] of today.nested)
      for (const type of stackOwnTypes) expect(one.counts[type] ?? 0, `${name} ${type}`).toBe(0);
    for (const type of stackOwnTypes) expect(today.parent.counts[type], type).toBeGreaterThan(0);
  });

  it('gives each API function one invoke permission, for this API only, whatever its methods', () => {
    const functions = functionsOf(routes, eventRules, schedules);
    const permissionsIn = (resources: Record<string, Resource>) =>
      Object.values(resources).filter(
        (r) => r.Type === 'AWS::Lambda::Permission' && r.Properties.Principal === 'apigateway.amazonaws.com',
      );
    const restApi = Object.keys(today.parent.resources).find(
      (id) => today.parent.resources[id]?.Type === 'AWS::ApiGateway::RestApi',
    );
    const { resources } = today.parent;
    for (const { handler } of functions.filter((f) => f.api)) {
      const own = permissionsIn(resources).filter((p) =>
        JSON.stringify(p.Properties.FunctionName).includes(`"${fnLogicalId(resources, handler)}"`),
      );
      expect(own, handler).toHaveLength(1);
      // arn:<partition>:execute-api:<region>:<account>:<this API>/*/*/*
      const sourceArn = JSON.stringify(own[0]?.Properties.SourceArn);
      expect(sourceArn, handler).toContain(`{"Ref":"${restApi}"}`);
      expect(sourceArn, handler).toMatch(/"\/\*\/\*\/\*"\]\]\}$/);
    }
    // The authorizer's own permission is for the authorizer only.
    const permissions = permissionsIn(today.parent.resources);
    const authorizerPermissions = permissions.filter((p) =>
      JSON.stringify(p.Properties.FunctionName).includes(
        `"${fnLogicalId(today.parent.resources, authorizer.handler)}"`,
      ),
    );
    expect(authorizerPermissions).toHaveLength(1);
    expect(JSON.stringify(authorizerPermissions[0]?.Properties.SourceArn)).toContain('/authorizers/');
    // The rules' invoke permissions are for EventBridge: these are API Gateway's, one per API
    // function (the dashboard's one function included) and the authorizer's.
    expect(permissions).toHaveLength(functions.filter((f) => f.api).length + 1);
  });

  it('shares a role and log group between functions with the same IAM access, and only between them', () => {
    const functions = functionsOf(routes, eventRules, schedules);
    const withDlq = new Set([...eventRules, ...schedules].map((row) => row.target));
    const iamAccess = (access: Access) => canonicalAccess(access);
    for (const a of functions) {
      const roleA = roleOf(today, a.handler);
      expectExactly(today, a.handler, a.access);
      for (const b of functions) {
        if (a === b) continue;
        const roleB = roleOf(today, b.handler);
        const same =
          iamAccess(a.access) === iamAccess(b.access) && !withDlq.has(a.handler) && !withDlq.has(b.handler);
        expect(roleA.role === roleB.role, `${a.handler} / ${b.handler}`).toBe(same);
        expect(roleA.logGroup === roleB.logGroup, `${a.handler} / ${b.handler}`).toBe(same);
      }
      // The role writes to its own log group and no other.
      const logStatements = roleA.statements.filter((s) =>
        [s.Action].flat().some((x) => x.startsWith('logs:')),
      );
      expect(logStatements, a.handler).toHaveLength(1);
      expect(JSON.stringify(logStatements[0]?.Resource), a.handler).toBe(
        JSON.stringify({ 'Fn::GetAtt': [roleA.logGroup, 'Arn'] }),
      );
    }
    // Only a rule's or schedule's target may send to a dead-letter queue, and only to its kind's.
    const sends = functions.filter((f) => roleOf(today, f.handler).actions.includes('sqs:SendMessage'));
    expect(sends.map((f) => f.handler).sort()).toEqual([...withDlq].sort());
    for (const [suffix, rows] of [
      ['EventRuleDlq', eventRules],
      ['ScheduleDlq', schedules],
    ] as const) {
      for (const { target } of rows) {
        const { resources } = today.parent;
        const queues = Object.keys(resources).filter(
          (id) =>
            resources[id]?.Type === 'AWS::SQS::Queue' &&
            new RegExp(`^[A-Za-z]*${suffix}[0-9A-F]{8}$`).test(id),
        );
        expect(queues, target).toHaveLength(1);
        const sqsStatements = roleOf(today, target).statements.filter((s) =>
          [s.Action].flat().some((action) => action.startsWith('sqs:')),
        );
        expect(sqsStatements, target).toEqual([
          expect.objectContaining({
            Action: 'sqs:SendMessage',
            Resource: { 'Fn::GetAtt': [queues[0], 'Arn'] },
          }),
        ]);
      }
    }
  });

  it('reports no unacknowledged cdk-nag finding', () => {
    expect(today.parent.unacknowledged).toEqual([]);
  });
});

describe('the template projected for every endpoint of the contract', () => {
  let projected: Templates;
  const entry = path.join(root, fallback.handler);
  beforeAll(async () => {
    // The route table covers every contract endpoint now: the projection is today's template.
    const same =
      JSON.stringify([projectedRoutes, projectedEventRules, projectedSchedules]) ===
      JSON.stringify([routes, eventRules, schedules]);
    if (same) {
      const synth = await sharedSynth();
      projected = {
        parent: summarize(synth.template.Resources, synth.unacknowledged),
        nested: new Map(
          [...synth.nested].map(([file, template]) => [file, summarize(template.Resources, [])]),
        ),
      };
      return;
    }
    projected = synthesize({
      routes: projectedRoutes,
      eventRules: projectedEventRules,
      schedules: projectedSchedules,
      // The handlers are not written yet; any file will do, nothing is bundled.
      entryFor: () => entry,
    });
  }, synthTimeout);

  it('covers every contract endpoint, the dashboard and the route table', () => {
    expect(missingFrom(projectedRoutes)).toEqual([]);
    expect(projectedRoutes.length).toBeGreaterThanOrEqual(58 + 30);
    for (const route of routes) expect(projectedRoutes).toContain(route);
    // The dashboard: its built pages, then a guess for each page not built yet.
    const built = routes.filter((route) => route.path.startsWith('/dashboard'));
    expect(built.length).toBeGreaterThan(0);
    expect(dashboardOf(projectedRoutes)).toHaveLength(built.length + dashboardGuesses.length);
    // A guess names no built page's method and path, and every dashboard row, built or guessed,
    // names the dashboard's one function.
    const key = (route: Pick<Route, 'method' | 'path'>) =>
      `${route.method} /${segments(route.path).join('/')}`;
    expect(new Set(projectedRoutes.map(key)).size).toBe(projectedRoutes.length);
    for (const [method, path] of dashboardGuesses)
      expect(built.map(key), `${method} ${path}`).not.toContain(key({ method, path }));
    expect(new Set(dashboardOf(projectedRoutes).map((route) => route.handler))).toEqual(
      new Set([dashboardFunction.handler]),
    );
  });

  it(`holds at most ${resourceBudget} resources in each template, parent and nested`, () => {
    for (const [name, one] of allOf(projected))
      console.log(
        `template ${name || stackName} projected for ${projectedRoutes.length} routes, ${projectedEventRules.length} rules, ${projectedSchedules.length} schedules: ${one.total} resources`,
        one.counts,
      );
    for (const [name, one] of allOf(projected))
      expect(one.total, name || stackName).toBeLessThanOrEqual(resourceBudget);
  });

  it('builds the dashboard as one function in the stack’s own template, behind two ANY methods', () => {
    const { resources, counts } = projected.parent;
    // Its one function, and the overview's counting function (an event rule's target): no other
    // function of the template bundles a handler of functions/dashboard/.
    const handlers = Object.values(resources)
      .filter((r) => r.Type === 'AWS::Lambda::Function')
      .map((r) => handlerOf(r as { Metadata?: Record<string, unknown> }));
    expect(handlers.filter((handler) => handler?.startsWith('functions/dashboard/')).sort()).toEqual([
      'functions/dashboard/count-events.ts',
      dashboardFunction.handler,
    ]);
    // Every method under /dashboard is one of its two ANY, however many pages there are.
    const pathOf = (id: string): string => {
      const resource = resources[id] as Resource;
      const parent = (resource.Properties.ParentId as { Ref?: string }).Ref;
      return `${parent ? pathOf(parent) : ''}/${resource.Properties.PathPart as string}`;
    };
    const under = Object.values(resources)
      .filter((r) => r.Type === 'AWS::ApiGateway::Method')
      .map((r) => ({
        method: r.Properties.HttpMethod,
        ref: (r.Properties.ResourceId as { Ref?: string }).Ref,
      }))
      .filter(({ ref }) => ref !== undefined && routedFunctionOf(pathOf(ref)))
      .map(({ method, ref }) => `${method} ${pathOf(ref as string)}`);
    expect(under.sort()).toEqual(['ANY /dashboard', 'ANY /dashboard/{proxy+}']);
    // And no nested stack: the alarms' is the only one.
    expect([...projected.nested.keys()]).toEqual([expect.stringMatching(/Alarms/)]);
    expect(counts['AWS::CloudFormation::Stack']).toBe(1);
  });

  it("gives the fallback the method and path of every route that reaches it, within Lambda's 4 KB of environment", () => {
    const fallbackFn = projected.parent.resources[
      fnLogicalId(projected.parent.resources, fallback.handler)
    ] as Resource;
    const variables = (fallbackFn.Properties as { Environment: { Variables: Record<string, unknown> } })
      .Environment.Variables;
    const table = decodeRouteTable(String(variables[envNames.routeTable]));
    // Every route but the dashboard's: its function answers 404 and 405 under /dashboard itself.
    expect(table).toHaveLength(projectedRoutes.length - dashboardOf(projectedRoutes).length);
    expect(table).toContainEqual(['DELETE', '/v1/plans/{id}/']);
    expect(table).not.toContainEqual(['POST', '/dashboard/plans/{id}/delete']);
    // Values that are tokens (table name, secrets) resolve at deploy time; count them at 128 bytes.
    const size = Object.entries(variables).reduce(
      (sum, [name, value]) => sum + name.length + (typeof value === 'string' ? value.length : 128),
      0,
    );
    expect(size).toBeLessThan(4096);
  });

  it('keeps every function to its own access row, and cdk-nag clean', () => {
    for (const { handler, access } of functionsOf(projectedRoutes, projectedEventRules, projectedSchedules))
      expectExactly(projected, handler, access);
    expect(projected.parent.unacknowledged).toEqual([]);
  });
});

/** The dashboard's routes of a table (its paths begin `/dashboard`). */
const dashboardOf = (table: readonly Route[]) => table.filter((route) => route.path.startsWith('/dashboard'));

/**
 * Logical id of a handler's function in a template, if it holds it: named after the handler's file,
 * and marked with the handler.
 */
function findFnLogicalId(resources: Record<string, Resource>, handler: string): string | undefined {
  const pattern = new RegExp(`^Functions${functionId(handler)}[0-9A-F]{8}$`);
  return Object.keys(resources).find(
    (key) =>
      pattern.test(key) &&
      resources[key]?.Type === 'AWS::Lambda::Function' &&
      handlerOf(resources[key] as { Metadata?: Record<string, unknown> }) === handler,
  );
}

/** Logical id of a handler's function; throws if the template does not hold it. */
function fnLogicalId(resources: Record<string, Resource>, handler: string): string {
  const id = findFnLogicalId(resources, handler);
  if (!id) throw new Error(`no function for ${handler}`);
  return id;
}
