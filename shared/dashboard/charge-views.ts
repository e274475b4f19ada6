/**
 * The charges pages of the dashboard as views: the overview's newest charges, the charges list with
 * the API list's paging, and one charge with its refunds and the refund form. Pure functions of the
 * records the domain read (shared/dashboard/charges-http.ts), so they are tested without a stack.
 */
import type { Charge } from '../charges/charge.ts';
import { displayCard, displayDate } from '../core/display.ts';
import type { Lang } from '../core/messages.ts';
import { displayAmount } from '../core/money/amount.ts';
import { findCurrency } from '../core/money/currencies.ts';
import type { PaymentListQuery } from '../payments/list-query.ts';
import type { Refund } from '../refunds/refund.ts';
import { refundReasons } from '../refunds/schemas.ts';
import { overviewSection } from '../stats/charts.ts';
import type { Overview } from '../stats/repository.ts';
import { can } from '../team/roles.ts';
import { type Html, html, joinHtml } from '../web/html.ts';
import type { Page } from '../web/page.ts';
import type { Problem } from '../web/problems.ts';
import { csrfForm, dashboardPage, link, notice, refusal, type ShellContext } from './shell.ts';
import { dataTable } from './table.ts';
import { type DashboardWords, dashboardWords } from './words.ts';

/**
 * An amount as every page of cobro writes it: the currency's own decimals in the reader's number
 * format (`1,234.50 USD`, `1.234,50 USD`).
 */
export function money(minor: number, currency: string, lang: Lang): string {
  const found = findCurrency(currency.toUpperCase());
  return found ? displayAmount(minor, found, lang) : `${minor} ${currency.toUpperCase()}`;
}

const chargeUrl = (view: ShellContext, id: string) => `${view.root}/charges/${encodeURIComponent(id)}`;
const customerUrl = (view: ShellContext, id: string) => `${view.root}/customers/${encodeURIComponent(id)}`;

/** An id as the pages write one: as code, linked to its page. */
export const idLink = (url: string, id: string): Html => html`<a href="${url}"><code>${id}</code></a>`;

/**
 * The charges as a table, newest first; each id links to its page, and its customer's id (kept as
 * the text) to the customer's page.
 */
function chargeTable(
  view: ShellContext,
  charges: readonly Charge[],
  w: DashboardWords,
  empty = w.noCharges,
): Html {
  if (!charges.length) return html`<p>${empty}</p>`;
  const c = w.columns;
  return dataTable(
    [
      { heading: c.date, nowrap: true },
      { heading: c.id },
      { heading: c.description },
      { heading: c.amount, numeric: true },
      { heading: c.refunded, numeric: true },
      { heading: c.card, nowrap: true },
      { heading: c.customer },
    ],
    charges.map((charge) => [
      w.date(charge.created_at),
      idLink(chargeUrl(view, charge.id), charge.id),
      charge.description ?? '',
      money(charge.amount, charge.currency, view.lang),
      charge.refunded > 0 ? money(charge.refunded, charge.currency, view.lang) : '',
      displayCard(charge.card, view.lang),
      charge.customer_id ? idLink(customerUrl(view, charge.customer_id), charge.customer_id) : '',
    ]),
  );
}

/**
 * GET /dashboard/: the last 30 days' figures and charts of the account and mode (from the counters
 * the stats area keeps, shared/stats/charts.ts draws them), then the newest charges.
 */
export function overviewPage(view: ShellContext, newest: readonly Charge[], figures: Overview): Page {
  const w = dashboardWords[view.lang];
  return dashboardPage(
    view,
    w.sections.overview,
    html`${overviewSection(figures, view.lang)}
<section class="card" aria-labelledby="newest">
<h2 id="newest">${w.newestCharges}</h2>
${chargeTable(view, newest, w)}
<p>${link(`${view.root}/charges`, w.allCharges)}</p>
</section>`,
  );
}

