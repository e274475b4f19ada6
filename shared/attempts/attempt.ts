/**
 * A money movement's attempt (docs/design.md#attempts): every call to the acquirer that may move
 * money (a checkout's charge or card check, a renewal or trial end, the legacy charge, a refund, a
 * payout) is first stored as an attempt, and the acquirer knows the call by the attempt's key. So a
 * retry, a second billing run or a recovery asks the acquirer again under the same key, never a new
 * one, and an approval is recorded exactly once: the write that records it is conditioned on the
 * attempt still being open.
 *
 *   pending ──► succeeded | declined | failed      (final)
 *      │ ▲
 *      ▼ │
 *   challenge (a checkout waiting for the cardholder's 3-D Secure answer)
 *
 * An attempt that is not final carries `recover_at`: when the call that made it can no longer be
 * running, or at once when it ended without an answer. Recovery then asks the acquirer by key and
 * finishes it (recovery.ts). A definite failure (declined, failed) may run again under the same
 * attempt with a new try, and so a new key (`<id>.2`): the acquirer answers an old key as before.
 */
import type { ConnectorName, DeclineReason, LookupHints } from '../acquirer/acquirer.ts';
import type { Mode, Scope } from '../core/account.ts';
import { derivedId, prefixedId } from '../core/ids.ts';

export const attemptKinds = ['checkout', 'renewal', 'change', 'legacy', 'refund', 'payout'] as const;
export type AttemptKind = (typeof attemptKinds)[number];

export type AttemptStatus = 'pending' | 'challenge' | 'succeeded' | 'declined' | 'failed';
export const finalStatuses: readonly AttemptStatus[] = ['succeeded', 'declined', 'failed'];

/** What each kind of attempt moves money for: enough for recovery to finish it alone. */
export interface AttemptSubjects {
  /** A hosted checkout's submit (payments, subscriptions, payment links): its session. */
  checkout: { token: string };
  /**
   * A subscription's renewal or trial end: the period it pays, and the time the billing run billed
   * it at (its own clock, which `billing run --now` sets): its charge is dated then, whoever records
   * it. Absent on attempts stored before it was kept.
   */
  renewal: {
    subscription_id: string;
    period: number;
    billed_at?: string;
    /** The card the try charges (its token, never card data): a lookup of a Stripe card reads its customer's payments. */
    card_token?: string;
    /** Which counting of periods `period` is in (the subscription's anchor generation); absent: 0. */
    generation?: number;
    /** The period's dates, as the renewal charges it (absent on attempts stored before they were kept). */
    starts_at?: string;
    ends_at?: string;
    /**
     * The pending change this renewal charges and applies (the plan and quantity from this period
     * on); absent: the subscription's own plan and quantity.
     */
    change?: {
      plan_id: string;
      plan: {
        name: string;
        amount: number;
        currency: string;
        interval: 'month' | 'year';
        interval_count: number;
      };
      quantity: number;
    };
  };
  /**
   * A subscription's change of plan or quantity applied at once, its prorated difference charged
   * on the saved card: what it changes from and to, in which period, and what else the request
   * asked (applied with it, or not at all). The approval applies it only while the subscription is
   * still active, in that period, on the plan and quantity it changes from; otherwise the charge is
   * recorded and refunded at once.
   */
  change: {
    subscription_id: string;
    /** The period it prorates (its index counted from the anchor of generation `generation`). */
    period: number;
    generation: number;
    from: { plan_id: string; quantity: number; amount: number };
    to: {
      plan_id: string;
      plan: {
        name: string;
        amount: number;
        currency: string;
        interval: 'month' | 'year';
        interval_count: number;
      };
      quantity: number;
    };
    also: { cancel_at_period_end?: boolean; metadata?: Record<string, unknown> | null };
    card_token?: string;
  };
  /** The legacy direct charge: the charge it records when approved. */
  legacy: { charge_id: string; description: string | null; statement_description: string };
  /** A refund of a charge (asked for, or made at once for an approval whose purpose is gone). */
  refund: { charge_id: string; acquirer_reference: string; refund_id: string; reason: string };
  /** A charge paid out to the merchant: when, and when it was due (undone, it is due again). */
  payout: { charge_id: string; acquirer_reference: string; paid_out_at: string; due_at: string };
}

/** What came of an attempt. */
export interface AttemptOutcome {
  /** The acquirer's reference (a charge's, a refund's, a payout's). */
  reference?: string;
  /** The charge an approval recorded. */
  charge_id?: string;
  /** The refund a succeeded refund recorded. */
  refund_id?: string;
  decline_reason?: DeclineReason;
  /** Why it failed or what recovery found, for an operator. */
  note?: string;
}

