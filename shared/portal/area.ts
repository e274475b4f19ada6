/**
 * The customer portal for the stack: the link's route, the page's and the card replacement's event.
 * (The failed-renewal notice that links to the portal goes out with the subscription e-mails, from
 * the subscriptions area's e-mail rule: one rule, one dead-letter queue and one alarm fewer.)
 */
import { defineArea } from '../stack/area.ts';
import { subscriptionCardUpdated } from './events.ts';
import { portalRoutes } from './routes.ts';

export const portalArea = defineArea({
  name: 'portal',
  description:
    'The hosted customer portal: a customer sees their subscriptions and payments, cancels a subscription (at the period’s end, or at once) or resumes one set to end, and replaces its card.',
  routes: portalRoutes,
  events: [
    {
      event: subscriptionCardUpdated,
      summary: 'A subscriber replaced the card a subscription is charged to.',
    },
  ],
});
