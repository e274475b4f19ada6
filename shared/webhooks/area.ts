/**
 * The webhooks area for the stack: endpoints and the events API, the fan-out that takes every event
 * of the catalogue, the delivery of each task and the retry sweep. Its routes and its fan-out name
 * every event type, which the catalogue above it hands in.
 */
import { triggeredEventSource } from '../events/event.ts';
import { defineArea } from '../stack/area.ts';
import { webhooksRoutes } from './routes.ts';
import { taskDue } from './task-due.ts';

const fanOutAccess = {
  table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'], indexes: ['gsi1'] },
} as const;

export const webhooksArea = defineArea({
  name: 'webhooks',
  description: 'Webhook endpoints, their deliveries, and the events API.',
  routes: webhooksRoutes,
  eventRules: (eventTypes) => [
    {
      name: 'webhooks-fan-out',
      detailTypes: eventTypes,
      target: 'functions/webhooks/fan-out-event.ts',
      access: fanOutAccess,
    },
    {
      // Test events sent on purpose (`cobro trigger`): the same fan-out, and no other consumer.
      name: 'webhooks-fan-out-triggered',
      source: triggeredEventSource,
      detailTypes: eventTypes,
      target: 'functions/webhooks/fan-out-event.ts',
      access: fanOutAccess,
    },
    {
      name: 'webhooks-deliver',
      source: taskDue.source,
      detailTypes: [taskDue.type],
      target: 'functions/webhooks/deliver-webhook.ts',
      access: {
        table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'] },
        webhookKey: true,
      },
    },
  ],
  schedules: [
    {
      // EventBridge's finest rate; a retry is due 5 s after a failure and runs at the next sweep.
      name: 'webhooks-retry',
      expression: 'rate(1 minute)',
      target: 'functions/webhooks/retry-due.ts',
      access: { table: { actions: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['gsi2'] }, events: true },
      localEveryMs: 1_000,
    },
  ],
});
