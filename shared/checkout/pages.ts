/**
 * The hosted checkout's pages (docs/design.md#checkout): plain, accessible HTML that works without
 * JavaScript and reads well on a phone, made of html templates (shared/web/html.ts), which escape
 * every value; styles carry a per-page nonce under a
 * strict CSP; pages refuse framing and are never cached. Card fields are never echoed back into a
 * page. Money, dates and cards are written as every customer text writes them (shared/core/display.ts,
 * displayAmount): "1.234,56 USD" on a Spanish page.
 */
import { displayCard, displayDateTime } from '../core/display.ts';
import type { Lang } from '../core/messages.ts';
import { displayAmount } from '../core/money/amount.ts';
import { findCurrency } from '../core/money/currencies.ts';
import { type Html, html } from '../web/html.ts';
import { contentSecurityPolicy, hostedPage, type Page } from '../web/page.ts';
import { payFormLimits } from './schemas.ts';
import { pageWords, receiptWords } from './words.ts';

export interface PageSummary {
  merchantName: string;
  description: string;
  items: string[];
  /** What is charged: today's charge, or each period's for a recurring page. */
  amount: number;
  currency: string;
  test: boolean;
  /** The language of the pay form and of what the summary says about recurring charges. @default 'en' */
  lang?: Lang;
  /** A subscription's or recurring link's page: how often `amount` is charged. @default one-off */
  recurrence?: PageRecurrence | null;
  /**
   * A subscriber's new card (from the customer portal): the card is checked, not charged, and the
   * page says so ("Save card"). @default a payment
   */
  cardUpdate?: boolean;
  /**
   * A live page whose mode is connected to the simulated acquirer (the local stack): it says so, as
   * a test page does, since no real money moves. @default false
   */
  simulatedLive?: boolean;
}

/**
 * What recurs on a page: `amount` every `intervalCount` `interval`s. With a trial, nothing is charged
 * today and the first charge comes at `firstChargeAt` (when the trial would end if started now).
 */
export interface PageRecurrence {
  interval: string;
  intervalCount: number;
  trialDays: number;
  /** ISO time of the first charge; set when `trialDays` > 0. */
  firstChargeAt?: string;
}

// The expiry fields sit side by side only where each gets 11rem; narrower (a phone), they stack,
// so a label such as "Expiration month" never wraps.
const styles = `
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f4f5f7}
main{max-width:28rem;margin:0 auto;padding:1.5rem 1rem}
.card{background:#fff;border-radius:.75rem;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.card+.card{margin-top:1rem}
h1{font-size:1.1rem;margin:0 0 .25rem}.amount{font-size:2rem;font-weight:700;margin:.25rem 0}.then{margin:0 0 .5rem;color:#444}.trial{font-weight:600;margin:.5rem 0 0}
ul{margin:.25rem 0 1rem;padding-left:1.2rem;color:#444}label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;box-sizing:border-box;font-size:1rem;padding:.6rem;border:1px solid #888;border-radius:.4rem}
.row{display:flex;flex-wrap:wrap;gap:0 .75rem}.row>div{flex:1 1 11rem}
button{width:100%;margin-top:1.25rem;padding:.8rem;font-size:1.05rem;font-weight:700;border:0;border-radius:.5rem;background:#1f5eff;color:#fff}
button.secondary{background:#fff;color:#a40000;border:2px solid #a40000}
.error{background:#fde8e8;color:#7a0000;border-radius:.4rem;padding:.6rem .8rem;margin:.75rem 0}
.test{background:#fff4cc;color:#5c4500;border-radius:.4rem;padding:.4rem .6rem;font-size:.9rem;margin-bottom:.75rem}
small{color:#555}`;

/** The page's icon, inline (CSP img-src allows data:), so browsers do not ask for /favicon.ico. */
const icon = `data:image/svg+xml,${encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><rect width='16' height='16' rx='4' fill='#1f5eff'/><path d='M10.5 5.2a3.5 3.5 0 1 0 0 5.6' fill='none' stroke='#fff' stroke-width='2' stroke-linecap='round'/></svg>",
)}`;

