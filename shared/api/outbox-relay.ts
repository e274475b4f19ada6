/**
 * The outbox relay: the function the table's stream feeds (shared/events/outbox.ts). The CDK app
 * maps it to the stream with the outbox filter; the local stack's stream reader invokes it. Apart
 * from the areas' list, so the relay bundles no route, schema or rule.
 */
import { eventEntity } from '../events/event.ts';
import type { Access } from '../http/route.ts';
import { taskEntityTag } from '../webhooks/repository.ts';

export const outboxRelay = {
  handler: 'functions/events/relay-events.ts',
  access: { events: true },
  /** New items of these entities leave through the stream: events, and webhook tasks to run. */
  entities: [eventEntity, taskEntityTag],
} as const satisfies { handler: string; access: Access; entities: readonly string[] };
