/** The charges area for the stack: its routes and the event of a charge. */
import { defineArea } from '../stack/area.ts';
import { chargeSucceeded } from './events.ts';
import { chargesRoutes } from './routes.ts';

export const chargesArea = defineArea({
  name: 'charges',
  description: 'Money taken from a card, whatever took it, and the deprecated direct charge.',
  routes: chargesRoutes,
  events: [
    {
      event: chargeSucceeded,
      summary: 'A card was charged without a checkout (the legacy charge): the charge.',
    },
  ],
});
