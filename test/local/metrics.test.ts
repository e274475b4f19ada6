/**
 * The metrics and log lines a deployed stage would send to CloudWatch, read from the stdout of a
 * stack running in this process: the embedded-metric-format lines of the business facts (each
 * counted once, a request replayed under its Idempotency-Key included), of a billing run's summary,
 * and the correlation id and Lambda context on the log lines of an invocation.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lambdaContext } from '../../infra/local/lambda.ts';
import { type LocalStack, startLocalStack } from '../../infra/local/stack.ts';
import { createAccount } from '../../shared/accounts/repository.ts';
import { eventCatalogue } from '../../shared/api/events.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { eventMetrics } from '../../shared/events/metrics.ts';
import { partitionRuns } from '../../shared/events/partitions.ts';
import { eventually } from '../support/eventually.ts';
import { teeOutput } from '../support/output.ts';
import { startReceiver } from '../support/receiver.ts';

const lines: string[] = [];
let stack: LocalStack;
let state: string;
let restore: () => void;

type Json = Record<string, unknown>;
const parsed = (): Json[] =>
  lines.flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line) as Json];
    } catch {
      return [];
    }
  });

interface Emf {
  Namespace: string;
  Dimensions: string[][];
  Metrics: { Name: string; Unit: string }[];
}

/** The EMF lines that carry `name`. */
const emfLinesOf = (name: string) =>
  parsed().filter((line) => {
    const aws = line._aws as { CloudWatchMetrics?: Emf[] } | undefined;
    return aws?.CloudWatchMetrics?.some((set) => set.Metrics.some((metric) => metric.Name === name));
  });

/** The sum of `name` over every EMF line whose dimensions have these values. */
const total = (name: string, dimensions: Json) =>
  emfLinesOf(name)
    .filter((line) => Object.entries(dimensions).every(([key, value]) => line[key] === value))
    .flatMap((line) => [line[name]].flat() as number[])
    .reduce((sum, value) => sum + value, 0);

/** Waits until `condition` holds (the relay and the webhook sweep run every second locally), for up to 30 s. */
const until = (condition: () => boolean, what: string) =>
  eventually(what, () => (condition() ? true : undefined), 30_000);

beforeAll(async () => {
  process.env.LOG_LEVEL = 'INFO'; // the run's summary is an INFO line
  restore = teeOutput((chunk) => lines.push(...chunk.split('\n').filter(Boolean)));
  state = mkdtempSync(join(tmpdir(), 'cobro-metrics-'));
  stack = await startLocalStack({ port: 0, inMemory: true, stateDir: state });
});

afterAll(async () => {
  restore();
  await stack?.stop();
  rmSync(state, { recursive: true, force: true });
});

async function pay(url: string, fields: Record<string, string>) {
  const html = await (await fetch(url)).text();
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf_token: csrf, ...fields }).toString(),
    redirect: 'manual',
  });
  return response.status;
}

describe('the events counted', () => {
  it('are types of the catalogue', () => {
    const types = eventCatalogue.map((event) => event.type);
    expect(Object.keys(eventMetrics).filter((type) => !types.includes(type))).toEqual([]);
  });
});

