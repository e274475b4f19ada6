/**
 * The merchant dashboard for the stack: its pages' routes (it publishes no event of its own), all
 * served by one function routed inside (`dashboardFunction`, common-routes.ts). Some pages offer
 * the event catalogue's types, which the list of areas hands in.
 */
import { defineArea } from '../stack/area.ts';
import { catalogRoutes } from './catalog-routes.ts';
import type { DashboardRoute } from './common-routes.ts';
import { customerRoutes } from './customers-routes.ts';
import { profileRoutes } from './profile-routes.ts';
import { dashboardRoutes } from './routes.ts';
import { teamRoutes } from './team-routes.ts';
import { webhookDashboardRoutes } from './webhooks-routes.ts';

export { dashboardFunction } from './common-routes.ts';

/** Every row of the dashboard: the route table's, and the dashboard function's own table. */
export const dashboardRows = (eventTypes: readonly string[]): readonly DashboardRoute[] => [
  ...dashboardRoutes,
  ...customerRoutes,
  ...catalogRoutes,
  ...webhookDashboardRoutes(eventTypes),
  ...profileRoutes,
  ...teamRoutes,
];

export const dashboardArea = defineArea({
  name: 'dashboard',
  description:
    'The merchant dashboard: pages under /dashboard/ where the account’s team (users with roles, signed in with e-mail, password and an optional TOTP second factor) sees and refunds charges, finds customers and makes their portal links, cancels subscriptions (at once, or at the period’s end until resumed), keeps plans, products and payment links, manages webhook endpoints and their deliveries, reads events and rotates API keys, manages users, connectors and reads the audit log, through the same code as the API.',
  routes: dashboardRows,
});
