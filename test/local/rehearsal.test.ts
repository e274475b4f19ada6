/**
 * Rehearsal mode (`npm start -- --rehearsal`): the stack runs the functions CDK bundled, each with
 * exactly its template's environment, its role's policies enforced by the local endpoints. A
 * deliberately broken copy of the assembly (never the real one) shows each kind of failure a
 * deployed stage would have: a grant removed, a variable removed, a module left out of a bundle.
 * The real assembly runs a whole flow: a plan, a payment and its checkout page, a webhook delivered
 * and an e-mail sent (through the ses:FromAddress condition).
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CachedAssembly, CfnResource } from '../../infra/assembly.ts';
import { esmRequireBanner } from '../../infra/bundling.ts';
import { handlerOf } from '../../infra/function-id.ts';
import { rehearsalAssembly } from '../../infra/local/rehearsal/assembly.ts';
import { eventually } from '../support/eventually.ts';
import { startReceiver, verify } from '../support/receiver.ts';
import { outputOnce, readInfo, stackHarness } from './harness.ts';

const root = resolve(import.meta.dirname, '../..');
const { running, tempDir } = stackHarness();

let assembly: CachedAssembly;
beforeAll(async () => {
  // Synthesizes the app when its cached assembly is stale: minutes on a busy machine.
  assembly = await rehearsalAssembly();
}, 900_000);

/** The logical id of a handler's function in the template. */
function logicalIdOf(resources: Record<string, CfnResource>, handler: string): string {
  const id = Object.keys(resources).find(
    (key) => resources[key]?.Type === 'AWS::Lambda::Function' && handlerOf(resources[key]) === handler,
  );
  if (!id) throw new Error(`no function for ${handler}`);
  return id;
}

const propsOf = (resource: CfnResource): Record<string, unknown> => resource.Properties ?? {};

const assetOf = (resource: CfnResource) =>
  `asset.${String((propsOf(resource).Code as { S3Key: string }).S3Key).replace(/\.zip$/, '')}`;

