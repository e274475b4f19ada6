/**
 * One billing run over many due subscriptions: they are stored straight into the table (the
 * record and its due entry, as activation writes them), all due at one time, then each partition
 * of the due index is billed at once by its own `billPartition`, as the deployed workers do. Prints
 * the run's time, subscriptions per second, each partition's time per subscription (a worker's
 * duration per item), and per subscription the DynamoDB calls and the capacity units DynamoDB
 * reports (ReturnConsumedCapacity, indexes included): reads and writes apart.
 *
 * What each subscription is due for is the caller's choice (`kindOf`): a plain renewal, an end at
 * the period's end (`cancel_at_period_end`: the step cancels instead of charging), or a pending
 * change the renewal charges and applies (a smaller plan from this period on).
 */
import { type ConsumedCapacity, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createSimulatedAcquirer } from '../../shared/acquirer/simulated.ts';
import { prefixedId } from '../../shared/core/ids.ts';
import { putAll } from '../../shared/db/batch.ts';
import type { Deps } from '../../shared/db/deps.ts';
import { dueShards } from '../../shared/db/keys.ts';
import { billPartition } from '../../shared/ledger/billing.ts';
import { planKeys } from '../../shared/plans/keys.ts';
import { subscriptionKeys } from '../../shared/subscriptions/keys.ts';
import { subscriptionEntity } from '../../shared/subscriptions/repository.ts';
import type { Subscription } from '../../shared/subscriptions/subscription.ts';

/** What a seeded subscription is due for. */
export type DueKind = 'renewal' | 'end' | 'change';

export async function benchBilling(options: {
  deps: Deps;
  developerId: number;
  count: number;
  /** What the run is, as printed. */
  label: string;
  kindOf: (index: number) => DueKind;
  /** Every DynamoDB call the process made, the event pipeline's (which runs in it) included. */
  calls: () => number;
  /** The billing run's own calls: those made outside any function's invocation. */
  ownCalls: () => number;
  resetCalls: () => void;
}): Promise<void> {
  const { deps, developerId, count, kindOf } = options;
  const kinds: Record<DueKind, number> = { renewal: 0, end: 0, change: 0 };
  // The acquirer's books go through a client of their own, as configuredAcquirer() builds it, so
  // `calls` counts cobro's calls only.
  const acquirer = createSimulatedAcquirer({
    ledger: {
      db: DynamoDBDocumentClient.from(new DynamoDBClient({}), {
        marshallOptions: { removeUndefinedValues: true },
      }),
      table: deps.table,
    },
    clock: () => new Date('2020-01-01'),
  });
  const approved = await acquirer.charge({
    amountMinor: 100,
    currency: 'USD',
    description: 'bench',
    // One key per account: a stack kept between runs holds the first run's charge under its key.
    idempotencyKey: `bench-token-${developerId}`,
    test: true,
    merchant: developerId,
    threeDSecure: 'challenge_allowed',
    card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123', holderName: 'Bench' },
  });
  if (approved.status !== 'approved') throw new Error('the bench card was not approved');
  const anchor = '2030-01-15T00:00:00.000Z';
  const due = '2030-02-15T00:00:00.000Z';
  function* items() {
    for (let i = 0; i < count; i++) {
      const kind = kindOf(i);
      kinds[kind] += 1;
      const subscription: Subscription = {
        id: prefixedId('sub'),
        developer_id: developerId,
        mode: 'test',
        plan_id: 'bench-plan',
        plan: { name: 'Bench', amount: 999, currency: 'USD', interval: 'month', interval_count: 1 },
        quantity: 1,
        customer_id: null,
        status: 'active',
        active: true,
        statement_descriptor: 'BENCH',
        card_token: (approved as { cardToken: string }).cardToken,
        anchor,
        trial_end: null,
        paid_through: 0,
        failed_attempts: 0,
        failed_at: null,
        next_action_at: due,
        version: 1,
        created_at: anchor,
        updated_at: anchor,
        canceled_at: null,
        ...(kind === 'end' ? { cancel_at_period_end: true } : {}),
        ...(kind === 'change'
          ? {
              pending_change: {
                plan_id: 'bench-plan-small',
                plan: {
                  name: 'Bench small',
                  amount: 499,
                  currency: 'USD',
                  interval: 'month',
                  interval_count: 1,
                },
                quantity: 2,
                effective_at: due,
              },
            }
          : {}),
      };
      yield subscriptionEntity.item(subscription);
      yield {
        ...subscriptionKeys.due(subscription.id, due),
        entity: 'billing_due',
        developer_id: developerId,
        mode: 'test',
        subscription_id: subscription.id,
        due_at: due,
      };
    }
  }
  // The plans the subscriptions count in (a renewal that applies a change moves one between them):
  // absent, every such renewal would fail its counts' condition and write again without them.
  function* plans() {
    for (const [id, subscribers] of [
      ['bench-plan', count],
      ['bench-plan-small', 0],
    ] as const)
      yield {
        ...planKeys.plan(developerId, 'test', id),
        entity: 'plan',
        developer_id: developerId,
        mode: 'test',
        subscriber_count: subscribers,
      };
  }
  const seeding = performance.now();
  await putAll(deps, plans());
  await putAll(deps, items());
  const seeded = (performance.now() - seeding) / 1000;
  const units = { read: 0, write: 0 };
  const writes = /^(Put|Update|Delete|BatchWrite|TransactWrite)/;
  const measuring = 'benchBillingCapacity';
  deps.db.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'INDEXES';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] })
        .ConsumedCapacity;
      const total = [consumed ?? []].flat().reduce((sum, each) => sum + (each.CapacityUnits ?? 0), 0);
      units[writes.test(context.commandName ?? '') ? 'write' : 'read'] += total;
      return result;
    },
    { step: 'initialize', name: measuring },
  );
  options.resetCalls();
  const start = performance.now();
  const parts = await Promise.all(
    Array.from({ length: dueShards }, async (_, partition) => {
      const began = performance.now();
      const summary = await billPartition({ ...deps, acquirer }, new Date(due), partition, { developerId });
      return { ...summary, seconds: (performance.now() - began) / 1000 };
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  deps.db.middlewareStack.remove(measuring);
  const renewed = parts.reduce((sum, part) => sum + part.renewed, 0);
  const canceled = parts.reduce((sum, part) => sum + part.canceled, 0);
  const done = renewed + canceled;
  console.log(
    `billing run over ${count} due subscriptions, ${options.label} (${kinds.renewal} renewals, ${kinds.end} ending, ${kinds.change} changing; seeded in ${seeded.toFixed(1)} s)`,
  );
  console.log(
    `  ${seconds.toFixed(2)} s = ${(done / seconds).toFixed(0)} subscriptions/s (${renewed} renewed, ${canceled} ended); ${(options.calls() / count).toFixed(2)} DynamoDB calls (${(options.ownCalls() / count).toFixed(2)} the billing step's own, the rest the event pipeline's meanwhile), ${(units.read / count).toFixed(2)} RCU and ${(units.write / count).toFixed(2)} WCU per subscription`,
  );
  if (done !== count) throw new Error(`${count - done} subscriptions were neither renewed nor ended`);
  for (const part of parts)
    console.log(
      `  partition ${part.partition}: ${part.renewed} renewed in ${part.seconds.toFixed(2)} s = ${((part.seconds * 1000) / Math.max(1, part.renewed)).toFixed(1)} ms a subscription (${part.failed} failed, ${part.raced} raced)`,
    );
}
