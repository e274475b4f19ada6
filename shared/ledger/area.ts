/**
 * The ledger area for the stack: recovery of open attempts and the daily reconciliation, each a
 * schedule that hands out one bus entry per partition of the recovery index, and the one rule that
 * sends every partition entry (billing's too) to the partition worker.
 */
import { partitionRuns, partitionSource } from '../events/partitions.ts';
import { defineArea } from '../http/area.ts';

/**
 * The dispatchers' access: they only put entries on the bus. Reading the table is more than they
 * need: it is the retry sweep's role, shared, rather than the outbox relay's (which reads the
 * table's stream) or a role, policy and log group of their own.
 */
const handsOut = { table: 'read', events: true } as const;

export const ledgerArea = defineArea({
  name: 'ledger',
  eventRules: [
    {
      // One worker for the three runs: each rule target costs the stack a role, a log group, a
      // dead-letter queue and a rule of its own.
      name: 'partition-run',
      source: partitionSource,
      detailTypes: [partitionRuns.billing, partitionRuns.recovery, partitionRuns.reconciliation],
      target: 'functions/ledger/run-partition.ts',
      access: { table: 'write', events: true },
    },
  ],
  schedules: [
    {
      // Finishes the money movements whose outcome is unknown (at least every 5 minutes).
      name: 'attempts-recovery',
      expression: 'rate(1 minute)',
      target: 'functions/ledger/recover-attempts.ts',
      access: handsOut,
      localEveryMs: 2_000,
    },
    {
      // The acquirer's books against cobro's, daily; mismatches are logged as errors.
      name: 'ledger-reconcile',
      expression: 'rate(1 day)',
      target: 'functions/ledger/reconcile-ledger.ts',
      access: handsOut,
    },
  ],
});
