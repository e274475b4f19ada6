/**
 * What one million requests of each kind cost on AWS, worked out from what the local stack measures
 * while it serves them: every function invocation a request causes (its own, the authorizer's
 * when its cache misses, and the event pipeline's: relay, fan-out, webhook delivery, e-mail) with
 * its duration, the DynamoDB read and write units every call consumed (ReturnConsumedCapacity), the
 * events put on the bus and the e-mails sent. Each kind runs `requests` times in one account of its
 * own with one webhook endpoint subscribed to every event, then the pipeline is drained before the
 * meter is read, so everything the requests caused is counted.
 *
 * Durations are the handlers' wall time in this process against DynamoDB Local: a deployed function
 * adds a network round trip (a few ms) per DynamoDB call and runs on a slice of a CPU proportional to
 * its memory; the cost table therefore also shows the Lambda line at three times the measured time.
 * Prices are list prices of us-east-1 (`prices` below). Capacity units are what DynamoDB Local
 * reports for each call (a total per call; the command tells reads from writes).
 */
import { createServer } from 'node:http';
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LocalInfo } from '../../infra/local/info.ts';
import { invocation } from '../../infra/local/lambda.ts';
import { createAccount } from '../../shared/accounts/repository.ts';
import { eventRules, schedules } from '../../shared/api/event-rules.ts';
import type { Deps } from '../../shared/db/deps.ts';
import { partitionSource } from '../../shared/events/partitions.ts';
import { secretBox } from '../../shared/webhooks/secrets.ts';
import { registerEndpoint } from '../../shared/webhooks/service.ts';

/**
 * List prices of us-east-1 as AWS publishes them (DynamoDB on demand at the rates of November 2024;
 * REST API Gateway's first tier; Lambda on arm64; CloudWatch Logs standard ingestion). Prices
 * change: compare with the pricing pages before quoting a figure.
 */
export const prices = {
  apiRequest: 3.5 / 1e6,
  lambdaRequest: 0.2 / 1e6,
  lambdaGbSecond: 0.0000133334,
  writeUnit: 0.625 / 1e6,
  readUnit: 0.125 / 1e6,
  busEvent: 1 / 1e6,
  email: 0.1 / 1e3,
  logGb: 0.5,
} as const;

/** Memory every function gets in the CDK app (infra/cobro-stack.ts), in GB; the authorizer's 256 MB. */
const memoryGb = (entry: string) => (entry.includes('authorizer') ? 0.25 : 0.5);
/** Bytes of log a function invocation writes: Lambda's START/END/REPORT lines and one entry of ours. */
const logBytesPerInvocation = 600;

const readCommands = new Set([
  'GetItemCommand',
  'QueryCommand',
  'BatchGetItemCommand',
  'TransactGetItemsCommand',
]);

/**
 * The schedules' functions, and the partition workers they hand their runs to, work on their own
 * clock, whatever the requests do: not counted.
 */
const scheduled = new Set([
  ...schedules.map((schedule) => schedule.target),
  ...eventRules.filter((rule) => rule.source === partitionSource).map((rule) => rule.target),
]);

/** Counts what the stack does between `reset()` and `read()`. */
export function startMeter(db: DynamoDBDocumentClient) {
  let invocations = new Map<string, { count: number; ms: number }>();
  let readUnits = 0;
  let writeUnits = 0;
  const run = invocation.run.bind(invocation);
  // Every invocation of the local stack goes through `invocation.run` (infra/local/lambda.ts).
  invocation.run = ((store: { entry: string }, fn: () => unknown) => {
    if (scheduled.has(store.entry)) return run(store, fn);
    const started = performance.now();
    const result = run(store, fn);
    const done = () => {
      const row = invocations.get(store.entry) ?? { count: 0, ms: 0 };
      row.count += 1;
      row.ms += performance.now() - started;
      invocations.set(store.entry, row);
    };
    if (result instanceof Promise) result.then(done, done);
    else done();
    return result;
  }) as typeof invocation.run;
  db.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] })
        .ConsumedCapacity;
      // DynamoDB Local answers the total only (no read/write split): the command tells which.
      const units = [consumed ?? []].flat().reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
      if (readCommands.has(context.commandName ?? '')) readUnits += units;
      else writeUnits += units;
      return result;
    },
    { step: 'initialize', name: 'costMeter' },
  );
  return {
    reset() {
      invocations = new Map();
      readUnits = 0;
      writeUnits = 0;
    },
    read: () => ({ invocations, readUnits, writeUnits }),
  };
}

export type Meter = ReturnType<typeof startMeter>;

interface Kind {
  label: string;
  /** Requests through API Gateway per operation. */
  apiRequests: number;
  /** Runs one operation. */
  once: (account: BenchAccount) => Promise<void>;
  /** Untimed preparation, given the account. */
  prepare?: (account: BenchAccount) => Promise<void>;
}

