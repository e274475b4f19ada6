/**
 * The billing run: every recurring step due, subscriptions' (renewals, trial ends, dunning) and
 * recurring payment links', assembled, one partition of the due indexes at a time. Deployed, the
 * schedule (every 15 minutes) hands each partition to a worker of its own (billPartition in each);
 * `cobro billing run` runs every partition at once in its own process, for one account when given.
 */
import { type RunPart, shardsOf } from '../db/due.ts';
import { runLinkBilling } from '../payment-links/billing.ts';
import { type BillingDeps, runBilling } from '../subscriptions/billing.ts';

/**
 * One partition's billing at `now`: the subscriptions of that shard of the billing due index and
 * the links of the same shard of the link due index (of `account` alone when given), until
 * `part.stop`. `billed` counts the subscriptions whose charge was asked of the acquirer this run,
 * whatever it answered (renewed, declined, canceled after the last retry, refunded, unconfirmed);
 * `failed` the steps that threw, which the next run tries again.
 */
export async function billPartition(
  deps: BillingDeps,
  now: Date,
  partition: number,
  account?: { developerId: number },
  stop?: RunPart['stop'],
) {
  const part = { shard: partition, ...(stop ? { stop } : {}) };
  const [subscriptions, paymentLinks] = await Promise.all([
    runBilling(deps, now, account, part),
    runLinkBilling(deps, now, account, part),
  ]);
  const billed =
    subscriptions.renewed +
    subscriptions.payment_failed +
    subscriptions.canceled +
    subscriptions.refunded +
    subscriptions.unconfirmed;
  return { partition, billed, ...subscriptions, payment_links: paymentLinks };
}

export type PartitionBilling = Awaited<ReturnType<typeof billPartition>>;

/** Sums the counts of several partitions' summaries (the `now` of the first). */
export function totalOf(parts: readonly PartitionBilling[]) {
  const sum = <T extends Record<string, unknown>>(of: (part: PartitionBilling) => T): T => {
    const total: Record<string, unknown> = {};
    for (const part of parts)
      for (const [name, value] of Object.entries(of(part)))
        total[name] = typeof value === 'number' ? ((total[name] as number | undefined) ?? 0) + value : value;
    return total as T;
  };
  const { partition: _partition, payment_links: _links, ...subscriptions } = sum((part) => part);
  return { ...subscriptions, payment_links: sum((part) => part.payment_links) };
}

/**
 * The whole run in this process (the CLI's `billing run`): every partition at once, as the deployed
 * workers would, the subscriptions' summary with the links' beside it, summed over partitions.
 */
export async function runAllBilling(deps: BillingDeps, now: Date, account?: { developerId: number }) {
  const parts = await Promise.all(
    shardsOf(undefined).map((partition) => billPartition(deps, now, partition, account)),
  );
  return totalOf(parts);
}
