/**
 * The customers pages of the dashboard as views: the customers list with the API list's search and
 * page numbers, one customer with their subscriptions and charges (each list paged on its own), and
 * the page that shows a portal link just made. Pure functions of what the domain read
 * (shared/dashboard/customers-http.ts), so they are tested without a stack.
 */
import type { Charge } from '../charges/charge.ts';
import { displayCard, displayDate, displayPrice } from '../core/display.ts';
import { escapeHtml } from '../core/html.ts';
import type { Lang } from '../core/messages.ts';
import { findCurrency } from '../core/money/currencies.ts';
import { totalPages } from '../core/pagination.ts';
import type { Customer } from '../customers/customer.ts';
import type { CustomerListQuery } from '../customers/schemas.ts';
import type { Subscription } from '../subscriptions/subscription.ts';
import type { Page } from '../web/page.ts';
import type { Problem } from '../web/problems.ts';
import { money } from './charge-views.ts';
import { type CustomerWords, customerWords } from './customers-words.ts';
import { csrfForm, dashboardPage, type ShellContext } from './shell.ts';
import { dataTable } from './table.ts';
import { dashboardWords } from './words.ts';

const error = (problem?: Problem) =>
  problem ? `<p class="error" role="alert">${escapeHtml(problem.message)}</p>` : '';

const href = (url: string) => `href="${escapeHtml(url)}"`;
export const customerUrl = (view: ShellContext, id: string) =>
  `${view.root}/customers/${encodeURIComponent(id)}`;
export const subscriptionUrl = (view: ShellContext, id: string) =>
  `${view.root}/subscriptions/${encodeURIComponent(id)}`;
const chargeUrl = (view: ShellContext, id: string) => `${view.root}/charges/${encodeURIComponent(id)}`;

export const fullName = (customer: Pick<Customer, 'first_name' | 'last_name'>) =>
  `${customer.first_name} ${customer.last_name}`.trim();

/**
 * A subscription's price per interval as every page writes it: unit price × quantity = total
 * ("10.50 USD × 2 = 21.00 USD / month"), the total alone for one.
 */
export function subscriptionAmount(subscription: Subscription, lang: Lang): string {
  const { plan, quantity } = subscription;
  const currency = findCurrency(plan.currency.toUpperCase());
  if (!currency) return money(plan.amount * quantity, plan.currency, lang);
  return displayPrice(
    {
      quantity,
      unitAmount: plan.amount,
      currency,
      interval: plan.interval,
      intervalCount: plan.interval_count,
    },
    lang,
  );
}

/** The subscriptions as a table, each id linking to its page; `customers` adds the customer's column. */
export function subscriptionTable(
  view: ShellContext,
  subscriptions: readonly Subscription[],
  c: CustomerWords,
  options: { customers: boolean; nextBilling: (subscription: Subscription) => string | null },
): string {
  const k = c.subscriptionColumns;
  return dataTable(
    [
      { heading: k.subscription },
      { heading: k.plan },
      ...(options.customers ? [{ heading: k.customer }] : []),
      { heading: k.status },
      { heading: k.amount },
      { heading: k.nextBilling, nowrap: true },
      { heading: k.created, nowrap: true },
    ],
    subscriptions.map((subscription) => {
      const next = options.nextBilling(subscription);
      const customer = subscription.customer_id
        ? `<a ${href(customerUrl(view, subscription.customer_id))}><code>${escapeHtml(subscription.customer_id)}</code></a>`
        : '';
      return [
        `<a ${href(subscriptionUrl(view, subscription.id))}><code>${escapeHtml(subscription.id)}</code></a>`,
        escapeHtml(subscription.plan.name),
        ...(options.customers ? [customer] : []),
        {
          html: escapeHtml(c.statuses[subscription.status] ?? subscription.status),
          attributes: { 'data-status': subscription.status },
        },
        escapeHtml(subscriptionAmount(subscription, view.lang)),
        next ? escapeHtml(displayDate(next, view.lang)) : '',
        escapeHtml(displayDate(subscription.created_at, view.lang)),
      ];
    }),
  );
}

/** Page links of a numbered list: previous and next, with the list's other parameters kept. */
export function numberedPager(
  c: CustomerWords,
  page: number,
  pages: number,
  link: (page: number) => string,
): string {
  if (pages <= 1 && page <= 1) return '';
  const previous =
    page > 1
      ? `<a ${href(link(Math.min(page - 1, Math.max(pages, 1))))} rel="prev">${escapeHtml(c.previousPage)}</a>`
      : '';
  const next = page < pages ? `<a ${href(link(page + 1))} rel="next">${escapeHtml(c.nextPage)}</a>` : '';
  return `<p class="pager"><span>${escapeHtml(c.pageOf(page, Math.max(pages, 1)))}</span>${previous}${next}</p>`;
}