/**
 * A checkout page (the customer portal's too): the hosted shell with the checkout's styles and
 * icon, forms allowed to post to the page and to `formTargets`' origins.
 */
export function page(
  status: number,
  title: string,
  body: Html,
  formTargets: string[] = [],
  refreshSeconds?: number,
  lang: Lang = 'en',
): Page {
  // A page waiting for an outcome reloads itself, without JavaScript (the CSP allows no script).
  const refresh = refreshSeconds
    ? html`\n<meta http-equiv="refresh" content="${refreshSeconds}">`
    : undefined;
  return hostedPage({
    status,
    title,
    body,
    lang,
    styles,
    policy: (nonce) => contentSecurityPolicy(nonce, formTargets),
    head: html`${refresh}\n<link rel="icon" href="${icon}">`,
  });
}

const wordsOf = (s: PageSummary) => pageWords[s.lang ?? 'en'];

/** Whether the page starts a trial: nothing is charged today, the card is only checked. */
const startsTrial = (s: PageSummary) => (s.recurrence?.trialDays ?? 0) > 0;

/**
 * What the page says is charged. One-off: the amount. Recurring: the amount per interval, so the
 * payer sees it comes back ("19.90 USD / month"). A trial: nothing today, then the amount per
 * interval from the first charge's date, so nobody reads the period's price as today's charge.
 */
function price(s: PageSummary): Html {
  const w = wordsOf(s);
  const currency = findCurrency(s.currency);
  const format = (minor: number) =>
    currency ? displayAmount(minor, currency, s.lang ?? 'en') : `${minor} ${s.currency}`;
  const r = s.recurrence;
  if (!r) {
    return html`<p class="amount" aria-label="${w.amountLabel}">${format(s.amount)}</p>`;
  }
  const each = w.per(format(s.amount), r.interval, r.intervalCount);
  if (!startsTrial(s)) {
    return html`<p class="amount" aria-label="${w.amountLabel}">${each}</p>`;
  }
  return html`<p class="trial">${w.trial(r.trialDays)}</p>
<p class="amount" aria-label="${w.todayLabel}">${w.today(format(0))}</p>
<p class="then">${w.afterTrial(each, w.date(r.firstChargeAt ?? ''))}</p>`;
}

function summary(s: PageSummary): Html {
  // An item that only repeats the description (a plan's name) is not listed a second time.
  const listed = s.items.filter((item) => item !== s.description);
  const items = listed.length > 0 && html`<ul>${listed.map((item) => html`<li>${item}</li>`)}</ul>`;
  const note = s.test ? wordsOf(s).testNote : s.simulatedLive ? wordsOf(s).simulatedLiveNote : undefined;
  return html`${note && html`<p class="test" role="note">${note}</p>`}
<h1>${s.merchantName}</h1>
<p>${s.description}</p>
${items}
${price(s)}${s.cardUpdate && html`\n<p class="then">${wordsOf(s).cardCheck}</p>`}`;
}

export interface PayForm {
  action: string;
  csrf: string;
  askEmail: boolean;
  /** Values to keep after an error; never card data. */
  holderName?: string;
  email?: string;
  /** A sentence saying why the last attempt failed. */
  error?: string;
  /** The merchant's return_url: the success redirect goes there, so CSP form-action allows its origin. */
  returnUrl: string;
  /**
   * The card is entered on the acquirer's own page (a mode connected to Stripe): the form asks for
   * nothing and its submit is redirected to that page, whose origin CSP form-action then allows.
   */
  acquirerPage?: { origin: string };
}

const field = (id: string, label: string, attributes: Html) =>
  html`<label for="${id}">${label}</label><input id="${id}" name="${id}" ${attributes}>`;

/**
 * The pay form; `status` 400 after invalid card data, 402 after a decline. A trial's form says
 * "Start trial": its submit checks the card and charges nothing.
 */
