/**
 * `npm run bench`: a benchmark script, not a test. Prints
 *   1. each function's bundle (the CDK app's esbuild settings: ESM, minified, @aws-sdk external),
 *   2. each bundle's cold import time, median of 10 fresh Node processes,
 *   3. p50/p99 of an authenticated GET /v1/auth/api-keys/ through the local gateway (authorizer
 *      cache warm) beside p50/p99 of one raw DynamoDB GetItem on the same DynamoDB Local, and the
 *      DynamoDB calls each request makes,
 *   4. p50 of GET /v1/plans/ page 1, unfiltered and filtered by name, in accounts holding 10, 1,000
 *      and 10,000 plans, with the DynamoDB calls and read capacity units (ReturnConsumedCapacity)
 *      each request consumed.
 *   5. p50/p99 of POST /v1/payments/, of a checkout submit with an approved card and of
 *      POST /v1/refunds/, each beside the same DynamoDB calls issued directly, and the calls each
 *      request makes.
 * Options: --requests N (default 2000), --imports N (default 10), --plan-requests N (default 100),
 *          --plan-sizes 10,1000,10000, --pay-requests N (default 200).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { build } from 'esbuild';
import { projectRoot, startLocalStack } from '../../infra/local/stack.ts';
import { createAccount } from '../../shared/accounts/repository.ts';
import { keys } from '../../shared/db/keys.ts';
import { transactWrite } from '../../shared/db/transact.ts';
import { type Deps, documentClient, makeDeps } from '../../shared/deps.ts';
import { eventRules, schedules } from '../../shared/events/rules.ts';
import { authorizer, fallback, routes } from '../../shared/http/routes.ts';
import { newPlan } from '../../shared/plans/plan.ts';
import { planCountUpdate, planItem, type Scope } from '../../shared/plans/repository.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '2000' },
    imports: { type: 'string', default: '10' },
    'plan-requests': { type: 'string', default: '100' },
    'plan-sizes': { type: 'string', default: '10,1000,10000' },
    'pay-requests': { type: 'string', default: '200' },
  },
});
const payRequests = Number(values['pay-requests']);
const planRequests = Number(values['plan-requests']);
const planSizes = (values['plan-sizes'] ?? '').split(',').map(Number);
const requestCount = Number(values.requests);
const importRuns = Number(values.imports);

const entries = [
  ...new Set([
    ...routes.map((r) => r.handler),
    fallback.handler,
    authorizer.handler,
    ...eventRules.map((r) => r.target),
    ...schedules.map((s) => s.target),
  ]),
];
const outDir = join(projectRoot, '.cobro', 'bench');

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

async function bundles() {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const rows = [];
  for (const entry of entries) {
    const outfile = join(
      outDir,
      `${entry
        .replace(/^functions\//, '')
        .replace(/\//g, '--')
        .replace(/\.ts$/, '')}.mjs`,
    );
    // Same settings as the NodejsFunction bundling in infra/cobro-stack.ts.
    await build({
      entryPoints: [join(projectRoot, entry)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      minify: true,
      sourcemap: 'external',
      mainFields: ['module', 'main'],
      external: ['@aws-sdk/*'],
      banner: {
        js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
      },
      logLevel: 'error',
    });
    rows.push({ entry, outfile, bytes: statSync(outfile).size });
  }
  return rows;
}

/** Milliseconds to import a bundle in a fresh process (the SDK it leaves external included). */
function coldImport(file: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - t));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: {
      ...process.env,
      TABLE_NAME: 'bench',
      EVENT_BUS_NAME: 'bench',
      MEDIA_BUCKET: 'bench',
      MAIL_FROM: 'bench@example.com',
      TOKEN_SECRET: 'bench-secret-bench-secret-bench-secret',
      FINGERPRINT_SECRET: 'bench-fingerprint-secret-bench-fingerprint',
      AWS_REGION: 'us-east-1',
    },
    cwd: outDir,
  });
  return Number(out.toString());
}

