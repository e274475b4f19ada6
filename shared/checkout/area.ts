/** The checkout area for the stack: the hosted pages' routes. */
import { defineArea } from '../stack/area.ts';
import { checkoutRoutes } from './routes.ts';

export const checkoutArea = defineArea({
  name: 'checkout',
  description: 'The hosted checkout pages where cardholders pay, with 3-D Secure.',
  routes: checkoutRoutes,
});
