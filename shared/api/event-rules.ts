/**
 * Event rules as data: which domain events go to which target function. The CDK app makes one
 * EventBridge rule per row; the local event bus delivers by the same rows.
 */
import { apiKeyRotated } from '../accounts/events.ts';
import { eventEntity, eventSource, internalEventSource } from '../events/event.ts';
import type { Access } from '../http/route.ts';
import { planDeleted } from '../plans/events.ts';
import {
  subscriptionActivated,
  subscriptionCanceled,
  subscriptionCancelRequested,
} from '../subscriptions/events.ts';
import { taskEntityTag } from '../webhooks/repository.ts';
import { taskDue } from '../webhooks/task-due.ts';
import { eventCatalogue } from './events.ts';

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

export const eventRules: readonly EventRule[] = [
  {
    name: 'api-key-rotated-email',
    detailTypes: [apiKeyRotated.type],
    target: 'functions/notifications/send-key-rotated-email.ts',
    // Writes the sent-once marker (shared/mail/once.ts).
    access: { table: 'write', mail: true },
  },
  {
    name: 'plan-deleted-email',
    detailTypes: [planDeleted.type],
    target: 'functions/plans/notify-plan-deleted.ts',
    access: { table: 'write', mail: true },
  },
  {
    name: 'plan-deleted-subscriptions',
    detailTypes: [planDeleted.type],
    target: 'functions/subscriptions/cancel-plan-subscriptions.ts',
    access: { table: 'write' },
  },
  {
    name: 'subscription-cancel',
    source: internalEventSource,
    detailTypes: [subscriptionCancelRequested.type],
    target: 'functions/subscriptions/cancel-requested-subscription.ts',
    access: { table: 'write' },
  },
  {
    name: 'subscription-email',
    detailTypes: [subscriptionActivated.type, subscriptionCanceled.type],
    target: 'functions/subscriptions/send-subscription-email.ts',
    access: { table: 'write', mail: true },
  },
  {
    name: 'webhooks-fan-out',
    detailTypes: eventCatalogue.map((type) => type.type),
    target: 'functions/webhooks/fan-out-event.ts',
    access: { table: 'write' },
  },
  {
    name: 'webhooks-deliver',
    source: taskDue.source,
    detailTypes: [taskDue.type],
    target: 'functions/webhooks/deliver-webhook.ts',
    access: { table: 'write', webhookKey: true },
  },
];

/**
 * The outbox relay: the function the table's stream feeds (shared/events/outbox.ts). The CDK app
 * maps it to the stream with the outbox filter; the local stack's stream reader invokes it.
 */
export const outboxRelay = {
  handler: 'functions/events/relay-events.ts',
  access: { events: true },
  /** New items of these entities leave through the stream: events, and webhook tasks to run. */
  entities: [eventEntity, taskEntityTag],
} as const satisfies { handler: string; access: Access; entities: readonly string[] };

/** The rules an event with this source and detail-type matches. */
export function rulesFor(source: string, detailType: string): EventRule[] {
  return eventRules.filter(
    (rule) => (rule.source ?? eventSource) === source && rule.detailTypes.includes(detailType),
  );
}

/** A step the deployed stack runs on a schedule (the CLI runs the same step on demand, D2). */
export interface Schedule {
  name: string;
  /** An EventBridge schedule expression. */
  expression: string;
  target: string;
  access: Access;
  /** How often the local stack runs it (ms); unset: only on demand (the CLI). @default never */
  localEveryMs?: number;
}

export const schedules: readonly Schedule[] = [
  {
    name: 'payouts-run',
    expression: 'rate(1 hour)',
    target: 'functions/payouts/run-payouts.ts',
    access: { table: 'write' },
  },
  {
    // EventBridge's finest rate; a retry is due 5 s after a failure and runs at the next sweep.
    name: 'webhooks-retry',
    expression: 'rate(1 minute)',
    target: 'functions/webhooks/retry-due.ts',
    access: { table: 'read', events: true },
    localEveryMs: 1_000,
  },
  {
    // D15: finishes the money movements whose outcome is unknown (at least every 5 minutes).
    name: 'attempts-recovery',
    expression: 'rate(1 minute)',
    target: 'functions/ledger/recover-attempts.ts',
    access: { table: 'write' },
    localEveryMs: 2_000,
  },
  {
    // D15: the acquirer's books against cobro's, daily; mismatches are logged as errors.
    name: 'ledger-reconcile',
    expression: 'rate(1 day)',
    target: 'functions/ledger/reconcile-ledger.ts',
    access: { table: 'write' },
  },
  {
    // D2: the same step as `billing run`; a run does only what is due, so a missed one is caught up.
    name: 'billing-run',
    expression: 'rate(15 minutes)',
    target: 'functions/subscriptions/run-billing.ts',
    access: { table: 'write' },
  },
];
