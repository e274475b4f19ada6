/**
 * Least privilege, held against the code: every function's grants come from its row's access
 * (infra/permissions.ts turns a row into statements, test/infra/stack.test.ts checks the
 * synthesized roles carry exactly those), and here every row is held against what its handler's
 * code can call (test/infra/handler-calls.ts). A row that grants an action, an index, a secret, the
 * bus, the bucket or mail its handler never calls fails, and no function on a request path may Scan.
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeAccess, routeFunctions } from '../../infra/cobro-stack.ts';
import { type AccessTargets, accessStatements, mergeAccess } from '../../infra/permissions.ts';
import { eventRules, schedules } from '../../shared/api/event-rules.ts';
import { outboxRelay } from '../../shared/api/outbox-relay.ts';
import { authorizer, fallback, routes } from '../../shared/api/routes.ts';
import type { Access } from '../../shared/http/route.ts';
import { type HandlerCalls, handlerCalls, widerThanCode } from './handler-calls.ts';

/**
 * Every function the app makes, with its access and whether it serves requests: a route's function
 * its row's, the dashboard's one function the union of its rows'.
 */
const rows: { handler: string; access: Access; requestPath: boolean }[] = [
  ...routeFunctions(routes).map((fn) => ({ handler: fn.handler, access: fn.access, requestPath: true })),
  { handler: fallback.handler, access: fallback.access, requestPath: true },
  { handler: authorizer.handler, access: authorizer.access, requestPath: true },
  ...[...eventRules, ...schedules].map((row) => ({
    handler: row.target,
    access: row.access,
    requestPath: false,
  })),
  { handler: outboxRelay.handler, access: outboxRelay.access, requestPath: false },
];

const targets: AccessTargets = {
  tableArn: 'arn:aws:dynamodb:eu-west-1:1:table/t',
  indexArn: (name) => `arn:aws:dynamodb:eu-west-1:1:table/t/index/${name}`,
  busArn: 'arn:aws:events:eu-west-1:1:event-bus/b',
  mediaBucketArn: 'arn:aws:s3:::m',
  secretArns: [],
  mailIdentityArn: 'arn:aws:ses:eu-west-1:1:identity/example.com',
  mailFrom: 'no-reply@example.com',
};

/** Every action a row grants, as `action resource` pairs, from the statements the stack attaches. */
function granted(access: Access, secretArns: readonly string[] = []): string[] {
  return accessStatements(access, { ...targets, secretArns }).flatMap((statement) => {
    const json = statement.toStatementJson() as { Action: string | string[]; Resource: string | string[] };
    return [json.Action].flat().flatMap((action) => [json.Resource].flat().map((r) => `${action} ${r}`));
  });
}

describe('each row against its handler', () => {
  const calls = new Map<string, HandlerCalls>();
  beforeAll(async () => {
    const handlers = [...new Set(rows.map((row) => row.handler))];
    // Four builds at a time: esbuild is quick, the machine has two cores.
    for (let i = 0; i < handlers.length; i += 4) {
      const batch = handlers.slice(i, i + 4);
      const made = await Promise.all(batch.map((handler) => handlerCalls(handler)));
      for (const [j, handler] of batch.entries()) calls.set(handler, made[j] as HandlerCalls);
    }
  }, 300_000);

  it('grants no function an action, index, secret, bus, bucket or mail its code never calls', () => {
    const wider = rows
      .map(({ handler, access, requestPath }) => ({
        handler,
        wider: widerThanCode(access, calls.get(handler) as HandlerCalls, requestPath),
      }))
      .filter((row) => row.wider.length > 0);
    expect(wider).toEqual([]);
  });

  it('lets no function on a request path Scan the table', () => {
    for (const { handler, access, requestPath } of rows)
      if (requestPath) expect(access.table?.actions ?? [], handler).not.toContain('Scan');
  });

  it('fails a row that grants more than its code calls (the check above can fail)', () => {
    const getApiKeys = calls.get('functions/auth/get-api-keys.ts') as HandlerCalls;
    const row = routes.find((route) => route.handler === 'functions/auth/get-api-keys.ts');
    expect(row).toBeDefined();
    const access = routeAccess(row as (typeof routes)[number]);
    expect(widerThanCode(access, getApiKeys, true)).toEqual([]);
    const table = access.table ?? { actions: [] };
    expect(
      widerThanCode(
        { ...access, table: { ...table, actions: [...table.actions, 'Scan'] } },
        getApiKeys,
        true,
      ),
    ).toEqual(['dynamodb:Scan', 'dynamodb:Scan on a request path']);
    expect(widerThanCode({ ...access, table: { ...table, indexes: ['gsi2'] } }, getApiKeys, true)).toContain(
      'index gsi2',
    );
    expect(widerThanCode({ ...access, events: true, mail: true }, getApiKeys, true)).toEqual([
      'events:PutEvents',
      'ses:SendEmail',
    ]);
    expect(widerThanCode({ media: 'write' }, calls.get(fallback.handler) as HandlerCalls, true)).toEqual([
      's3:GetObject',
      's3:PutObject',
    ]);
  });
});

