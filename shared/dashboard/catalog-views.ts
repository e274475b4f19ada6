/**
 * The dashboard's plans, products and payment links pages as views: each list as the API pages it
 * (numbered pages, the same filters), a create form whose errors are the create schema's, shown
 * next to their fields, and a confirmation page before each delete. Pure functions of what the
 * domain read (shared/dashboard/catalog-http.ts), so they are tested without a stack.
 */
import { displayEvery } from '../core/display.ts';
import { escapeHtml } from '../core/html.ts';
import { parseAmount } from '../core/money/amount.ts';
import { currencyCodes, findCurrency } from '../core/money/currencies.ts';
import type { PageRequest } from '../core/pagination.ts';
import { totalPages } from '../core/pagination.ts';
import type { LinkListItem } from '../payment-links/link.ts';
import type { Plan } from '../plans/plan.ts';
import { intervals } from '../plans/schemas.ts';
import type { Product } from '../products/product.ts';
import type { Page } from '../web/page.ts';
import type { Problem } from '../web/problems.ts';
import { type CatalogWords, catalogWords } from './catalog-words.ts';
import { money } from './charge-views.ts';
import { csrfForm, dashboardPage, type ShellContext } from './shell.ts';
import { type Cell, type Column, dataTable } from './table.ts';
import { dashboardWords } from './words.ts';

/** A create form as shown: the values posted (after an error), its key, and what was refused. */
export interface CreateForm {
  idempotencyKey: string;
  values: Record<string, string>;
  /** The create schema's message for each refused field, by the field's name. */
  fieldErrors: Record<string, string>;
  problem?: Problem;
}

/** One numbered page of a list, as the API answers it. */
export interface ListPage<T> {
  records: readonly T[];
  count: number;
  page: PageRequest;
}

const esc = escapeHtml;

/** A text field with its label, help and, when the schema refused it, its error beside it. */
function textInput(
  name: string,
  label: string,
  form: CreateForm,
  options: { help?: string; inputmode?: string; maxlength?: number; required?: boolean } = {},
): string {
  const error = form.fieldErrors[name];
  const described = [options.help ? `${name}_help` : '', error ? `${name}_error` : ''].filter(Boolean);
  return `<label for="${name}">${esc(label)}</label>
<input id="${name}" name="${name}" value="${esc(form.values[name] ?? '')}" autocomplete="off"${
    options.inputmode ? ` inputmode="${options.inputmode}"` : ''
  }${options.maxlength ? ` maxlength="${options.maxlength}"` : ''}${options.required ? ' required' : ''}${
    error ? ' aria-invalid="true"' : ''
  }${described.length ? ` aria-describedby="${described.join(' ')}"` : ''}>
${options.help ? `<p id="${name}_help" class="help">${esc(options.help)}</p>` : ''}${
  error ? `<p id="${name}_error" class="error">${esc(error)}</p>` : ''
}`;
}

/** A select with its label; `choices` are [value, shown]. */
function select(
  name: string,
  label: string,
  chosen: string,
  choices: readonly (readonly [string, string])[],
  error?: string,
  id = name,
): string {
  const options = choices
    .map(
      ([value, shown]) =>
        `<option value="${esc(value)}"${value === chosen ? ' selected' : ''}>${esc(shown)}</option>`,
    )
    .join('');
  return `<label for="${id}">${esc(label)}</label>
<select id="${id}" name="${name}"${error ? ` aria-invalid="true" aria-describedby="${id}_error"` : ''}>${options}</select>${
    error ? `\n<p id="${id}_error" class="error">${esc(error)}</p>` : ''
  }`;
}

const currencyChoices = currencyCodes.map((code) => [code, code] as const);

/** The page's messages: what was just done, and what the domain refused. */
function notices(notice: string | undefined, problem: Problem | undefined): string {
  return `${notice ? `<p class="notice" role="status">${esc(notice)}</p>` : ''}${
    problem ? `<p class="error" role="alert">${esc(problem.message)}</p>` : ''
  }`;
}

/**
 * "Previous page" and "Next page" of a numbered list, keeping the query's filters and page size,
 * as a client of the API pages it.
 */
function pager<T>(
  base: string,
  query: Record<string, string | undefined>,
  list: ListPage<T>,
  w: CatalogWords,
): string {
  const pages = totalPages(list.count, list.page.pageSize);
  const at = (page: number) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query))
      if (value !== undefined && name !== 'page' && name !== 'created' && name !== 'deleted')
        params.set(name, value);
    params.set('page', String(page));
    return `${base}?${params}`;
  };
  const previous =
    list.page.page > 1
      ? `<a href="${esc(at(list.page.page - 1))}" rel="prev">${esc(w.previousPage)}</a>`
      : '';
  const next =
    list.page.page < pages
      ? `<a href="${esc(at(list.page.page + 1))}" rel="next">${esc(w.nextPage)}</a>`
      : '';
  return `<p class="pager"><span>${esc(w.pageOf(list.page.page, pages, list.count))}</span>${previous}${next}</p>`;
}