export function payPage(s: PageSummary, form: PayForm, status = 200): Page {
  if (form.acquirerPage) return acquirerPayPage(s, form, form.acquirerPage.origin, status);
  const w = wordsOf(s);
  const error = errorOf(form);
  const email =
    form.askEmail &&
    field(
      'email',
      w.email,
      html`type="email" autocomplete="email" required maxlength="${payFormLimits.email}" value="${form.email ?? ''}"`,
    );
  const { title, button } = formLabels(s);
  return page(
    status,
    title,
    html`<div class="card">
${summary(s)}
${error}
<form method="post" action="${form.action}" novalidate>
<input type="hidden" name="csrf_token" value="${form.csrf}">
${email}
${field('cardholder_name', w.cardholderName, html`autocomplete="cc-name" required maxlength="${payFormLimits.cardholder_name}" value="${form.holderName ?? ''}"`)}
${field('card_number', w.cardNumber, html`inputmode="numeric" autocomplete="cc-number" required maxlength="${payFormLimits.card_number}"`)}
<div class="row"><div>${field('exp_month', w.expMonth, html`inputmode="numeric" autocomplete="cc-exp-month" placeholder="MM" required maxlength="${payFormLimits.exp_month}"`)}</div>
<div>${field('exp_year', w.expYear, html`inputmode="numeric" autocomplete="cc-exp-year" placeholder="${w.yearPlaceholder}" required maxlength="${payFormLimits.exp_year}"`)}</div></div>
${field('cvc', w.securityCode, html`inputmode="numeric" autocomplete="cc-csc" required maxlength="${payFormLimits.cvc}"`)}
<button type="submit">${button}</button>
</form>
<p><small>${w.cardNote(s.merchantName)}</small></p>
</div>`,
    [form.returnUrl],
    undefined,
    s.lang,
  );
}

/** Why the last attempt failed, if it did: an alert above the form. */
const errorOf = (form: PayForm) => form.error && html`<p class="error" role="alert">${form.error}</p>`;

/** The title and button of a pay form: a payment, a trial's start, or a new card. */
function formLabels(s: PageSummary): { title: string; button: string } {
  const w = wordsOf(s);
  const trial = startsTrial(s);
  return {
    title: s.cardUpdate
      ? w.cardTitle(s.merchantName)
      : trial
        ? w.trialTitle(s.merchantName)
        : w.payTitle(s.merchantName),
    button: s.cardUpdate ? w.saveCard : trial ? w.startTrial : w.pay,
  };
}

/**
 * The pay form of a mode connected to Stripe: no card field at all (cobro never sees the card); its
 * submit is answered with a redirect to Stripe's page, so the acquirer's origin is a form target.
 */
function acquirerPayPage(s: PageSummary, form: PayForm, origin: string, status: number): Page {
  const w = wordsOf(s);
  const { title, button } = formLabels(s);
  return page(
    status,
    title,
    html`<div class="card">
${summary(s)}
${errorOf(form)}
<form method="post" action="${form.action}">
<input type="hidden" name="csrf_token" value="${form.csrf}">
<button type="submit">${button}</button>
</form>
<p><small>${w.payOnAcquirer(s.merchantName)}</small></p>
</div>`,
    [form.returnUrl, origin],
    undefined,
    s.lang,
  );
}

/**
 * A payment waiting on the acquirer's own page (the payer left it, or came back before it was
 * done): continue there (the form's submit is redirected to it again), or check again.
 */
export function acquirerPendingPage(
  s: PageSummary,
  form: { action: string; csrf: string; returnUrl: string; checkUrl: string; origin: string },
): Page {
  const w = wordsOf(s);
  const { title } = formLabels(s);
  return page(
    200,
    title,
    html`<div class="card">
${summary(s)}
<p>${w.stillOnAcquirer}</p>
<form method="post" action="${form.action}">
<input type="hidden" name="csrf_token" value="${form.csrf}">
<button type="submit">${w.continueOnAcquirer}</button>
</form>
<p><a href="${form.checkUrl}">${w.checkAgain}</a></p>
</div>`,
    [form.returnUrl, form.origin],
    undefined,
    s.lang,
  );
}

