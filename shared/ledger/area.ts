/**
 * The ledger area for the stack: recovery of open attempts and the daily reconciliation, each a
 * schedule that hands out one bus entry per partition of the recovery index, and the rule that
 * sends each entry to its partition's worker.
 */
import { partitionRuns, partitionSource } from '../events/partitions.ts';
import { defineArea } from '../http/area.ts';

export const ledgerArea = defineArea({
  name: 'ledger',
  eventRules: [
    {
      name: 'attempts-recovery-partition',
      source: partitionSource,
      detailTypes: [partitionRuns.recovery],
      target: 'functions/ledger/recover-partition.ts',
      access: { table: 'write', events: true },
    },
    {
      name: 'ledger-reconcile-partition',
      source: partitionSource,
      detailTypes: [partitionRuns.reconciliation],
      target: 'functions/ledger/reconcile-partition.ts',
      access: { table: 'write' },
    },
  ],
  schedules: [
    {
      // Finishes the money movements whose outcome is unknown (at least every 5 minutes).
      name: 'attempts-recovery',
      expression: 'rate(1 minute)',
      target: 'functions/ledger/recover-attempts.ts',
      access: { events: true },
      localEveryMs: 2_000,
    },
    {
      // The acquirer's books against cobro's, daily; mismatches are logged as errors.
      name: 'ledger-reconcile',
      expression: 'rate(1 day)',
      target: 'functions/ledger/reconcile-ledger.ts',
      access: { events: true },
    },
  ],
});
