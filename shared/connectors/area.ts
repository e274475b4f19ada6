/** The connectors area for the stack: the endpoint Stripe's events reach, and the event of a dispute. */
import { defineArea } from '../stack/area.ts';
import { chargeDisputeCreated } from './events.ts';
import { connectorsRoutes } from './routes.ts';

export const connectorsArea = defineArea({
  name: 'connectors',
  description: "What an account's acquirer tells cobro by itself: Stripe's signed events.",
  routes: connectorsRoutes,
  events: [
    {
      event: chargeDisputeCreated,
      summary:
        "A cardholder disputed a charge at their bank, as the account's acquirer (Stripe) reported it: the dispute.",
    },
  ],
});