/**
 * GET /dashboard/customers: one page of the API's customer list (newest first, or narrowed by
 * `search`), with the search form and the page links.
 */
export function customersPage(
  view: ShellContext,
  list: { count: number; customers: readonly Customer[] } | undefined,
  query: CustomerListQuery | undefined,
  search: string,
  problem?: Problem,
): Page {
  const c = customerWords[view.lang];
  const k = c.customerColumns;
  const table = list?.customers.length
    ? dataTable(
        [
          { heading: k.name },
          { heading: k.email },
          { heading: k.country },
          { heading: k.created, nowrap: true },
        ],
        list.customers.map((customer) => [
          `<a ${href(customerUrl(view, customer.id))}>${escapeHtml(fullName(customer))}</a>`,
          escapeHtml(customer.email),
          escapeHtml(customer.country ?? ''),
          escapeHtml(displayDate(customer.created_at, view.lang)),
        ]),
      )
    : list
      ? `<p>${escapeHtml(query?.search !== undefined ? c.noMatch(query.search) : c.noCustomers)}</p>`
      : '';
  const pager =
    list && query
      ? numberedPager(c, query.page.page, totalPages(list.count, query.page.pageSize), (page) => {
          const params = new URLSearchParams({ page: String(page), page_size: String(query.page.pageSize) });
          if (query.search !== undefined) params.set('search', query.search);
          return `${view.root}/customers?${params}`;
        })
      : '';
  const clear = search ? `<a ${href(`${view.root}/customers`)}>${escapeHtml(c.clearSearch)}</a>` : '';
  return dashboardPage(
    view,
    c.customersTitle,
    `<form method="get" action="${escapeHtml(`${view.root}/customers`)}" role="search" class="card">
<label for="search">${escapeHtml(c.searchLabel)}</label>
<input id="search" name="search" type="search" maxlength="200" value="${escapeHtml(search)}" aria-describedby="search_help">
<p id="search_help" class="help">${escapeHtml(c.searchHelp)}</p>
<button type="submit">${escapeHtml(c.search)}</button> ${clear}
</form>
${error(problem)}${list ? `<p role="status">${escapeHtml(c.found(list.count))}</p>` : ''}
<div class="card">${table}</div>
${pager}`,
    problem?.status ?? 200,
  );
}

/** One page of a customer's own list (their subscriptions or charges), and whether more follow. */
export interface CustomerListPage<T> {
  records: readonly T[];
  more: boolean;
  page: number;
}

/** Newer and older links of a per-customer list, the other list's page kept. */
function newerOlder(
  c: CustomerWords,
  list: CustomerListPage<unknown>,
  link: (page: number) => string,
): string {
  const newer = list.page > 1 ? `<a ${href(link(list.page - 1))} rel="prev">${escapeHtml(c.newer)}</a>` : '';
  const older = list.more ? `<a ${href(link(list.page + 1))} rel="next">${escapeHtml(c.older)}</a>` : '';
  return newer || older ? `<p class="pager">${newer}${older}</p>` : '';
}

/** The customer's charges, newest first; each links to its charge's page. */
function customerChargeTable(view: ShellContext, charges: readonly Charge[]): string {
  const w = dashboardWords[view.lang];
  const k = w.columns;
  return dataTable(
    [
      { heading: k.date, nowrap: true },
      { heading: k.id },
      { heading: k.description },
      { heading: k.amount, numeric: true },
      { heading: k.refunded, numeric: true },
      { heading: k.card, nowrap: true },
    ],
    charges.map((charge) => [
      escapeHtml(w.date(charge.created_at)),
      `<a ${href(chargeUrl(view, charge.id))}><code>${escapeHtml(charge.id)}</code></a>`,
      escapeHtml(charge.description ?? ''),
      escapeHtml(money(charge.amount, charge.currency, view.lang)),
      charge.refunded > 0 ? escapeHtml(money(charge.refunded, charge.currency, view.lang)) : '',
      escapeHtml(displayCard(charge.card, view.lang)),
    ]),
  );
}

/**
 * GET /dashboard/customers/{id}: the customer's fields, their subscriptions and their charges (each
 * a page of the customer's own index, `subscriptions_page` and `charges_page`), and the form that
 * makes a portal link (with its key: a double submit makes one link).
 */
