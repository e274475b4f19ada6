/**
 * The customer portal for the stack: the link's route, the page's, the card replacement's event, and
 * the failed-renewal notice that links to the portal.
 */
import { defineArea } from '../http/area.ts';
import { subscriptionPaymentFailed } from '../subscriptions/events.ts';
import { subscriptionCardUpdated } from './events.ts';
import { portalRoutes } from './routes.ts';

export const portalArea = defineArea({
  name: 'portal',
  description:
    'The hosted customer portal: a customer sees their subscriptions and payments, cancels a subscription and replaces its card.',
  routes: portalRoutes,
  events: [
    {
      event: subscriptionCardUpdated,
      summary: 'A subscriber replaced the card a subscription is charged to.',
    },
  ],
  eventRules: [
    {
      // A declined renewal with a retry ahead: the customer is told, with a link to replace the card.
      name: 'renewal-failed-email',
      detailTypes: [subscriptionPaymentFailed.type],
      target: 'functions/portal/send-renewal-failed-email.ts',
      access: {
        table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'DeleteItem'] },
        mail: true,
        fingerprintSecret: true,
      },
    },
  ],
});
