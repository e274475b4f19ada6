/**
 * What an area declares for the stack, in its own `area.ts`: its route rows, the events it
 * publishes, the event rules and schedules that run its functions. `shared/api/areas.ts` lists every
 * area once, lowest layer first, and the route table, the event catalogue, the rules, the schedules,
 * the OpenAPI document and the dependency rules' layer order are all read from that list; the CDK
 * app and the local stack build from what is assembled there. Types only: no area, no schema, and
 * nothing the HTTP adapter runs (a route row's type is the adapter's, shared/http/route.ts).
 */
import type { Access, Route } from '../http/route.ts';

/** An EventBridge rule: the events it matches and the function it sends them to. */
export interface EventRule {
  /** Rule name, unique, kebab-case. */
  name: string;
  /** The `source` it matches. @default eventSource (`cobro`) */
  source?: string;
  /** EventBridge `detail-type` values the rule matches. */
  detailTypes: readonly string[];
  /** Target handler module, relative to the project root; it exports `handler`. */
  target: string;
  access: Access;
}

/** A step the deployed stack runs on a schedule (the CLI runs the same step on demand). */
export interface Schedule {
  name: string;
  /** An EventBridge schedule expression. */
  expression: string;
  target: string;
  access: Access;
  /** How often the local stack runs it (ms); unset: only on demand (the CLI). @default never */
  localEveryMs?: number;
}

/** An event type an area publishes, with the one line that documents its webhook. */
export interface PublishedEvent<Event> {
  event: Event;
  summary: string;
}

/**
 * Rows that name every event type of the catalogue (the webhooks area's): the catalogue is
 * assembled above the area, so it is handed in.
 */
export type OfEventTypes<Row> = readonly Row[] | ((eventTypes: readonly string[]) => readonly Row[]);

export interface Area<Event> {
  /** Its folder under shared/ (and functions/); the OpenAPI document tags its operations and webhooks with it. */
  name: string;
  /** One sentence on what it is: the description of its tag in the OpenAPI document. */
  description: string;
  /** Its route rows, in the order they are matched and documented. @default none */
  routes?: OfEventTypes<Route>;
  /** The event types it publishes, in the catalogue's order. @default none */
  events?: readonly PublishedEvent<Event>[];
  /** Rules that send events (its own or a lower area's) to its functions. @default none */
  eventRules?: OfEventTypes<EventRule>;
  /** Steps of its own the deployed stack runs on a schedule. @default none */
  schedules?: readonly Schedule[];
}

/** An area's descriptor, typed; the event type is the events port's, which this layer cannot name. */
export const defineArea = <Event = never>(area: Area<Event>): Area<Event> => area;
