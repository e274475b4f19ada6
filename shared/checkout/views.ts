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

/** What the pay form says when it comes back with a problem, in each language it speaks. */
interface FormTexts {
  declines: Record<DeclineReason, string>;
  problems: Record<CardProblem['field'], string>;
  cardExpired: string;
  fieldNames: Record<TypedField, string>;
  takesAtMost(field: string, limit: number): string;
  formExpired: string;
  enterEmail: string;
  enterName: string;
  nameOneLine: string;
}

const formTexts: Record<Lang, FormTexts> = {
  en: {
    declines: {
      generic_decline: 'Your card was declined. Try another card.',
      insufficient_funds: 'Your card has insufficient funds. Try another card.',
      expired_card: 'Your card has expired. Try another card.',
      incorrect_cvc: 'The security code is incorrect. Check it and try again.',
      authentication_required: 'Your bank asks for authentication this page cannot do. Try another card.',
      authentication_failed: 'The authentication with your bank failed. Try again or use another card.',
      processing_error: 'The payment could not be processed and nothing was charged. Please try again.',
    },
    problems: {
      card_number: 'Enter a valid card number.',
      exp_month: 'Enter the expiration month (1 to 12).',
      exp_year: 'Enter the expiration year (2 or 4 digits).',
      cvc: 'Enter the 3 or 4 digit security code.',
    },
    cardExpired: 'The card has expired.',
    fieldNames: {
      cardholder_name: 'The cardholder name',
      email: 'The email address',
      card_number: 'The card number',
      exp_month: 'The expiration month',
      exp_year: 'The expiration year',
      cvc: 'The security code',
    },
    takesAtMost: (field, limit) => `${field} takes at most ${limit} characters.`,
    formExpired: 'This form has expired. Please try again.',
    enterEmail: 'Enter a valid email address.',
    enterName: 'Enter the cardholder name.',
    nameOneLine: 'Enter the cardholder name as plain text on one line.',
  },
  es: {
    declines: {
      generic_decline: 'Tu tarjeta fue rechazada. Prueba con otra tarjeta.',
      insufficient_funds: 'Tu tarjeta no tiene fondos suficientes. Prueba con otra tarjeta.',
      expired_card: 'Tu tarjeta está vencida. Prueba con otra tarjeta.',
      incorrect_cvc: 'El código de seguridad es incorrecto. Revísalo e inténtalo de nuevo.',
      authentication_required:
        'Tu banco pide una autenticación que esta página no puede hacer. Prueba con otra tarjeta.',
      authentication_failed: 'La autenticación con tu banco falló. Inténtalo de nuevo o usa otra tarjeta.',
      processing_error: 'No se pudo procesar el pago y no se cobró nada. Inténtalo de nuevo.',
    },
    problems: {
      card_number: 'Escribe un número de tarjeta válido.',
      exp_month: 'Escribe el mes de vencimiento (1 a 12).',
      exp_year: 'Escribe el año de vencimiento (2 o 4 dígitos).',
      cvc: 'Escribe el código de seguridad de 3 o 4 dígitos.',
    },
    cardExpired: 'La tarjeta está vencida.',
    fieldNames: {
      cardholder_name: 'El nombre del titular',
      email: 'El correo electrónico',
      card_number: 'El número de tarjeta',
      exp_month: 'El mes de vencimiento',
      exp_year: 'El año de vencimiento',
      cvc: 'El código de seguridad',
    },
    takesAtMost: (field, limit) => `${field} admite como máximo ${limit} caracteres.`,
    formExpired: 'Este formulario caducó. Inténtalo de nuevo.',
    enterEmail: 'Escribe un correo electrónico válido.',
    enterName: 'Escribe el nombre del titular.',
    nameOneLine: 'Escribe el nombre del titular como texto simple en una línea.',
  },
};

/** The pay form's problem texts in `lang` (the payer's language, as the form itself). */
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

/** A closed page's title and sentence. */
type Said = readonly [title: string, message: string];

/** What the closed pages say, in each language the pay form speaks. */
interface ClosedTexts {
  alreadyPaid: Said;
  complete: Said;
  cardSaved: Said;
  cardSavedLead: string;
  newCard(card: string): string;
  overduePaid(amount: string): string;
  overdueCharging(amount: string): string;
  overdueDeclined(amount: string, next: string | null): string;
  backToAccount: string;
  locked: Said;
  linkUnavailable: Said;
  expired: Said;
  busy: Said;
  confirming: Said;
  refunded: string;
  nothingCharged: string;
  voidedBecause: Record<string, string>;
  voidedOther: string;
  refundedInFull: string;
  cardNotCharged: string;
  declined: string;
  tooManyDeclines: string;
  noChallenge: Said;
}