/** The page sizes the charges page offers (the API's list takes any from 1 to 1000). */
const pageSizes = [25, 100, 500, 1000] as const;

/** Options of a select, `chosen` selected; `choices` are [value, shown]. */
export const options = (choices: readonly (readonly [string | number, string | number])[], chosen: unknown) =>
  choices.map(
    ([value, shown]) =>
      html`<option value="${value}"${value === chosen && html` selected`}>${shown}</option>`,
  );

/**
 * The charges page's two forms (both GET, so a search or a filter is a link one can share): find one
 * charge by its id or its payment's id, and the list's own filters (created before a UTC day, how
 * many per page).
 */
function chargeForms(
  view: ShellContext,
  query: PaymentListQuery | undefined,
  find: string,
  w: DashboardWords,
): Html {
  const action = `${view.root}/charges`;
  const limit = query?.limit;
  const sizes = [...new Set([...pageSizes, ...(limit !== undefined ? [limit] : [])])].sort((a, b) => a - b);
  const before = query?.createdBefore?.slice(0, 10) ?? '';
  return html`<div class="forms">
<form method="get" action="${action}" role="search" class="card">
<label for="find">${w.findLabel}</label>
<input id="find" name="find" type="search" maxlength="100" spellcheck="false" autocomplete="off" value="${find}" aria-describedby="find_help">
<p id="find_help" class="help">${w.findHelp}</p>
<button type="submit">${w.find}</button>
</form>
<form method="get" action="${action}" class="card">
<label for="created_before">${w.createdBefore}</label>
<input id="created_before" name="created_before" type="date" value="${before}">
<label for="limit">${w.perPage}</label>
<select id="limit" name="limit">${options(
    sizes.map((size) => [size, size]),
    limit,
  )}</select>
<button type="submit">${w.filter}</button>
</form>
</div>`;
}

/**
 * GET /dashboard/charges: one page of the API's charge list. "Older" asks for the charges created
 * before the last one shown, with the same limit, as a client of GET /v1/payments/ pages.
 */
export function chargesPage(
  view: ShellContext,
  charges: readonly Charge[],
  query: PaymentListQuery | undefined,
  problem?: Problem,
  find = '',
): Page {
  const w = dashboardWords[view.lang];
  const last = charges.at(-1);
  const limit = query?.limit;
  const older =
    last &&
    limit !== undefined &&
    charges.length >= limit &&
    html`<a href="${`${view.root}/charges?${new URLSearchParams({ limit: String(limit), created_before: last.created_at })}`}" rel="next">${w.olderCharges}</a>`;
  const newest = query?.createdBefore && link(`${view.root}/charges`, w.newestFirst);
  // Filtered to none is not "no charges yet": it says the filter's day (or moment, from "Older").
  const before = query?.createdBefore;
  const empty = before
    ? w.noChargesBefore(
        before.slice(10) === 'T00:00:00.000Z' ? displayDate(before, view.lang) : w.date(before),
      )
    : w.noCharges;
  return dashboardPage(
    view,
    w.chargesTitle,
    html`${chargeForms(view, query, find, w)}
${refusal(problem)}<div class="card">${chargeTable(view, charges, w, empty)}</div>
${(older || newest) && html`<p class="pager">${newest}${older}</p>`}`,
    problem?.status ?? 200,
  );
}

/** What the refund form shows again after an error: the values posted, and the same idempotency key. */
export interface RefundFormState {
  idempotencyKey: string;
  amount?: string;
  reason?: string;
  /** What the domain answered, with the status the API answers it with. */
  problem?: Problem;
  /** The refund just made (after the 303 back to the page). */
  made?: Refund;
}