/**
 * `count` plans in one account and mode, written straight to the table (25 per BatchWriteItem) and
 * counted once; one plan in 100 is named "Gold …", the rest "Basic …".
 */
async function seedPlans(deps: Deps, scope: Scope, count: number): Promise<void> {
  const start = Date.UTC(2026, 0, 1);
  const items = Array.from({ length: count }, (_, i) =>
    planItem(
      newPlan(
        {
          name: i % 100 === 0 ? `Gold ${i}` : `Basic ${i}`,
          description: 'A plan written by the benchmark, about as long as a real description.',
          currency: 'USD',
          amount: `${(i % 50) + 1}.00`,
          interval: i % 2 ? 'month' : 'year',
          interval_count: 1,
          trial_period_days: 0,
          active: true,
        },
        { developerId: scope.developerId, mode: scope.mode, now: new Date(start + i * 1000), image: null },
      ),
    ),
  );
  for (let i = 0; i < items.length; i += 25) {
    let pending = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    while (pending.length) {
      const result = await deps.db.send(new BatchWriteCommand({ RequestItems: { [deps.table]: pending } }));
      pending = (result.UnprocessedItems?.[deps.table] ?? []) as typeof pending;
    }
  }
  await transactWrite(deps, [planCountUpdate(deps, scope, count, new Date().toISOString())]);
}

async function timed(n: number, fn: () => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return samples.sort((a, b) => a - b);
}

console.log(`cobro bench — node ${process.version}, ${process.arch}\n`);
const built = await bundles();
console.log(
  'bundle (minified, @aws-sdk external)            size      cold import (median of %d)',
  importRuns,
);
for (const row of built) {
  const samples = Array.from({ length: importRuns }, () => coldImport(row.outfile));
  console.log(
    `  ${row.entry.padEnd(48)} ${(row.bytes / 1024).toFixed(1).padStart(6)} kB   ${fmt(median(samples)).padStart(10)}`,
  );
}
const largest = built.reduce((a, b) => (a.bytes > b.bytes ? a : b));
console.log(`  largest: ${largest.entry} ${(largest.bytes / 1024).toFixed(1)} kB\n`);

