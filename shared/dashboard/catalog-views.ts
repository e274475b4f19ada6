/**
 * What the dashboard's catalog pages (plans, products and payment links: plans-views.ts,
 * products-views.ts, links-views.ts) share: each list as the API pages it (numbered pages, the same
 * filters), a create form whose errors are the create schema's, shown next to their fields, and a
 * confirmation page before each delete. Pure functions of what the domain read, so they are tested
 * without a stack.
 */
import { currencyCodes } from '../core/money/currencies.ts';
import type { PageRequest } from '../core/pagination.ts';
import { totalPages } from '../core/pagination.ts';
import { type Html, html } from '../web/html.ts';
import type { Page } from '../web/page.ts';
import type { Problem } from '../web/problems.ts';
import { type CatalogWords, catalogWords } from './catalog-words.ts';
import { options } from './charge-views.ts';
import {
  confirmPage,
  dashboardPage,
  messagePage,
  notice,
  pageLinks,
  refusal,
  type ShellContext,
} from './shell.ts';
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

/** A text field with its label, help and, when the schema refused it, its error beside it. */
export function textInput(
  name: string,
  label: string,
  form: CreateForm,
  options: { help?: string; inputmode?: string; maxlength?: number; required?: boolean } = {},
): Html {
  const error = form.fieldErrors[name];
  const described = [options.help ? `${name}_help` : '', error ? `${name}_error` : ''].filter(Boolean);
  return html`<label for="${name}">${label}</label>
<input id="${name}" name="${name}" value="${form.values[name] ?? ''}" autocomplete="off"${
    options.inputmode && html` inputmode="${options.inputmode}"`
  }${!!options.maxlength && html` maxlength="${options.maxlength}"`}${options.required && html` required`}${
    error && html` aria-invalid="true"`
  }${described.length > 0 && html` aria-describedby="${described.join(' ')}"`}>
${options.help && html`<p id="${name}_help" class="help">${options.help}</p>`}${
  error && html`<p id="${name}_error" class="error">${error}</p>`
}`;
}

/** A select with its label; `choices` are [value, shown]. */
export function select(
  name: string,
  label: string,
  chosen: string,
  choices: readonly (readonly [string, string])[],
  error?: string,
  id = name,
): Html {
  return html`<label for="${id}">${label}</label>
<select id="${id}" name="${name}"${
    error && html` aria-invalid="true" aria-describedby="${id}_error"`
  }>${options(choices, chosen)}</select>${error && html`\n<p id="${id}_error" class="error">${error}</p>`}`;
}

export const currencyChoices = currencyCodes.map((code) => [code, code] as const);

/**
 * "Previous page" and "Next page" of a numbered list, keeping the query's filters and page size,
 * as a client of the API pages it.
 */
function listPager<T>(
  base: string,
  query: Record<string, string | undefined>,
  list: ListPage<T>,
  w: CatalogWords,
): Html {
  const pages = totalPages(list.count, list.page.pageSize);
  const at = (page: number) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query))
      if (value !== undefined && name !== 'page' && name !== 'created' && name !== 'deleted')
        params.set(name, value);
    params.set('page', String(page));
    return `${base}?${params}`;
  };
  const { page } = list.page;
  return pageLinks(
    w.pageOf(page, pages, list.count),
    page > 1 ? { url: at(page - 1), text: w.previousPage } : undefined,
    page < pages ? { url: at(page + 1), text: w.nextPage } : undefined,
  );
}

/** One page of a catalog list as a table with its pager; what to say when the page has none; nothing when the list failed. */
export function listing<T>(
  list: ListPage<T> | undefined,
  shown: {
    columns: readonly Column[];
    row: (record: T, index: number) => readonly Cell[];
  },
  empty: string,
  page: { base: string; query: Record<string, string | undefined>; w: CatalogWords },
): Html | undefined {
  if (!list) return undefined;
  if (!list.records.length) return html`<p>${empty}</p>`;
  return html`${dataTable(shown.columns, list.records.map(shown.row))}
${listPager(page.base, page.query, list, page.w)}`;
}

/**
 * The layout every catalog list page shares: what was done or refused, an optional filters card,
 * the list, and the create form (none for a role that may not change the catalog: the page then
 * only reads); the status is the create form's problem's, else the list's.
 */
export function catalogPage(
  view: ShellContext,
  parts: {
    title: string;
    notice: string | undefined;
    problem: Problem | undefined;
    filters?: { id: string; form: Html };
    before?: Html;
    listed: Html | undefined;
    create: { id: string; title: string; form: Html } | undefined;
  },
): Page {
  const w = catalogWords[view.lang];
  const filters =
    parts.filters &&
    html`<section class="card" aria-labelledby="${parts.filters.id}">
<h2 id="${parts.filters.id}">${w.filters}</h2>
${parts.filters.form}
</section>
`;
  const create =
    parts.create &&
    html`
<section class="card" aria-labelledby="${parts.create.id}">
<h2 id="${parts.create.id}">${parts.create.title}</h2>
${parts.create.form}
</section>`;
  return dashboardPage(
    view,
    parts.title,
    html`${notice(parts.notice)}${refusal(parts.problem)}${parts.before}${filters}<section class="card">${parts.listed}</section>${create}`,
    parts.problem?.status ?? 200,
  );
}

/** A confirmation page: what deleting does, the button that does it, and the way back. */
export function deletePage(
  view: ShellContext,
  title: string,
  summary: Html,
  warning: string,
  action: string,
  button: string,
  back: string,
): Page {
  return confirmPage(
    view,
    title,
    html`${summary}
<p class="error" role="note">${warning}</p>`,
    { action, button },
    { url: back, text: catalogWords[view.lang].cancel },
  );
}

/** A record the account and mode do not have: 404, with the way back to its list. */
export function notFoundPage(view: ShellContext, list: string): Page {
  const w = catalogWords[view.lang];
  return messagePage(view, 404, dashboardWords[view.lang].notFoundTitle, w.notFound, {
    url: `${view.root}/${list}`,
    text: w.back,
  });
}
