/**
 * The event catalogue: every event type cobro publishes, with the schema of its `data`, as the
 * areas declare them (shared/api/areas.ts). Publishers and consumers use the areas' definitions;
 * this list is for what needs them all (the event rules, the webhook endpoints' event types, the
 * OpenAPI document's webhooks).
 */
import type { EventType } from '../events/event.ts';
import { publishedEvents } from './areas.ts';

export const eventCatalogue: readonly EventType<unknown>[] = publishedEvents.map(({ event }) => event);
