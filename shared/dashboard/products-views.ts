/**
 * The dashboard's products pages as views: the active products as GET /v1/products/ pages and
 * searches them, the create form (text fields only), and the confirmation before a delete. Pure
 * functions of what the domain read (shared/dashboard/products-http.ts), tested without a stack.
 */
import type { Product } from '../products/product.ts';
import { can } from '../team/roles.ts';
import { html } from '../web/html.ts';
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

/**
 * GET /dashboard/products: the search, one page of the active products, and (for a role that may)
 * the create form.
 */
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
  // Creating and deleting a product are offered only to a role that may change the catalog;
  // any other reads the list, without its actions column or the create form.
  const mayEdit = can(view.role, 'catalog');
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
        ...(mayEdit ? [{ heading: c.actions }] : []),
      ],
      row: (product) => [
        product.name,
        product.short_description,
        money(product.price, product.currency, view.lang),
        product.sku,
        String(product.stock),
        dashboardWords[view.lang].date(product.created_at),
        ...(mayEdit
          ? [
              html`<a href="${`${base}/${encodeURIComponent(product.id)}/delete`}" aria-label="${`${w.delete}: ${product.name}`}">${w.delete}</a>`,
            ]
          : []),
      ],
    },
    w.noProducts,
    { base, query, w },
  );
  const search = html`<form method="get" action="${base}" aria-label="${w.filters}">
<label for="filter_search">${`${c.name} / ${c.sku}`}</label>
<input id="filter_search" name="search" value="${query.search ?? ''}" maxlength="64">
<button type="submit">${w.filter}</button> ${link(base, w.clearFilters)}
</form>`;
  const values = { currency: 'USD', ...form.values };
  const shown = { ...form, values };
  const create =
    mayEdit &&
    csrfForm(
      base,
      view.csrf,
      html`<p class="help">${w.productImagesNote}</p>
${textInput('name', w.fields.name, shown, { maxlength: 50, required: true })}
${textInput('price', w.fields.price, shown, { help: w.amountHelp, inputmode: 'decimal', maxlength: 32, required: true })}
${select('currency', w.fields.currency, values.currency, currencyChoices, form.fieldErrors.currency)}
${textInput('short_description', w.fields.shortDescription, shown, { maxlength: 100 })}
${textInput('description', w.fields.description, shown, { maxlength: 300 })}
${textInput('sku', w.fields.sku, shown, { maxlength: 64 })}
${textInput('stock', w.fields.stock, shown, { inputmode: 'numeric', maxlength: 10 })}
<button type="submit">${w.create}</button>`,
      { idempotency_key: form.idempotencyKey },
    );
  return catalogPage(view, {
    title: w.productsTitle,
    notice,
    problem: form.problem ?? listProblem,
    filters: { id: 'products_search', form: search },
    listed,
    create: create ? { id: 'new_product', title: w.newProduct, form: create } : undefined,
  });
}

/** GET /dashboard/products/{id}/delete: what deleting the product does, then the button. */
export function productDeletePage(view: ShellContext, product: Product): Page {
  const w = catalogWords[view.lang];
  const base = `${view.root}/products`;
  return deletePage(
    view,
    w.deleteProductTitle(product.name),
    html`<dl>${details([[w.columns.price, money(product.price, product.currency, view.lang)]])}</dl>`,
    w.deleteProductWarning,
    `${base}/${encodeURIComponent(product.id)}/delete`,
    w.deleteProductConfirm,
    base,
  );
}
