/**
 * A hosted checkout session (docs/design.md#checkout): what the page shows, and the state that makes
 * it single-use. `open` takes a submit; a submit first claims the session for its attempt
 * (`charging`, holding `attempt_id`, shared/attempts) before it asks the acquirer, so a double submit
 * charges once. The claim holds until the attempt's outcome is recorded: by the submit, or by
 * recovery when the call ended without an answer (`confirming`); it never lapses into a second
 * charge. `paid` is final, and so is `voided` (approved, but what it paid for went away meanwhile:
 * any charge was refunded). Five declines lock it and 24 hours expire it.
 */
import type { Mode } from '../core/account.ts';
import { randomToken } from '../core/ids.ts';
import type { Metadata } from '../core/metadata.ts';
import { checkoutTokenLength, type Payment } from '../payments/payment.ts';

/** How long a checkout session can be paid; after it the page answers 410. */
export const checkoutLifetimeHours = 24;
/** Declines after which a session locks (423). */
export const maxDeclines = 5;

/** How long a submit may still be waiting for the acquirer: after it, the page says "being confirmed". */
export const claimMs = 60_000;
/** Sessions stay readable this long after they expire, so an old link says "expired" rather than 404. */
const keepDays = 7;

/**
 * A session's page URL under the stage's public base URL (shared/http/base-url.ts). A rule of the
 * checkout, not of its HTTP adapter: the payment-link API shows it too.
 */
export const pageUrl = (baseUrl: string, token: string) => `${baseUrl}/checkout/${token}`;

/** A recurring charge's period: `interval_count` `interval`s (a plan's, or a month for a link). */
export interface SessionRecurrence {
  interval: string;
  interval_count: number;
}

export type SessionStatus = 'open' | 'charging' | 'confirming' | 'paid' | 'voided';

export interface PendingChallenge {
  /** The acquirer's self-contained challenge reference (a Stripe Checkout Session's id). */
  id: string;
  /**
   * The acquirer's own page the payer pays on (a mode connected to Stripe: its Checkout Session's
   * URL); absent for cobro's simulated 3-D Secure challenge.
   */
  url?: string;
  /** The acquirer account that page belongs to (Stripe's `acct_…`): where its outcome is read. */
  account?: string;
  email: string;
  holder_name: string;
}

export interface CheckoutSession {
  token: string;
  developer_id: number;
  mode: Mode;
  /**
   * A payment's checkout, a subscription's (the first charge, or a card check for a trial), a
   * payment link's page (paid once, or once per period for a recurring link), or a subscriber's new
   * card (`card`: a card check from the customer portal whose approval replaces the card renewals
   * charge).
   */
  kind: 'payment' | 'subscription' | 'link' | 'card';
  /** The payment collected; empty for a subscription's session. */
  payment_id: string;
  /** The subscription started; null for a payment's session. */
  subscription_id?: string | null;
  /** A subscription's trial: days before the first charge (0: charged at checkout). */
  trial_days?: number;
  /**
   * How often `amount` is charged again, for a subscription's page and a recurring link's (the page
   * says so); null or absent for a one-off payment.
   */
  recurrence?: SessionRecurrence | null;
  /**
   * A card page opened from the customer portal: the portal page's token sealed (the table never
   * holds it in clear; opened only to link back to that page), until when that link opens the
   * portal, and whether the subscription was past due when the page was made. Absent for others.
   */
  from_portal?: PortalReturn | null;
  /** The payment link this page collects for; absent for other kinds. */
  link_id?: string;
  amount: number;
  currency: string;
  description: string;
  items: string[];
  /** A payment's metadata, which its events carry (they are made from the session); absent otherwise. */
  metadata?: Metadata | null;
  merchant_name: string;
  statement_descriptor: string;
  return_url: string;
  customer_email: string | null;
  status: SessionStatus;
  declines: number;
  csrf: string;
  /** The attempt that holds the session (charging, confirming, or waiting for its challenge). */
  attempt_id?: string | null;
  charging_until: number | null;
  challenge: PendingChallenge | null;
  /** Why a voided session's approval was given back (a refund reason). */
  voided_reason?: string | null;
  /** The charge that paid it (or was refunded when voided); null before. */
  charge_id?: string | null;
  last_decline: string | null;
  expires_at_ms: number;
  /** DynamoDB TTL, epoch seconds. */
  expires_at: number;
  created_at: string;
  updated_at: string;
}

/** Where a card page opened from the customer portal leads back to, sealed. */
export interface PortalReturn {
  /** The portal page's token, sealed by its owner (the portal); never the token itself. */
  sealed_token: string;
  /** When that portal link stops opening the page (epoch ms): no link back after it. */
  until_ms: number;
  /** The subscription owed its unpaid period when the card page was made. */
  was_past_due: boolean;
}

/** What a page may say about a session at a moment. */
export type SessionState = 'open' | 'busy' | 'confirming' | 'paid' | 'voided' | 'locked' | 'expired';

/** Whether an attempt holds the session (a submit is charging, or its outcome is being confirmed). */
export const isHeld = (session: Pick<CheckoutSession, 'status'>) =>
  session.status === 'charging' || session.status === 'confirming';

