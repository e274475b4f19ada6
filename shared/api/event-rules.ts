/**
 * Event rules and schedules as data, as the areas declare them (shared/api/areas.ts): which events
 * go to which target function, and which steps run on a schedule. The CDK app makes one EventBridge
 * rule per rule and one schedule per schedule; the local event bus delivers by the same rules, and
 * the local stack runs the schedules that say how often.
 */
import { eventSource } from '../events/event.ts';
import type { EventRule, Schedule } from '../stack/area.ts';
import { areas, rowsOfAreas } from './areas.ts';

export const eventRules: readonly EventRule[] = rowsOfAreas((area) => area.eventRules);

/** The rules an event with this source and detail-type matches. */
export function rulesFor(source: string, detailType: string): EventRule[] {
  return eventRules.filter(
    (rule) => (rule.source ?? eventSource) === source && rule.detailTypes.includes(detailType),
  );
}

export const schedules: readonly Schedule[] = areas.flatMap((area) => area.schedules ?? []);
