/**
 * The subscriptions pages of the dashboard as views: the list with the API list's filters (status,
 * plan) and page numbers, one subscription, and the step that confirms a cancel before it is made.
 * Pure functions of what the domain read (shared/dashboard/subscriptions-http.ts).
 */
import { displayCard, displayDate, displayPeriod } from '../core/display.ts';
import { escapeHtml } from '../core/html.ts';
import type { NumberedPage } from '../core/pagination.ts';
import type { Subscription, SubscriptionView } from '../subscriptions/subscription.ts';
import { overdueOf, subscriptionStatuses } from '../subscriptions/subscription.ts';
import type { Page } from '../web/page.ts';
import type { Problem } from '../web/problems.ts';
import { money } from './charge-views.ts';
import {
  customerUrl,
  numberedPager,
  subscriptionAmount,
  subscriptionTable,
  subscriptionUrl,
} from './customers-views.ts';
import { customerWords } from './customers-words.ts';
import { csrfForm, dashboardPage, type ShellContext } from './shell.ts';
import { dashboardWords } from './words.ts';

/** The list's filters as the page was asked for them (what the form shows again). */
export interface SubscriptionFilters {
  status?: string | undefined;
  planId?: string | undefined;
  pageSize?: number | undefined;
}

const href = (url: string) => `href="${escapeHtml(url)}"`;

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
  const options = [
    `<option value="">${escapeHtml(c.anyStatus)}</option>`,
    ...subscriptionStatuses.map(
      (status) =>
        `<option value="${status}"${filters.status === status ? ' selected' : ''}>${escapeHtml(c.statuses[status])}</option>`,
    ),
  ].join('');
  const list = page?.results.length
    ? subscriptionTable(view, page.results, c, { customers: true, nextBilling })
    : page
      ? `<p>${escapeHtml(c.noSubscriptions)}</p>`
      : '';
  const pager = page
    ? numberedPager(c, page.current_page, page.total_pages, (number) => {
        const params = new URLSearchParams({ page: String(number) });
        if (filters.pageSize !== undefined) params.set('page_size', String(filters.pageSize));
        if (filters.status) params.set('status', filters.status);
        if (filters.planId) params.set('plan_id', filters.planId);
        return `${view.root}/subscriptions?${params}`;
      })
    : '';
  return dashboardPage(
    view,
    c.subscriptionsTitle,
    `<form method="get" action="${escapeHtml(`${view.root}/subscriptions`)}" class="card">
<label for="status">${escapeHtml(c.statusFilter)}</label>
<select id="status" name="status">${options}</select>
<label for="plan_id">${escapeHtml(c.planFilter)}</label>
<input id="plan_id" name="plan_id" maxlength="100" spellcheck="false" value="${escapeHtml(filters.planId ?? '')}" aria-describedby="plan_help">
<p id="plan_help" class="help">${escapeHtml(c.planFilterHelp)}</p>
<button type="submit">${escapeHtml(c.filter)}</button>
</form>
${problem ? `<p class="error" role="alert">${escapeHtml(problem.message)}</p>` : ''}
<div class="card">${list}</div>
${pager}`,
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
  notice?: SubscriptionNotice,
): Page {
  const c = customerWords[view.lang];
  const f = c.subscriptionFields;
  const row = (name: string, value: string) => `<dt>${escapeHtml(name)}</dt><dd>${value}</dd>`;
  const { plan } = subscription;
  const period =
    shown.current_period_start && shown.current_period_end
      ? displayPeriod(shown.current_period_start, shown.current_period_end, view.lang)
      : '';
  const card = subscription.card ? displayCard(subscription.card, view.lang) : c.noCard;
  const customer = subscription.customer_id
    ? `<a ${href(customerUrl(view, subscription.customer_id))}><code>${escapeHtml(subscription.customer_id)}</code></a>`
    : escapeHtml(c.noCustomer);
  const details = [
    row(f.plan, `${escapeHtml(plan.name)} <small>(<code>${escapeHtml(subscription.plan_id)}</code>)</small>`),
    row(f.quantity, escapeHtml(String(subscription.quantity))),
    row(f.amount, escapeHtml(subscriptionAmount(subscription, view.lang))),
    row(
      f.status,
      `<span data-status="${escapeHtml(subscription.status)}">${escapeHtml(c.statuses[subscription.status] ?? subscription.status)}</span>`,
    ),
    // A canceled subscription has no current period: its last one is shown as such.
    row(subscription.status === 'canceled' ? f.lastPeriod : f.period, escapeHtml(period)),
    ...(shown.next_billing_date
      ? [row(f.nextBilling, escapeHtml(displayDate(shown.next_billing_date, view.lang)))]
      : []),
    // A trial canceled before its end never reaches it: no end date to show.
    ...(subscription.trial_end &&
    !(subscription.canceled_at && subscription.canceled_at < subscription.trial_end)
      ? [row(f.trialEnd, escapeHtml(displayDate(subscription.trial_end, view.lang)))]
      : []),
    row(f.card, escapeHtml(card)),
    row(f.customer, customer),
    row(f.created, escapeHtml(dashboardWords[view.lang].date(subscription.created_at))),
    ...(subscription.canceled_at
      ? [row(f.canceled, escapeHtml(dashboardWords[view.lang].date(subscription.canceled_at)))]
      : []),
  ].join('\n');
  const owed = overdueOf(subscription);
  const overdue = owed
    ? `<p class="error" role="alert">${escapeHtml(
        c.overdue(
          money(owed.amount, owed.currency, view.lang),
          displayDate(owed.since, view.lang),
          owed.nextAttemptAt ? displayDate(owed.nextAttemptAt, view.lang) : null,
        ),
      )}</p>`
    : '';
  const said =
    notice?.kind === 'canceled'
      ? `<p class="notice" role="status">${escapeHtml(c.canceledNotice)}</p>`
      : notice?.kind === 'problem'
        ? `<p class="error" role="alert">${escapeHtml(notice.problem.message)}</p>`
        : '';
  const cancel =
    subscription.status === 'canceled'
      ? `<p>${escapeHtml(c.notCancelable)}</p>`
      : `<p>${escapeHtml(c.cancelIntro)}</p>
<p><a ${href(`${subscriptionUrl(view, subscription.id)}/cancel`)}>${escapeHtml(c.cancelStart)}</a></p>`;
  return dashboardPage(
    view,
    c.subscriptionTitle(subscription.id),
    `${said}${overdue}<section class="card"><dl>
${details}
</dl></section>
<section class="card" aria-labelledby="cancel">
<h2 id="cancel">${escapeHtml(c.cancelHeading)}</h2>
${cancel}
</section>
<p><a ${href(`${view.root}/subscriptions`)}>${escapeHtml(c.backToSubscriptions)}</a></p>`,
    notice?.kind === 'problem' ? notice.problem.status : 200,
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
  return dashboardPage(
    view,
    c.confirmTitle(subscription.id),
    `<section class="card">
<p>${escapeHtml(c.confirmText(subscription.plan.name, who))}</p>
${csrfForm(`${back}/cancel`, view.csrf, `<button type="submit">${escapeHtml(c.confirmCancel)}</button>`)}
<p><a ${href(back)}>${escapeHtml(c.keep)}</a></p>
</section>`,
  );
}
