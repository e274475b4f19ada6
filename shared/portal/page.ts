/**
 * The customer portal's page (docs/design.md#customer-portal), in the checkout's shell: plain HTML
 * that works without JavaScript, made of html templates (shared/web/html.ts, which escape every
 * value), a strict CSP, never framed or cached, in the
 * reader's language (their browser's Accept-Language). Each form posts the page's CSRF token back.
 */
import { closedPage, page } from '../checkout/pages.ts';
import { displayCard, displayDate, displayPrice } from '../core/display.ts';
import type { Lang } from '../core/messages.ts';
import { displayAmount } from '../core/money/amount.ts';
import { currencyOf } from '../core/money/fields.ts';
import { overdueOf, type Subscription, subscriptionView } from '../subscriptions/subscription.ts';
import { type Html, html, joinHtml } from '../web/html.ts';
import type { Page } from '../web/page.ts';
import { cardReplaceable } from './card.ts';
import type { PortalContents } from './service.ts';

interface PortalWords {
  title(merchant: string): string;
  hello(name: string): string;
  subscriptions: string;
  none: string;
  status: Record<string, string>;
  statusLabel: string;
  nextBilling: string;
  /** A past-due subscription: what failed, since when, and when it is tried again. */
  overdue(amount: string, since: string, next: string | null): string;
  /** Over the past-due subscription's Replace card: the new card pays what is due at once. */
  overdueReplace(amount: string): string;
  cancel: string;
  /** The cancel confirmation: its title and question, what cancelling does, and its two buttons. */
  confirmTitle: string;
  confirmCancel(plan: string): string;
  cancelEffect: string;
  cancelEffectOverdue(amount: string): string;
  /** A trial's cancel: nothing was paid, nothing will be. */
  cancelEffectTrial: string;
  /** The card a subscription is charged to, when the portal knows it. */
  cardLabel: string;
  yesCancel: string;
  keepIt: string;
  replaceCard: string;
  charges: string;
  noCharges: string;
  refunded(amount: string): string;
  canceledNotice: string;
  alreadyCanceled: string;
  formExpired: string;
  noSuch: string;
  noSuchCharge: string;
  receipt: string;
  notReplaceable: string;
  notFound: readonly [string, string];
  expired: readonly [string, string];
  test: string;
  simulatedLive: string;
  /** The language of these words: amounts, dates, cards and prices are written in its way. */
  lang: Lang;
}

const words: Record<Lang, PortalWords> = {
  en: {
    title: (merchant) => `Your account with ${merchant}`,
    hello: (name) => `Hello ${name}`,
    subscriptions: 'Your subscriptions',
    none: 'You have no subscriptions.',
    status: {
      trialing: 'Trial',
      active: 'Active',
      past_due: 'Payment overdue',
      canceled: 'Canceled',
    },
    statusLabel: 'Status',
    nextBilling: 'Next billing date',
    overdue: (amount, since, next) =>
      `Payment failed: ${amount} due since ${since}${next ? `; next attempt ${next}` : ''}.`,
    overdueReplace: (amount) =>
      `Replace your card to pay it: the ${amount} due is charged to the new card right away.`,
    cancel: 'Cancel subscription',
    confirmTitle: 'Cancel your subscription?',
    confirmCancel: (plan) => `Cancel ${plan}?`,
    cancelEffect:
      'It ends now, not at the end of the period already paid for: you will not be charged for it again, and nothing already paid is refunded.',
    cancelEffectOverdue: (amount) =>
      `It ends now: the ${amount} due is not charged, and you will not be charged for it again.`,
    cancelEffectTrial: 'It ends now, with its trial: you will not be charged for it.',
    cardLabel: 'Card',
    yesCancel: 'Yes, cancel',
    keepIt: 'Keep it',
    replaceCard: 'Replace card',
    charges: 'Your payments',
    noCharges: 'No payments yet.',
    refunded: (amount) => `refunded ${amount}`,
    canceledNotice: 'Your subscription was canceled. You will not be charged for it again.',
    alreadyCanceled: 'This subscription is already canceled.',
    formExpired: 'This form expired. Please try again.',
    noSuch: 'No such subscription.',
    noSuchCharge: 'No such payment.',
    receipt: 'Receipt',
    notReplaceable: 'This subscription is no longer billed: its card cannot be replaced.',
    notFound: ['Page not found', 'This link does not exist. Ask the merchant for a new one.'],
    expired: ['Link expired', 'This link has expired. Ask the merchant for a new one.'],
    test: 'Test mode: no real money moves.',
    simulatedLive: 'Simulated acquirer: no real money moves.',
    lang: 'en',
  },
  es: {
    title: (merchant) => `Tu cuenta con ${merchant}`,
    hello: (name) => `Hola ${name}`,
    subscriptions: 'Tus suscripciones',
    none: 'No tienes suscripciones.',
    status: {
      trialing: 'Prueba',
      active: 'Activa',
      past_due: 'Pago vencido',
      canceled: 'Cancelada',
    },
    statusLabel: 'Estado',
    nextBilling: 'Próximo cobro',
    overdue: (amount, since, next) =>
      `Pago fallido: ${amount} pendiente desde el ${since}${next ? `; próximo intento el ${next}` : ''}.`,
    overdueReplace: (amount) =>
      `Cambia tu tarjeta para pagarlo: los ${amount} pendientes se cobran a la nueva tarjeta de inmediato.`,
    cancel: 'Cancelar suscripción',
    confirmTitle: '¿Cancelar tu suscripción?',
    confirmCancel: (plan) => `¿Cancelar ${plan}?`,
    cancelEffect:
      'Termina ahora, no al final del periodo ya pagado: no se te volverá a cobrar por ella y no se reembolsa nada de lo ya pagado.',
    cancelEffectOverdue: (amount) =>
      `Termina ahora: no se cobran los ${amount} pendientes y no se te volverá a cobrar por ella.`,
    cancelEffectTrial: 'Termina ahora, junto con su periodo de prueba: no se te cobrará por ella.',
    cardLabel: 'Tarjeta',
    yesCancel: 'Sí, cancelar',
    keepIt: 'Conservarla',
    replaceCard: 'Cambiar tarjeta',
    charges: 'Tus pagos',
    noCharges: 'Aún no hay pagos.',
    refunded: (amount) => `reembolsado ${amount}`,
    canceledNotice: 'Tu suscripción se canceló. No se te volverá a cobrar por ella.',
    alreadyCanceled: 'Esta suscripción ya está cancelada.',
    formExpired: 'Este formulario caducó. Inténtalo de nuevo.',
    noSuch: 'No existe esa suscripción.',
    noSuchCharge: 'No existe ese pago.',
    receipt: 'Recibo',
    notReplaceable: 'Esta suscripción ya no se cobra: su tarjeta no se puede cambiar.',
    notFound: ['Página no encontrada', 'Este enlace no existe. Pide uno nuevo al comercio.'],
    expired: ['Enlace caducado', 'Este enlace caducó. Pide uno nuevo al comercio.'],
    test: 'Modo de prueba: no se mueve dinero real.',
    simulatedLive: 'Adquirente simulado: no se mueve dinero real.',
    lang: 'es',
  },
};

