/**
 * The stats area for the stack: the counters behind the dashboard's overview, kept as the events
 * happen by one event rule (docs/design.md#dashboard-overview-counters), read by `overview()`.
 */
import { internalEventSource } from '../events/event.ts';
import { defineArea } from '../stack/area.ts';
import { countedEventTypes, countedInternalTypes } from './count.ts';

export const statsArea = defineArea({
  name: 'stats',
  description: "Counters of an account's charges, refunds, declines and subscriptions, for its dashboard.",
  eventRules: [
    {
      // Every event the overview counts: approved charges, refunds, declines, failed renewals, and
      // subscriptions activated and canceled. Counted once each, whatever the bus repeats.
      name: 'stats-count',
      detailTypes: countedEventTypes,
      target: 'functions/dashboard/count-events.ts',
      access: { table: { actions: ['GetItem', 'PutItem', 'UpdateItem'] } },
    },
    {
      // Declines at a subscription's or a payment link's checkout: internal events, to the same function.
      name: 'stats-count-internal',
      source: internalEventSource,
      detailTypes: countedInternalTypes,
      target: 'functions/dashboard/count-events.ts',
      access: { table: { actions: ['GetItem', 'PutItem', 'UpdateItem'] } },
    },
  ],
});
