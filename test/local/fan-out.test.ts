/**
 * The billing run fanned out (shared/events/partitions.ts) on the test stack's table, through a
 * local event bus of this process delivering by the real rule table to the real worker module: the
 * dispatcher hands out one entry per partition of the due indexes, and one worker invocation per
 * partition bills it. The workers' start and end times come from their summary lines.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type LocalEventBus, startEventBus } from '../../infra/local/event-bus.ts';
import { processFaults } from '../../shared/acquirer/faults.ts';
import { rulesFor } from '../../shared/api/event-rules.ts';
import { eventCatalogue } from '../../shared/api/events.ts';
import { envNames } from '../../shared/core/config.ts';
import { logger } from '../../shared/core/log.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { dueShards, shardOf } from '../../shared/db/keys.ts';
import { eventSource } from '../../shared/events/event.ts';
import {
  handOutPartitions,
  type PartitionDue,
  partitionRuns,
  partitionSource,
  readPartitionDue,
} from '../../shared/events/partitions.ts';
import { busPublisher } from '../../shared/events/publish.ts';
import { getSubscription } from '../../shared/subscriptions/repository.ts';
import type { Subscription } from '../../shared/subscriptions/subscription.ts';
import { api, apiKey, newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';
import { subscribe } from '../support/subscriptions.ts';

const root = resolve(import.meta.dirname, '../..');
const worker = 'functions/ledger/run-partition.ts';

let bus: LocalEventBus;
/** Every summary line the workers logged in this process. */
const lines: Record<string, unknown>[] = [];

/**
 * Points this process's bus clients at its own bus, not the stack's: the workers then run here,
 * where their lines can be read. Called again once the test's records are made: making accounts
 * and cards points the whole environment at the stack again.
 */
function useOwnBus(): void {
  vi.stubEnv('AWS_ENDPOINT_URL_EVENTBRIDGE', bus.url);
  vi.stubEnv(envNames.eventBus, 'fan-out-test');
}

beforeAll(async () => {
  useLocalEnvironment();
  bus = await startEventBus(0, root, { region: 'us-east-1' });
  useOwnBus();
  const info = logger.info;
  vi.spyOn(logger, 'info').mockImplementation((message, attributes) => {
    if (message === 'partition run' && attributes) lines.push(attributes);
    else info(message, attributes);
  });
});

