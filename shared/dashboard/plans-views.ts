/**
 * The dashboard's plans pages as views: the list as GET /v1/plans/ pages and filters it, the
 * create form, archive and restore on each row, and the confirmation before a delete. Pure
 * functions of what the domain read (shared/dashboard/plans-http.ts), tested without a stack.
 */
import { displayEvery } from '../core/display.ts';
import type { Plan } from '../plans/plan.ts';
import { intervals } from '../plans/schemas.ts';
import { can } from '../team/roles.ts';
import { type Html, html } from '../web/html.ts';
import type { Page } from '../web/page.ts';
import type { Problem } from '../web/problems.ts';
import {
  type CreateForm,
  catalogPage,
  currencyChoices,
  deletePage,
  type ListPage,
  listing,
  select,
  textInput,
} from './catalog-views.ts';
import { catalogWords } from './catalog-words.ts';
import { details, money } from './charge-views.ts';
import { csrfForm, link, type ShellContext } from './shell.ts';
import { dashboardWords } from './words.ts';

const planPrice = (plan: Plan, view: ShellContext) =>
  `${money(plan.amount, plan.currency, view.lang)} ${displayEvery(plan.interval, plan.interval_count, view.lang)}`;

/** A plan's row actions: archive (or restore) it, and the way to its delete confirmation. */
function planActions(view: ShellContext, plan: Plan): Html {
  const w = catalogWords[view.lang];
  const at = `${view.root}/plans/${encodeURIComponent(plan.id)}`;
  return html`${csrfForm(
    `${at}/active`,
    view.csrf,
    html`<button type="submit" class="small" aria-label="${`${plan.active ? w.archive : w.restore}: ${plan.name}`}">${plan.active ? w.archive : w.restore}</button>`,
    { active: plan.active ? 'false' : 'true' },
    'inline',
  )} <a href="${`${at}/delete`}" aria-label="${`${w.delete}: ${plan.name}`}">${w.delete}</a>`;
}

/**
 * GET /dashboard/plans: the filters, one page of the plans, and (for a role that may) the create
 * form.
 */
export function plansPage(
  view: ShellContext,
  query: Record<string, string | undefined>,
  list: ListPage<Plan> | undefined,
  form: CreateForm,
  notice?: string,
  listProblem?: Problem,
): Page {
  const w = catalogWords[view.lang];
  const c = w.columns;
  const base = `${view.root}/plans`;
  // Creating, archiving, restoring and deleting a plan are offered only to a role that may change
  // the catalog; any other reads the list, without its actions column, its help or the create form.
  const mayEdit = can(view.role, 'catalog');
  const listed = html`${listing(
    list,
    {
      columns: [
        { heading: c.name },
        { heading: c.price, numeric: true },
        { heading: c.trial },
        { heading: c.subscribers, numeric: true },
        { heading: c.status },
        { heading: c.created, nowrap: true },
        ...(mayEdit ? [{ heading: c.actions }] : []),
      ],
      row: (plan) => [
        plan.name,
        planPrice(plan, view),
        plan.trial_period_days > 0 ? w.trialDays(plan.trial_period_days) : w.noTrial,
        // The count links to the subscriptions list filtered by the plan's key, as GET
        // /v1/subscriptions filters by plan_id.
        html`<a href="${`${view.root}/subscriptions?${new URLSearchParams({ plan_id: plan.id })}`}" aria-label="${w.subscribersLink(plan.subscriber_count, plan.name)}">${plan.subscriber_count}</a>`,
        plan.active ? w.active : w.inactive,
        dashboardWords[view.lang].date(plan.created_at),
        ...(mayEdit ? [planActions(view, plan)] : []),
      ],
    },
    w.noPlans,
    { base, query, w },
  )}${mayEdit && !!list?.records.length && html`\n<p class="help">${w.archiveHelp}</p>`}`;
  const filters = html`<form method="get" action="${base}" aria-label="${w.filters}">
<label for="filter_name">${c.name}</label>
<input id="filter_name" name="name" value="${query.name ?? ''}" maxlength="50">
${select(
  'interval',
  w.fields.interval,
  query.interval ?? '',
  [['', w.any], ...intervals.map((interval) => [interval, w.intervals[interval]] as const)],
  undefined,
  'filter_interval',
)}
${select(
  'status',
  w.fields.status,
  query.status ?? '',
  [
    ['', w.any],
    ['active', w.active],
    ['inactive', w.inactive],
  ],
  undefined,
  'filter_status',
)}
<button type="submit">${w.filter}</button> ${link(base, w.clearFilters)}
</form>`;
  const values = {
    currency: 'USD',
    interval: 'month',
    interval_count: '1',
    trial_period_days: '0',
    ...form.values,
  };
  const shown = { ...form, values };
  const create =
    mayEdit &&
    csrfForm(
      base,
      view.csrf,
      html`${textInput('name', w.fields.name, shown, { maxlength: 50, required: true })}
${textInput('description', w.fields.description, shown, { maxlength: 300 })}
${textInput('amount', w.fields.amount, shown, { help: w.amountHelp, inputmode: 'decimal', maxlength: 32, required: true })}
${select('currency', w.fields.currency, values.currency, currencyChoices, form.fieldErrors.currency)}
${select(
  'interval',
  w.fields.interval,
  values.interval,
  intervals.map((interval) => [interval, w.intervals[interval]] as const),
  form.fieldErrors.interval,
)}
${textInput('interval_count', w.fields.intervalCount, shown, { help: w.intervalCountHelp, inputmode: 'numeric', maxlength: 3, required: true })}
${textInput('trial_period_days', w.fields.trialDays, shown, { help: w.trialHelp, inputmode: 'numeric', maxlength: 3 })}
<button type="submit">${w.create}</button>`,
      { idempotency_key: form.idempotencyKey },
    );
  return catalogPage(view, {
    title: w.plansTitle,
    notice,
    problem: form.problem ?? listProblem,
    filters: { id: 'plans_filters', form: filters },
    listed,
    create: create ? { id: 'new_plan', title: w.newPlan, form: create } : undefined,
  });
}

/** GET /dashboard/plans/{id}/delete: what deleting the plan does to its subscriptions, then the button. */
export function planDeletePage(view: ShellContext, plan: Plan): Page {
  const w = catalogWords[view.lang];
  const base = `${view.root}/plans`;
  return deletePage(
    view,
    w.deletePlanTitle(plan.name),
    html`<dl>
${details([
  [w.columns.price, planPrice(plan, view)],
  [w.columns.subscribers, String(plan.subscriber_count)],
])}
</dl>`,
    w.deletePlanWarning(plan.subscriber_count),
    `${base}/${encodeURIComponent(plan.id)}/delete`,
    w.deletePlanConfirm,
    base,
  );
}
