/** The ledger area for the stack: recovery of open attempts and the daily reconciliation. */
import { defineArea } from '../http/area.ts';

export const ledgerArea = defineArea({
  name: 'ledger',
  schedules: [
    {
      // Finishes the money movements whose outcome is unknown (at least every 5 minutes).
      name: 'attempts-recovery',
      expression: 'rate(1 minute)',
      target: 'functions/ledger/recover-attempts.ts',
      access: {
        table: {
          actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
          indexes: ['gsi1', 'gsi2'],
        },
      },
      localEveryMs: 2_000,
    },
    {
      // The acquirer's books against cobro's, daily; mismatches are logged as errors.
      name: 'ledger-reconcile',
      expression: 'rate(1 day)',
      target: 'functions/ledger/reconcile-ledger.ts',
      access: {
        table: {
          actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
          indexes: ['gsi1', 'gsi2'],
        },
      },
    },
  ],
});
