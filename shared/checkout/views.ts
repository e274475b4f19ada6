/** Which page a checkout session shows, and the words for declines and card problems. */

import type { DeclineReason } from '../acquirer/acquirer.ts';
import type { CardProblem } from '../acquirer/cards.ts';
import type { Charge } from '../charges/charge.ts';
import type { Lang } from '../core/messages.ts';
import {
  challengePage,
  closedPage,
  type Page,
  type PageSummary,
  type PayForm,
  payPage,
  receiptPage,
} from './pages.ts';
import { payFormLimits, type TypedField } from './schemas.ts';
import { type CheckoutSession, sessionState } from './session.ts';

export const declineMessages: Record<DeclineReason, string> = {
  generic_decline: 'Your card was declined. Try another card.',
  insufficient_funds: 'Your card has insufficient funds. Try another card.',
  expired_card: 'Your card has expired. Try another card.',
  incorrect_cvc: 'The security code is incorrect. Check it and try again.',
  authentication_required: 'Your bank asks for authentication this page cannot do. Try another card.',
  authentication_failed: 'The authentication with your bank failed. Try again or use another card.',
  processing_error: 'The payment could not be processed and nothing was charged. Please try again.',
};

const problemMessages: Record<CardProblem['field'], string> = {
  card_number: 'Enter a valid card number.',
  exp_month: 'Enter the expiration month (1 to 12).',
  exp_year: 'Enter the expiration year (2 or 4 digits).',
  cvc: 'Enter the 3 or 4 digit security code.',
};

const fieldNames: Record<TypedField, string> = {
  cardholder_name: 'The cardholder name',
  email: 'The email address',
  card_number: 'The card number',
  exp_month: 'The expiration month',
  exp_year: 'The expiration year',
  cvc: 'The security code',
};

/** One sentence for every field of the pay form over its length limit. */
export function overLongText(fields: readonly TypedField[]): string {
  return fields
    .map((name) => `${fieldNames[name]} takes at most ${payFormLimits[name]} characters.`)
    .join(' ');
}

/** One sentence for every field of the card that failed its checks. */
export function cardProblemsText(problems: readonly CardProblem[]): string {
  return problems
    .map((problem) => (problem.code === 'expired' ? 'The card has expired.' : problemMessages[problem.field]))
    .filter((text, i, all) => all.indexOf(text) === i)
    .join(' ');
}

const day = 86_400_000;

/**
 * What a session's page shows of it, in `lang` at `now`: a subscription's or recurring link's page
 * says how often it charges, and a trial when its first charge would come (the trial counted from
 * now, as a checkout paid now starts it).
 */
export function summaryOf(session: CheckoutSession, view: { lang?: Lang; now?: Date } = {}): PageSummary {
  const trialDays = session.trial_days ?? 0;
  const now = view.now ?? new Date();
  return {
    merchantName: session.merchant_name,
    description: session.description,
    items: session.items,
    amount: session.amount,
    currency: session.currency,
    test: session.mode === 'test',
    lang: view.lang ?? 'en',
    recurrence: session.recurrence
      ? {
          interval: session.recurrence.interval,
          intervalCount: session.recurrence.interval_count,
          trialDays,
          ...(trialDays > 0
            ? { firstChargeAt: new Date(now.getTime() + trialDays * day).toISOString() }
            : {}),
        }
      : null,
  };
}

export interface PageContext {
  /** The page's own absolute URL (the pay form posts back to it). */
  url: string;
  /** The payer's language (their browser's Accept-Language). @default 'en' */
  lang?: Lang;
  /** The time the page is shown at (a trial's first charge is counted from it). @default the clock's now */
  now?: Date;
}

const viewOf = (context: PageContext) => ({
  ...(context.lang ? { lang: context.lang } : {}),
  ...(context.now ? { now: context.now } : {}),
});

function formOf(session: CheckoutSession, context: PageContext, extra: Partial<PayForm> = {}): PayForm {
  return {
    action: context.url,
    csrf: session.csrf,
    askEmail: session.customer_email === null,
    returnUrl: session.return_url,
    ...extra,
  };
}

/** The pay form again, with why the last attempt failed. */
export function retryPage(
  session: CheckoutSession,
  context: PageContext,
  status: number,
  error: string,
  keep: { holderName?: string; email?: string },
): Page {
  return payPage(summaryOf(session, viewOf(context)), formOf(session, context, { error, ...keep }), status);
}

