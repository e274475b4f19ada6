/** Which page a checkout session shows, and the words for declines and card problems (English, Spanish). */

import type { DeclineReason } from '../acquirer/acquirer.ts';
import type { CardProblem } from '../acquirer/cards.ts';
import type { CardEntryView } from '../acquirer/connection.ts';
import type { Charge } from '../charges/charge.ts';
import { displayCard, displayDate } from '../core/display.ts';
import type { Lang } from '../core/messages.ts';
import { displayAmount } from '../core/money/amount.ts';
import { findCurrency } from '../core/money/currencies.ts';
import type { Page } from '../web/page.ts';
import {
  acquirerPendingPage,
  challengePage,
  closedPage,
  notConnectedPage,
  type PageSummary,
  type PayForm,
  payPage,
  receiptPage,
  savedPage,
} from './pages.ts';
import { payFormLimits, type TypedField } from './schemas.ts';
import { type CheckoutSession, sessionState } from './session.ts';
import { closedTexts, type FormTexts, formTexts, type Said } from './words.ts';

export const formTextsOf = (lang: Lang = 'en'): FormTexts => formTexts[lang];

/** One sentence for every field of the pay form over its length limit. */
export function overLongText(fields: readonly TypedField[], lang: Lang = 'en'): string {
  const t = formTexts[lang];
  return fields.map((name) => t.takesAtMost(t.fieldNames[name], payFormLimits[name])).join(' ');
}

/** One sentence for every field of the card that failed its checks. */
export function cardProblemsText(problems: readonly CardProblem[], lang: Lang = 'en'): string {
  const t = formTexts[lang];
  return problems
    .map((problem) => (problem.code === 'expired' ? t.cardExpired : t.problems[problem.field]))
    .filter((text, i, all) => all.indexOf(text) === i)
    .join(' ');
}

const day = 86_400_000;

/**
 * What a session's page shows of it, in `lang` at `now`: a subscription's or recurring link's page
 * says how often it charges, and a trial when its first charge comes (the trial counted from now,
 * as a checkout paid now starts it, or from the payment once paid).
 */
