/**
 * `npm run bench`: a benchmark script, not a test. Prints
 *   0. each function's bundle as deployed: its bytes, and the message modules (each folder's
 *      `messages.ts`) in it with the bytes of text they bring (test/support/bundles.ts),
 *   1. each function's bundle and cold import (median of --imports fresh Node processes, run
 *      round-robin so drift hits every column alike) beside two floors bundled the same way: a
 *      minimal handler that imports only DynamoDBClient and GetItemCommand, and a hello-world.
 *      Four columns: @aws-sdk/* bundled in or external (resolved from node_modules, as the Lambda
 *      runtime's copy would be), each without and with a source map run under --enable-source-maps.
 *      The column infra/bundling.ts deploys is marked, and every SDK-loading function's ratio to
 *      the minimal SDK handler in it is checked against 1.1x (parts 0 and 1: test/bench/bundles.ts),
 *   2. p50/p99 of an authenticated GET /v1/auth/api-keys/ through the local gateway (authorizer
 *      cache warm) beside p50/p99 of one raw DynamoDB GetItem on the same DynamoDB Local, and the
 *      DynamoDB calls each request makes,
 *   3. p50 of GET /v1/plans/ page 1, unfiltered and filtered by name, in accounts holding 10, 1,000
 *      and 10,000 plans, with the DynamoDB calls and read capacity units (ReturnConsumedCapacity)
 *      each request consumed.
 *   4. p50/p99 of POST /v1/payments/, of a checkout submit with an approved card and of
 *      POST /v1/refunds/, each beside the same DynamoDB calls issued directly, and the calls each
 *      request makes.
 *   5. the substring searches (plan name, product search, customer search) at 10, 1,000 and 10,000
 *      records in one account (--search-sizes for others): p50, DynamoDB calls and read units per request (test/bench/search.ts).
 *   7. billing runs over --billing-subscriptions (default 10,000) due subscriptions, every
 *      partition at once as the deployed workers do: renewals only, then a tenth ending at the
 *      period's end and a tenth with a pending change, then each of those steps alone over a tenth
 *      as many: time, subscriptions per second, each partition's time per subscription, DynamoDB
 *      calls and capacity units per subscription (test/bench/billing.ts).
 *   8. payment links: p50/p99 of creating one, reading it and paying its page (--link-requests,
 *      default 200), and billing runs over --billing-links (default 10,000) due recurring links
 *      (test/bench/links.ts).
 *   9. (--only cost, not part of a whole run) what one million operations of each kind cost on AWS,
 *      from the invocations, durations, capacity units, bus events and e-mails each one causes
 *      (test/bench/cost.ts; --cost-requests N each, default 100).
 *  10. receipts: the receipt PDF rendered in process (wall and CPU time per receipt, goal under
 *      100 ms of CPU) and p50/p99 of the receipt page and its PDF through the local gateway
 *      (--receipt-requests, default 200) (test/bench/receipts.ts).
 *  12. the dashboard, overview and charges list: for accounts of 10, 1,000 and 100,000 charges
 *      (--overview-sizes; --overview-requests, default 200), each account's charges and day
 *      counters seeded once with batch writes, p50/p99 and DynamoDB calls of overview() and of
 *      GET /dashboard/ (signed in, through the local gateway) (test/bench/overview.ts), then of the
 *      payments list's read listPaymentCharges() (the default query, and limit 100 with a
 *      created_before in the middle of the account's history; with the items and read units one
 *      read evaluates), of GET /dashboard/charges (signed
 *      in) and of GET /v1/payments/ (the account's secret key), both with the same two queries
 *      (test/bench/charges-list.ts).
 *  11. the customer portal: p50/p99 of creating a portal link and of the portal page it opens
 *      through the local gateway, for a customer with a few subscriptions and charges in an account
 *      where another customer has --portal-others of each (default 200), and the page again once a
 *      third customer has --portal-crowd charges (default 2000), with the DynamoDB calls each
 *      request makes (--portal-requests, default 200) (test/bench/portal.ts).
 *   6. webhook delivery: event stored → received by a loopback receiver, p50/p99 of --webhook-events
 *      sequential events (default 200), and deliveries per second when --webhook-burst events
 *      (default 1000) are stored at once (test/bench/webhooks.ts).
 * Options: --only bundles (part 0 only), --only cold (part 1 only), --only latency (parts 2-4), --only search (part 5) or
 *          --only webhooks (part 6), --only billing (part 7), --only links (part 8), --only cost (part 9),
 *          --only receipts (part 10), --only portal (part 11), --only overview or --only dashboard (part 12),
 *          --search-sizes (default 10,1000,10000; 10,1000,100000 adds the 100,000-record figures),
 *          --search-requests N (default 50),
 *          --search-subjects plans,products,customers (default all), --requests N (default 2000),
 *          --imports N (default 10), --plan-requests N (default 100), --plan-sizes 10,1000,10000,
 *          --pay-requests N (default 200).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { invocation } from '../../infra/local/lambda.ts';
import { startLocalStack } from '../../infra/local/stack.ts';
import { accountKeys } from '../../shared/accounts/keys.ts';
import { createAccount } from '../../shared/accounts/repository.ts';
import { simulatedLedgerClient } from '../../shared/acquirer/configured.ts';
import type { Scope } from '../../shared/core/account.ts';
import { newCustomer } from '../../shared/customers/customer.ts';
import {
  customerCountUpdate,
  customerEntity,
  customerIndexWrites,
} from '../../shared/customers/repository.ts';
import { type Deps, documentClient, makeDeps } from '../../shared/db/deps.ts';
import { transactWrite } from '../../shared/db/transact.ts';
import { newPlan } from '../../shared/plans/plan.ts';
import { nameIndexWrites, planCountUpdate, planEntity } from '../../shared/plans/repository.ts';
import { newProduct } from '../../shared/products/product.ts';
import { productCountUpdate, productEntity, productIndexWrites } from '../../shared/products/repository.ts';
import { benchBilling, type DueKind } from './billing.ts';
import { benchBundleSizes, benchColdImports, outDir } from './bundles.ts';
import { benchCost, startMeter } from './cost.ts';
import { benchLinks } from './links.ts';
import { benchOverview } from './overview.ts';
import { benchPortal } from './portal.ts';
import { benchReceipts } from './receipts.ts';
import { benchSearches, isZephyr, type SearchSubject, serial } from './search.ts';
import { benchWebhooks } from './webhooks.ts';

// The functions run in this process: their CloudWatch metric lines would bury the figures (as
// `npm start` keeps them out of its terminal). Powertools Metrics reads this on first use.
process.env.POWERTOOLS_METRICS_DISABLED = 'true';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    requests: { type: 'string', default: '2000' },
    imports: { type: 'string', default: '10' },
    'plan-requests': { type: 'string', default: '100' },
    'plan-sizes': { type: 'string', default: '10,1000,10000' },
    'pay-requests': { type: 'string', default: '200' },
    'search-sizes': { type: 'string', default: '10,1000,10000' },
    'search-requests': { type: 'string', default: '50' },
    'search-subjects': { type: 'string' },
    'webhook-events': { type: 'string', default: '200' },
    'webhook-burst': { type: 'string', default: '1000' },
    'billing-subscriptions': { type: 'string', default: '10000' },
    'billing-links': { type: 'string', default: '10000' },
    'link-requests': { type: 'string', default: '200' },
    'cost-requests': { type: 'string', default: '100' },
    'receipt-requests': { type: 'string', default: '200' },
    'portal-requests': { type: 'string', default: '200' },
    'portal-others': { type: 'string', default: '200' },
    'overview-requests': { type: 'string', default: '200' },
    'overview-sizes': { type: 'string', default: '10,1000,100000' },
    'portal-crowd': { type: 'string', default: '2000' },
  },
});
if (
  values.only !== undefined &&
  ![
    'bundles',
    'cold',
    'latency',
    'search',
    'webhooks',
    'billing',
    'links',
    'receipts',
    'portal',
    'overview',
    'dashboard',
    'cost',
  ].includes(values.only)
) {
  throw new Error(
    `--only takes bundles, cold, latency, search, webhooks, billing, links, receipts, portal, overview (or dashboard) or cost, not ${values.only}`,
  );
}
const payRequests = Number(values['pay-requests']);
const planRequests = Number(values['plan-requests']);
const planSizes = (values['plan-sizes'] ?? '').split(',').map(Number);
const requestCount = Number(values.requests);
const searchSizes = (values['search-sizes'] ?? '').split(',').map(Number);
const searchRequests = Number(values['search-requests']);
const importRuns = Number(values.imports);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

/**
 * `count` plans in one account and mode, written straight to the table (25 per BatchWriteItem) and
 * counted once; one plan in 100 is named "Gold …", the rest "Basic …".
 */
