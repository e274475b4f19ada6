/** The payouts area for the stack: the hourly payout run. */
import { defineArea } from '../stack/area.ts';

export const payoutsArea = defineArea({
  name: 'payouts',
  description: 'Live charges paid out to the merchant two days after they are made.',
  schedules: [
    {
      name: 'payouts-run',
      expression: 'rate(1 hour)',
      target: 'functions/payouts/run-payouts.ts',
      access: {
        table: {
          actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
          indexes: ['gsi1', 'gsi2'],
        },
      },
    },
  ],
});
