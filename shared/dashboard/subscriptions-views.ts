/**
 * The subscriptions pages of the dashboard as views: the list with the API list's filters (status,
 * plan) and page numbers, one subscription (its end at the period's end or its Resume, its pending
 * change), and the step that confirms a cancel before it is made. Pure functions of what the domain
 * read (shared/dashboard/subscriptions-http.ts).
 */
import { displayCard, displayDate, displayPeriod } from '../core/display.ts';
import type { NumberedPage } from '../core/pagination.ts';
import type { Subscription, SubscriptionView } from '../subscriptions/subscription.ts';
import { overdueOf, subscriptionStatuses } from '../subscriptions/subscription.ts';
import { can } from '../team/roles.ts';
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
import { confirmPage, csrfForm, dashboardPage, link, notice, refusal, type ShellContext } from './shell.ts';
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

/**
 * What the subscription's page says after an action: a cancel, an end at the period's end set or
 * undone; why an action was refused (`problem`, as the domain said it); or why an end at the
 * period's end or a resume was refused (`unchangeable`, 409: the page says why from the status it
 * reads, in its own words).
 */
export type SubscriptionNotice =
  | { kind: 'canceled' | 'ending' | 'resumed' }
  | { kind: 'problem' | 'unchangeable'; problem: Problem };

/** What the page knows beside the subscription: the time, and the plan of a pending change as it is now. */
export interface SubscriptionContext {
  /** Now: whether the end a subscription is set to has come. @default no end has come */
  now?: Date;
  /** The pending change's plan as read now: its name, or `deleted`. @default the name it was asked with */
  pendingPlan?: { name: string } | 'deleted';
}

/** The plan and quantity a renewal will change the subscription to, and when; a plan deleted since, said so. */
function pendingChangeOf(
  view: ShellContext,
  subscription: Subscription,
  shown: SubscriptionView,
  pendingPlan: SubscriptionContext['pendingPlan'],
): Html | undefined {
  const c = customerWords[view.lang];
  const pending = shown.pending_change;
  if (!pending) return undefined;
  const asked = subscription.pending_change?.plan.name ?? pending.plan_id;
  const name = pendingPlan && pendingPlan !== 'deleted' ? pendingPlan.name : asked;
  const said = c.changesTo(name, pending.quantity, displayDate(pending.effective_at, view.lang));
  return pendingPlan === 'deleted'
    ? html`${said}. ${c.pendingPlanDeleted(pending.plan_id)}`
    : html`${said} <small>(<code>${pending.plan_id}</code>)</small>`;
}

/**
 * The cancel's section: while it is active or trialing, the end at the period's (or trial's) end,
 * or, once set, the day it ends and Resume (until that day); then cancelling now, stated as such.
 */
function cancelSection(
  view: ShellContext,
  subscription: Subscription,
  shown: SubscriptionView,
  endCome: boolean,
): Html {
  const c = customerWords[view.lang];
  if (subscription.status === 'canceled') return html`<p>${c.notCancelable}</p>`;
  const base = subscriptionUrl(view, subscription.id);
  const button = (text: string) => html`<button type="submit">${text}</button>`;
  const trial = subscription.status === 'trialing';
  const ending = shown.cancel_at;
  const end =
    subscription.status !== 'active' && !trial
      ? html`${subscription.status === 'past_due' && html`<p>${c.notEndable}</p>`}`
      : ending
        ? endCome
          ? html`<p>${c.endCome}</p>`
          : html`<p>${c.endingText(displayDate(ending, view.lang))}</p>
${csrfForm(`${base}/resume`, view.csrf, button(c.resume))}`
        : shown.current_period_end &&
          html`<p>${(trial ? c.endEffectTrial : c.endEffect)(displayDate(shown.current_period_end, view.lang))}</p>
${csrfForm(`${base}/cancel-at-period-end`, view.csrf, button(trial ? c.endAtTrialEnd : c.endAtPeriodEnd))}`;
  return html`${end}
<p>${c.cancelIntro}</p>
<p>${link(`${base}/cancel`, c.cancelStart)}</p>`;
}

/** What the page says first: what was just done, or why it was refused. */
function noticeOf(
  view: ShellContext,
  subscription: Subscription,
  shown: SubscriptionView,
  said: SubscriptionNotice | undefined,
  endCome: boolean,
): Html {
  const c = customerWords[view.lang];
  switch (said?.kind) {
    case 'canceled':
      return notice(c.canceledNotice);
    // Said only while it is so (the query carries no date, and says nothing the record does not).
    case 'ending':
      return notice(shown.cancel_at ? c.endingNotice(displayDate(shown.cancel_at, view.lang)) : undefined);
    case 'resumed':
      return notice(
        subscription.status !== 'canceled' && !shown.cancel_at_period_end ? c.resumedNotice : undefined,
      );
    case 'problem':
      return refusal(said.problem);
    case 'unchangeable': {
      const why: Partial<Record<Subscription['status'], string>> = {
        canceled: c.alreadyCanceled,
        past_due: c.notEndable,
        pending: c.notStarted,
      };
      return refusal({
        message: why[subscription.status] ?? (endCome ? c.endCome : said.problem.message),
      });
    }
    default:
      return html``;
  }
}

/**
 * GET /dashboard/subscriptions/{id}: the plan, quantity, amount per interval, status, period, card
 * and customer, and a change of plan or quantity pending for the renewal; while it is active or
 * trialing, its end at the period's end (or, once set, the day it ends and Resume); while it is not
 * canceled, the way to cancel it now (a confirmation page first). The cancel section is shown only
 * to a role that may cancel: any other reads the subscription (the day it ends among its fields).
 */
export function subscriptionPage(
  view: ShellContext,
  subscription: Subscription,
  shown: SubscriptionView,
  said?: SubscriptionNotice,
  context: SubscriptionContext = {},
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
  const ending = shown.cancel_at;
  const endCome = ending !== null && context.now !== undefined && Date.parse(ending) <= context.now.getTime();
  const pending = pendingChangeOf(view, subscription, shown, context.pendingPlan);
  const endsOn =
    ending && html`<time data-ends datetime="${ending}">${displayDate(ending, view.lang)}</time>`;
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
    // Set to end: the day it ends, where its next billing date was (it has none).
    ...(ending
      ? [[c.endsOn, endsOn] as [string, Html]]
      : shown.next_billing_date
        ? [[f.nextBilling, displayDate(shown.next_billing_date, view.lang)] as [string, string]]
        : []),
    ...(pending ? [[c.pendingChange, pending] as [string, Html]] : []),
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
  const refused = said?.kind === 'problem' || said?.kind === 'unchangeable' ? said.problem.status : undefined;
  const cancel =
    can(view.role, 'cancel') &&
    html`
<section class="card" aria-labelledby="cancel">
<h2 id="cancel">${c.cancelHeading}</h2>
${cancelSection(view, subscription, shown, endCome)}
</section>`;
  return dashboardPage(
    view,
    c.subscriptionTitle(subscription.id),
    html`${noticeOf(view, subscription, shown, said, endCome)}${overdue}<section class="card"><dl>
${details(fields)}
</dl></section>${cancel}
<p>${link(`${view.root}/subscriptions`, c.backToSubscriptions)}</p>`,
    refused ?? 200,
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