/** One page of a catalog list as a table with its pager; what to say when the page has none; '' when the list failed. */
function listing<T>(
  list: ListPage<T> | undefined,
  shown: {
    columns: readonly Column[];
    row: (record: T, index: number) => readonly Cell[];
  },
  empty: string,
  page: { base: string; query: Record<string, string | undefined>; w: CatalogWords },
): string {
  if (!list) return '';
  if (!list.records.length) return `<p>${esc(empty)}</p>`;
  return `${dataTable(shown.columns, list.records.map(shown.row))}
${pager(page.base, page.query, list, page.w)}`;
}

/**
 * The layout every catalog list page shares: what was done or refused, an optional filters card,
 * the list, and the create form; the status is the create form's problem's, else the list's.
 */
function catalogPage(
  view: ShellContext,
  parts: {
    title: string;
    notice: string | undefined;
    problem: Problem | undefined;
    filters?: { id: string; form: string };
    before?: string;
    listed: string;
    create: { id: string; title: string; form: string };
  },
): Page {
  const w = catalogWords[view.lang];
  const filters = parts.filters
    ? `<section class="card" aria-labelledby="${parts.filters.id}">
<h2 id="${parts.filters.id}">${esc(w.filters)}</h2>
${parts.filters.form}
</section>
`
    : '';
  return dashboardPage(
    view,
    parts.title,
    `${notices(parts.notice, parts.problem)}${parts.before ?? ''}${filters}<section class="card">${parts.listed}</section>
<section class="card" aria-labelledby="${parts.create.id}">
<h2 id="${parts.create.id}">${esc(parts.create.title)}</h2>
${parts.create.form}
</section>`,
    parts.problem?.status ?? 200,
  );
}

/** A confirmation page: what deleting does, the button that does it, and the way back. */
function confirmPage(
  view: ShellContext,
  title: string,
  summary: string,
  warning: string,
  action: string,
  button: string,
  back: string,
): Page {
  const w = catalogWords[view.lang];
  return dashboardPage(
    view,
    title,
    `<section class="card">
${summary}
<p class="error" role="note">${esc(warning)}</p>
${csrfForm(action, view.csrf, `<button type="submit">${esc(button)}</button>`)}
<p><a href="${esc(back)}">${esc(w.cancel)}</a></p>
</section>`,
  );
}

/** A record the account and mode do not have: 404, with the way back to its list. */
export function notFoundPage(view: ShellContext, list: string): Page {
  const w = catalogWords[view.lang];
  return dashboardPage(
    view,
    dashboardWords[view.lang].notFoundTitle,
    `<p class="error" role="alert">${esc(w.notFound)}</p>
<p><a href="${esc(`${view.root}/${list}`)}">${esc(w.back)}</a></p>`,
    404,
  );
}

// Plans

const planPrice = (plan: Plan, view: ShellContext) =>
  `${money(plan.amount, plan.currency, view.lang)} ${displayEvery(plan.interval, plan.interval_count, view.lang)}`;

/** GET /dashboard/plans: the filters, one page of the plans, and the create form. */
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
  const listed = `${listing(
    list,
    {
      columns: [
        { heading: c.name },
        { heading: c.price, numeric: true },
        { heading: c.trial },
        { heading: c.subscribers, numeric: true },
        { heading: c.status },
        { heading: c.created, nowrap: true },
        { heading: c.actions },
      ],
      row: (plan) => [
        esc(plan.name),
        esc(planPrice(plan, view)),
        esc(plan.trial_period_days > 0 ? w.trialDays(plan.trial_period_days) : w.noTrial),
        // The count links to the subscriptions list filtered by the plan's key, as GET
        // /v1/subscriptions filters by plan_id.
        `<a href="${esc(`${view.root}/subscriptions?${new URLSearchParams({ plan_id: plan.id })}`)}" aria-label="${esc(w.subscribersLink(plan.subscriber_count, plan.name))}">${plan.subscriber_count}</a>`,
        esc(plan.active ? w.active : w.inactive),
        esc(dashboardWords[view.lang].date(plan.created_at)),
        `${csrfForm(
          `${base}/${encodeURIComponent(plan.id)}/active`,
          view.csrf,
          `<button type="submit" class="small" aria-label="${esc(`${plan.active ? w.archive : w.restore}: ${plan.name}`)}">${esc(plan.active ? w.archive : w.restore)}</button>`,
          { active: plan.active ? 'false' : 'true' },
          ' class="inline"',
        )} <a href="${esc(`${base}/${encodeURIComponent(plan.id)}/delete`)}" aria-label="${esc(`${w.delete}: ${plan.name}`)}">${esc(w.delete)}</a>`,
      ],
    },
    w.noPlans,
    { base, query, w },
  )}${list?.records.length ? `\n<p class="help">${esc(w.archiveHelp)}</p>` : ''}`;
  const filters = `<form method="get" action="${esc(base)}" aria-label="${esc(w.filters)}">
<label for="filter_name">${esc(c.name)}</label>
<input id="filter_name" name="name" value="${esc(query.name ?? '')}" maxlength="50">
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
<button type="submit">${esc(w.filter)}</button> <a href="${esc(base)}">${esc(w.clearFilters)}</a>
</form>`;
  const values = {
    currency: 'USD',
    interval: 'month',
    interval_count: '1',
    trial_period_days: '0',
    ...form.values,
  };
  const shown = { ...form, values };
  const create = csrfForm(
    base,
    view.csrf,
    `${textInput('name', w.fields.name, shown, { maxlength: 50, required: true })}
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
<button type="submit">${esc(w.create)}</button>`,
    { idempotency_key: form.idempotencyKey },
  );
  return catalogPage(view, {
    title: w.plansTitle,
    notice,
    problem: form.problem ?? listProblem,
    filters: { id: 'plans_filters', form: filters },
    listed,
    create: { id: 'new_plan', title: w.newPlan, form: create },
  });
}