describe('business metrics', () => {
  it('count approvals, declines and webhook attempts once each, in namespace cobro with stage and mode', async () => {
    const created = await createAccount(makeDeps(), {
      name: 'Counted shop',
      email: `counted-${Date.now()}@example.com`,
    });
    const auth = { Authorization: `Api-Key ${created.testKey}` };
    // A webhook endpoint for the approvals, failing its first delivery once.
    const receiver = await startReceiver();
    receiver.answer('/hook', 500);
    const endpoint = await fetch(`${stack.info.api_url}/v1/webhook-endpoints/`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.url}/hook`, events: ['charge.succeeded'] }),
    });
    expect(endpoint.status).toBe(201);
    const created201 = await fetch(`${stack.info.api_url}/v1/payments/`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        amount: '12.00',
        description: 'Counted order',
        currency: 'USD',
        items: ['Thing'],
        return_url: 'http://shop.example/done',
      }),
    });
    const checkout = ((await created201.json()) as { data: { redirect: string } }).data.redirect;
    const card = (number: string) => ({
      email: 'buyer@example.com',
      cardholder_name: 'Counted Buyer',
      card_number: number,
      exp_month: '07',
      exp_year: String(new Date().getUTCFullYear() + 2),
      cvc: '123',
    });
    expect(await pay(checkout, card('4000000000000002'))).toBe(402);
    expect(await pay(checkout, card('4242424242424242'))).toBe(303);

    // The legacy charge, sent twice under one Idempotency-Key: the second answer is a replay.
    const legacy = () =>
      fetch(`${stack.info.api_url}/v1/charges/simple/create/`, {
        method: 'POST',
        headers: {
          ...auth,
          'Content-Type': 'application/x-www-form-urlencoded',
          'Idempotency-Key': 'counted-legacy-1',
        },
        body: new URLSearchParams({
          amount: '5.00',
          currency: 'usd',
          credit_card_number: '5555555555554444',
          credit_card_security_code_number: '123',
          exp_month: '7',
          exp_year: String(new Date().getUTCFullYear() + 2),
        }).toString(),
      });
    expect((await legacy()).status).toBe(201);
    const replay = await legacy();
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    // A declined legacy charge stores no catalogue event: its metric is counted where its attempt is finished.
    const declined = await fetch(`${stack.info.api_url}/v1/charges/simple/create/`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        amount: '5.00',
        currency: 'usd',
        credit_card_number: '4000000000000002',
        credit_card_security_code_number: '123',
        exp_month: '7',
        exp_year: String(new Date().getUTCFullYear() + 2),
      }).toString(),
    });
    expect(declined.status).toBe(402);

    const test = { service: 'cobro', stage: 'local', mode: 'test' };
    await until(
      () => total('ChargesApproved', test) >= 2 && total('ChargesDeclined', test) >= 1,
      'the counts',
    );
    const [line] = emfLinesOf('ChargesApproved');
    const set = (line?._aws as { CloudWatchMetrics?: Emf[] } | undefined)?.CloudWatchMetrics?.[0];
    expect(set?.Namespace).toBe('cobro');
    expect(set?.Dimensions).toEqual([['service', 'stage', 'mode']]);
    expect(set?.Metrics).toContainEqual({ Name: 'ChargesApproved', Unit: 'Count' });

    // Two approvals, two deliveries: the first attempt of one failed, its retry (5 s later) succeeded.
    await until(() => total('WebhookDeliveries', test) >= 2, 'the webhook deliveries');
    expect(total('WebhookFailures', test)).toBe(1);
    expect(total('WebhookDeadLetters', test)).toBe(0);
    // The replay stored no second event: nothing was counted twice.
    expect(total('ChargesApproved', test)).toBe(2);
    expect(total('ChargesDeclined', test)).toBe(2);
    expect(total('ChargesApproved', { ...test, mode: 'live' })).toBe(0);
  });

  it("report a billing run's summary, and its log lines carry the run's id and the Lambda context", async () => {
    // The schedule's dispatcher hands the run out, one bus entry per partition...
    const dispatcher = await import('../../functions/subscriptions/run-billing.ts');
    const runId = `run-${Date.now()}`;
    const context = lambdaContext('functions/subscriptions/run-billing.ts', 60_000);
    await dispatcher.handler({ id: runId, 'detail-type': 'Scheduled Event' } as never, context);
    expect(
      parsed().find((entry) => entry.message === 'billing run handed out' && entry.correlation_id === runId),
    ).toMatchObject({
      level: 'INFO',
      service: 'cobro',
      function_name: 'subscriptions-run-billing',
      function_request_id: context.awsRequestId,
      correlation_id: runId,
    });
    // ...and a partition's worker logs and counts that partition's part of it.
    const worker = await import('../../functions/ledger/run-partition.ts');
    const entryId = `entry-${Date.now()}`;
    const workerContext = lambdaContext('functions/ledger/run-partition.ts', 60_000);
    await worker.handler(
      {
        id: entryId,
        'detail-type': partitionRuns.billing,
        detail: { partition: 0, runId, at: new Date().toISOString(), round: 0 },
      } as never,
      workerContext,
    );
    expect(
      parsed().find((entry) => entry.message === 'partition run' && entry.correlation_id === entryId),
    ).toMatchObject({
      level: 'INFO',
      function_name: 'ledger-run-partition',
      function_request_id: workerContext.awsRequestId,
      run_id: runId,
      partition: 0,
    });
    for (const name of [
      'BillingDue',
      'BillingRenewed',
      'BillingPaymentFailed',
      'BillingCanceled',
      'BillingFailures',
    ]) {
      const run = emfLinesOf(name).filter((line) => line.stage === 'local' && !('mode' in line));
      expect(run.length, name).toBeGreaterThan(0);
    }
  });

  it.each([
    [partitionRuns.recovery, ['AttemptsRecovered', 'RecoveryErrors']],
    [partitionRuns.reconciliation, ['ReconciliationMismatches']],
    ['functions/payouts/run-payouts.ts', ['PayoutsPaidOut', 'PayoutsRefused', 'PayoutsUnconfirmed']],
  ])('report the summary of a run of %s', async (run, names) => {
    const before = new Map(names.map((name) => [name, emfLinesOf(name).length]));
    if (run.endsWith('.ts')) {
      const { handler } = (await import(`../../${run}`)) as {
        handler: (event: unknown, context: unknown) => Promise<unknown>;
      };
      await handler({ id: `run-${Date.now()}` }, lambdaContext(run, 60_000));
    } else {
      // A fanned-out run: one partition's worker, as the bus delivers its entry.
      const worker = await import('../../functions/ledger/run-partition.ts');
      await worker.handler(
        {
          id: `entry-${Date.now()}`,
          'detail-type': run,
          detail: { partition: 1, runId: `run-${Date.now()}`, at: new Date().toISOString(), round: 0 },
        } as never,
        lambdaContext('functions/ledger/run-partition.ts', 60_000),
      );
    }
    // At least this run's line: the stack itself runs recovery every 2 seconds in this process too.
    for (const name of names) {
      const lines = emfLinesOf(name).slice(before.get(name));
      expect(lines.length, name).toBeGreaterThanOrEqual(1);
      for (const line of lines) {
        expect(line, name).toMatchObject({ service: 'cobro', stage: 'local' });
        expect(line, name).not.toHaveProperty('mode');
      }
    }
  });
});
