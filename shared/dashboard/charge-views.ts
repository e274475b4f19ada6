/**
 * The charges pages of the dashboard as views: the overview's newest charges, the charges list with
 * the API list's paging, and one charge with its refunds and the refund form. Pure functions of the
 * records the domain read (shared/dashboard/charges-http.ts), so they are tested without a stack.
 */
import type { Charge } from '../charges/charge.ts';
import { displayCard, displayDate } from '../core/display.ts';
import { escapeHtml } from '../core/html.ts';
import type { Lang } from '../core/messages.ts';
import { displayAmount } from '../core/money/amount.ts';
import { findCurrency } from '../core/money/currencies.ts';
import type { PaymentListQuery } from '../payments/list-query.ts';
import type { Refund } from '../refunds/refund.ts';
import { refundReasons } from '../refunds/schemas.ts';
import { overviewSection } from '../stats/charts.ts';
import type { Overview } from '../stats/repository.ts';
import type { Page } from '../web/page.ts';
import { csrfForm, dashboardPage, type ShellContext } from './shell.ts';
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

/**
 * The charges as a table, newest first; each id links to its page, and its customer's id (kept as
 * the text) to the customer's page.
 */
function chargeTable(
  view: ShellContext,
  charges: readonly Charge[],
  w: DashboardWords,
  empty = w.noCharges,
): string {
  if (!charges.length) return `<p>${escapeHtml(empty)}</p>`;
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
      escapeHtml(w.date(charge.created_at)),
      `<a href="${escapeHtml(chargeUrl(view, charge.id))}"><code>${escapeHtml(charge.id)}</code></a>`,
      escapeHtml(charge.description ?? ''),
      escapeHtml(money(charge.amount, charge.currency, view.lang)),
      charge.refunded > 0 ? escapeHtml(money(charge.refunded, charge.currency, view.lang)) : '',
      escapeHtml(displayCard(charge.card, view.lang)),
      charge.customer_id
        ? `<a href="${escapeHtml(customerUrl(view, charge.customer_id))}"><code>${escapeHtml(charge.customer_id)}</code></a>`
        : '',
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
    `${overviewSection(figures, view.lang)}
<section class="card" aria-labelledby="newest">
<h2 id="newest">${escapeHtml(w.newestCharges)}</h2>
${chargeTable(view, newest, w)}
<p><a href="${escapeHtml(`${view.root}/charges`)}">${escapeHtml(w.allCharges)}</a></p>
</section>`,
  );
}

