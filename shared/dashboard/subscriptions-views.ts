/**
 * The subscriptions pages of the dashboard as views: the list with the API list's filters (status,
 * plan) and page numbers, one subscription, and the step that confirms a cancel before it is made.
 * Pure functions of what the domain read (shared/dashboard/subscriptions-http.ts).
 */
import { displayCard, displayDate, displayPeriod } from '../core/display.ts';
import type { NumberedPage } from '../core/pagination.ts';
import type { Subscription, SubscriptionView } from '../subscriptions/subscription.ts';
import { overdueOf, subscriptionStatuses } from '../subscriptions/subscription.ts';
import { type Html, html } from '../web/html.ts';
import type { Page } from '../web/page.ts';
import type { Problem } from '../web/problems.ts';
import { details, idLink, money, options } from './charge-views.ts';
import {
  customerUrl,
  numberedPager,
  subscriptionAmount,
  subscriptionTable,
  subscriptionUrl,
} from './customers-views.ts';
import { customerWords } from './customers-words.ts';
import { confirmPage, dashboardPage, link, notice, refusal, type ShellContext } from './shell.ts';
import { dashboardWords } from './words.ts';

/** The list's filters as the page was asked for them (what the form shows again). */
export interface SubscriptionFilters {
  status?: string | undefined;
  planId?: string | undefined;
  pageSize?: number | undefined;
}

/**
 * GET /dashboard/subscriptions: one page of the API's subscription list (newest first, pending
 * ones included), by status and plan, with the filter form and the page links.
 */
export function subscriptionsPage(
  view: ShellContext,
  page: NumberedPage<Subscription> | undefined,
  filters: SubscriptionFilters,
  nextBilling: (subscription: Subscription) => string | null,
  problem?: Problem,
): Page {
  const c = customerWords[view.lang];
  const statuses = options(
    [['', c.anyStatus], ...subscriptionStatuses.map((status) => [status, c.statuses[status]] as const)],
    // "Any status" is never marked chosen: the form shows it first when none is.
    filters.status,
  );
  const list = page?.results.length
    ? subscriptionTable(view, page.results, c, { customers: true, nextBilling })
    : page && html`<p>${c.noSubscriptions}</p>`;
  const pages =
    page &&
    numberedPager(c, page.current_page, page.total_pages, (number) => {
      const params = new URLSearchParams({ page: String(number) });
      if (filters.pageSize !== undefined) params.set('page_size', String(filters.pageSize));
      if (filters.status) params.set('status', filters.status);
      if (filters.planId) params.set('plan_id', filters.planId);
      return `${view.root}/subscriptions?${params}`;
    });
  return dashboardPage(
    view,
    c.subscriptionsTitle,
    html`<form method="get" action="${`${view.root}/subscriptions`}" class="card">
<label for="status">${c.statusFilter}</label>
<select id="status" name="status">${statuses}</select>
<label for="plan_id">${c.planFilter}</label>
<input id="plan_id" name="plan_id" maxlength="100" spellcheck="false" value="${filters.planId ?? ''}" aria-describedby="plan_help">
<p id="plan_help" class="help">${c.planFilterHelp}</p>
<button type="submit">${c.filter}</button>
</form>
${refusal(problem)}
<div class="card">${list}</div>
${pages}`,
    problem?.status ?? 200,
  );
}

/** What the subscription's page says after a cancel, or why a cancel was refused. */
export type SubscriptionNotice = { kind: 'canceled' } | { kind: 'problem'; problem: Problem };

/**
 * GET /dashboard/subscriptions/{id}: the plan, quantity, amount per interval, status, period, card
 * and customer; while it is not canceled, the way to cancel it (a confirmation page first).
 */
export function subscriptionPage(
  view: ShellContext,
  subscription: Subscription,
  shown: SubscriptionView,
  said?: SubscriptionNotice,
): Page {
  const c = customerWords[view.lang];
  const f = c.subscriptionFields;
  const date = dashboardWords[view.lang].date;
  const { plan } = subscription;
  const period =
    shown.current_period_start && shown.current_period_end
      ? displayPeriod(shown.current_period_start, shown.current_period_end, view.lang)
      : '';
  const card = subscription.card ? displayCard(subscription.card, view.lang) : c.noCard;
  const customer = subscription.customer_id
    ? idLink(customerUrl(view, subscription.customer_id), subscription.customer_id)
    : c.noCustomer;
  const fields: [string, Html | string][] = [
    [f.plan, html`${plan.name} <small>(<code>${subscription.plan_id}</code>)</small>`],
    [f.quantity, String(subscription.quantity)],
    [f.amount, subscriptionAmount(subscription, view.lang)],
    [
      f.status,
      html`<span data-status="${subscription.status}">${c.statuses[subscription.status] ?? subscription.status}</span>`,
    ],
    // A canceled subscription has no current period: its last one is shown as such.
    [subscription.status === 'canceled' ? f.lastPeriod : f.period, period],
    ...(shown.next_billing_date
      ? [[f.nextBilling, displayDate(shown.next_billing_date, view.lang)] as [string, string]]
      : []),
    // A trial canceled before its end never reaches it: no end date to show.
    ...(subscription.trial_end &&
    !(subscription.canceled_at && subscription.canceled_at < subscription.trial_end)
      ? [[f.trialEnd, displayDate(subscription.trial_end, view.lang)] as [string, string]]
      : []),
    [f.card, card],
    [f.customer, customer],
    [f.created, date(subscription.created_at)],
    ...(subscription.canceled_at ? [[f.canceled, date(subscription.canceled_at)] as [string, string]] : []),
  ];
  const owed = overdueOf(subscription);
  const overdue =
    owed &&
    refusal({
      message: c.overdue(
        money(owed.amount, owed.currency, view.lang),
        displayDate(owed.since, view.lang),
        owed.nextAttemptAt ? displayDate(owed.nextAttemptAt, view.lang) : null,
      ),
    });
  const cancel =
    subscription.status === 'canceled'
      ? html`<p>${c.notCancelable}</p>`
      : html`<p>${c.cancelIntro}</p>
<p>${link(`${subscriptionUrl(view, subscription.id)}/cancel`, c.cancelStart)}</p>`;
  return dashboardPage(
    view,
    c.subscriptionTitle(subscription.id),
    html`${said?.kind === 'canceled' && notice(c.canceledNotice)}${said?.kind === 'problem' && refusal(said.problem)}${overdue}<section class="card"><dl>
${details(fields)}
</dl></section>
<section class="card" aria-labelledby="cancel">
<h2 id="cancel">${c.cancelHeading}</h2>
${cancel}
</section>
<p>${link(`${view.root}/subscriptions`, c.backToSubscriptions)}</p>`,
    said?.kind === 'problem' ? said.problem.status : 200,
  );
}

/**
 * GET /dashboard/subscriptions/{id}/cancel: the confirmation step. Only its form cancels (a POST
 * with the session's CSRF token); "keep it" goes back to the subscription, changing nothing.
 */
export function confirmCancelPage(view: ShellContext, subscription: Subscription): Page {
  const c = customerWords[view.lang];
  const who = subscription.customer_id ?? c.noCustomer;
  const back = subscriptionUrl(view, subscription.id);
  return confirmPage(
    view,
    c.confirmTitle(subscription.id),
    html`<p>${c.confirmText(subscription.plan.name, who)}</p>`,
    { action: `${back}/cancel`, button: c.confirmCancel },
    { url: back, text: c.keep },
  );
}
