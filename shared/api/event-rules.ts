/**
 * Event rules as data: which domain events go to which target function. The CDK app makes one
 * EventBridge rule per row; the local event bus delivers by the same rows.
 */
import { apiKeyRotated } from '../accounts/events.ts';
import { eventSource } from '../events/event.ts';
import type { Access } from '../http/route.ts';
import { planDeleted } from '../plans/events.ts';

export interface EventRule {
  /** Rule name, unique, kebab-case. */
  name: string;
  /** EventBridge `detail-type` values the rule matches. */
  detailTypes: readonly string[];
  /** Target handler module, relative to the project root; it exports `handler`. */
  target: string;
  access: Access;
}

export const eventRules: readonly EventRule[] = [
  {
    name: 'api-key-rotated-email',
    detailTypes: [apiKeyRotated.type],
    target: 'functions/notifications/send-key-rotated-email.ts',
    access: { table: 'read', mail: true },
  },
  {
    name: 'plan-deleted-email',
    detailTypes: [planDeleted.type],
    target: 'functions/plans/notify-plan-deleted.ts',
    access: { mail: true },
  },
];

/** The rules an event with this source and detail-type matches. */
export function rulesFor(source: string, detailType: string): EventRule[] {
  if (source !== eventSource) return [];
  return eventRules.filter((rule) => rule.detailTypes.includes(detailType));
}

/** A step the deployed stack runs on a schedule (the CLI runs the same step on demand, D2). */
export interface Schedule {
  name: string;
  /** An EventBridge schedule expression. */
  expression: string;
  target: string;
  access: Access;
}

export const schedules: readonly Schedule[] = [
  {
    name: 'payouts-run',
    expression: 'rate(1 hour)',
    target: 'functions/payouts/run-payouts.ts',
    access: { table: 'write' },
  },
];
