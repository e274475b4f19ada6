/**
 * The checkout's one extension point: every kind of session (a payment, a subscription, a payment
 * link) has an owner, the area the session collects for, which says what an approval or a decline
 * writes beside the session, in the same transaction. Checkout knows nothing of subscriptions or
 * links: their areas (above it) register their owners, and the functions that serve the pages (and
 * recovery) pass them all in.
 */
import type { CardSummary, DeclineReason } from '../acquirer/acquirer.ts';
import type { Attempt } from '../attempts/attempt.ts';
import type { Charge, ChargeSource } from '../charges/charge.ts';
import type { TransactItem } from '../db/transact.ts';
import type { RefundReason } from '../refunds/schemas.ts';
import type { CheckoutSession } from './session.ts';

/** An approved checkout, as its owner sees it. */
export interface Approval {
  session: CheckoutSession;
  attempt: Attempt<'checkout'>;
  /** The charge it makes; null when only the card was checked (a subscription's trial). */
  charge: Charge | null;
  customer: { id: string; email: string };
  card: CardSummary;
  /** The acquirer's token of the card, for later charges without the cardholder (renewals). */
  cardToken: string;
  now: Date;
}

/** What the page answers once an approval is recorded. */
export type PaidAnswer = { kind: 'redirect'; location: string } | { kind: 'receipt' };

/**
 * What an owner makes of an approval:
 * - `apply`: `items` go in the approval's transaction; a condition failing there means the owner's
 *   record changed since it was read, and the owner is asked again. `optional` items may be left
 *   out when their own condition fails (a plan deleted meanwhile).
 * - `gone`: what it pays for went away while the acquirer charged (canceled, deleted): the charge is
 *   still recorded, and refunded in full at once with `reason` (docs/design.md#late-approvals).
 */
export type Owned =
  | { kind: 'apply'; items: TransactItem[]; optional?: TransactItem[] }
  | { kind: 'gone'; reason: RefundReason };

export interface SessionOwner {
  /** What the charge of this session pays for. */
  chargeOf(session: CheckoutSession): {
    source: ChargeSource;
    paymentId?: string | null;
    subscriptionId?: string | null;
    paymentLinkId?: string | null;
  };
  /** Whether an approval only checks the card (charges nothing). @default never */
  checksOnly?(session: CheckoutSession): boolean;
  approved(approval: Approval): Promise<Owned>;
  /** What the page answers once the session is paid (a redirect to the merchant, or a receipt). */
  answerOf(session: CheckoutSession): PaidAnswer;
  /**
   * What follows an approval once it is recorded (not when it was voided), in the same request: a
   * replaced card charges what is overdue on it. It must be safe to run twice (the submit and
   * recovery may both record one approval's outcome, once each, but either may stop before it),
   * and a failure of it leaves the approval recorded. @default nothing
   */
  afterApproval?(session: CheckoutSession): Promise<void>;
  /** What a decline writes beside the session (an event, a log entry). */
  declined(session: CheckoutSession, reason: DeclineReason, now: Date): Promise<TransactItem[]>;
}

/** Every kind of session's owner. */
export type SessionOwners = Readonly<Record<CheckoutSession['kind'], SessionOwner>>;
