/**
 * Business metrics in CloudWatch's embedded metric format, through Powertools Metrics: namespace
 * `cobro`, dimensions `service` (always `cobro`), `stage` (COBRO_STAGE; `local` when unset) and,
 * for a fact about one account's records, `mode` (`test` or `live`). A run of a schedule reports
 * its summary without `mode`: a run covers both.
 *
 * Each fact is counted once, where it is settled: after the write that records it, never per try.
 * Values are kept in memory and written as one JSON line per set when the invocation ends
 * (./invocation.ts), or sooner when a set fills up; CloudWatch turns the lines into metrics.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Mode } from './account.ts';
import { envNames } from './config.ts';

/** Every metric cobro emits, with what it counts (docs/operations.md lists them for operators). */
export const metricNames = {
  /** Payments and legacy charges approved. */
  chargesApproved: 'ChargesApproved',
  /** Payments the acquirer declined. */
  chargesDeclined: 'ChargesDeclined',
  refunds: 'Refunds',
  /** Subscription periods renewed and paid. */
  renewals: 'Renewals',
  /** Renewals that failed and will be tried again. */
  dunningRetries: 'DunningRetries',
  /** Subscriptions ended because their renewals kept failing. */
  dunningCancellations: 'DunningCancellations',
  /** Webhook attempts the endpoint took (2xx). */
  webhookDeliveries: 'WebhookDeliveries',
  /** Webhook attempts that failed (any other answer, or none). */
  webhookFailures: 'WebhookFailures',
  /** Webhook deliveries given up after their last attempt. */
  webhookDeadLetters: 'WebhookDeadLetters',
  /** Money movements of unknown outcome that recovery finished (approved, declined or failed). */
  attemptsRecovered: 'AttemptsRecovered',
  /** Recovery could not finish an attempt this run (it is taken again later). */
  recoveryErrors: 'RecoveryErrors',
  /**
   * Events a connector posted that cobro refused (400): a signature that does not verify, or an
   * account with no connection to take them. Stripe retries each for days, then disables the
   * endpoint: a steady count means a wrong signing secret, and payments left waiting on them.
   */
  connectorEventsRefused: 'ConnectorEventsRefused',
  /** Records on which the acquirer's books and cobro's disagree. */
  reconciliationMismatches: 'ReconciliationMismatches',
  /**
   * A billing run: subscriptions and recurring links due, subscriptions renewed, renewals whose
   * payment failed, subscriptions canceled, and steps (of either) that threw.
   */
  billingDue: 'BillingDue',
  billingRenewed: 'BillingRenewed',
  billingPaymentFailed: 'BillingPaymentFailed',
  billingCanceled: 'BillingCanceled',
  billingFailures: 'BillingFailures',
  /** A payout run: charges paid out, refused by the acquirer, left unconfirmed. */
  payoutsPaidOut: 'PayoutsPaidOut',
  payoutsRefused: 'PayoutsRefused',
  payoutsUnconfirmed: 'PayoutsUnconfirmed',
} as const;

export type MetricName = (typeof metricNames)[keyof typeof metricNames];

export const metricsNamespace = 'cobro';

const stage = () => process.env[envNames.stage] || 'local';

const sets = new Map<string, Metrics>();

/** The set of one combination of dimensions, made on first use. */
function setOf(mode: Mode | undefined): Metrics {
  const key = mode ?? '';
  let set = sets.get(key);
  if (!set) {
    set = new Metrics({
      namespace: metricsNamespace,
      serviceName: 'cobro',
      defaultDimensions: { stage: stage(), ...(mode ? { mode } : {}) },
    });
    sets.set(key, set);
  }
  return set;
}

/** Counts `value` (1 unless said) of a fact about records in `mode`. Zero counts nothing. */
export function countFact(name: MetricName, mode: Mode, value = 1): void {
  if (value > 0) setOf(mode).addMetric(name, MetricUnit.Count, value);
}

/** Counts a run's summary figure (both modes together); zeros are written too, so a run is seen. */
export function countRun(name: MetricName, value: number): void {
  setOf(undefined).addMetric(name, MetricUnit.Count, value);
}

/** Writes every value kept so far (at the end of each invocation). */
export function publishMetrics(): void {
  for (const set of sets.values()) if (set.hasStoredMetrics()) set.publishStoredMetrics();
}