afterAll(async () => {
  await bus.close();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

interface Line {
  type: string;
  partition: number;
  run_id: string;
  round: number;
  billed: number;
  renewed: number;
  raced: number;
  failed: number;
  handed_on: boolean;
  started_at: string;
  finished_at: string;
}
const linesOf = (runId: string) => lines.filter((line) => line.run_id === runId) as unknown as Line[];

async function newPlan(account: TestAccount): Promise<string> {
  const created = await api('POST', '/v1/plans/', {
    auth: apiKey(account.testKey),
    body: { name: 'Gold', amount: '10.50', currency: 'USD', interval: 'month', interval_count: 1 },
  });
  expect(created.status).toBe(201);
  return created.json.data.id as string;
}

/** Subscriptions due at `anchor` + 1 month, at least `each` in each of `partitions`. */
async function dueSpread(account: TestAccount, anchor: string, each: number, partitions: readonly number[]) {
  const planId = await newPlan(account);
  const made: Subscription[] = [];
  const inPartition = (partition: number) =>
    made.filter((subscription) => shardOf(subscription.id, dueShards) === partition).length;
  // Ids are random: subscribe until every partition asked for holds `each` (others get some too).
  while (partitions.some((partition) => inPartition(partition) < each))
    made.push(await subscribe({ account, planId, anchor }));
  useOwnBus();
  return made;
}

async function expectBilledOnce(account: TestAccount, subscriptions: readonly Subscription[]) {
  for (const subscription of subscriptions) {
    const now = await getSubscription(
      makeDeps(),
      { developerId: account.developerId, mode: 'test' },
      subscription.id,
    );
    expect(now?.paid_through, subscription.id).toBe(1);
  }
  const listed = await api('GET', '/v1/payments/?limit=100', { auth: apiKey(account.testKey) });
  expect(listed.status).toBe(200);
  const charged = (listed.json as unknown as { subscription_id: string | null }[]).map(
    (charge) => charge.subscription_id,
  );
  expect([...charged].sort()).toEqual(subscriptions.map((subscription) => subscription.id).sort());
}

/** The intervals overlap: some instant lies inside every one of them. */
const overlapAll = (runs: readonly Line[]) =>
  Math.max(...runs.map((run) => Date.parse(run.started_at))) <
  Math.min(...runs.map((run) => Date.parse(run.finished_at)));

describe('partition entries', () => {
  it('are work for cobro alone: no webhook, no catalogue type, one rule each', () => {
    const catalogue = new Set(eventCatalogue.map((event) => event.type));
    for (const type of Object.values(partitionRuns)) {
      expect(catalogue.has(type), type).toBe(false);
      expect(rulesFor(eventSource, type), type).toEqual([]);
      expect(rulesFor(partitionSource, type), type).toHaveLength(1);
    }
    for (const type of Object.values(partitionRuns))
      expect(rulesFor(partitionSource, type)[0]?.target, type).toBe(worker);
  });

  it('are read checked: a partition outside the due index or a bad time is refused', () => {
    const good = { partition: dueShards - 1, runId: 'r', at: '2031-01-01T00:00:00.000Z' };
    expect(readPartitionDue(good)).toEqual({ ...good, round: 0 });
    expect(() => readPartitionDue({ ...good, partition: dueShards })).toThrow();
    expect(() => readPartitionDue({ ...good, partition: -1 })).toThrow();
    expect(() => readPartitionDue({ ...good, at: 'tomorrow' })).toThrow();
  });
});

describe('the billing run fanned out on the local stack', () => {
  it(`bills subscriptions spread over all ${dueShards} partitions by ${dueShards} overlapping workers, each once`, async () => {
    const account = await newAccount('fan-out');
    const all = Array.from({ length: dueShards }, (_, partition) => partition);
    const subscriptions = await dueSpread(account, '2031-01-10T00:00:00.000Z', 2, all);
    // A slow acquirer (a realistic 300 ms a charge) keeps each worker busy long enough to see them overlap.
    processFaults.add({
      operation: 'chargeStored',
      effect: 'slow',
      delayMs: 300,
      merchant: account.developerId,
    });
    try {
      const { runId, partitions } = await handOutPartitions(busPublisher(), partitionRuns.billing, {
        at: new Date('2031-02-10T00:00:00.000Z'),
        developerId: account.developerId,
      });
      expect(partitions).toBe(dueShards);
      await bus.idle();
      const runs = linesOf(runId);
      expect(runs.map((run) => run.partition).sort()).toEqual(all);
      for (const run of runs) {
        const mine = subscriptions.filter(
          (subscription) => shardOf(subscription.id, dueShards) === run.partition,
        );
        expect(run, `partition ${run.partition}`).toMatchObject({
          type: partitionRuns.billing,
          billed: mine.length,
          renewed: mine.length,
          failed: 0,
          handed_on: false,
        });
      }
      expect(overlapAll(runs)).toBe(true);
      await expectBilledOnce(account, subscriptions);
    } finally {
      processFaults.clear(account.developerId);
    }
    // Reconciled the same way, one worker per partition: between them every charge, each checked once.
    const reconciled = await handOutPartitions(busPublisher(), partitionRuns.reconciliation, {
      at: new Date(),
      developerId: account.developerId,
    });
    await bus.idle();
    const checks = lines.filter((line) => line.run_id === reconciled.runId) as unknown as (Line & {
      mismatches: number;
      acquirer: { charges: number };
      cobro: { charges: number };
    })[];
    expect(checks.map((check) => check.partition).sort()).toEqual(all);
    expect(checks.every((check) => check.mismatches === 0)).toBe(true);
    expect(checks.reduce((sum, check) => sum + check.acquirer.charges, 0)).toBe(subscriptions.length);
    expect(checks.reduce((sum, check) => sum + check.cobro.charges, 0)).toBe(subscriptions.length);
  });

  it('does a partition once when its entry is delivered twice at the same time', async () => {
    const account = await newAccount('fan-out-twice');
    const subscriptions = (await dueSpread(account, '2031-03-05T00:00:00.000Z', 3, [1])).filter(
      (subscription) => shardOf(subscription.id, dueShards) === 1,
    );
    processFaults.add({
      operation: 'chargeStored',
      effect: 'slow',
      delayMs: 300,
      merchant: account.developerId,
    });
    try {
      const entry = {
        source: partitionSource,
        type: partitionRuns.billing,
        detail: {
          partition: 1,
          runId: `twice-${account.developerId}`,
          at: '2031-04-05T00:00:00.000Z',
          developer_id: account.developerId,
          round: 0,
        } satisfies PartitionDue,
      };
      expect(await busPublisher().send([entry, entry])).toBe(-1);
      await bus.idle();
      const runs = linesOf(entry.detail.runId);
      expect(runs).toHaveLength(2);
      expect(overlapAll(runs)).toBe(true);
      // Between them each subscription was billed once: one of the two took it, the other raced.
      expect(runs.reduce((sum, run) => sum + run.billed, 0)).toBe(subscriptions.length);
      expect(runs.every((run) => run.failed === 0)).toBe(true);
      // Only partition 1's subscriptions were charged: the others of the account are not its workers'.
      const listed = await api('GET', '/v1/payments/?limit=100', { auth: apiKey(account.testKey) });
      const charged = (listed.json as unknown as { subscription_id: string | null }[]).map(
        (charge) => charge.subscription_id,
      );
      expect([...charged].sort()).toEqual(subscriptions.map((subscription) => subscription.id).sort());
    } finally {
      processFaults.clear(account.developerId);
    }
  });

  it('hands a partition on when its invocation runs short of time, and the next round bills it', async () => {
    const account = await newAccount('fan-out-hand-on');
    const subscriptions = (await dueSpread(account, '2031-05-20T00:00:00.000Z', 2, [2])).filter(
      (subscription) => shardOf(subscription.id, dueShards) === 2,
    );
    const { handler } = (await import(`${root}/${worker}`)) as {
      handler: (event: unknown, context: unknown) => Promise<Line>;
    };
    const detail = {
      partition: 2,
      runId: `hand-on-${account.developerId}`,
      at: '2031-06-20T00:00:00.000Z',
      developer_id: account.developerId,
    };
    // An invocation with no time left takes no step and hands the partition on.
    const first = await handler(
      { 'detail-type': partitionRuns.billing, detail },
      { getRemainingTimeInMillis: () => 0 },
    );
    expect(first).toMatchObject({ partition: 2, round: 0, billed: 0, handed_on: true });
    await bus.idle();
    const next = linesOf(detail.runId).filter((run) => run.round === 1);
    expect(next).toHaveLength(1);
    expect(next[0]).toMatchObject({ partition: 2, billed: subscriptions.length, handed_on: false });
    const listed = await api('GET', '/v1/payments/?limit=100', { auth: apiKey(account.testKey) });
    const charged = (listed.json as unknown as { subscription_id: string | null }[]).map(
      (charge) => charge.subscription_id,
    );
    expect([...charged].sort()).toEqual(subscriptions.map((subscription) => subscription.id).sort());
  });
});
