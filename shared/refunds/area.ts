/** The refunds area for the stack: its routes, the event of a refund, and the payer's refund notice. */
import { defineArea } from '../stack/area.ts';
import { refundCreated } from './events.ts';
import { refundsRoutes } from './routes.ts';

export const refundsArea = defineArea({
  name: 'refunds',
  description: 'Refunds of charges, in full or in part, never more than the charge.',
  routes: refundsRoutes,
  events: [{ event: refundCreated, summary: 'A refund was recorded against a charge: the refund.' }],
  eventRules: [
    {
      // Every refund tells the charge's payer, once, when the charge has an address to tell.
      name: 'refund-email',
      detailTypes: [refundCreated.type],
      target: 'functions/refunds/send-refund-email.ts',
      access: {
        table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'DeleteItem'] },
        mail: true,
      },
    },
  ],
});
