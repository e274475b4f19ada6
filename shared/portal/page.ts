/**
 * The customer portal's page (docs/design.md#customer-portal), in the checkout's shell: plain HTML
 * that works without JavaScript, made of html templates (shared/web/html.ts, which escape every
 * value), a strict CSP, never framed or cached, in the reader's language (their browser's
 * Accept-Language; the words are in words.ts). Each form posts the page's CSRF token back, but the
 * cancel confirmation's choices, which post its own.
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
import { type PortalWords, portalWords as words } from './words.ts';

/** What the page says the last action did: a fixed text, or that a subscription ends on the day `ending`. */
export type PortalNotice =
  | 'canceled'
  | 'resumed'
  | 'already_canceled'
  | 'ended'
  | 'not_endable'
  | 'form_expired'
  | 'no_such'
  | 'no_such_charge'
  | 'not_replaceable'
  | { ending: string };

const noticeText = (w: PortalWords, notice: PortalNotice) =>
  typeof notice === 'object'
    ? w.endingNotice(displayDate(notice.ending, w.lang))
    : {
        canceled: w.canceledNotice,
        resumed: w.resumedNotice,
        already_canceled: w.alreadyCanceled,
        ended: w.ended,
        not_endable: w.notEndable,
        form_expired: w.formExpired,
        no_such: w.noSuch,
        no_such_charge: w.noSuchCharge,
        not_replaceable: w.notReplaceable,
      }[notice];

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
  context: { action: string; csrf: string; now: Date },
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
  // Set to end (cancel_at is the period's or the trial's end): Resume undoes it until that moment;
  // once it has come, the billing step ends the subscription and nothing is left to do here.
  const ending = view.cancel_at;
  const endCome = ending !== null && Date.parse(ending) <= context.now.getTime();
  // Past due: what failed comes first, and replacing the card (which pays it at once) is the action.
  const actions =
    !cardReplaceable.includes(subscription.status) || endCome
      ? undefined
      : overdue
        ? html`<p class="error" role="alert">${w.overdue(overdue.amount, displayDate(overdue.since, w.lang), overdue.next ? displayDate(overdue.next, w.lang) : null)}</p>
<p><strong>${w.overdueReplace(overdue.amount)}</strong></p>
${replace}
${cancel}`
        : ending
          ? html`<p>${w.endingNote}</p>
${actionForm(context.action, context.csrf, 'resume', subscription.id, w.resume)}
${replace}
${cancel}`
          : html`${replace}
${cancel}`;
  // While past due the period shown is the unpaid one: its end is no next billing date. One set to
  // end has none either: its last day instead.
  const next = ending
    ? html`<dt>${w.endsOn}</dt><dd data-ends="${ending}">${displayDate(ending, w.lang)}</dd>`
    : view.next_billing_date && !overdue
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
    subscriptionSection(w, subscription, { action: context.action, csrf: link.csrf, now: contents.now }),
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
 * What the cancel's confirmation offers (decision D19). First, "Cancel at end of period" (of the
 * trial, in one): it ends on the date the current period (or trial) ends and nothing more is
 * charged. Then, stated as the other choice, "Cancel now": it ends at once and nothing paid is
 * refunded. A past-due subscription, and one already set to end, are offered "Cancel now" alone.
 */
function cancelChoices(w: PortalWords, subscription: Subscription, action: string, csrf: string): Html {
  const owed = overdueOf(subscription);
  const view = subscriptionView(subscription);
  const trial = subscription.status === 'trialing';
  const now = actionForm(action, csrf, 'confirm_cancel', subscription.id, w.cancelNow, true);
  if (owed)
    return html`<p>${w.cancelEffectOverdue(money(owed.amount, owed.currency, w.lang))}</p>
${now}`;
  if (view.cancel_at)
    return html`<p>${w.nowEffectEnding(displayDate(view.cancel_at, w.lang))}</p>
${now}`;
  const end = view.current_period_end;
  if (!end)
    return html`<p>${trial ? w.nowEffectTrial : w.nowEffect}</p>
${now}`;
  const date = displayDate(end, w.lang);
  return html`<p>${trial ? w.endEffectTrial(date) : w.endEffect(date)}</p>
${actionForm(action, csrf, 'cancel_at_period_end', subscription.id, trial ? w.endAtTrialEnd : w.endAtPeriodEnd, false)}
<p>${trial ? w.nowEffectTrial : w.nowEffect}</p>
${now}`;
}

/**
 * The cancel's confirmation: which subscription, its choices (cancelChoices), each posting the
 * confirmation's own single-use CSRF token, and "Keep it", a link back to the portal page that
 * changes nothing.
 */
export function cancelConfirmationPage(
  subscription: Subscription,
  context: { action: string; lang: Lang; mode: 'test' | 'live' },
  csrf: string,
): Page {
  const w = words[context.lang];
  return page(
    200,
    w.confirmTitle,
    html`${context.mode === 'test' && html`<p class="test" role="note">${w.test}</p>`}
<section class="card" aria-label="${subscriptionName(subscription)}">
<h1>${w.confirmCancel(subscriptionName(subscription))}</h1>
${cancelChoices(w, subscription, context.action, csrf)}
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