/** A list of details: each name a `<dt>`, its value (text or markup) a `<dd>`, a line each. */
export const details = (rows: readonly (readonly [name: string, value: Html | string])[]): Html =>
  joinHtml(
    rows.map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`),
    '\n',
  );

/**
 * GET /dashboard/charges/{id}: the charge, its refunds, and the refund form while any is left (for
 * a role that may refund).
 */
export function chargePage(
  view: ShellContext,
  charge: Charge,
  refunds: readonly Refund[],
  form: RefundFormState,
): Page {
  const w = dashboardWords[view.lang];
  const f = w.chargeFields;
  const amount = (minor: number) => money(minor, charge.currency, view.lang);
  const code = (value: string | null | undefined) => value && html`<code>${value}</code>`;
  const fields: [string, Html | string][] = [
    [f.status, w.succeeded],
    [f.amount, amount(charge.amount)],
    [f.fee, amount(charge.fee)],
    [f.net, amount(charge.net)],
    [f.refunded, amount(charge.refunded)],
    [f.refundable, amount(charge.refundable)],
    [f.card, displayCard(charge.card, view.lang)],
    [f.description, charge.description ?? ''],
    [
      f.customer,
      html`${charge.customer_id && html`<a href="${customerUrl(view, charge.customer_id)}">${code(charge.customer_id)}</a>`}`,
    ],
    [f.payment, html`${code(charge.payment_id)}`],
    ...(charge.subscription_id
      ? [[f.subscription, html`${code(charge.subscription_id)}`] as [string, Html]]
      : []),
    [f.created, w.date(charge.created_at)],
    ...(charge.paid_out_at ? [[f.paidOut, w.date(charge.paid_out_at)] as [string, string]] : []),
  ];
  const c = w.columns;
  const refundList = refunds.length
    ? dataTable(
        [
          { heading: c.date, nowrap: true },
          { heading: c.amount, numeric: true },
          { heading: c.reason },
          { heading: 'ID' },
        ],
        refunds.map((refund) => [
          w.date(refund.created_at),
          money(refund.amount, refund.currency, view.lang),
          w.reasons[refund.reason] ?? refund.reason,
          html`<code>${`re_${refund.id}`}</code>`,
        ]),
      )
    : html`<p>${w.noRefunds}</p>`;
  const made = notice(form.made && w.refunded(money(form.made.amount, form.made.currency, view.lang)));
  const chosen = form.reason ?? 'requested_by_customer';
  // The refund section (its form, or why there is none) is shown only to a role that may refund:
  // any other reads the charge and its refunds.
  const mayRefund = can(view.role, 'refund');
  const refundForm = charge.paid_out_at
    ? html`<p>${w.paidOutNote}</p>`
    : charge.refundable <= 0
      ? html`<p>${w.notRefundable}</p>`
      : csrfForm(
          `${chargeUrl(view, charge.id)}/refunds`,
          view.csrf,
          html`<label for="amount">${w.refundAmount(money(charge.refundable, charge.currency, view.lang))}</label>
<input id="amount" name="amount" inputmode="decimal" autocomplete="off" maxlength="32" value="${form.amount ?? ''}">
<label for="reason">${w.refundReason}</label>
<select id="reason" name="reason">${options(
            refundReasons.map((reason) => [reason, w.reasons[reason] ?? reason]),
            chosen,
          )}</select>
<button type="submit">${w.refund}</button>`,
          { idempotency_key: form.idempotencyKey },
        );
  // The refunds' table holds nothing a keyboard can reach: its card, which scrolls sideways on a
  // narrow screen, takes the focus itself so the table can be scrolled without a mouse.
  return dashboardPage(
    view,
    w.chargeTitle(charge.id),
    html`${made}${refusal(form.problem)}<section class="card"><dl>
${details(fields)}
</dl></section>
<section class="card" aria-labelledby="refunds" tabindex="0">
<h2 id="refunds">${w.refunds}</h2>
${refundList}
</section>${
      mayRefund &&
      html`
<section class="card" aria-labelledby="refund">
<h2 id="refund">${w.refundTitle}</h2>
${refundForm}
</section>`
    }`,
    form.problem?.status ?? 200,
  );
}