describe('the access of a function that serves many rows', () => {
  it('is the union of theirs: every action, index, flag, the wider media grant, nothing else', () => {
    expect(
      mergeAccess([
        { table: { actions: ['Query', 'GetItem'], indexes: ['gsi2'] }, fingerprintSecret: true },
        { table: { actions: ['PutItem', 'GetItem'], indexes: ['gsi1'] }, media: 'read', webhookKey: true },
        { media: 'write', events: true },
        {},
      ]),
    ).toEqual({
      table: { actions: ['GetItem', 'Query', 'PutItem'], indexes: ['gsi1', 'gsi2'] },
      media: 'write',
      events: true,
      fingerprintSecret: true,
      webhookKey: true,
    });
    expect(mergeAccess([{ media: 'read' }, { mail: true, tokenSecret: true }])).toEqual({
      media: 'read',
      mail: true,
      tokenSecret: true,
    });
    expect(mergeAccess([{}, {}])).toEqual({});
    expect(mergeAccess([{ table: { actions: ['GetItem'] } }])).toEqual({ table: { actions: ['GetItem'] } });
  });

  it("grants the dashboard's function each of its rows' statements", () => {
    const dashboard = routes.filter((route) => route.path.startsWith('/dashboard'));
    expect(dashboard.length).toBeGreaterThan(30);
    const merged = routeFunctions(routes).find((fn) => fn.handler === dashboard[0]?.handler);
    expect(merged).toBeDefined();
    const all = new Set(granted(merged?.access ?? {}));
    for (const route of dashboard)
      for (const statement of granted(routeAccess(route)))
        expect(all.has(statement), `${route.method} ${route.path}: ${statement}`).toBe(true);
  });
});

describe('the statements a row grants', () => {
  it('grants exactly the row: its actions on the table, Query on its indexes by name', () => {
    expect(granted({ table: { actions: ['GetItem', 'Query'], indexes: ['gsi2', 'gsi1'] } })).toEqual([
      `dynamodb:GetItem ${targets.tableArn}`,
      `dynamodb:Query ${targets.tableArn}`,
      `dynamodb:Query ${targets.indexArn('gsi1')}`,
      `dynamodb:Query ${targets.indexArn('gsi2')}`,
    ]);
    expect(granted({ table: { actions: ['PutItem', 'ConditionCheckItem'] } })).toEqual([
      `dynamodb:PutItem ${targets.tableArn}`,
      `dynamodb:ConditionCheckItem ${targets.tableArn}`,
    ]);
    expect(granted({})).toEqual([]);
  });

  it('grants the bus, the objects, the secrets and the one SES identity, nothing wider', () => {
    expect(granted({ events: true })).toEqual([`events:PutEvents ${targets.busArn}`]);
    expect(granted({ media: 'read' })).toEqual([
      `s3:GetObject ${targets.mediaBucketArn}/*`,
      `s3:ListBucket ${targets.mediaBucketArn}`,
    ]);
    expect(granted({ media: 'write' })).toEqual([
      `s3:GetObject ${targets.mediaBucketArn}/*`,
      `s3:PutObject ${targets.mediaBucketArn}/*`,
      `s3:ListBucket ${targets.mediaBucketArn}`,
    ]);
    expect(granted({ tokenSecret: true }, ['arn:secret:a'])).toEqual([
      'secretsmanager:GetSecretValue arn:secret:a',
    ]);
    const mail = accessStatements({ mail: true }, targets).map((s) => s.toStatementJson());
    expect(mail).toEqual([
      {
        Effect: 'Allow',
        Action: 'ses:SendEmail',
        Resource: targets.mailIdentityArn,
        Condition: { StringEquals: { 'ses:FromAddress': targets.mailFrom } },
      },
    ]);
    // No statement of any row has a wildcard action or a wildcard index.
    for (const { access } of rows)
      for (const statement of accessStatements(access, { ...targets, secretArns: ['arn:secret:a'] })) {
        const json = statement.toStatementJson() as {
          Action: string | string[];
          Resource: string | string[];
        };
        for (const action of [json.Action].flat()) expect(action).not.toContain('*');
        for (const resource of [json.Resource].flat()) expect(resource).not.toMatch(/index\/\*|identity\/\*/);
        expect(statement.effect).toBe(iam.Effect.ALLOW);
      }
  });
});