/** GET /dashboard/plans/{id}/delete: what deleting the plan does to its subscriptions, then the button. */
export function planDeletePage(view: ShellContext, plan: Plan): Page {
  const w = catalogWords[view.lang];
  const base = `${view.root}/plans`;
  return confirmPage(
    view,
    w.deletePlanTitle(plan.name),
    `<dl>
<dt>${esc(w.columns.price)}</dt><dd>${esc(planPrice(plan, view))}</dd>
<dt>${esc(w.columns.subscribers)}</dt><dd>${plan.subscriber_count}</dd>
</dl>`,
    w.deletePlanWarning(plan.subscriber_count),
    `${base}/${encodeURIComponent(plan.id)}/delete`,
    w.deletePlanConfirm,
    base,
  );
}

// Products

/** GET /dashboard/products: the search, one page of the active products, and the create form. */
export function productsPage(
  view: ShellContext,
  query: Record<string, string | undefined>,
  list: ListPage<Product> | undefined,
  form: CreateForm,
  notice?: string,
  listProblem?: Problem,
): Page {
  const w = catalogWords[view.lang];
  const c = w.columns;
  const base = `${view.root}/products`;
  const listed = listing(
    list,
    {
      columns: [
        { heading: c.name },
        { heading: c.description },
        { heading: c.price, numeric: true },
        { heading: c.sku },
        { heading: c.stock, numeric: true },
        { heading: c.created, nowrap: true },
        { heading: c.actions },
      ],
      row: (product) => [
        esc(product.name),
        esc(product.short_description),
        esc(money(product.price, product.currency, view.lang)),
        esc(product.sku),
        String(product.stock),
        esc(dashboardWords[view.lang].date(product.created_at)),
        `<a href="${esc(`${base}/${encodeURIComponent(product.id)}/delete`)}" aria-label="${esc(`${w.delete}: ${product.name}`)}">${esc(w.delete)}</a>`,
      ],
    },
    w.noProducts,
    { base, query, w },
  );
  const search = `<form method="get" action="${esc(base)}" aria-label="${esc(w.filters)}">
<label for="filter_search">${esc(`${c.name} / ${c.sku}`)}</label>
<input id="filter_search" name="search" value="${esc(query.search ?? '')}" maxlength="64">
<button type="submit">${esc(w.filter)}</button> <a href="${esc(base)}">${esc(w.clearFilters)}</a>
</form>`;
  const values = { currency: 'USD', ...form.values };
  const shown = { ...form, values };
  const create = csrfForm(
    base,
    view.csrf,
    `<p class="help">${esc(w.productImagesNote)}</p>
${textInput('name', w.fields.name, shown, { maxlength: 50, required: true })}
${textInput('price', w.fields.price, shown, { help: w.amountHelp, inputmode: 'decimal', maxlength: 32, required: true })}
${select('currency', w.fields.currency, values.currency, currencyChoices, form.fieldErrors.currency)}
${textInput('short_description', w.fields.shortDescription, shown, { maxlength: 100 })}
${textInput('description', w.fields.description, shown, { maxlength: 300 })}
${textInput('sku', w.fields.sku, shown, { maxlength: 64 })}
${textInput('stock', w.fields.stock, shown, { inputmode: 'numeric', maxlength: 10 })}
<button type="submit">${esc(w.create)}</button>`,
    { idempotency_key: form.idempotencyKey },
  );
  return catalogPage(view, {
    title: w.productsTitle,
    notice,
    problem: form.problem ?? listProblem,
    filters: { id: 'products_search', form: search },
    listed,
    create: { id: 'new_product', title: w.newProduct, form: create },
  });
}

