/**
 * The customers pages of the dashboard as views: the customers list with the API list's search and
 * page numbers, one customer with their subscriptions and charges (each list paged on its own), and
 * the page that shows a portal link just made. Pure functions of what the domain read
 * (shared/dashboard/customers-http.ts), so they are tested without a stack.
 */
import type { Charge } from '../charges/charge.ts';
import { displayCard, displayDate, displayPrice } from '../core/display.ts';
import type { Lang } from '../core/messages.ts';
import { findCurrency } from '../core/money/currencies.ts';
import { totalPages } from '../core/pagination.ts';
import type { Customer } from '../customers/customer.ts';
import type { CustomerListQuery } from '../customers/schemas.ts';
import type { Subscription } from '../subscriptions/subscription.ts';
import { can } from '../team/roles.ts';
import { type Html, html } from '../web/html.ts';
import type { Page } from '../web/page.ts';
import type { Problem } from '../web/problems.ts';
import { details, idLink, money } from './charge-views.ts';
import { type CustomerWords, customerWords } from './customers-words.ts';
import {
  csrfForm,
  dashboardPage,
  link,
  messagePage,
  notice,
  pageLinks,
  refusal,
  type ShellContext,
} from './shell.ts';
import { dataTable } from './table.ts';
import { dashboardWords } from './words.ts';

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
): Html {
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
        ? idLink(customerUrl(view, subscription.customer_id), subscription.customer_id)
        : '';
      return [
        idLink(subscriptionUrl(view, subscription.id), subscription.id),
        subscription.plan.name,
        ...(options.customers ? [customer] : []),
        {
          html: c.statuses[subscription.status] ?? subscription.status,
          attributes: { 'data-status': subscription.status },
        },
        subscriptionAmount(subscription, view.lang),
        next ? displayDate(next, view.lang) : '',
        displayDate(subscription.created_at, view.lang),
      ];
    }),
  );
}

/** Page links of a numbered list: previous and next, with the list's other parameters kept. */
export function numberedPager(
  c: CustomerWords,
  page: number,
  pages: number,
  to: (page: number) => string,
): Html | undefined {
  if (pages <= 1 && page <= 1) return undefined;
  return pageLinks(
    c.pageOf(page, Math.max(pages, 1)),
    page > 1 ? { url: to(Math.min(page - 1, Math.max(pages, 1))), text: c.previousPage } : undefined,
    page < pages ? { url: to(page + 1), text: c.nextPage } : undefined,
  );
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
          link(customerUrl(view, customer.id), fullName(customer)),
          customer.email,
          customer.country ?? '',
          displayDate(customer.created_at, view.lang),
        ]),
      )
    : list && html`<p>${query?.search !== undefined ? c.noMatch(query.search) : c.noCustomers}</p>`;
  const pages =
    list &&
    query &&
    numberedPager(c, query.page.page, totalPages(list.count, query.page.pageSize), (page) => {
      const params = new URLSearchParams({ page: String(page), page_size: String(query.page.pageSize) });
      if (query.search !== undefined) params.set('search', query.search);
      return `${view.root}/customers?${params}`;
    });
  return dashboardPage(
    view,
    c.customersTitle,
    html`<form method="get" action="${`${view.root}/customers`}" role="search" class="card">
<label for="search">${c.searchLabel}</label>
<input id="search" name="search" type="search" maxlength="200" value="${search}" aria-describedby="search_help">
<p id="search_help" class="help">${c.searchHelp}</p>
<button type="submit">${c.search}</button> ${search && link(`${view.root}/customers`, c.clearSearch)}
</form>
${refusal(problem)}${list && html`<p role="status">${c.found(list.count)}</p>`}
<div class="card">${table}</div>
${pages}`,
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
function newerOlder(c: CustomerWords, list: CustomerListPage<unknown>, to: (page: number) => string) {
  const newer = list.page > 1 && html`<a href="${to(list.page - 1)}" rel="prev">${c.newer}</a>`;
  const older = list.more && html`<a href="${to(list.page + 1)}" rel="next">${c.older}</a>`;
  return (newer || older) && html`<p class="pager">${newer}${older}</p>`;
}

/** The customer's charges, newest first; each links to its charge's page. */
function customerChargeTable(view: ShellContext, charges: readonly Charge[]): Html {
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
      w.date(charge.created_at),
      idLink(chargeUrl(view, charge.id), charge.id),
      charge.description ?? '',
      money(charge.amount, charge.currency, view.lang),
      charge.refunded > 0 ? money(charge.refunded, charge.currency, view.lang) : '',
      displayCard(charge.card, view.lang),
    ]),
  );
}