/** A request to a stack with its demo test key. */
async function call(url: string, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      Authorization: `Api-Key ${key}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // an HTML page or an empty body
  }
  return { status: response.status, text, json };
}

describe('rehearsal mode against a broken copy of the assembly', () => {
  const broken = {
    grant: 'functions/plans/list-plans.ts',
    variable: 'functions/products/create-product.ts',
    module: 'functions/customers/create-customer.ts',
  };

  /** A copy of the assembly with the three faults; its bundles linked, but for the one rebuilt. */
  async function brokenCopy(): Promise<string> {
    const dir = tempDir();
    const template = JSON.parse(readFileSync(join(assembly.outdir, assembly.templateFile), 'utf8')) as {
      Resources: Record<string, CfnResource>;
    };
    const resources = template.Resources;
    // A grant: the DynamoDB statements of the list-plans function's role are taken out.
    const listPlans = resources[logicalIdOf(resources, broken.grant)] as CfnResource;
    const roleId = (propsOf(listPlans).Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
    // The role holds its statements inline (the CDK app writes no policy resource per role).
    const role = resources[roleId] as CfnResource;
    const documents = (
      propsOf(role).Policies as { PolicyDocument: { Statement: { Action: string | string[] }[] } }[]
    ).map((policy) => policy.PolicyDocument);
    const isTable = (statement: { Action: string | string[] }) =>
      [statement.Action].flat().some((action) => action.startsWith('dynamodb:'));
    const before = documents.flatMap((document) => document.Statement).filter(isTable).length;
    for (const document of documents) document.Statement = document.Statement.filter((st) => !isTable(st));
    expect(before).toBeGreaterThan(0);
    expect(documents.flatMap((document) => document.Statement).filter(isTable)).toEqual([]);
    // A variable: the create-product function loses TABLE_NAME.
    const createProduct = resources[logicalIdOf(resources, broken.variable)] as CfnResource;
    const variables = (propsOf(createProduct).Environment as { Variables: Record<string, unknown> })
      .Variables;
    expect(variables.TABLE_NAME).toBeDefined();
    delete variables.TABLE_NAME;
    // A module: create-customer bundled again with valibot left out, as a wrong `externalModules` would.
    const createCustomer = resources[logicalIdOf(resources, broken.module)] as CfnResource;
    const rebuilt = assetOf(createCustomer);
    for (const entry of readdirSync(assembly.outdir)) {
      if (entry.startsWith('asset.') && entry !== rebuilt)
        symlinkSync(join(assembly.outdir, entry), join(dir, entry));
      else if (!entry.startsWith('asset.'))
        cpSync(join(assembly.outdir, entry), join(dir, entry), { recursive: true });
    }
    mkdirSync(join(dir, rebuilt));
    await build({
      entryPoints: [join(root, broken.module)],
      outfile: join(dir, rebuilt, 'index.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      mainFields: ['module', 'main'],
      banner: { js: esmRequireBanner },
      minify: true,
      external: ['valibot'],
      logLevel: 'silent',
    });
    expect(readFileSync(join(dir, rebuilt, 'index.mjs'), 'utf8')).toMatch(/from\s*"valibot"/);
    writeFileSync(join(dir, assembly.templateFile), JSON.stringify(template));
    return dir;
  }

  it('refuses a call the role lacks, fails on a missing variable and on a missing module', {
    timeout: 240_000,
  }, async () => {
    const outdir = await brokenCopy();
    const stack = await running(['--in-memory', '--assembly', outdir]);
    const key = String(stack.info.demo?.test_key);
    const logOf = (handler: string) => {
      const file = join(
        stack.stateDir,
        'rehearsal',
        'logs',
        `${logicalIdOf(assembly.template.Resources, handler)}.log`,
      );
      return existsSync(file) ? readFileSync(file, 'utf8') : '';
    };

    // The authorizer (its own role, untouched) lets the key in; the function is refused its query.
    const plans = await call(stack.url, key, 'GET', '/v1/plans/');
    expect(plans.status, plans.text).toBe(500);
    expect(
      await eventually(
        'the log to say AccessDenied',
        async () => (logOf(broken.grant).includes('AccessDenied') ? true : undefined),
        10_000,
      ),
    ).toBe(true);
    expect(await outputOnce(stack.started, 'may not dynamodb:')).toMatch(
      /ListPlansFn\w* may not dynamodb:\w+ on arn:aws:dynamodb:us-east-1:000000000000:table\/cobro-local/,
    );

    // The stack's own process has TABLE_NAME set (in-process handlers read it there): the function
    // failing without it shows that nothing of the stack's environment reaches a rehearsal function.
    const product = await call(stack.url, key, 'POST', '/v1/products/', { name: 'Tea', price: '3.00' });
    expect(product.status, product.text).toBeGreaterThanOrEqual(500);
    expect(logOf(broken.variable)).toContain('TABLE_NAME is not set');

    const customer = await call(stack.url, key, 'POST', '/v1/customers/', {
      name: 'Ana',
      email: 'ana@example.com',
    });
    expect(customer.status, customer.text).toBeGreaterThanOrEqual(500);
    expect(logOf(broken.module)).toMatch(/Cannot find package 'valibot'/);

    // The health function reads the table under a role of its own: list-plans' loss is not its.
    const health = await fetch(`${stack.url}/health`);
    expect(health.status).toBe(200);
  });
});

describe('rehearsal mode against the real assembly', () => {
  it('creates a plan, a payment and its checkout page, delivers a webhook and sends an e-mail', {
    timeout: 240_000,
  }, async () => {
    const receiver = await startReceiver();
    const stack = await running(['--in-memory', '--rehearsal']);
    const info = readInfo(stack.stateDir);
    const key = String(info.demo?.test_key);

    const endpoint = await call(stack.url, key, 'POST', '/v1/webhook-endpoints/', {
      url: `${receiver.url}/rehearsal`,
      events: ['plan.deleted'],
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const { secret } = endpoint.json.data as { secret: string };

    const plan = await call(stack.url, key, 'POST', '/v1/plans/', {
      name: 'Gold',
      amount: '10.00',
      currency: 'USD',
      interval: 'month',
      interval_count: 1,
    });
    expect(plan.status, plan.text).toBe(201);
    const planId = (plan.json.data as { id: string }).id;

    const payment = await call(stack.url, key, 'POST', '/v1/payments/', {
      amount: '25.00',
      description: 'First order',
      currency: 'USD',
      items: ['Tea'],
      return_url: 'http://localhost/thanks',
    });
    expect(payment.status, payment.text).toBe(202);
    const page = await fetch((payment.json.data as { redirect: string }).redirect);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form');

    const deleted = await call(stack.url, key, 'DELETE', `/v1/plans/${planId}/`);
    expect(deleted.status, deleted.text).toBe(200);
    const [delivery] = await receiver.waitFor((request) => request.path === '/rehearsal', 1, 30_000);
    expect((verify(secret, delivery as never) as { type: string }).type).toBe('plan.deleted');

    // The plan-deleted e-mail goes through the SES gate's ses:FromAddress condition.
    const mail = await eventually(
      'the plan-deleted e-mail',
      async () => {
        const store = (await (await fetch(`${info.endpoints.ses}/store`)).json()) as {
          emails: { destination: { to: string[] } }[];
        };
        return store.emails.find((email) => email.destination.to.includes(String(info.demo?.email)));
      },
      30_000,
    );
    expect(mail).toBeDefined();
    // Every function ran from the assembly, none from this checkout.
    expect(stack.started.output()).not.toContain('may not');
  });
});
