/** The payments area for the stack: its routes and the events of a checkout's outcome. */
import { defineArea } from '../stack/area.ts';
import { paymentFailed, paymentSucceeded } from './events.ts';
import { paymentsRoutes } from './routes.ts';

export const paymentsArea = defineArea({
  name: 'payments',
  description: 'One-off payments, each paid on a hosted checkout page.',
  routes: paymentsRoutes,
  events: [
    {
      event: paymentSucceeded,
      summary: 'A checkout was paid: the payment, completed, with its `charge_id`.',
    },
    {
      event: paymentFailed,
      summary: 'A checkout attempt was declined (each one is sent): the payment, with `decline_reason`.',
    },
  ],
});
