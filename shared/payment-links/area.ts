/** The payment links area for the stack: its routes and the event of a paid link. */
import { defineArea } from '../stack/area.ts';
import { paymentLinkPaid } from './events.ts';
import { paymentLinksRoutes } from './routes.ts';

export const paymentLinksArea = defineArea({
  name: 'payment-links',
  description: 'Shareable payment pages for an amount, once or every month, optionally one per customer.',
  routes: paymentLinksRoutes,
  events: [{ event: paymentLinkPaid, summary: 'A payment link was paid.' }],
});