/** A live page of a mode connected to no acquirer: nothing can be paid (400, the API's refusal). */
export function notConnectedPage(s: PageSummary): Page {
  const w = wordsOf(s);
  return closedPage(s, 400, w.notConnectedTitle, w.notConnected);
}

/** The 3-D Secure challenge the card's bank asks for. */
export function challengePage(
  s: PageSummary,
  form: { action: string; csrf: string; returnUrl: string },
): Page {
  const w = wordsOf(s);
  // A trial's start and a new card are checked, not charged: the bank confirms the card.
  const checksOnly = s.cardUpdate === true || startsTrial(s);
  return page(
    200,
    checksOnly ? w.confirmCardTitle : w.confirmTitle,
    html`<div class="card">
${summary(s)}
<h2>${checksOnly ? w.bankAsksCard : w.bankAsks}</h2>
<p>${w.simulatedCheck}</p>
<form method="post" action="${form.action}">
<input type="hidden" name="csrf_token" value="${form.csrf}">
<button type="submit" name="outcome" value="pass">${w.completeAuthentication}</button>
<button type="submit" name="outcome" value="fail" class="secondary">${w.failAuthentication}</button>
</form>
</div>`,
    [form.returnUrl],
    undefined,
    s.lang,
  );
}

/** What a receipt shows of the charge: never more of the card than its brand and last 4 digits. */
export interface ReceiptDetails {
  reference: string;
  paidAt: string;
  cardBrand: string;
  cardLast4: string;
}

/** The receipt a payment link's page answers once it is paid, in the page's language. */
export function receiptPage(s: PageSummary, receipt: ReceiptDetails): Page {
  const lang = s.lang ?? 'en';
  const w = receiptWords[lang];
  const card =
    receipt.cardBrand || receipt.cardLast4
      ? displayCard({ brand: receipt.cardBrand, last4: receipt.cardLast4 }, lang)
      : '';
  return page(
    200,
    w.title,
    html`<div class="card">
${summary(s)}
<h2>${w.received}</h2>
<p>${w.approved}</p>
<dl>
<dt>${w.reference}</dt><dd>${receipt.reference}</dd>
<dt>${w.date}</dt><dd>${displayDateTime(receipt.paidAt, lang)}</dd>
${card && html`<dt>${w.card}</dt><dd>${card}</dd>`}
</dl>
<p><small>${w.keep}</small></p>
</div>`,
    [],
    undefined,
    lang,
  );
}

/**
 * A session that can no longer be paid (or not now), for whatever reason, with the status that
 * says why; `refreshSeconds` reloads it while its outcome is still coming.
 */
export function closedPage(
  s: PageSummary | undefined,
  status: number,
  title: string,
  message: string,
  refreshSeconds?: number,
  lang: Lang = s?.lang ?? 'en',
): Page {
  return page(
    status,
    title,
    html`<div class="card">${s && summary(s)}<h2>${title}</h2><p>${message}</p></div>`,
    [],
    refreshSeconds,
    lang,
  );
}

/**
 * A closed page that says more than one sentence (a saved card's page: the card, what became of
 * an overdue payment), with a link on when there is one (back to the customer portal).
 */
export function savedPage(
  s: PageSummary,
  title: string,
  paragraphs: readonly string[],
  link?: { label: string; url: string },
): Page {
  const said = paragraphs.map((text) => html`<p>${text}</p>`);
  const back = link && html`<p><a href="${link.url}">${link.label}</a></p>`;
  return page(
    200,
    title,
    html`<div class="card">${summary(s)}<h2>${title}</h2>${said}${back}</div>`,
    [],
    undefined,
    s.lang ?? 'en',
  );
}

/** An unknown checkout link, in the payer's language. */
export function unknownPage(lang: Lang = 'en'): Page {
  const w = pageWords[lang];
  return closedPage(undefined, 404, w.notFoundTitle, w.notFound, undefined, lang);
}
