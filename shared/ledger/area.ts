/**
 * The ledger area for the stack: recovery of open attempts and the daily reconciliation, each a
 * schedule that hands out one bus entry per partition of the recovery index, and the one rule that
 * sends every partition entry (billing's too) to the partition worker.
 */
import { partitionRuns, partitionSource } from '../events/partitions.ts';
import { defineArea } from '../stack/area.ts';

/** The dispatchers' access: they only put entries on the bus. */
const handsOut = { events: true } as const;

export const ledgerArea = defineArea({
  name: 'ledger',
  description:
    'The billing run, the recovery of unfinished attempts and the reconciliation with the acquirer.',
  eventRules: [
    {
      // One worker for the three runs: each rule target costs the stack a function, a role, a log
      // group, a rule and an invoke permission of its own.
      name: 'partition-run',
      source: partitionSource,
      detailTypes: [partitionRuns.billing, partitionRuns.recovery, partitionRuns.reconciliation],
      target: 'functions/ledger/run-partition.ts',
      // What billing, recovery and reconciliation call, together; the bus to hand a partition on.
      // ConditionCheckItem: a renewal's attempt is stored with a check of its subscription's version.
      access: {
        table: {
          actions: [
            'GetItem',
            'BatchGetItem',
            'Query',
            'PutItem',
            'UpdateItem',
            'DeleteItem',
            'ConditionCheckItem',
          ],
          indexes: ['gsi1', 'gsi2'],
        },
        events: true,
        // Opens the Stripe keys of modes connected to Stripe: renewals, lookups, their books.
        webhookKey: true,
      },
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