const closedTexts: Record<Lang, ClosedTexts> = {
  en: {
    alreadyPaid: ['Already paid', 'This payment has already been made. Nothing more was charged.'],
    complete: ['Payment complete', 'This payment has been made. Thank you.'],
    cardSaved: [
      'Card updated',
      "Your new card is saved: your subscription's payments are charged to it from now on, and a payment that was overdue is charged to it now.",
    ],
    cardSavedLead: "Your new card is saved: your subscription's payments are charged to it from now on.",
    newCard: (card) => `New card: ${card}.`,
    overduePaid: (amount) => `The ${amount} that was overdue is paid with it.`,
    overdueCharging: (amount) =>
      `The ${amount} that was overdue is being charged to it; your account page shows when it is paid.`,
    overdueDeclined: (amount, next) =>
      `The ${amount} that was overdue could not be charged to it: the bank declined it, and nothing was charged. Your subscription is still overdue${next ? `; it is tried again on ${next}` : ''}. You can also try another card.`,
    backToAccount: 'Back to your account',
    locked: ['Checkout locked', 'Too many attempts were declined. Ask the merchant for a new payment link.'],
    linkUnavailable: [
      'Payment link unavailable',
      'This payment link is not taking payments now. Ask the merchant about it.',
    ],
    expired: ['Checkout expired', 'This payment link has expired. Ask the merchant for a new one.'],
    busy: ['Payment in progress', 'This payment is being processed. Reload this page in a moment.'],
    confirming: [
      'Payment not confirmed yet',
      'Your payment could not be confirmed with the card processor yet. Do not pay again: it is being confirmed now, and this page will show the result in a moment.',
    ],
    refunded: 'Payment refunded',
    nothingCharged: 'Nothing was charged',
    voidedBecause: {
      subscription_canceled: 'The subscription was canceled while your payment was being made.',
      payment_link_deleted: 'The payment link was removed while your payment was being made.',
    },
    voidedOther: 'What this payment was for is no longer available.',
    refundedInFull: 'Your payment was refunded in full; the refund reaches your card in a few days.',
    cardNotCharged: 'Your card was not charged.',
    declined: 'Payment declined',
    tooManyDeclines:
      'Too many attempts were declined: this payment can no longer be paid here. Ask the merchant for a new link.',
    noChallenge: ['No authentication pending', 'Go back to the payment page and pay again.'],
  },
  es: {
    alreadyPaid: ['Ya pagado', 'Este pago ya se hizo. No se cobró nada más.'],
    complete: ['Pago completado', 'Este pago se hizo. Gracias.'],
    cardSaved: [
      'Tarjeta actualizada',
      'Tu nueva tarjeta quedó guardada: desde ahora los pagos de tu suscripción se cobran a ella, y si había un pago vencido, se cobra ahora.',
    ],
    cardSavedLead:
      'Tu nueva tarjeta quedó guardada: desde ahora los pagos de tu suscripción se cobran a ella.',
    newCard: (card) => `Nueva tarjeta: ${card}.`,
    overduePaid: (amount) => `Los ${amount} vencidos quedaron pagados con ella.`,
    overdueCharging: (amount) =>
      `Los ${amount} vencidos se le están cobrando; la página de tu cuenta muestra cuándo quedan pagados.`,
    overdueDeclined: (amount, next) =>
      `Los ${amount} vencidos no se pudieron cobrar a esta tarjeta: el banco los rechazó y no se cobró nada. Tu suscripción sigue con el pago vencido${next ? `; se intenta de nuevo el ${next}` : ''}. También puedes probar con otra tarjeta.`,
    backToAccount: 'Volver a tu cuenta',
    locked: [
      'Pago bloqueado',
      'Se rechazaron demasiados intentos. Pide al comercio un nuevo enlace de pago.',
    ],
    linkUnavailable: [
      'Enlace de pago no disponible',
      'Este enlace de pago no acepta pagos ahora. Pregunta al comercio.',
    ],
    expired: ['Pago caducado', 'Este enlace de pago caducó. Pide uno nuevo al comercio.'],
    busy: ['Pago en curso', 'Este pago se está procesando. Vuelve a cargar esta página en un momento.'],
    confirming: [
      'Pago aún sin confirmar',
      'Tu pago todavía no se pudo confirmar con el procesador de tarjetas. No pagues de nuevo: se está confirmando ahora y esta página mostrará el resultado en un momento.',
    ],
    refunded: 'Pago reembolsado',
    nothingCharged: 'No se cobró nada',
    voidedBecause: {
      subscription_canceled: 'La suscripción se canceló mientras se hacía tu pago.',
      payment_link_deleted: 'El enlace de pago se eliminó mientras se hacía tu pago.',
    },
    voidedOther: 'Lo que pagaba este pago ya no está disponible.',
    refundedInFull: 'Tu pago se reembolsó por completo; el reembolso llega a tu tarjeta en unos días.',
    cardNotCharged: 'No se hizo ningún cargo a tu tarjeta.',
    declined: 'Pago rechazado',
    tooManyDeclines:
      'Se rechazaron demasiados intentos: este pago ya no se puede hacer aquí. Pide al comercio un nuevo enlace.',
    noChallenge: ['No hay autenticación pendiente', 'Vuelve a la página de pago y paga de nuevo.'],
  },
};

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