export interface Attempt<K extends AttemptKind = AttemptKind> {
  id: string;
  kind: K;
  /**
   * The account and mode. A checkout's attempt is stored beside its session's claim, before the
   * session is read, so these (and amount, currency) are null until it is finished.
   */
  developer_id: number | null;
  mode: Mode | null;
  amount: number | null;
  currency: string | null;
  /** The key the acquirer knows the current try by: the id, then `<id>.2`, `<id>.3`… */
  acquirer_key: string;
  /**
   * The connector asked (docs/design.md#connectors): recovery and reconciliation ask it again, whatever
   * the mode is connected to by then. Absent: the simulated acquirer (every attempt made before
   * connectors existed was its).
   */
  connector?: ConnectorName;
  /** For a connector of several accounts (Stripe): the account asked, when it was known. */
  connector_account?: string;
  tries: number;
  /** When the current try was started (absent on attempts stored before it was kept: created_at). */
  tried_at?: string;
  status: AttemptStatus;
  subject: AttemptSubjects[K];
  /** The payer as typed at checkout, so recovery can record an approval for them; null elsewhere. */
  cardholder: { email: string; name: string } | null;
  outcome: AttemptOutcome | null;
  /** The call ended without an answer (a time-out, the acquirer unreachable): recovery's to finish. */
  unconfirmed: boolean;
  /** When recovery may take it; null once final. */
  recover_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * How long a call under an attempt may still be running: longer than any function that makes one
 * runs with its acquirer call. Recovery leaves a pending attempt alone until then.
 */
export const callLeaseMs = 60_000;

/** How long a checkout may wait for the cardholder's 3-D Secure answer before recovery abandons it. */
export const challengeWindowMs = 30 * 60_000;

/** The acquirer's key of a try: the id for the first, `<id>.<try>` after. */
export const acquirerKeyOf = (id: string, tries: number) => (tries <= 1 ? id : `${id}.${tries}`);

/** What a lookup of an attempt's call tells its connector: whose call it was, and which connector took it. */
export function lookupHintsOf(attempt: Attempt): LookupHints {
  const subject = attempt.subject as { card_token?: string; acquirer_reference?: string };
  return {
    ...(attempt.developer_id !== null ? { merchant: attempt.developer_id } : {}),
    ...(attempt.connector ? { connector: attempt.connector } : {}),
    ...(attempt.connector_account ? { connectorAccount: attempt.connector_account } : {}),
    ...(subject.card_token ? { cardToken: subject.card_token } : {}),
    ...(attempt.kind === 'refund' && subject.acquirer_reference
      ? { chargeReference: subject.acquirer_reference }
      : {}),
    madeAt: attempt.tried_at ?? attempt.created_at,
  };
}

/** The attempt id an acquirer key belongs to (reconciliation maps the acquirer's books back with it). */
export const attemptIdOfKey = (key: string) => key.replace(/\.\d+$/, '');

export const newAttemptId = () => prefixedId('att');

/**
 * The attempt an `Idempotency-Key` is bound to: derived from the key, so a retry of a request
 * that ended without a definite outcome finds the same attempt and never asks the acquirer anew.
 */
export const idempotentAttemptId = (kind: AttemptKind, scope: Scope, idempotencyKey: string) =>
  derivedId('att', [kind, scope.developerId, scope.mode, idempotencyKey]);

/** A new pending attempt, its first try under its own id as key. */
export function newAttempt<K extends AttemptKind>(input: {
  id: string;
  kind: K;
  subject: AttemptSubjects[K];
  owner: { developerId: number; mode: Mode; amount: number; currency: string } | null;
  cardholder?: { email: string; name: string } | null;
  connector?: ConnectorName;
  connectorAccount?: string;
  now: Date;
}): Attempt<K> {
  const at = input.now.toISOString();
  return {
    id: input.id,
    kind: input.kind,
    developer_id: input.owner?.developerId ?? null,
    mode: input.owner?.mode ?? null,
    amount: input.owner?.amount ?? null,
    currency: input.owner?.currency ?? null,
    acquirer_key: acquirerKeyOf(input.id, 1),
    ...(input.connector && input.connector !== 'simulated' ? { connector: input.connector } : {}),
    ...(input.connectorAccount ? { connector_account: input.connectorAccount } : {}),
    tries: 1,
    tried_at: at,
    status: 'pending',
    subject: input.subject,
    cardholder: input.cardholder ?? null,
    outcome: null,
    unconfirmed: false,
    recover_at: new Date(input.now.getTime() + callLeaseMs).toISOString(),
    created_at: at,
    updated_at: at,
  };
}

export const isFinal = (attempt: Pick<Attempt, 'status'>) => finalStatuses.includes(attempt.status);

/** Whether the call that made a pending attempt may still be running (recovery must wait). */
export const mayBeRunning = (attempt: Pick<Attempt, 'status' | 'recover_at'>, now: Date) =>
  !isFinal(attempt) && attempt.recover_at !== null && Date.parse(attempt.recover_at) > now.getTime();