export function summaryOf(
  session: CheckoutSession,
  view: { lang?: Lang; now?: Date; entry?: CardEntryView } = {},
): PageSummary {
  const trialDays = session.trial_days ?? 0;
  // A paid session's trial started when it was paid (its last write), not when the page is seen.
  const now = session.status === 'paid' ? new Date(session.updated_at) : (view.now ?? new Date());
  return {
    merchantName: session.merchant_name,
    description: session.description,
    items: session.items,
    amount: session.amount,
    currency: session.currency,
    test: session.mode === 'test',
    ...(view.entry?.entry === 'form' && view.entry.simulatedLive ? { simulatedLive: true } : {}),
    lang: view.lang ?? 'en',
    ...(session.kind === 'card' ? { cardUpdate: true } : {}),
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
  /** A saved card's page: what its owner (the customer portal) tells of it. @default the plain sentence */
  cardSaved?: CardSaved;
  /**
   * How the session's mode takes a card now (its connection): cobro's form, the acquirer's page, or
   * none. @default cobro's form, unlabelled
   */
  entry?: CardEntryView;
}

/**
 * What a card page says once the card is saved, as its owner (the customer portal) finds it: the
 * card the subscription is now charged to, what became of a payment that was overdue when the page
 * was made, and the portal page to go back to while its link still opens it.
 */
export interface CardSaved {
  card: { brand: string; last4: string } | null;
  /**
   * The overdue period's charge (the session's amount): paid; still being charged (not answered
   * yet); or declined on the new card too, tried again at `nextAttemptAt`. Null when none was due.
   */
  overdue:
    | { state: 'paid' }
    | { state: 'charging' }
    | { state: 'declined'; nextAttemptAt: string | null }
    | null;
  backUrl: string | null;
}

const viewOf = (context: PageContext) => ({
  ...(context.lang ? { lang: context.lang } : {}),
  ...(context.now ? { now: context.now } : {}),
  ...(context.entry ? { entry: context.entry } : {}),
});

function formOf(session: CheckoutSession, context: PageContext, extra: Partial<PayForm> = {}): PayForm {
  const entry = context.entry;
  return {
    action: context.url,
    csrf: session.csrf,
    // The acquirer's own page asks the payer's e-mail itself.
    askEmail: session.customer_email === null && entry?.entry !== 'redirect',
    returnUrl: session.return_url,
    ...(entry?.entry === 'redirect' ? { acquirerPage: { origin: entry.origin } } : {}),
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

/**
 * The page a session shows when it is not (or no longer) open, with its status, in the payer's
 * language; undefined when open.
 */
export function closedPageFor(
  session: CheckoutSession,
  now: Date,
  onSubmit: boolean,
  lang: Lang = 'en',
): Page | undefined {
  const summary = summaryOf(session, { lang, now });
  const t = closedTexts[lang];
  const closed = ([title, message]: Said, status: number, refreshSeconds?: number) =>
    closedPage(summary, status, title, message, refreshSeconds);
  switch (sessionState(session, now)) {
    case 'paid':
      if (session.kind === 'card') return closed(t.cardSaved, onSubmit ? 409 : 200);
      return onSubmit ? closed(t.alreadyPaid, 409) : closed(t.complete, 200);
    case 'locked':
      return closed(t.locked, 423);
    case 'expired':
      // A payment link's page closes when its link stops taking payments (status, active, deleted).
      return closed(session.kind === 'link' ? t.linkUnavailable : t.expired, 410);
    case 'busy':
      return closed(t.busy, onSubmit ? 409 : 200, 5);
    case 'confirming':
      return confirmingPage(session, onSubmit ? 409 : 200, lang);
    case 'voided':
      return voidedPage(session, onSubmit ? 409 : 200, lang);
    default:
      return undefined;
  }
}

/**
 * The answer while a payment's outcome is unknown (the acquirer did not answer): the payer is
 * told it could not be confirmed and is not asked to pay again; the page reloads until recovery has
 * recorded what the acquirer did.
 */
export const confirmingPage = (session: CheckoutSession, status: number, lang: Lang = 'en'): Page => {
  const [title, message] = closedTexts[lang].confirming;
  return closedPage(summaryOf(session, { lang }), status, title, message, 5);
};

/** The answer for an approval whose purpose went away meanwhile: refunded in full at once. */
export const voidedPage = (session: CheckoutSession, status: number, lang: Lang = 'en'): Page => {
  const t = closedTexts[lang];
  return closedPage(
    summaryOf(session, { lang }),
    status,
    session.charge_id ? t.refunded : t.nothingCharged,
    `${t.voidedBecause[session.voided_reason ?? ''] ?? t.voidedOther} ${
      session.charge_id ? t.refundedInFull : t.cardNotCharged
    }`,
  );
};

/**
 * A saved card's page: the card the subscription is charged to now, what became of the payment
 * that was overdue (paid, still being charged, or declined on this card too, with its next attempt)
 * and a link back to the portal page it was opened from, while that link still opens it.
 */
export function cardSavedPage(session: CheckoutSession, saved: CardSaved, lang: Lang = 'en'): Page {
  const t = closedTexts[lang];
  const currency = findCurrency(session.currency);
  const amount = currency
    ? displayAmount(session.amount, currency, lang)
    : `${session.amount} ${session.currency}`;
  const overdue = saved.overdue;
  const said = [
    t.cardSavedLead,
    ...(saved.card ? [t.newCard(displayCard(saved.card, lang))] : []),
    ...(overdue?.state === 'paid' ? [t.overduePaid(amount)] : []),
    ...(overdue?.state === 'charging' ? [t.overdueCharging(amount)] : []),
    ...(overdue?.state === 'declined'
      ? [t.overdueDeclined(amount, overdue.nextAttemptAt ? displayDate(overdue.nextAttemptAt, lang) : null)]
      : []),
  ];
  const back = saved.backUrl ? { label: t.backToAccount, url: saved.backUrl } : undefined;
  // What the pay form said a card check would do is done now: the page says what was done instead.
  const { cardUpdate: _done, ...summary } = summaryOf(session, { lang });
  return savedPage(summary, t.cardSaved[0], said, back);
}

/** The answer to a challenge the session no longer waits for. */
export const noChallengePage = (session: CheckoutSession, lang: Lang = 'en'): Page => {
  const [title, message] = closedTexts[lang].noChallenge;
  return closedPage(summaryOf(session, { lang }), 409, title, message);
};

/** What GET shows: a closed page, the challenge the session holds, or the pay form. */
export function pageFor(session: CheckoutSession, now: Date, context: PageContext): Page {
  if (context.cardSaved && session.kind === 'card' && sessionState(session, now) === 'paid')
    return cardSavedPage(session, context.cardSaved, context.lang);
  const closed = closedPageFor(session, now, false, context.lang);
  if (closed) return closed;
  const summary = summaryOf(session, { ...viewOf(context), now });
  // Live mode connected to nothing: nothing can be paid here (as the API refuses to make it).
  if (context.entry?.entry === 'none') return notConnectedPage(summary);
  if (session.challenge?.url) {
    return acquirerPendingPage(summary, {
      action: context.url,
      csrf: session.csrf,
      returnUrl: session.return_url,
      checkUrl: `${context.url}/return`,
      origin: new URL(session.challenge.url).origin,
    });
  }
  if (session.challenge) {
    return challengePage(summaryOf(session, { ...viewOf(context), now }), {
      action: `${context.url}/challenge`,
      csrf: session.csrf,
      returnUrl: session.return_url,
    });
  }
  return payPage(summary, formOf(session, context));
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
  const lang = context.lang ?? 'en';
  const decline = formTexts[lang].declines[reason];
  if (sessionState(session, now) === 'locked') {
    const t = closedTexts[lang];
    return closedPage(summaryOf(session, { lang, now }), 402, t.declined, `${decline} ${t.tooManyDeclines}`);
  }
  return retryPage(session, context, 402, decline, keep);
}

/** The receipt of a paid payment link's page, in the page's language: the charge's reference, date and card. */
export const receiptFor = (session: CheckoutSession, charge: Charge, lang: Lang = 'en'): Page =>
  receiptPage(summaryOf(session, { lang }), {
    reference: charge.id,
    paidAt: charge.created_at,
    cardBrand: charge.card.brand,
    cardLast4: charge.card.last4,
  });