interface BenchAccount {
  developerId: number;
  testKey: string;
  auth: Record<string, string>;
  /** Values a kind's preparation leaves for its operations. */
  state: Record<string, unknown>;
}

const expectStatus = async (response: Response, status: number, what: string) => {
  if (response.status !== status)
    throw new Error(`${what} answered ${response.status}: ${await response.text()}`);
  return response;
};

export async function benchCost(options: {
  deps: Deps;
  db: DynamoDBDocumentClient;
  meter: Meter;
  info: LocalInfo;
  requests: number;
}): Promise<void> {
  const { deps, meter, info, requests } = options;
  const apiUrl = info.api_url;
  // A receiver for every account's one endpoint: deliveries are part of what a request costs.
  let received = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received += 1;
      response.writeHead(200);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;

  const relayed = async () => {
    const answer = await fetch(`${info.control_url}/pipeline`, {
      headers: { Authorization: `Bearer ${info.control_token}` },
    });
    return ((await (await expectStatus(answer, 200, 'GET /pipeline')).json()) as { relayed: number }).relayed;
  };
  const drain = async (developerId: number) => {
    const answer = await fetch(`${info.control_url}/pipeline/drain`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${info.control_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ developer_id: developerId, timeout_ms: 120_000 }),
    });
    await expectStatus(answer, 200, 'the pipeline drain');
  };
  const post = (path: string, auth: Record<string, string>, body: unknown) =>
    fetch(`${apiUrl}${path}`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      redirect: 'manual',
    });
  const year = new Date().getUTCFullYear() + 3;
  const card = {
    email: 'buyer@example.com',
    cardholder_name: 'Cost Buyer',
    card_number: '4242424242424242',
    exp_month: '12',
    exp_year: String(year),
    cvc: '123',
  };
  const payThroughCheckout = async (redirect: string) => {
    const page = await expectStatus(await fetch(redirect), 200, 'the checkout page');
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    const submitted = await fetch(redirect, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf_token: csrf, ...card }).toString(),
      redirect: 'manual',
    });
    await expectStatus(submitted, 303, 'the checkout submit');
  };
  const newPayment = async (auth: Record<string, string>) => {
    const created = await expectStatus(
      await post('/v1/payments/', auth, {
        amount: '25.00',
        description: 'Cost order',
        currency: 'USD',
        items: ['Widget'],
        return_url: 'https://shop.example/done',
      }),
      202,
      'POST /v1/payments/',
    );
    return ((await created.json()) as { data: { redirect: string } }).data.redirect;
  };

  const kinds: Kind[] = [
    {
      label: 'GET /v1/plans/{id}/ (a read)',
      apiRequests: 1,
      prepare: async (account) => {
        const plan = await post('/v1/plans/', account.auth, {
          name: 'Cost plan',
          amount: '9.99',
          currency: 'USD',
          interval: 'month',
          interval_count: 1,
        });
        account.state.planId = (
          (await (await expectStatus(plan, 201, 'POST /v1/plans/')).json()) as { data: { id: string } }
        ).data.id;
      },
      once: async (account) => {
        const response = await fetch(`${apiUrl}/v1/plans/${account.state.planId}/`, {
          headers: account.auth,
        });
        await (await expectStatus(response, 200, 'GET /v1/plans/{id}/')).arrayBuffer();
      },
    },
    {
      label: 'POST /v1/customers/ (a write)',
      apiRequests: 1,
      once: async (account) => {
        const n = Number(account.state.n ?? 0) + 1;
        account.state.n = n;
        const response = await post('/v1/customers/', account.auth, {
          first_name: 'Cost',
          last_name: `Customer ${n}`,
          email: `cost-${n}-${account.developerId}@example.com`,
        });
        await (await expectStatus(response, 201, 'POST /v1/customers/')).arrayBuffer();
      },
    },
    {
      label: 'card payment (create, page, pay)',
      apiRequests: 3,
      once: async (account) => payThroughCheckout(await newPayment(account.auth)),
    },
    {
      label: 'POST /v1/refunds/ (partial)',
      apiRequests: 1,
      // One large charge, refunded a cent at a time.
      prepare: async (account) => {
        const charge = await fetch(`${apiUrl}/v1/charges/simple/create/`, {
          method: 'POST',
          headers: { ...account.auth, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            amount: '1000000.00',
            currency: 'usd',
            credit_card_number: '4242424242424242',
            credit_card_security_code_number: '123',
            exp_month: '12',
            exp_year: String(year),
          }).toString(),
        });
        account.state.chargeId = ((await charge.json()) as { id: string }).id;
      },
      once: async (account) => {
        const response = await post('/v1/refunds/', account.auth, {
          charge_id: account.state.chargeId,
          amount: '0.01',
          reason: 'requested_by_customer',
        });
        await (await expectStatus(response, 201, 'POST /v1/refunds/')).arrayBuffer();
      },
    },
  ];

  const rows: { label: string; perRequest: ReturnType<typeof perRequestOf> }[] = [];
  for (const kind of kinds) {
    const owner = await createAccount(deps, { name: 'Cost', email: `cost-${Date.now()}@example.com` });
    const account: BenchAccount = {
      developerId: owner.account.developer_id,
      testKey: owner.testKey,
      auth: { Authorization: `Api-Key ${owner.testKey}` },
      state: {},
    };
    await registerEndpoint(
      { ...deps, secrets: secretBox() },
      { developerId: account.developerId, mode: 'test' },
      { url: receiverUrl, events: ['*'], description: 'cost bench' },
    );
    await kind.prepare?.(account);
    // A few untimed operations first: modules imported, connections open, the authorizer cached.
    for (let i = 0; i < 3; i++) await kind.once(account);
    await drain(account.developerId);
    meter.reset();
    const before = { received, relayed: await relayed() };
    for (let i = 0; i < requests; i++) await kind.once(account);
    await drain(account.developerId);
    rows.push({
      label: kind.label,
      perRequest: perRequestOf(
        meter.read(),
        requests,
        kind.apiRequests,
        (received - before.received) / requests,
        (await relayed()) - before.relayed,
      ),
    });
  }
  await new Promise<void>((resolve) => server.close(() => resolve()));
  printCosts(rows, requests);
}

