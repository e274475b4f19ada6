/** The merchant dashboard for the stack: its pages' routes (it publishes no event of its own). */
import { defineArea } from '../http/area.ts';
import { dashboardRoutes } from './routes.ts';

export const dashboardArea = defineArea({
  name: 'dashboard',
  description:
    'The merchant dashboard: pages under /dashboard/ where a merchant signed in with a secret key sees and refunds charges, through the same code as the API.',
  routes: dashboardRoutes,
});
