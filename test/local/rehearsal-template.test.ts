/**
 * What rehearsal mode reads from a stack with a nested route group (infra/route-groups.ts): the
 * nested template's functions, roles, policies and rules, with the parameters the parent passes
 * resolved to the local stack's names. The stack is the one projected for every endpoint and the
 * merchant dashboard (test/infra/contract-routes.ts), synthesized with bundling skipped; each
 * function's bundle is a one-line stand-in, as the reader only needs the file to exist.
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

let outdir: string;
let template: RehearsalTemplate;
beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'cobro-nested-'));
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
  for (const file of ['cobro-dev.template.json', ...nestedFiles(outdir)]) {
    const { Resources } = JSON.parse(readFileSync(join(outdir, file), 'utf8')) as {
      Resources: Record<string, { Type: string; Properties?: { Code?: { S3Key?: string } } }>;
    };
    for (const resource of Object.values(Resources)) {
      const key = resource.Type === 'AWS::Lambda::Function' ? resource.Properties?.Code?.S3Key : undefined;
      if (!key) continue;
      const folder = join(outdir, `asset.${key.replace(/\.zip$/, '')}`);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'index.mjs'), 'export const handler = async () => ({});\n');
    }
  }
  template = readRehearsalTemplate(readAssembly(outdir), names);
}, 120_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/** The nested stacks' template files, as the assembly's asset manifest lists them. */
function nestedFiles(dir: string): string[] {
  const { files } = JSON.parse(readFileSync(join(dir, 'cobro-dev.assets.json'), 'utf8')) as {
    files: Record<string, { source: { path: string } }>;
  };
  return Object.values(files)
    .map((asset) => asset.source.path)
    .filter((path) => path.endsWith('.nested.template.json'));
}

describe('rehearsal reading a stack with a nested route group', () => {
  it("finds each dashboard function in the nested template, named after the nested stack's resource", () => {
    for (const [, , handler] of dashboardEndpoints) {
      const fn = template.functionOf(handler);
      expect(fn, handler).toBeDefined();
      expect(fn?.logicalId, handler).toMatch(/^DashboardRoutes\w+\.Functions\w+Fn[0-9A-F]{8}$/);
      expect(fn?.role, handler).toMatch(/^DashboardRoutes\w+\.Functions\w+Role[0-9A-F]{8}$/);
    }
    // A parent function of the same file name stays the parent's.
    expect(template.functionOf('functions/auth/rotate-api-key.ts')?.logicalId).toMatch(
      /^FunctionsRotateApiKeyFn/,
    );
  });

  it("resolves the nested function's variables through the parent's parameters", () => {
    const fn = template.functionOf('functions/dashboard/show-charge.ts');
    const environment = fn?.environment() ?? {};
    expect(environment.TABLE_NAME).toBe(names.table);
    expect(environment.EVENT_BUS_NAME).toBe(names.eventBus);
    expect(environment.MEDIA_BUCKET).toBe(names.mediaBucket);
    expect(environment.TOKEN_SECRET_ID).toBe(names.secretArn('TokenSecret'));
    expect(environment.PUBLIC_BASE_URL).toBe(names.apiUrl());
    expect(fn?.layers).toEqual([expect.stringMatching(/^powertools@\d+\.\d+\.\d+$/)]);
  });

  it("resolves the nested role's policy to the local table, bus and secret, and no more than its row", () => {
    const tableArn = `arn:aws:dynamodb:${names.region}:${names.account}:table/${names.table}`;
    const page = template.functionOf('functions/dashboard/show-charge.ts');
    const form = template.functionOf('functions/dashboard/refund-charge.ts');
    const statements = (id: string | undefined) => template.policies.get(id ?? '') ?? [];
    const actions = (id: string | undefined) => statements(id).flatMap((s) => s.Action);
    expect(statements(page?.role)).toContainEqual(
      expect.objectContaining({ Action: expect.arrayContaining(['dynamodb:GetItem']), Resource: [tableArn] }),
    );
    expect(statements(page?.role)).toContainEqual(
      expect.objectContaining({
        Action: ['secretsmanager:GetSecretValue'],
        Resource: [names.secretArn('TokenSecret')],
      }),
    );
    expect(actions(page?.role)).not.toContain('dynamodb:PutItem');
    expect(actions(page?.role)).not.toContain('events:PutEvents');
    expect(statements(form?.role)).toContainEqual(
      expect.objectContaining({
        Action: ['events:PutEvents'],
        Resource: [`arn:aws:events:${names.region}:${names.account}:event-bus/${names.eventBus}`],
      }),
    );
  });

  it("delivers the nested rule's events to the nested function; the stream stays the relay's", () => {
    const counter = template.functionOf('functions/dashboard/count-events.ts');
    expect(counter).toBeDefined();
    expect(ruleTargets(template.rules, 'cobro', 'charge.refunded')).toContain(counter?.logicalId);
    expect(template.streamTargets).toEqual([template.functionOf(outboxRelay.handler)?.logicalId]);
  });
});