function perRequestOf(
  measured: ReturnType<Meter['read']>,
  requests: number,
  apiRequests: number,
  deliveries: number,
  relayed: number,
) {
  let gbSeconds = 0;
  let invocations = 0;
  let emails = 0;
  const functions: string[] = [];
  for (const [entry, { count, ms }] of measured.invocations) {
    // Lambda bills each invocation's duration rounded up to the millisecond.
    gbSeconds += (Math.ceil(ms / count) * count * memoryGb(entry)) / 1000;
    invocations += count;
    if (/email/.test(entry)) emails += count;
    functions.push(
      `${entry.replace(/^functions\//, '').replace(/\.ts$/, '')} ${(count / requests).toFixed(2)}× ${(ms / count).toFixed(1)} ms`,
    );
  }
  return {
    apiRequests,
    invocations: invocations / requests,
    gbSeconds: gbSeconds / requests,
    readUnits: measured.readUnits / requests,
    writeUnits: measured.writeUnits / requests,
    emails: emails / requests,
    busEvents: relayed / requests,
    deliveries,
    functions,
  };
}

function printCosts(
  rows: { label: string; perRequest: ReturnType<typeof perRequestOf> }[],
  requests: number,
) {
  const million = 1e6;
  console.log(
    `cost of one million operations of each kind (${requests} measured each, us-east-1 list prices)`,
  );
  for (const { label, perRequest: r } of rows) {
    const api = r.apiRequests * prices.apiRequest * million;
    const lambdaRequests = r.invocations * prices.lambdaRequest * million;
    const compute = r.gbSeconds * prices.lambdaGbSecond * million;
    const dynamo = (r.readUnits * prices.readUnit + r.writeUnits * prices.writeUnit) * million;
    const bus = r.busEvents * prices.busEvent * million;
    const mail = r.emails * prices.email * million;
    const logs = ((r.invocations * logBytesPerInvocation) / 1e9) * prices.logGb * million;
    const total = api + lambdaRequests + compute + dynamo + bus + mail + logs;
    console.log(`\n  ${label}`);
    console.log(
      `    per operation: ${r.apiRequests} API requests, ${r.invocations.toFixed(2)} invocations, ${(r.gbSeconds * 1000).toFixed(1)} GB-ms, ${r.readUnits.toFixed(1)} RRU, ${r.writeUnits.toFixed(1)} WRU, ${r.busEvents.toFixed(2)} bus events, ${r.deliveries.toFixed(2)} webhook deliveries, ${r.emails.toFixed(2)} e-mails`,
    );
    console.log(`    functions: ${r.functions.join('; ')}`);
    console.log(
      `    USD per million: API $${api.toFixed(2)}, Lambda requests $${lambdaRequests.toFixed(2)}, Lambda compute $${compute.toFixed(2)} ($${(compute * 3).toFixed(2)} at 3× the time), DynamoDB $${dynamo.toFixed(2)}, EventBridge $${bus.toFixed(2)}, SES $${mail.toFixed(2)}, logs $${logs.toFixed(2)}: total $${total.toFixed(2)} ($${(total + 2 * compute).toFixed(2)} at 3× the time)`,
    );
  }
}
