/**
 * The template's size: CloudFormation refuses a stack of more than 500 resources, so the stack must
 * stay well under it today and for every endpoint of the contract (test/infra/contract-routes.ts).
 * Today's template is the prod synth the infra tests share (test/infra/synth.ts); the projected one
 * is synthesized only when its tables differ from today's, with bundling skipped
 * (`aws:cdk:bundling-stacks`, one stub entry): the resources do not depend on the code.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { CobroStack, type CobroStackProps, routeAccess } from '../../infra/cobro-stack.ts';
import { canonicalAccess, functionId } from '../../infra/functions.ts';
import { applyNag } from '../../infra/nag.ts';
import { eventRules, schedules } from '../../shared/api/event-rules.ts';
import { authorizer, fallback, routes } from '../../shared/api/routes.ts';
import { envNames } from '../../shared/core/config.ts';
import type { Access, Route } from '../../shared/http/route.ts';
import { missingFrom, projectedEventRules, projectedRoutes, projectedSchedules } from './contract-routes.ts';
import { prodConfig, type Resource, roleStatements, sharedSynth, stackName } from './synth.ts';

/**
 * The most resources a template may hold: 50 below CloudFormation's 500, room for what is not
 * planned (exact per-function grants cost a role and a log group per distinct access row, and each
 * rule's or schedule's target a role and log group of its own; the dead-letter queues are one per
 * kind, not one per rule, so a new rule costs no queue).
 */
const resourceBudget = 450;
const synthTimeout = 300_000;
const root = path.resolve(import.meta.dirname, '../..');

interface Synthesized {
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

/** Synthesizes a prod stack with cdk-nag attached and bundling skipped. */
function synthesize(props: Partial<CobroStackProps> = {}): Synthesized {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new CobroStack(app, stackName, { config: prodConfig, ...props });
  applyNag(app);
  const assembly = app.synth();
  const report = JSON.parse(
    fs.readFileSync(path.join(assembly.directory, 'validation-report.json'), 'utf8'),
  ) as { pluginReports: { pluginName: string; violations: { ruleName: string; severity: string }[] }[] };
  return summarize(
    Template.fromStack(stack).toJSON().Resources as Record<string, Resource>,
    report.pluginReports
      .filter((plugin) => plugin.pluginName === 'AwsSolutions')
      .flatMap((plugin) => plugin.violations.map((v) => `${v.severity} ${v.ruleName}`)),
  );
}

/** Every function a table of routes, rules and schedules makes, with the access its row grants. */
function functionsOf(
  routeRows: readonly Route[],
  rules: readonly { target: string; access: Access }[],
  steps: readonly { target: string; access: Access }[],
) {
  const all = [
    ...routeRows.map((route) => ({ handler: route.handler, access: routeAccess(route), api: true })),
    { ...fallback, api: true },
    { ...authorizer, api: false },
    ...[...rules, ...steps].map((row) => ({ handler: row.target, access: row.access, api: false })),
  ];
  return [...new Map(all.map((row) => [row.handler, row])).values()];
}

/** The role a function runs as, and every action its inline policies allow. */
function roleOf(resources: Record<string, Resource>, handler: string) {
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
function expectExactly(resources: Record<string, Resource>, handler: string, access: Access) {
  const { actions } = roleOf(resources, handler);
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
  let today: Synthesized;
  beforeAll(async () => {
    const synth = await sharedSynth();
    today = summarize(synth.template.Resources, synth.unacknowledged);
  }, synthTimeout);

  it(`holds at most ${resourceBudget} resources`, () => {
    console.log(`template today: ${today.total} resources`, today.counts);
    expect(today.total).toBeLessThanOrEqual(resourceBudget);
  });

  it('gives each API function one invoke permission, for this API only, whatever its methods', () => {
    const functions = functionsOf(routes, eventRules, schedules);
    const permissions = Object.values(today.resources).filter(
      (r) => r.Type === 'AWS::Lambda::Permission' && r.Properties.Principal === 'apigateway.amazonaws.com',
    );
    const restApi = Object.keys(today.resources).find(
      (id) => today.resources[id]?.Type === 'AWS::ApiGateway::RestApi',
    );
    for (const { handler } of functions.filter((f) => f.api)) {
      const own = permissions.filter((p) =>
        JSON.stringify(p.Properties.FunctionName).includes(`"${fnLogicalId(today.resources, handler)}"`),
      );
      expect(own, handler).toHaveLength(1);
      // arn:<partition>:execute-api:<region>:<account>:<this API>/*/*/*
      const sourceArn = JSON.stringify(own[0]?.Properties.SourceArn);
      expect(sourceArn, handler).toContain(`{"Ref":"${restApi}"}`);
      expect(sourceArn, handler).toMatch(/"\/\*\/\*\/\*"\]\]\}$/);
    }
    // The authorizer's own permission is for the authorizer only.
    const authorizerPermissions = permissions.filter((p) =>
      JSON.stringify(p.Properties.FunctionName).includes(
        `"${fnLogicalId(today.resources, authorizer.handler)}"`,
      ),
    );
    expect(authorizerPermissions).toHaveLength(1);
    expect(JSON.stringify(authorizerPermissions[0]?.Properties.SourceArn)).toContain('/authorizers/');
    expect(permissions).toHaveLength(functions.filter((f) => f.api).length + 1);
  });

  it('shares a role and log group between functions with the same IAM access, and only between them', () => {
    const functions = functionsOf(routes, eventRules, schedules);
    const withDlq = new Set([...eventRules, ...schedules].map((row) => row.target));
    const iamAccess = (access: Access) => canonicalAccess(access);
    for (const a of functions) {
      const roleA = roleOf(today.resources, a.handler);
      expectExactly(today.resources, a.handler, a.access);
      for (const b of functions) {
        if (a === b) continue;
        const roleB = roleOf(today.resources, b.handler);
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
    const sends = functions.filter((f) =>
      roleOf(today.resources, f.handler).actions.includes('sqs:SendMessage'),
    );
    expect(sends.map((f) => f.handler).sort()).toEqual([...withDlq].sort());
    const queue = (prefix: string) =>
      Object.keys(today.resources).find(
        (id) =>
          today.resources[id]?.Type === 'AWS::SQS::Queue' && new RegExp(`^${prefix}[0-9A-F]{8}$`).test(id),
      );
    for (const [prefix, rows] of [
      ['EventRuleDlq', eventRules],
      ['ScheduleDlq', schedules],
    ] as const) {
      const arn = { 'Fn::GetAtt': [queue(prefix), 'Arn'] };
      for (const { target } of rows) {
        const sqsStatements = roleOf(today.resources, target).statements.filter((s) =>
          [s.Action].flat().some((action) => action.startsWith('sqs:')),
        );
        expect(sqsStatements, target).toEqual([
          expect.objectContaining({ Action: 'sqs:SendMessage', Resource: arn }),
        ]);
      }
    }
  });

  it('reports no unacknowledged cdk-nag finding', () => {
    expect(today.unacknowledged).toEqual([]);
  });
});