/** GET /dashboard/products/{id}/delete: what deleting the product does, then the button. */
export function productDeletePage(view: ShellContext, product: Product): Page {
  const w = catalogWords[view.lang];
  const base = `${view.root}/products`;
  return confirmPage(
    view,
    w.deleteProductTitle(product.name),
    `<dl><dt>${esc(w.columns.price)}</dt><dd>${esc(money(product.price, product.currency, view.lang))}</dd></dl>`,
    w.deleteProductWarning,
    `${base}/${encodeURIComponent(product.id)}/delete`,
    w.deleteProductConfirm,
    base,
  );
}

// Payment links

/** A link's amount (the list's decimal text) written the shared way, in the reader's number format. */
function linkMoney(link: Pick<LinkListItem, 'amount' | 'currency'>, view: ShellContext): string {
  const currency = findCurrency(link.currency);
  const parsed = currency ? parseAmount(link.amount, currency) : undefined;
  return parsed?.ok ? money(parsed.minor, link.currency, view.lang) : `${link.amount} ${link.currency}`;
}

/** A link's page URL in a read-only field, to select and copy. */
function linkField(id: string, url: string, label: string, w: CatalogWords): string {
  return `<label for="${id}">${esc(label)}</label>
<input id="${id}" value="${esc(url)}" readonly aria-describedby="${id}_help">
<p id="${id}_help" class="help">${esc(w.copyHelp)}</p>`;
}

/** What the links page shows of a link just created: its description and its page's URL. */
export interface MadeLink {
  description: string;
  link: string;
}

/** GET /dashboard/links: one page of the payment links (each URL to copy), and the create form. */
export function linksPage(
  view: ShellContext,
  query: Record<string, string | undefined>,
  list: ListPage<LinkListItem> | undefined,
  form: CreateForm,
  made?: MadeLink,
  notice?: string,
  listProblem?: Problem,
): Page {
  const w = catalogWords[view.lang];
  const c = w.columns;
  const base = `${view.root}/links`;
  const listed = listing(
    list,
    {
      columns: [
        { heading: c.description },
        { heading: c.amount, numeric: true },
        { heading: c.status },
        { heading: c.created, nowrap: true },
        { heading: c.link },
        { heading: c.actions },
      ],
      row: (link, i) => [
        esc(link.description),
        esc(linkMoney(link, view)),
        esc(w.linkStatus[link.status] ?? link.status),
        esc(dashboardWords[view.lang].date(link.created_on)),
        `<input id="link_${i}" value="${esc(link.link)}" readonly aria-label="${esc(`${c.link}: ${link.description}`)}">`,
        `<a href="${esc(`${base}/${encodeURIComponent(link.id)}/delete`)}" aria-label="${esc(`${w.delete}: ${link.description}`)}">${esc(w.delete)}</a>`,
      ],
    },
    w.noLinks,
    { base, query, w },
  );
  const values = { currency: 'USD', ...form.values };
  const shown = { ...form, values };
  const create = csrfForm(
    base,
    view.csrf,
    `<p class="help">${esc(w.linkNote)}</p>
${textInput('description', w.fields.description, shown, { maxlength: 300, required: true })}
${textInput('amount', w.fields.amount, shown, { help: w.amountHelp, inputmode: 'decimal', maxlength: 32, required: true })}
${select('currency', w.fields.currency, values.currency, currencyChoices, form.fieldErrors.currency)}
<button type="submit">${esc(w.create)}</button>`,
    { idempotency_key: form.idempotencyKey },
  );
  const madeCard = made
    ? `<section class="card" aria-labelledby="made_link">
<h2 id="made_link">${esc(made.description)}</h2>
${linkField('made_link_url', made.link, w.linkUrl, w)}
</section>`
    : '';
  return catalogPage(view, {
    title: w.linksTitle,
    notice,
    problem: form.problem ?? listProblem,
    before: madeCard,
    listed,
    create: { id: 'new_link', title: w.newLink, form: create },
  });
}

/** GET /dashboard/links/{id}/delete: what deleting the link does, then the button. */
export function linkDeletePage(view: ShellContext, link: LinkListItem): Page {
  const w = catalogWords[view.lang];
  const base = `${view.root}/links`;
  return confirmPage(
    view,
    w.deleteLinkTitle(link.description),
    `<dl><dt>${esc(w.columns.amount)}</dt><dd>${esc(linkMoney(link, view))}</dd></dl>
${linkField('link_url', link.link, w.linkUrl, w)}`,
    w.deleteLinkWarning,
    `${base}/${encodeURIComponent(link.id)}/delete`,
    w.deleteLinkConfirm,
    base,
  );
}