/** The page a session shows when it is not (or no longer) open, with its status; undefined when open. */
export function closedPageFor(session: CheckoutSession, now: Date, onSubmit: boolean): Page | undefined {
  const summary = summaryOf(session);
  switch (sessionState(session, now)) {
    case 'paid':
      return onSubmit
        ? closedPage(
            summary,
            409,
            'Already paid',
            'This payment has already been made. Nothing more was charged.',
          )
        : closedPage(summary, 200, 'Payment complete', 'This payment has been made. Thank you.');
    case 'locked':
      return closedPage(
        summary,
        423,
        'Checkout locked',
        'Too many attempts were declined. Ask the merchant for a new payment link.',
      );
    case 'expired':
      // A payment link's page closes when its link stops taking payments (status, active, deleted).
      if (session.kind === 'link')
        return closedPage(
          summary,
          410,
          'Payment link unavailable',
          'This payment link is not taking payments now. Ask the merchant about it.',
        );
      return closedPage(
        summary,
        410,
        'Checkout expired',
        'This payment link has expired. Ask the merchant for a new one.',
      );
    case 'busy':
      return closedPage(
        summary,
        onSubmit ? 409 : 200,
        'Payment in progress',
        'This payment is being processed. Reload this page in a moment.',
        5,
      );
    case 'confirming':
      return confirmingPage(session, onSubmit ? 409 : 200);
    case 'voided':
      return voidedPage(session, onSubmit ? 409 : 200);
    default:
      return undefined;
  }
}

/**
 * The answer while a payment's outcome is unknown (the acquirer did not answer): the payer is
 * told it could not be confirmed and is not asked to pay again; the page reloads until recovery has
 * recorded what the acquirer did.
 */
export const confirmingPage = (session: CheckoutSession, status: number): Page =>
  closedPage(
    summaryOf(session),
    status,
    'Payment not confirmed yet',
    'Your payment could not be confirmed with the card processor yet. Do not pay again: it is being confirmed now, and this page will show the result in a moment.',
    5,
  );

const voidedBecause: Record<string, string> = {
  subscription_canceled: 'The subscription was canceled while your payment was being made.',
  payment_link_deleted: 'The payment link was removed while your payment was being made.',
};

/** The answer for an approval whose purpose went away meanwhile: refunded in full at once. */
export const voidedPage = (session: CheckoutSession, status: number): Page =>
  closedPage(
    summaryOf(session),
    status,
    session.charge_id ? 'Payment refunded' : 'Nothing was charged',
    `${voidedBecause[session.voided_reason ?? ''] ?? 'What this payment was for is no longer available.'} ${
      session.charge_id
        ? 'Your payment was refunded in full; the refund reaches your card in a few days.'
        : 'Your card was not charged.'
    }`,
  );

/** What GET shows: a closed page, the challenge the session holds, or the pay form. */
export function pageFor(session: CheckoutSession, now: Date, context: PageContext): Page {
  const closed = closedPageFor(session, now, false);
  if (closed) return closed;
  if (session.challenge) {
    return challengePage(summaryOf(session), {
      action: `${context.url}/challenge`,
      csrf: session.csrf,
      returnUrl: session.return_url,
    });
  }
  return payPage(summaryOf(session, { ...viewOf(context), now }), formOf(session, context));
}

/**
 * The answer to a declined attempt: 402 with the reason, and the form to try again unless this
 * was the decline that locked the session (later requests then answer 423).
 */
export function declinedPage(
  session: CheckoutSession,
  now: Date,
  context: PageContext,
  reason: DeclineReason,
  keep: { holderName?: string; email?: string },
): Page {
  if (sessionState(session, now) === 'locked') {
    return closedPage(
      summaryOf(session),
      402,
      'Payment declined',
      `${declineMessages[reason]} Too many attempts were declined: this payment can no longer be paid here. Ask the merchant for a new link.`,
    );
  }
  return retryPage(session, context, 402, declineMessages[reason], keep);
}

/** The receipt of a paid payment link's page: the charge's reference, date and card. */
export const receiptFor = (session: CheckoutSession, charge: Charge): Page =>
  receiptPage(summaryOf(session), {
    reference: charge.id,
    paidAt: charge.created_at,
    cardBrand: charge.card.brand,
    cardLast4: charge.card.last4,
  });