/** The page sizes the charges page offers (the API's list takes any from 1 to 1000). */
const pageSizes = [25, 100, 500, 1000] as const;

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
): string {
  const action = escapeHtml(`${view.root}/charges`);
  const limit = query?.limit;
  const sizes = [...new Set([...pageSizes, ...(limit !== undefined ? [limit] : [])])].sort((a, b) => a - b);
  const options = sizes
    .map((size) => `<option value="${size}"${size === limit ? ' selected' : ''}>${size}</option>`)
    .join('');
  const before = query?.createdBefore?.slice(0, 10) ?? '';
  return `<div class="forms">
<form method="get" action="${action}" role="search" class="card">
<label for="find">${escapeHtml(w.findLabel)}</label>
<input id="find" name="find" type="search" maxlength="100" spellcheck="false" autocomplete="off" value="${escapeHtml(find)}" aria-describedby="find_help">
<p id="find_help" class="help">${escapeHtml(w.findHelp)}</p>
<button type="submit">${escapeHtml(w.find)}</button>
</form>
<form method="get" action="${action}" class="card">
<label for="created_before">${escapeHtml(w.createdBefore)}</label>
<input id="created_before" name="created_before" type="date" value="${escapeHtml(before)}">
<label for="limit">${escapeHtml(w.perPage)}</label>
<select id="limit" name="limit">${options}</select>
<button type="submit">${escapeHtml(w.filter)}</button>
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
  problem?: { status: number; message: string },
  find = '',
): Page {
  const w = dashboardWords[view.lang];
  const last = charges.at(-1);
  const limit = query?.limit;
  const older =
    last && limit !== undefined && charges.length >= limit
      ? `<a href="${escapeHtml(`${view.root}/charges?${new URLSearchParams({ limit: String(limit), created_before: last.created_at })}`)}" rel="next">${escapeHtml(w.olderCharges)}</a>`
      : '';
  const newest = query?.createdBefore
    ? `<a href="${escapeHtml(`${view.root}/charges`)}">${escapeHtml(w.newestFirst)}</a>`
    : '';
  const error = problem ? `<p class="error" role="alert">${escapeHtml(problem.message)}</p>` : '';
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
    `${chargeForms(view, query, find, w)}
${error}<div class="card">${chargeTable(view, charges, w, empty)}</div>
${older || newest ? `<p class="pager">${newest}${older}</p>` : ''}`,
    problem?.status ?? 200,
  );
}

/** What the refund form shows again after an error: the values posted, and the same idempotency key. */
export interface RefundFormState {
  idempotencyKey: string;
  amount?: string;
  reason?: string;
  /** What the domain answered, with the status the API answers it with. */
  problem?: { status: number; message: string };
  /** The refund just made (after the 303 back to the page). */
  made?: Refund;
}

/** GET /dashboard/charges/{id}: the charge, its refunds, and the refund form while any is left. */
export function chargePage(
  view: ShellContext,
  charge: Charge,
  refunds: readonly Refund[],
  form: RefundFormState,
): Page {
  const w = dashboardWords[view.lang];
  const f = w.chargeFields;
  const amount = (minor: number) => escapeHtml(money(minor, charge.currency, view.lang));
  const row = (name: string, value: string) => `<dt>${escapeHtml(name)}</dt><dd>${value}</dd>`;
  const code = (value: string | null | undefined) => (value ? `<code>${escapeHtml(value)}</code>` : '');
  const details = [
    row(f.status, escapeHtml(w.succeeded)),
    row(f.amount, amount(charge.amount)),
    row(f.fee, amount(charge.fee)),
    row(f.net, amount(charge.net)),
    row(f.refunded, amount(charge.refunded)),
    row(f.refundable, amount(charge.refundable)),
    row(f.card, escapeHtml(displayCard(charge.card, view.lang))),
    row(f.description, escapeHtml(charge.description ?? '')),
    row(
      f.customer,
      charge.customer_id
        ? `<a href="${escapeHtml(customerUrl(view, charge.customer_id))}">${code(charge.customer_id)}</a>`
        : '',
    ),
    row(f.payment, code(charge.payment_id)),
    ...(charge.subscription_id ? [row(f.subscription, code(charge.subscription_id))] : []),
    row(f.created, escapeHtml(w.date(charge.created_at))),
    ...(charge.paid_out_at ? [row(f.paidOut, escapeHtml(w.date(charge.paid_out_at)))] : []),
  ].join('\n');
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
          escapeHtml(w.date(refund.created_at)),
          escapeHtml(money(refund.amount, refund.currency, view.lang)),
          escapeHtml(w.reasons[refund.reason] ?? refund.reason),
          `<code>${escapeHtml(`re_${refund.id}`)}</code>`,
        ]),
      )
    : `<p>${escapeHtml(w.noRefunds)}</p>`;
  const made = form.made
    ? `<p class="notice" role="status">${escapeHtml(w.refunded(money(form.made.amount, form.made.currency, view.lang)))}</p>`
    : '';
  const problem = form.problem ? `<p class="error" role="alert">${escapeHtml(form.problem.message)}</p>` : '';
  const chosen = form.reason ?? 'requested_by_customer';
  const options = refundReasons
    .map(
      (reason) =>
        `<option value="${reason}"${reason === chosen ? ' selected' : ''}>${escapeHtml(w.reasons[reason] ?? reason)}</option>`,
    )
    .join('');
  const refundForm = charge.paid_out_at
    ? `<p>${escapeHtml(w.paidOutNote)}</p>`
    : charge.refundable <= 0
      ? `<p>${escapeHtml(w.notRefundable)}</p>`
      : csrfForm(
          `${chargeUrl(view, charge.id)}/refunds`,
          view.csrf,
          `<label for="amount">${escapeHtml(w.refundAmount(money(charge.refundable, charge.currency, view.lang)))}</label>
<input id="amount" name="amount" inputmode="decimal" autocomplete="off" maxlength="32" value="${escapeHtml(form.amount ?? '')}">
<label for="reason">${escapeHtml(w.refundReason)}</label>
<select id="reason" name="reason">${options}</select>
<button type="submit">${escapeHtml(w.refund)}</button>`,
          { idempotency_key: form.idempotencyKey },
        );
  // The refunds' table holds nothing a keyboard can reach: its card, which scrolls sideways on a
  // narrow screen, takes the focus itself so the table can be scrolled without a mouse.
  return dashboardPage(
    view,
    w.chargeTitle(charge.id),
    `${made}${problem}<section class="card"><dl>
${details}
</dl></section>
<section class="card" aria-labelledby="refunds" tabindex="0">
<h2 id="refunds">${escapeHtml(w.refunds)}</h2>
${refundList}
</section>
<section class="card" aria-labelledby="refund">
<h2 id="refund">${escapeHtml(w.refundTitle)}</h2>
${refundForm}
</section>`,
    form.problem?.status ?? 200,
  );
}