async function seedPlans(deps: Deps, scope: Scope, count: number): Promise<void> {
  const start = Date.UTC(2026, 0, 1);
  // Each plan with its name's search entries, as createPlan stores them: `?name=gold` reads those.
  const items = Array.from({ length: count }, (_, i) => {
    const plan = newPlan(
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
    );
    const entries = nameIndexWrites(deps, plan, [], [plan.name]).flatMap((write) =>
      write.Put?.Item ? [write.Put.Item] : [],
    );
    return [planEntity.item(plan), ...entries];
  }).flat();
  for (let i = 0; i < items.length; i += 25) {
    let pending = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    while (pending.length) {
      const result = await deps.db.send(new BatchWriteCommand({ RequestItems: { [deps.table]: pending } }));
      pending = (result.UnprocessedItems?.[deps.table] ?? []) as typeof pending;
    }
  }
  await transactWrite(deps, [planCountUpdate(deps, scope, count, new Date().toISOString())]);
}

/** The kinds of record the search benchmark seeds and searches. */
function searchSubjects(deps: Deps): SearchSubject[] {
  const start = Date.UTC(2026, 0, 1);
  const plans: SearchSubject = {
    name: 'plans',
    label: 'plans ?name=',
    *items(scope, count) {
      for (let i = 0; i < count; i++) {
        const plan = newPlan(
          {
            name: `${isZephyr(i) ? 'Zephyr' : 'Basic'} ${serial(i)}`,
            description: 'A plan written by the benchmark, about as long as a real description.',
            currency: 'USD',
            amount: `${(i % 50) + 1}.00`,
            interval: 'month',
            interval_count: 1,
            trial_period_days: 0,
            active: true,
          },
          { developerId: scope.developerId, mode: scope.mode, now: new Date(start + i * 1000), image: null },
        );
        yield planEntity.item(plan);
        for (const write of nameIndexWrites(deps, plan, [], [plan.name]))
          if (write.Put?.Item) yield write.Put.Item;
      }
    },
    after: async (scope, count) => {
      await transactWrite(deps, [planCountUpdate(deps, scope, count, new Date().toISOString())]);
    },
    path: (query) => `/v1/plans/?name=${encodeURIComponent(query)}`,
    matched: (body) => (body as { count: number }).count,
  };
  const firstNames = ['Ana', 'Luis', 'María', 'José', 'Sofía', 'Diego', 'Lucía', 'Carlos', 'Elena', 'Pablo'];
  const customers: SearchSubject = {
    name: 'customers',
    label: 'customers ?search=',
    *items(scope, count) {
      for (let i = 0; i < count; i++) {
        const first = isZephyr(i) ? 'Zephyrine' : (firstNames[i % firstNames.length] as string);
        const customer = newCustomer(
          {
            first_name: first,
            last_name: 'Benchmark',
            email: `${first.toLowerCase()}.${serial(i)}@mail.example.com`,
            phone: null,
            country: 'CR',
            metadata: null,
          },
          { developerId: scope.developerId, mode: scope.mode, now: new Date(start + i * 1000) },
        );
        yield customerEntity.item(customer);
        for (const write of customerIndexWrites(deps, customer, undefined, customer))
          if (write.Put?.Item) yield write.Put.Item;
      }
    },
    after: async (scope, count) => {
      await transactWrite(deps, [customerCountUpdate(deps, scope, count, new Date().toISOString())]);
    },
    path: (query) => `/v1/customers/?search=${encodeURIComponent(query)}&page=1`,
    matched: (body) => (body as { count: number }).count,
  };
  const products: SearchSubject = {
    name: 'products',
    label: 'products ?search=',
    *items(scope, count) {
      for (let i = 0; i < count; i++) {
        const product = newProduct(
          {
            name: `${isZephyr(i) ? 'Zephyr' : 'Widget'} ${serial(i)}`,
            price: `${(i % 90) + 10}.00`,
            sku: `SKU-${serial(i)}`,
            stock: i % 40,
            is_physical: i % 2 === 0,
          },
          {
            id: randomUUID(),
            developerId: scope.developerId,
            mode: scope.mode,
            now: new Date(start + i * 1000),
            taxes: [],
            recurrence: null,
            imageDefault: null,
            images: [],
          },
        );
        yield productEntity.item(product);
        for (const write of productIndexWrites(deps, product, undefined, product))
          if (write.Put?.Item) yield write.Put.Item;
      }
    },
    after: async (scope, count) => {
      await transactWrite(deps, [productCountUpdate(deps, scope, count, new Date().toISOString())]);
    },
    path: (query) => `/v1/products/?search=${encodeURIComponent(query)}`,
    matched: (body) => (body as { count: number }).count,
  };
  return [plans, customers, products];
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
if (values.only === undefined || values.only === 'bundles') await benchBundleSizes();
if (values.only === 'bundles') process.exit(0);
if (values.only === undefined || values.only === 'cold') await benchColdImports({ importRuns, percentile });
if (values.only === 'cold') {
  rmSync(outDir, { recursive: true, force: true });
  process.exit(0);
}

// Its own state folder: the bench must not overwrite the .cobro/local.json of a developer's stack.
const benchState = mkdtempSync(join(tmpdir(), 'cobro-bench-'));
const stack = await startLocalStack({ port: 0, inMemory: true, stateDir: benchState });
try {
  const deps = makeDeps();
  const account = await createAccount(deps, { name: 'Bench', email: `bench-${Date.now()}@example.com` });
  let dynamoCalls = 0;
  /** Calls made outside any function's invocation: the bench's own (a billing run it drives). */
  let outsideCalls = 0;
  // Every function runs in this process: calls are also counted by the function making them, so a
  // request's own calls stand apart from what the event pipeline does meanwhile (fan-out, e-mail).
  const callsOf = new Map<string, number>();
  documentClient().middlewareStack.add(
    (next) => (args) => {
      dynamoCalls += 1;
      const entry = invocation.getStore()?.entry;
      if (entry) callsOf.set(entry, (callsOf.get(entry) ?? 0) + 1);
      else outsideCalls += 1;
      return next(args);
    },
    { step: 'initialize', name: 'benchCallCounter' },
  );
  const countFrom = () => {
    dynamoCalls = 0;
    acquirerCalls = 0;
    acquirerMs = 0;
    callsOf.clear();
  };
  /** What was counted since countFrom, per request of a timed run of `handler`. */
  const counted = (handler: string) => ({
    own: (callsOf.get(handler) ?? 0) / payRequests,
    all: dynamoCalls / payRequests,
    acquirer: acquirerCalls / payRequests,
    acquirerMs: acquirerMs / payRequests,
  });
  // The simulated acquirer keeps its books through a client of its own: its calls are counted apart,
  // as a real acquirer's network calls would be (the handlers run in this process).
  let acquirerCalls = 0;
  let acquirerMs = 0;
  simulatedLedgerClient().middlewareStack.add(
    (next) => async (args) => {
      acquirerCalls += 1;
      const started = performance.now();
      try {
        return await next(args);
      } finally {
        acquirerMs += performance.now() - started;
      }
    },
    { step: 'initialize', name: 'benchAcquirerCounter' },
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
      new GetCommand({ TableName: deps.table, Key: accountKeys.account(account.account.developer_id) }),
    );
  };
  if (values.only === 'cost') {
    // Its own meter (invocations, capacity units): the counters above would count its calls twice.
    await benchCost({
      deps,
      db: documentClient(),
      meter: startMeter(documentClient()),
      info: stack.info,
      requests: Number(values['cost-requests']),
    });
    process.exit(0);
  }
  if (values.only === undefined || values.only === 'billing') {
    const count = Number(values['billing-subscriptions']);
    // Renewals alone (the figure before subscription changes existed), then the same number with
    // a tenth ending at the period's end and a tenth with a pending change, then each new step
    // alone over a tenth as many, so its cost per subscription stands beside a renewal's.
    const runs: { label: string; count: number; kindOf: (index: number) => DueKind }[] = [
      { label: 'renewals only', count, kindOf: () => 'renewal' },
      {
        label: 'a tenth ending at the period end, a tenth with a pending change',
        count,
        kindOf: (index) => (index % 10 === 0 ? 'end' : index % 10 === 1 ? 'change' : 'renewal'),
      },
      { label: 'ending at the period end only', count: Math.ceil(count / 10), kindOf: () => 'end' },
      { label: 'pending changes only', count: Math.ceil(count / 10), kindOf: () => 'change' },
    ];
    for (const [index, run] of runs.entries()) {
      const owner = await createAccount(deps, {
        name: 'Bench billing',
        email: `bench-billing-${Date.now()}-${index}@example.com`,
      });
      await benchBilling({
        deps,
        developerId: owner.account.developer_id,
        ...run,
        calls: () => dynamoCalls,
        ownCalls: () => outsideCalls,
        resetCalls: () => {
          dynamoCalls = 0;
          outsideCalls = 0;
        },
      });
    }
    if (values.only === 'billing') process.exit(0);
  }
  if (values.only === undefined || values.only === 'links') {
    const owner = await createAccount(deps, {
      name: 'Bench links',
      email: `bench-links-${Date.now()}@example.com`,
    });
    await benchLinks({
      deps,
      developerId: owner.account.developer_id,
      apiUrl: stack.info.api_url,
      testKey: owner.testKey,
      requests: Number(values['link-requests']),
      count: Number(values['billing-links']),
      calls: () => dynamoCalls,
      resetCalls: () => {
        dynamoCalls = 0;
      },
      percentile,
    });
    if (values.only === 'links') process.exit(0);
  }
  if (values.only === undefined || values.only === 'receipts') {
    const owner = await createAccount(deps, {
      name: 'Bench receipts',
      email: `bench-receipts-${Date.now()}@example.com`,
    });
    await benchReceipts({
      deps,
      developerId: owner.account.developer_id,
      apiUrl: stack.info.api_url,
      requests: Number(values['receipt-requests']),
      calls: () => dynamoCalls,
      resetCalls: () => {
        dynamoCalls = 0;
      },
      percentile,
    });
    if (values.only === 'receipts') process.exit(0);
  }
  if (values.only === undefined || values.only === 'portal') {
    const owner = await createAccount(deps, {
      name: 'Bench portal',
      email: `bench-portal-${Date.now()}@example.com`,
    });
    await benchPortal({
      deps,
      developerId: owner.account.developer_id,
      apiUrl: stack.info.api_url,
      testKey: owner.testKey,
      requests: Number(values['portal-requests']),
      others: Number(values['portal-others']),
      crowd: Number(values['portal-crowd']),
      calls: () => dynamoCalls,
      resetCalls: () => {
        dynamoCalls = 0;
      },
      percentile,
    });
    if (values.only === 'portal') process.exit(0);
  }
  // `--only dashboard` names the same part: the overview and the charges list share its accounts.
  const dashboardPart = values.only === 'overview' || values.only === 'dashboard';
  if (values.only === undefined || dashboardPart) {
    await benchOverview({
      deps,
      apiUrl: stack.info.api_url,
      sizes: values['overview-sizes'].split(',').map(Number),
      requests: Number(values['overview-requests']),
      calls: () => dynamoCalls,
      resetCalls: () => {
        dynamoCalls = 0;
      },
      percentile,
    });
    if (dashboardPart) process.exit(0);
  }
  if (values.only === undefined || values.only === 'webhooks') {
    await benchWebhooks({
      deps,
      developerId: account.account.developer_id,
      apiUrl: stack.info.api_url,
      testKey: account.testKey,
      sequential: Number(values['webhook-events']),
      burst: Number(values['webhook-burst']),
      percentile,
    });
    if (values.only === 'webhooks') process.exit(0);
  }
  const latency = values.only !== 'search';
  if (latency) {
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
  }

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
  if (latency) {
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
  }

  if (values.only === undefined || values.only === 'search') {
    const meter = {
      reset: () => {
        dynamoCalls = 0;
        readUnits = 0;
      },
      calls: () => dynamoCalls,
      units: () => readUnits,
    };
    await benchSearches({
      deps,
      apiUrl: stack.info.api_url,
      newAccount: async (label) => {
        const owner = await createAccount(deps, {
          name: 'Bench search',
          email: `bench-${label}-${Date.now()}@example.com`,
        });
        return {
          scope: { developerId: owner.account.developer_id, mode: 'test' },
          auth: `Api-Key ${owner.testKey}`,
        };
      },
      subjects: searchSubjects(deps).filter(
        (subject) =>
          !values['search-subjects'] || values['search-subjects'].split(',').includes(subject.name),
      ),
      sizes: searchSizes,
      requests: searchRequests,
      meter,
      timed,
      percentile,
    });
  }
  if (!latency) process.exit(0);

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
    deps.db.send(
      new GetCommand({ TableName: deps.table, Key: accountKeys.account(merchant.account.developer_id) }),
    );
  const rawTransact = (puts: number) =>
    deps.db.send(
      new TransactWriteCommand({
        TransactItems: Array.from({ length: puts }, () => ({
          Put: { TableName: deps.table, Item: benchItem() },
        })),
      }),
    );
  const rawPut = () => deps.db.send(new PutCommand({ TableName: deps.table, Item: benchItem() }));
  const rawUpdate = () =>
    deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: accountKeys.account(merchant.account.developer_id),
        UpdateExpression: 'SET bench_touch = :now',
        ExpressionAttributeValues: { ':now': Date.now() },
      }),
    );
  /** The report of a timed money path: its own handler's calls per request, and everything's. */
  const report = (
    label: string,
    api: number[],
    calls: ReturnType<typeof counted>,
    raw: number[],
    rawLabel: string,
  ) => {
    console.log(
      `  ${label.padEnd(34)} p50 ${fmt(percentile(api, 50)).padStart(9)}   p99 ${fmt(percentile(api, 99)).padStart(9)}   DynamoDB calls/req: ${calls.own.toFixed(2)} by the handler (${calls.all.toFixed(2)} with the event pipeline), ${calls.acquirer.toFixed(2)} by the simulated acquirer's books (${fmt(calls.acquirerMs)} of the request)`,
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
  countFrom();
  const paymentsApi = await timed(payRequests, async () => void (await createPaymentOnce()));
  report(
    'POST /v1/payments/',
    paymentsApi,
    counted('functions/payments/create-payment.ts'),
    await timed(payRequests, async () => {
      await rawGet();
      await rawTransact(2);
    }),
    'GetItem + TransactWrite(2)',
  );

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
  countFrom();
  const submitApi = await timed(payRequests, submit);
  // The attempt (a PutItem) beside the claim (an UpdateItem), the customer lookup (a GetItem) and
  // the paying transaction (session, attempt, charge, charge.succeeded, payment, payment.succeeded).
  const submitCalls = counted('functions/checkout/submit-checkout.ts');
  const submitRaw = await timed(payRequests, async () => {
    await Promise.all([rawPut(), rawUpdate()]);
    await rawGet();
    await rawTransact(6);
  });
  report(
    'checkout submit (approved card)',
    submitApi,
    submitCalls,
    submitRaw,
    '(Put | Update) + Get + TransactWrite(6)',
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
  countFrom();
  const refundsApi = await timed(payRequests, refundOnce);
  // The charge; its amount held with the refund's attempt; the refund recorded with its event, the
  // attempt finished and the charge's total raised.
  const refundCalls = counted('functions/refunds/create-refund.ts');
  const refundsRaw = await timed(payRequests, async () => {
    await rawGet();
    await rawTransact(2);
    await rawTransact(4);
  });
  report(
    'POST /v1/refunds/',
    refundsApi,
    refundCalls,
    refundsRaw,
    'Get + TransactWrite(2) + TransactWrite(4)',
  );
} finally {
  await stack.stop();
  rmSync(outDir, { recursive: true, force: true });
  rmSync(benchState, { recursive: true, force: true });
}
