/**
 * What rehearsal mode reads from the stack's template (infra/local/rehearsal/template.ts) for the
 * merchant dashboard, one function routed inside (shared/dashboard/router-http.ts): that function,
 * found by the handler its metadata names, its variables and its role's policy (the union of its
 * rows' access) resolved to the local stack's names, and the overview's counting rules delivering
 * to their function. The stack is the one projected for every endpoint and the merchant dashboard
 * (test/infra/contract-routes.ts), synthesized with bundling skipped; each function's bundle is a
 * one-line stand-in, as the reader only needs the file to exist.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAssembly } from '../../infra/assembly.ts';
import { CobroStack } from '../../infra/cobro-stack.ts';
import {
  type RehearsalTemplate,
  readRehearsalTemplate,
  ruleTargets,
} from '../../infra/local/rehearsal/template.ts';
import { outboxRelay } from '../../shared/api/outbox-relay.ts';
import { fallback } from '../../shared/api/routes.ts';
import { envNames } from '../../shared/core/config.ts';
import { dashboardFunction } from '../../shared/dashboard/area.ts';
import {
  dashboardEndpoints,
  projectedEventRules,
  projectedRoutes,
  projectedSchedules,
} from '../infra/contract-routes.ts';
import { prodConfig } from '../infra/synth.ts';

const root = resolve(import.meta.dirname, '../..');
const names = {
  region: 'us-east-1',
  account: '000000000000',
  table: 'cobro-local',
  eventBus: 'cobro-local-bus',
  mediaBucket: 'cobro-local-media',
  secretArn: (id: string) => `arn:aws:secretsmanager:us-east-1:000000000000:secret:${id}-local`,
  apiUrl: () => 'http://127.0.0.1:4000',
};
const dashboardRows = projectedRoutes.filter((route) => route.path.startsWith(dashboardFunction.prefix));

let outdir: string;
let template: RehearsalTemplate;
beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'cobro-rehearsal-template-'));
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
  new CobroStack(app, 'cobro-dev', {
    config: prodConfig,
    routes: projectedRoutes,
    eventRules: projectedEventRules,
    schedules: projectedSchedules,
    entryFor: () => join(root, fallback.handler),
  });
  app.synth();
  // A stand-in bundle in each function's asset folder (the synth skipped bundling).
  const { Resources } = JSON.parse(readFileSync(join(outdir, 'cobro-dev.template.json'), 'utf8')) as {
    Resources: Record<string, { Type: string; Properties?: { Code?: { S3Key?: string } } }>;
  };
  for (const resource of Object.values(Resources)) {
    const key = resource.Type === 'AWS::Lambda::Function' ? resource.Properties?.Code?.S3Key : undefined;
    if (!key) continue;
    const folder = join(outdir, `asset.${key.replace(/\.zip$/, '')}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'index.mjs'), 'export const handler = async () => ({});\n');
  }
  template = readRehearsalTemplate(readAssembly(outdir), names);
}, 120_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe("rehearsal reading the dashboard's one function", () => {
  it('finds it in the stack’s own template by its handler, and no function for a page', () => {
    expect(dashboardRows.length).toBeGreaterThanOrEqual(dashboardEndpoints.length);
    expect(new Set(dashboardRows.map((route) => route.handler))).toEqual(
      new Set([dashboardFunction.handler]),
    );
    const fn = template.functionOf(dashboardFunction.handler);
    expect(fn?.logicalId).toMatch(/^FunctionsDashboardFn[0-9A-F]{8}$/);
    expect(fn?.role).toMatch(/^FunctionsAccess[0-9A-F]{8}Role[0-9A-F]{8}$/);
    // One function for every page: the handlers the pages had are no function's now.
    expect(template.functionOf('functions/dashboard/show-charge.ts')).toBeUndefined();
    expect(
      [...template.functions.values()].filter((one) => /^FunctionsDashboardFn/.test(one.logicalId)),
    ).toHaveLength(1);
  });

  it('resolves its variables: the shared ones, its secrets, the webhook pages’ event types', () => {
    const fn = template.functionOf(dashboardFunction.handler);
    const environment = fn?.environment() ?? {};
    expect(environment[envNames.table]).toBe(names.table);
    expect(environment[envNames.eventBus]).toBe(names.eventBus);
    expect(environment[envNames.mediaBucket]).toBe(names.mediaBucket);
    expect(environment[envNames.fingerprintSecret]).toBe(names.secretArn('FingerprintSecret'));
    expect(environment[envNames.webhookKey]).toBe(names.secretArn('WebhookKey'));
    expect(environment[envNames.eventTypes]?.split(',')).toContain('charge.succeeded');
    expect(environment[envNames.publicBaseUrl]).toBe(names.apiUrl());
    expect(fn?.layers).toEqual([expect.stringMatching(/^powertools@\d+\.\d+\.\d+$/)]);
  });

  it("resolves its role's policy to the local table, bucket and secrets: every row's grant, no other", () => {
    const tableArn = `arn:aws:dynamodb:${names.region}:${names.account}:table/${names.table}`;
    const role = template.functionOf(dashboardFunction.handler)?.role ?? '';
    const statements = template.policies.get(role) ?? [];
    const actions = statements.flatMap((statement) => statement.Action);
    // A page reads the session (BatchGetItem), the refund form writes, the plan and product forms
    // store images: one role for all of them.
    const onTable = statements.filter((statement) => statement.Resource.includes(tableArn));
    expect(onTable).toHaveLength(1);
    const rowActions = new Set(dashboardRows.flatMap((route) => route.access.table?.actions ?? []));
    expect([...(onTable[0]?.Action ?? [])].sort()).toEqual(
      [...rowActions].map((a) => `dynamodb:${a}`).sort(),
    );
    expect(onTable[0]?.Action).toEqual(expect.arrayContaining(['dynamodb:BatchGetItem', 'dynamodb:PutItem']));
    expect(actions).toContain('s3:PutObject');
    expect(statements).toContainEqual(
      expect.objectContaining({
        Action: ['secretsmanager:GetSecretValue'],
        Resource: expect.arrayContaining([
          names.secretArn('FingerprintSecret'),
          names.secretArn('WebhookKey'),
        ]),
      }),
    );
    expect(actions).not.toContain('dynamodb:Scan');
    // No page publishes to the bus (a refund's events go out through the table's stream).
    expect(dashboardRows.some((route) => route.access.events)).toBe(false);
    expect(actions).not.toContain('events:PutEvents');
  });

  it("delivers the counting rules' events to the counting function; the stream stays the relay's", () => {
    const counter = template.functionOf('functions/dashboard/count-events.ts');
    expect(counter?.logicalId).toMatch(/^FunctionsCountEventsFn[0-9A-F]{8}$/);
    expect(ruleTargets(template.rules, 'cobro', 'refund.created')).toContain(counter?.logicalId);
    expect(ruleTargets(template.rules, 'cobro.internal', 'card.declined')).toContain(counter?.logicalId);
    expect(template.streamTargets).toEqual([template.functionOf(outboxRelay.handler)?.logicalId]);
  });
});