export function customerPage(
  view: ShellContext,
  customer: Customer,
  subscriptions: CustomerListPage<Subscription>,
  charges: CustomerListPage<Charge>,
  nextBilling: (subscription: Subscription) => string | null,
  portalKey: string,
): Page {
  const c = customerWords[view.lang];
  const f = c.customerFields;
  const row = (name: string, value: string) => `<dt>${escapeHtml(name)}</dt><dd>${value}</dd>`;
  const details = [
    row(f.id, `<code>${escapeHtml(customer.id)}</code>`),
    row(f.name, escapeHtml(fullName(customer))),
    row(f.email, escapeHtml(customer.email)),
    row(f.phone, escapeHtml(customer.phone ?? '')),
    row(f.country, escapeHtml(customer.country ?? '')),
    row(f.created, escapeHtml(displayDate(customer.created_at, view.lang))),
  ].join('\n');
  const link = (pages: { subscriptions: number; charges: number }) =>
    `${customerUrl(view, customer.id)}?${new URLSearchParams({
      subscriptions_page: String(pages.subscriptions),
      charges_page: String(pages.charges),
    })}`;
  const subscriptionList = subscriptions.records.length
    ? subscriptionTable(view, subscriptions.records, c, { customers: false, nextBilling })
    : `<p>${escapeHtml(c.noCustomerSubscriptions)}</p>`;
  const chargeList = charges.records.length
    ? customerChargeTable(view, charges.records)
    : `<p>${escapeHtml(c.noCustomerCharges)}</p>`;
  return dashboardPage(
    view,
    c.customerTitle(fullName(customer)),
    `<section class="card"><dl>
${details}
</dl></section>
<section class="card" aria-labelledby="subscriptions">
<h2 id="subscriptions">${escapeHtml(c.customerSubscriptions)}</h2>
${subscriptionList}
${newerOlder(c, subscriptions, (page) => link({ subscriptions: page, charges: charges.page }))}
</section>
<section class="card" aria-labelledby="charges">
<h2 id="charges">${escapeHtml(c.customerCharges)}</h2>
${chargeList}
${newerOlder(c, charges, (page) => link({ subscriptions: subscriptions.page, charges: page }))}
</section>
<section class="card" aria-labelledby="portal">
<h2 id="portal">${escapeHtml(c.portalHeading)}</h2>
<p>${escapeHtml(c.portalIntro)}</p>
${csrfForm(`${customerUrl(view, customer.id)}/portal`, view.csrf, `<button type="submit">${escapeHtml(c.makePortal)}</button>`, { idempotency_key: portalKey })}
</section>`,
  );
}

/**
 * POST /dashboard/customers/{id}/portal's answer: the link just made, in a read-only field to copy
 * (it is shown this once: the table keeps only a keyed hash of its token), and until when it opens.
 */
export function portalLinkPage(
  view: ShellContext,
  customer: Customer,
  link: { url: string; expires_at: string },
): Page {
  const c = customerWords[view.lang];
  const w = dashboardWords[view.lang];
  return dashboardPage(
    view,
    c.portalTitle,
    `<p class="notice" role="status">${escapeHtml(c.portalMade(fullName(customer)))}</p>
<section class="card">
<label for="portal_url">${escapeHtml(c.portalUrl)}</label>
<input id="portal_url" type="url" readonly value="${escapeHtml(link.url)}" aria-describedby="portal_copy" spellcheck="false">
<p id="portal_copy" class="help">${escapeHtml(c.portalCopy)}</p>
<dl><dt>${escapeHtml(c.portalExpires)}</dt><dd><time datetime="${escapeHtml(link.expires_at)}">${escapeHtml(w.date(link.expires_at))}</time></dd></dl>
<p><a ${href(link.url)} target="_blank" rel="noopener noreferrer">${escapeHtml(c.openPortal)}</a></p>
</section>
<p><a ${href(customerUrl(view, customer.id))}>${escapeHtml(c.backToCustomer)}</a></p>`,
  );
}

/** A record that is not there (or a refusal with no page of its own), with a link back to its list. */
export function problemPage(
  view: ShellContext,
  problem: Problem,
  back: { url: string; label: string },
): Page {
  const w = dashboardWords[view.lang];
  return dashboardPage(
    view,
    problem.status === 404 ? w.notFoundTitle : w.errorTitle,
    `${error(problem)}
<p><a ${href(back.url)}>${escapeHtml(back.label)}</a></p>`,
    problem.status,
  );
}