export type PortalNotice =
  | 'canceled'
  | 'already_canceled'
  | 'form_expired'
  | 'no_such'
  | 'no_such_charge'
  | 'not_replaceable';

const noticeText = (w: PortalWords, notice: PortalNotice) =>
  ({
    canceled: w.canceledNotice,
    already_canceled: w.alreadyCanceled,
    form_expired: w.formExpired,
    no_such: w.noSuch,
    no_such_charge: w.noSuchCharge,
    not_replaceable: w.notReplaceable,
  })[notice];

const money = (minor: number, currency: string, lang: Lang) =>
  displayAmount(minor, currencyOf({ currency }), lang);

/**
 * A form posting one action on one subscription (or, for `receipt`, one charge), with a CSRF token
 * (the page's, or a confirmation's own).
 */
const actionForm = (
  action: string,
  csrf: string,
  name: string,
  id: string,
  label: string,
  secondary = name === 'cancel',
): Html =>
  html`<form method="post" action="${action}">
<input type="hidden" name="csrf_token" value="${csrf}">
<input type="hidden" name="${name === 'receipt' ? 'charge_id' : 'subscription_id'}" value="${id}">
<button type="submit" name="action" value="${name}"${secondary && html` class="secondary"`}>${label}</button>
</form>`;

/** How a subscription is named to its customer: the plan, and how many when more than one. */
const subscriptionName = (subscription: Subscription) =>
  subscription.quantity > 1 ? `${subscription.plan.name} × ${subscription.quantity}` : subscription.plan.name;

