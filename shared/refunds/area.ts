/** The refunds area for the stack: its routes and the event of a refund. */
import { defineArea } from '../http/area.ts';
import { refundCreated } from './events.ts';
import { refundsRoutes } from './routes.ts';

export const refundsArea = defineArea({
  name: 'refunds',
  description: 'Refunds of charges, in full or in part, never more than the charge.',
  routes: refundsRoutes,
  events: [{ event: refundCreated, summary: 'A refund was recorded against a charge: the refund.' }],
});