/**
 * GET /dashboard/customers/{id}: the customer's fields, their subscriptions and their charges (each
 * a page of the customer's own index, `subscriptions_page` and `charges_page`), and, for a role that
 * may make one, the form that makes a portal link (with its key: a double submit makes one link).
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
  const fields = details([
    [f.id, html`<code>${customer.id}</code>`],
    [f.name, fullName(customer)],
    [f.email, customer.email],
    [f.phone, customer.phone ?? ''],
    [f.country, customer.country ?? ''],
    [f.created, displayDate(customer.created_at, view.lang)],
  ]);
  const to = (pages: { subscriptions: number; charges: number }) =>
    `${customerUrl(view, customer.id)}?${new URLSearchParams({
      subscriptions_page: String(pages.subscriptions),
      charges_page: String(pages.charges),
    })}`;
  const subscriptionList = subscriptions.records.length
    ? subscriptionTable(view, subscriptions.records, c, { customers: false, nextBilling })
    : html`<p>${c.noCustomerSubscriptions}</p>`;
  const chargeList = charges.records.length
    ? customerChargeTable(view, charges.records)
    : html`<p>${c.noCustomerCharges}</p>`;
  // The portal section is shown only to a role that may make a portal link; any other reads the customer.
  const portal =
    can(view.role, 'portal_link') &&
    html`
<section class="card" aria-labelledby="portal">
<h2 id="portal">${c.portalHeading}</h2>
<p>${c.portalIntro}</p>
${csrfForm(`${customerUrl(view, customer.id)}/portal`, view.csrf, html`<button type="submit">${c.makePortal}</button>`, { idempotency_key: portalKey })}
</section>`;
  return dashboardPage(
    view,
    c.customerTitle(fullName(customer)),
    html`<section class="card"><dl>
${fields}
</dl></section>
<section class="card" aria-labelledby="subscriptions">
<h2 id="subscriptions">${c.customerSubscriptions}</h2>
${subscriptionList}
${newerOlder(c, subscriptions, (page) => to({ subscriptions: page, charges: charges.page }))}
</section>
<section class="card" aria-labelledby="charges">
<h2 id="charges">${c.customerCharges}</h2>
${chargeList}
${newerOlder(c, charges, (page) => to({ subscriptions: subscriptions.page, charges: page }))}
</section>${portal}`,
  );
}

/**
 * POST /dashboard/customers/{id}/portal's answer: the link just made, in a read-only field to copy
 * (it is shown this once: the table keeps only a keyed hash of its token), and until when it opens.
 */
export function portalLinkPage(
  view: ShellContext,
  customer: Customer,
  made: { url: string; expires_at: string },
): Page {
  const c = customerWords[view.lang];
  const w = dashboardWords[view.lang];
  return dashboardPage(
    view,
    c.portalTitle,
    html`${notice(c.portalMade(fullName(customer)))}
<section class="card">
<label for="portal_url">${c.portalUrl}</label>
<input id="portal_url" type="url" readonly value="${made.url}" aria-describedby="portal_copy" spellcheck="false">
<p id="portal_copy" class="help">${c.portalCopy}</p>
<dl><dt>${c.portalExpires}</dt><dd><time datetime="${made.expires_at}">${w.date(made.expires_at)}</time></dd></dl>
<p><a href="${made.url}" target="_blank" rel="noopener noreferrer">${c.openPortal}</a></p>
</section>
<p>${link(customerUrl(view, customer.id), c.backToCustomer)}</p>`,
  );
}

/** A record that is not there (or a refusal with no page of its own), with a link back to its list. */
export function problemPage(
  view: ShellContext,
  problem: Problem,
  back: { url: string; label: string },
): Page {
  const w = dashboardWords[view.lang];
  return messagePage(
    view,
    problem.status,
    problem.status === 404 ? w.notFoundTitle : w.errorTitle,
    problem.message,
    { url: back.url, text: back.label },
  );
}