function subscriptionSection(
  w: PortalWords,
  subscription: Subscription,
  context: { action: string; csrf: string },
): Html {
  const view = subscriptionView(subscription);
  const { plan, quantity } = subscription;
  const each = displayPrice(
    {
      quantity,
      unitAmount: plan.amount,
      currency: currencyOf(plan),
      interval: plan.interval,
      intervalCount: plan.interval_count,
    },
    w.lang,
  );
  const owed = overdueOf(subscription);
  const overdue = owed && {
    amount: money(owed.amount, owed.currency, w.lang),
    since: owed.since,
    next: owed.nextAttemptAt,
  };
  const replace = actionForm(context.action, context.csrf, 'card', subscription.id, w.replaceCard);
  const cancel = actionForm(context.action, context.csrf, 'cancel', subscription.id, w.cancel);
  // Past due: what failed comes first, and replacing the card (which pays it at once) is the action.
  const actions = !cardReplaceable.includes(subscription.status)
    ? undefined
    : overdue
      ? html`<p class="error" role="alert">${w.overdue(overdue.amount, displayDate(overdue.since, w.lang), overdue.next ? displayDate(overdue.next, w.lang) : null)}</p>
<p><strong>${w.overdueReplace(overdue.amount)}</strong></p>
${replace}
${cancel}`
      : html`${replace}
${cancel}`;
  // While past due the period shown is the unpaid one: its end is no next billing date.
  const next =
    view.next_billing_date && !overdue
      ? html`<dt>${w.nextBilling}</dt><dd>${displayDate(view.next_billing_date, w.lang)}</dd>`
      : undefined;
  const card =
    subscription.card && html`<dt>${w.cardLabel}</dt><dd>${displayCard(subscription.card, w.lang)}</dd>`;
  const name = subscriptionName(subscription);
  return html`<section class="card" aria-label="${name}">
<h2>${name}</h2>
<p class="then">${each}</p>
<dl>
<dt>${w.statusLabel}</dt><dd data-status="${subscription.status}">${w.status[subscription.status] ?? subscription.status}</dd>
${next}
${card}
</dl>
${actions}
</section>`;
}

/** The portal page; `notice` says what the last action did (with the status that goes with it). */
export function portalPage(
  contents: PortalContents,
  context: { action: string; lang: Lang },
  notice?: PortalNotice,
  status = 200,
): Page {
  const w = words[context.lang];
  const { link, customer } = contents;
  // One that is past due comes first: the customer who came to fix a failed payment sees it on top
  // (and its Replace card before any other subscription's).
  const ordered = [...contents.subscriptions].sort(
    (a, b) => Number(b.status === 'past_due') - Number(a.status === 'past_due'),
  );
  const subscriptions = ordered.map((subscription) =>
    subscriptionSection(w, subscription, { action: context.action, csrf: link.csrf }),
  );
  const charges = contents.charges.map((charge) => {
    const refunded =
      charge.refunded > 0 ? ` (${w.refunded(money(charge.refunded, charge.currency, w.lang))})` : '';
    return html`<li>${displayDate(charge.created_at, w.lang)}: ${charge.description ?? ''} ${money(charge.amount, charge.currency, w.lang)}${refunded}, ${displayCard(charge.card, w.lang)}
${actionForm(context.action, link.csrf, 'receipt', charge.id, w.receipt)}</li>`;
  });
  const said = notice && html`<p class="error" role="status">${noticeText(w, notice)}</p>`;
  const note = link.mode === 'test' ? w.test : contents.simulatedLive ? w.simulatedLive : undefined;
  return page(
    status,
    w.title(contents.merchant),
    html`${note && html`<p class="test" role="note">${note}</p>`}
<h1>${w.title(contents.merchant)}</h1>
<p>${w.hello(customer.first_name)}</p>
${said}
<h2>${w.subscriptions}</h2>
${subscriptions.length ? joinHtml(subscriptions, '\n') : html`<p>${w.none}</p>`}
<h2>${w.charges}</h2>
${charges.length ? html`<ul>${charges}</ul>` : html`<p>${w.noCharges}</p>`}`,
    [],
    undefined,
    context.lang,
  );
}

/**
 * The cancel's confirmation: which subscription, what cancelling it does (it ends at once: nothing
 * more is charged, nothing paid is refunded), "Yes, cancel" with the confirmation's own single-use
 * CSRF token, and "Keep it", a link back to the portal page that changes nothing.
 */
export function cancelConfirmationPage(
  subscription: Subscription,
  context: { action: string; lang: Lang; mode: 'test' | 'live' },
  csrf: string,
): Page {
  const w = words[context.lang];
  const owed = overdueOf(subscription);
  return page(
    200,
    w.confirmTitle,
    html`${context.mode === 'test' && html`<p class="test" role="note">${w.test}</p>`}
<section class="card" aria-label="${subscriptionName(subscription)}">
<h1>${w.confirmCancel(subscriptionName(subscription))}</h1>
<p>${owed ? w.cancelEffectOverdue(money(owed.amount, owed.currency, context.lang)) : subscription.status === 'trialing' ? w.cancelEffectTrial : w.cancelEffect}</p>
${actionForm(context.action, csrf, 'confirm_cancel', subscription.id, w.yesCancel, true)}
<p><a href="${context.action}">${w.keepIt}</a></p>
</section>`,
    [],
    undefined,
    context.lang,
  );
}

/** No portal under this token (404), or one whose link expired (410). */
export function closedPortalPage(kind: 'unknown' | 'expired', lang: Lang): Page {
  const [title, message] = kind === 'unknown' ? words[lang].notFound : words[lang].expired;
  return closedPage(undefined, kind === 'unknown' ? 404 : 410, title, message, undefined, lang);
}