describe('the template projected for every endpoint of the contract', () => {
  let projected: Synthesized;
  const entry = path.join(root, fallback.handler);
  beforeAll(async () => {
    // The route table covers every contract endpoint now: the projection is today's template.
    const same =
      JSON.stringify([projectedRoutes, projectedEventRules, projectedSchedules]) ===
      JSON.stringify([routes, eventRules, schedules]);
    if (same) {
      const synth = await sharedSynth();
      projected = summarize(synth.template.Resources, synth.unacknowledged);
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

  it('covers every contract endpoint and the route table', () => {
    expect(missingFrom(projectedRoutes)).toEqual([]);
    expect(projectedRoutes.length).toBeGreaterThanOrEqual(58);
    for (const route of routes) expect(projectedRoutes).toContain(route);
  });

  it(`holds at most ${resourceBudget} resources`, () => {
    console.log(
      `template projected for ${projectedRoutes.length} routes, ${projectedEventRules.length} rules, ${projectedSchedules.length} schedules: ${projected.total} resources`,
      projected.counts,
    );
    expect(projected.total).toBeLessThanOrEqual(resourceBudget);
  });

  it("gives the fallback every route's method and path, within Lambda's 4 KB of environment", () => {
    const fallbackFn = projected.resources[fnLogicalId(projected.resources, fallback.handler)] as Resource;
    const variables = (fallbackFn.Properties as { Environment: { Variables: Record<string, unknown> } })
      .Environment.Variables;
    const table = JSON.parse(String(variables[envNames.routeTable])) as [string, string][];
    expect(table).toHaveLength(projectedRoutes.length);
    expect(table).toContainEqual(['DELETE', '/v1/plans/{id}/']);
    // Values that are tokens (table name, secrets) resolve at deploy time; count them at 128 bytes.
    const size = Object.entries(variables).reduce(
      (sum, [name, value]) => sum + name.length + (typeof value === 'string' ? value.length : 128),
      0,
    );
    expect(size).toBeLessThan(4096);
  });

  it('keeps every function to its own access row, and cdk-nag clean', () => {
    for (const { handler, access } of functionsOf(projectedRoutes, projectedEventRules, projectedSchedules))
      expectExactly(projected.resources, handler, access);
    expect(projected.unacknowledged).toEqual([]);
  });
});

/** Logical id of a handler's function. */
function fnLogicalId(resources: Record<string, Resource>, handler: string): string {
  const pattern = new RegExp(`^Functions${functionId(handler)}[0-9A-F]{8}$`);
  const id = Object.keys(resources).find(
    (key) => pattern.test(key) && resources[key]?.Type === 'AWS::Lambda::Function',
  );
  if (!id) throw new Error(`no function for ${handler}`);
  return id;
}