export function sessionState(session: CheckoutSession, now: Date): SessionState {
  if (session.status === 'paid') return 'paid';
  if (session.status === 'voided') return 'voided';
  // Held until its attempt is recorded, expired or not: the payer is never asked to pay again.
  const running = session.status === 'charging' && (session.charging_until ?? 0) > now.getTime();
  // A claim from before claims had attempts (no attempt_id) lapses as it always did.
  if (isHeld(session) && (running || session.attempt_id !== undefined))
    return running ? 'busy' : 'confirming';
  if (session.declines >= maxDeclines) return 'locked';
  if (now.getTime() >= session.expires_at_ms) return 'expired';
  return 'open';
}

/**
 * A payment link's page never expires by itself: the link decides when it can be paid (its status,
 * `active`), and closes or reopens the page with it (shared/payment-links).
 */
const linkOpenUntilMs = Date.UTC(9999, 11, 31);

/** A session's CSRF token: this many letters and digits. */
export const csrfTokenLength = 32;

/** What every new session starts with: open, unclaimed, a CSRF token, 24 hours to pay. */
function freshState(now: Date, expires = now.getTime() + checkoutLifetimeHours * 3_600_000) {
  return {
    status: 'open' as const,
    declines: 0,
    csrf: randomToken(csrfTokenLength),
    attempt_id: null,
    charging_until: null,
    challenge: null,
    last_decline: null,
    expires_at_ms: expires,
    expires_at: Math.floor(expires / 1000) + keepDays * 86_400,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
}

/** The session that collects a new payment. */
export function newSession(
  payment: Payment,
  merchant: { name: string; statementDescriptor: string },
  now: Date,
): CheckoutSession {
  return {
    token: payment.checkout_token,
    developer_id: payment.developer_id,
    mode: payment.mode,
    kind: 'payment',
    payment_id: payment.id,
    amount: payment.amount,
    currency: payment.currency,
    description: payment.description,
    items: payment.items,
    metadata: payment.metadata ?? null,
    merchant_name: merchant.name,
    statement_descriptor: merchant.statementDescriptor,
    return_url: payment.return_url,
    customer_email: payment.customer_email,
    ...freshState(now),
  };
}

type Merchant = { name: string; statementDescriptor: string };
type Collected = { amount: number; currency: string; description: string; items: string[] };

/** What every session that collects for another record (a subscription, a payment link) has. */
function collecting(
  owner: { developer_id: number; mode: Mode },
  charge: Collected,
  merchant: Merchant,
  customerEmail: string | null,
  returnUrl: string,
) {
  return {
    token: randomToken(checkoutTokenLength),
    developer_id: owner.developer_id,
    mode: owner.mode,
    payment_id: '',
    ...charge,
    merchant_name: merchant.name,
    statement_descriptor: merchant.statementDescriptor,
    return_url: returnUrl,
    customer_email: customerEmail,
  };
}

/** The session that starts a subscription: the first period's amount, or a card check in a trial. */
export function newSubscriptionSession(
  subscription: {
    id: string;
    developer_id: number;
    mode: Mode;
    return_url: string;
    trial_days: number;
    recurrence: SessionRecurrence;
  },
  charge: Collected,
  merchant: Merchant,
  customerEmail: string | null,
  now: Date,
): CheckoutSession {
  return {
    ...collecting(subscription, charge, merchant, customerEmail, subscription.return_url),
    kind: 'subscription',
    subscription_id: subscription.id,
    trial_days: subscription.trial_days,
    recurrence: subscription.recurrence,
    ...freshState(now),
  };
}

/**
 * The page where a subscriber replaces the card of `subscription` (from the customer portal): a card
 * check of the card typed in, charging nothing itself, for the customer it was made for (the page
 * never asks for an e-mail). Once approved it answers with its own page, which then says the card
 * was saved. `amount` is each period's charge, shown as such.
 */
export function newCardSession(
  subscription: { id: string; developer_id: number; mode: Mode; recurrence: SessionRecurrence },
  charge: Collected,
  merchant: Merchant,
  customerEmail: string,
  baseUrl: string,
  now: Date,
  fromPortal: PortalReturn | null = null,
): CheckoutSession {
  const fields = collecting(subscription, charge, merchant, customerEmail, '');
  return {
    ...fields,
    return_url: pageUrl(baseUrl, fields.token),
    kind: 'card',
    subscription_id: subscription.id,
    from_portal: fromPortal,
    trial_days: 0,
    recurrence: subscription.recurrence,
    ...freshState(now),
  };
}

/** The page of a payment link: open until the link closes it; a paid one shows a receipt. */
export function newLinkSession(
  link: { id: string; developer_id: number; mode: Mode } & Omit<Collected, 'items'>,
  merchant: Merchant,
  customerEmail: string | null,
  now: Date,
): CheckoutSession {
  const { amount, currency, description } = link;
  return {
    ...collecting(link, { amount, currency, description, items: [] }, merchant, customerEmail, ''),
    kind: 'link',
    link_id: link.id,
    ...freshState(now, linkOpenUntilMs),
  };
}

/**
 * The fields that make a link's page payable again (its next period, or reopened by its owner):
 * those of a new session, open until the link closes it, keeping its creation time and TTL.
 */
export function reopenedFields(now: Date) {
  const { created_at, expires_at, ...fields } = freshState(now, linkOpenUntilMs);
  return fields;
}
