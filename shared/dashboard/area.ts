/**
 * The merchant dashboard for the stack: its pages' routes (it publishes no event of its own). Some
 * pages offer the event catalogue's types, which the list of areas hands in.
 */
import { defineArea } from '../stack/area.ts';
import { catalogRoutes } from './catalog-routes.ts';
import { customerRoutes } from './customers-routes.ts';
import { dashboardRoutes } from './routes.ts';
import { webhookDashboardRoutes } from './webhooks-routes.ts';

export const dashboardArea = defineArea({
  name: 'dashboard',
  description:
    'The merchant dashboard: pages under /dashboard/ where a merchant signed in with a secret key sees and refunds charges, finds customers and makes their portal links, cancels subscriptions, keeps plans, products and payment links, manages webhook endpoints and their deliveries, reads events and rotates API keys, through the same code as the API.',
  routes: (eventTypes) => [
    ...dashboardRoutes,
    ...customerRoutes,
    ...catalogRoutes,
    ...webhookDashboardRoutes(eventTypes),
  ],
});