// Its own state folder: the bench must not overwrite the .cobro/local.json of a developer's stack.
const benchState = mkdtempSync(join(tmpdir(), 'cobro-bench-'));
const stack = await startLocalStack({ port: 0, inMemory: true, stateDir: benchState });
try {
  const deps = makeDeps();
  const account = await createAccount(deps, { name: 'Bench', email: `bench-${Date.now()}@example.com` });
  let dynamoCalls = 0;
  documentClient().middlewareStack.add(
    (next) => (args) => {
      dynamoCalls += 1;
      return next(args);
    },
    { step: 'initialize', name: 'benchCallCounter' },
  );
  const url = `${stack.info.api_url}/v1/auth/api-keys/`;
  const headers = { Authorization: `Api-Key ${account.testKey}` };
  const get = async () => {
    const response = await fetch(url, { headers });
    if (response.status !== 200) throw new Error(`GET answered ${response.status}`);
    await response.arrayBuffer();
  };
  const getItem = async () => {
    await deps.db.send(
      new GetCommand({ TableName: deps.table, Key: keys.account(account.account.developer_id) }),
    );
  };
  await timed(200, get); // warm: modules imported, authorizer cache filled, connections open
  await timed(200, getItem);
  dynamoCalls = 0;
  const api = await timed(requestCount, get);
  const callsPerRequest = dynamoCalls / requestCount;
  const raw = await timed(requestCount, getItem);
  const ratio = percentile(api, 50) / percentile(raw, 50);
  console.log(`latency over ${requestCount} sequential requests (authorizer cache warm)`);
  console.log(
    `  GET /v1/auth/api-keys/ via gateway   p50 ${fmt(percentile(api, 50))}   p99 ${fmt(percentile(api, 99))}`,
  );
  console.log(
    `  raw DynamoDB GetItem                 p50 ${fmt(percentile(raw, 50))}   p99 ${fmt(percentile(raw, 99))}`,
  );
  console.log(`  ratio of p50s                        ${ratio.toFixed(2)}x (target ≤ 3x)`);
  console.log(`  DynamoDB calls per GET               ${callsPerRequest.toFixed(2)}\n`);

  // Every call from here on asks DynamoDB what it consumed.
  let readUnits = 0;
  documentClient().middlewareStack.add(
    (next) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] })
        .ConsumedCapacity;
      for (const entry of [consumed ?? []].flat())
        readUnits += entry.ReadCapacityUnits ?? entry.CapacityUnits ?? 0;
      return result;
    },
    { step: 'initialize', name: 'benchCapacity' },
  );
  console.log(`GET /v1/plans/ page 1 (page_size 10), ${planRequests} sequential requests each`);
  console.log('  plans      list              p50        p99     calls/req   RCU/req   matches');
  for (const size of planSizes) {
    const owner = await createAccount(deps, {
      name: 'Bench plans',
      email: `bench-plans-${size}-${Date.now()}@example.com`,
    });
    const scope = { developerId: owner.account.developer_id, mode: 'test' as const };
    await seedPlans(deps, scope, size);
    const auth = { Authorization: `Api-Key ${owner.testKey}` };
    for (const [label, query] of [
      ['unfiltered', ''],
      ['name=gold', '?name=gold'],
    ] as const) {
      const listUrl = `${stack.info.api_url}/v1/plans/${query}`;
      let matches = 0;
      const list = async () => {
        const response = await fetch(listUrl, { headers: auth });
        if (response.status !== 200) throw new Error(`GET ${listUrl} answered ${response.status}`);
        matches = ((await response.json()) as { count: number }).count;
      };
      await timed(5, list);
      dynamoCalls = 0;
      readUnits = 0;
      const samples = await timed(planRequests, list);
      console.log(
        `  ${String(size).padStart(6)}   ${label.padEnd(12)} ${fmt(percentile(samples, 50)).padStart(10)} ${fmt(percentile(samples, 99)).padStart(10)}   ${(dynamoCalls / planRequests).toFixed(2).padStart(8)}   ${(readUnits / planRequests).toFixed(1).padStart(7)}   ${String(matches).padStart(7)}`,
      );
    }
  }

  // Money paths: each beside the raw DynamoDB calls it makes, issued directly.
  const merchant = await createAccount(deps, {
    name: 'Bench shop',
    email: `bench-pay-${Date.now()}@example.com`,
  });
  const payAuth = { Authorization: `Api-Key ${merchant.testKey}` };
  const post = (
    path: string,
    body: string,
    type = 'application/json',
    headers: Record<string, string> = payAuth,
  ) =>
    fetch(`${stack.info.api_url}${path}`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': type },
      body,
      redirect: 'manual',
    });
  const paymentBody = JSON.stringify({
    amount: '25.00',
    description: 'Bench order',
    currency: 'USD',
    items: ['Widget'],
    return_url: 'https://shop.example/done',
  });
  let sequenceNo = 0;
  const benchItem = () => ({
    pk: `BENCH#${Date.now()}#${sequenceNo++}`,
    sk: 'BENCH',
    entity: 'bench',
    payload: 'x'.repeat(600),
  });
  const rawGet = () =>
    deps.db.send(new GetCommand({ TableName: deps.table, Key: keys.account(merchant.account.developer_id) }));
  const rawTransact = (puts: number) =>
    deps.db.send(
      new TransactWriteCommand({
        TransactItems: Array.from({ length: puts }, () => ({
          Put: { TableName: deps.table, Item: benchItem() },
        })),
      }),
    );
  const rawUpdate = () =>
    deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: keys.account(merchant.account.developer_id),
        UpdateExpression: 'SET bench_touch = :now',
        ExpressionAttributeValues: { ':now': Date.now() },
      }),
    );
  const report = (label: string, api: number[], calls: number, raw: number[], rawLabel: string) => {
    console.log(
      `  ${label.padEnd(34)} p50 ${fmt(percentile(api, 50)).padStart(9)}   p99 ${fmt(percentile(api, 99)).padStart(9)}   ${calls.toFixed(2)} DynamoDB calls/req`,
    );
    console.log(
      `  ${`  raw: ${rawLabel}`.padEnd(34)} p50 ${fmt(percentile(raw, 50)).padStart(9)}   p99 ${fmt(percentile(raw, 99)).padStart(9)}`,
    );
  };
  console.log(`\nmoney paths, ${payRequests} sequential requests each (simulated acquirer, in process)`);

  const createPaymentOnce = async () => {
    const response = await post('/v1/payments/', paymentBody);
    if (response.status !== 202) throw new Error(`POST /v1/payments/ answered ${response.status}`);
    return ((await response.json()) as { data: { redirect: string } }).data.redirect;
  };
  await timed(10, async () => void (await createPaymentOnce()));
  dynamoCalls = 0;
  const paymentsApi = await timed(payRequests, async () => void (await createPaymentOnce()));
  const paymentCalls = dynamoCalls / payRequests;
  const paymentsRaw = await timed(payRequests, async () => {
    await rawGet();
    await rawTransact(2);
  });
  report('POST /v1/payments/', paymentsApi, paymentCalls, paymentsRaw, 'GetItem + TransactWrite(2)');

  // Sessions are single use: open them first, untimed, then time only the submits.
  const sessions: { url: string; csrf: string }[] = [];
  for (let i = 0; i < payRequests + 10; i++) {
    const url = await createPaymentOnce();
    const html = await (await fetch(url)).text();
    sessions.push({ url, csrf: /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? '' });
  }
  const year = new Date().getUTCFullYear() + 3;
  const submit = async () => {
    const session = sessions.shift();
    if (!session) throw new Error('no session left');
    const form = new URLSearchParams({
      csrf_token: session.csrf,
      email: 'buyer@example.com',
      cardholder_name: 'Bench Buyer',
      card_number: '4242424242424242',
      exp_month: '12',
      exp_year: String(year),
      cvc: '123',
    });
    const response = await fetch(session.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      redirect: 'manual',
    });
    if (response.status !== 303) throw new Error(`checkout submit answered ${response.status}`);
  };
  await timed(10, submit);
  dynamoCalls = 0;
  const submitApi = await timed(payRequests, submit);
  const submitCalls = dynamoCalls / payRequests;
  // The claim (an UpdateItem), the customer lookup (a GetItem) and the paying transaction.
  const submitRaw = await timed(payRequests, async () => {
    await rawUpdate();
    await rawGet();
    await rawTransact(5);
  });
  report(
    'checkout submit (approved card)',
    submitApi,
    submitCalls,
    submitRaw,
    'Update + Get + TransactWrite(5)',
  );

  const big = await post(
    '/v1/charges/simple/create/',
    new URLSearchParams({
      amount: '1000000.00',
      currency: 'usd',
      credit_card_number: '4242424242424242',
      credit_card_security_code_number: '123',
      exp_month: '12',
      exp_year: String(year),
    }).toString(),
    'application/x-www-form-urlencoded',
  );
  const chargeId = ((await big.json()) as { id: string }).id;
  const refundBody = JSON.stringify({ charge_id: chargeId, amount: '0.01', reason: 'requested_by_customer' });
  const refundOnce = async () => {
    const response = await post('/v1/refunds/', refundBody);
    if (response.status !== 201) throw new Error(`POST /v1/refunds/ answered ${response.status}`);
    await response.arrayBuffer();
  };
  await timed(10, refundOnce);
  dynamoCalls = 0;
  const refundsApi = await timed(payRequests, refundOnce);
  const refundCalls = dynamoCalls / payRequests;
  const refundsRaw = await timed(payRequests, async () => {
    await rawGet();
    await rawTransact(3);
  });
  report('POST /v1/refunds/', refundsApi, refundCalls, refundsRaw, 'GetItem + TransactWrite(3)');
} finally {
  await stack.stop();
  rmSync(outDir, { recursive: true, force: true });
  rmSync(benchState, { recursive: true, force: true });
}
