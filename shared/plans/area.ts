/** The plans area for the stack: its routes, the event of a deleted plan and the e-mail it sends. */
import { defineArea } from '../stack/area.ts';
import { planDeleted } from './events.ts';
import { plansRoutes } from './routes.ts';

export const plansArea = defineArea({
  name: 'plans',
  description: 'Recurring prices that subscriptions are made to.',
  routes: plansRoutes,
  events: [{ event: planDeleted, summary: 'A plan was deleted: the plan as it was, and its owner.' }],
  eventRules: [
    {
      name: 'plan-deleted-email',
      detailTypes: [planDeleted.type],
      target: 'functions/plans/notify-plan-deleted.ts',
      access: { table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] }, mail: true },
    },
  ],
});
