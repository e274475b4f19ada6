/**
 * The dashboard's payment links pages as views: the links as GET /v1/payment-links/ pages them,
 * each page's URL in a field to copy (the pages keep no script, so there is no copy button), the
 * create form, and the confirmation before a delete. Pure functions of what the domain read
 * (shared/dashboard/links-http.ts), tested without a stack.
 */
import { parseAmount } from '../core/money/amount.ts';
import { findCurrency } from '../core/money/currencies.ts';
import type { LinkListItem } from '../payment-links/link.ts';
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
import { type CatalogWords, catalogWords } from './catalog-words.ts';
import { details, money } from './charge-views.ts';
import { csrfForm, type ShellContext } from './shell.ts';
import { dashboardWords } from './words.ts';

/** A link's amount (the list's decimal text) written the shared way, in the reader's number format. */
function linkMoney(link: Pick<LinkListItem, 'amount' | 'currency'>, view: ShellContext): string {
  const currency = findCurrency(link.currency);
  const parsed = currency ? parseAmount(link.amount, currency) : undefined;
  return parsed?.ok ? money(parsed.minor, link.currency, view.lang) : `${link.amount} ${link.currency}`;
}

/** A link's page URL in a read-only field, to select and copy. */
function linkField(id: string, url: string, label: string, w: CatalogWords): Html {
  return html`<label for="${id}">${label}</label>
<input id="${id}" value="${url}" readonly aria-describedby="${id}_help">
<p id="${id}_help" class="help">${w.copyHelp}</p>`;
}

/** What the links page shows of a link just created: its description and its page's URL. */
export interface MadeLink {
  description: string;
  link: string;
}

/**
 * GET /dashboard/links: one page of the payment links (each URL to copy), and (for a role that
 * may) the create form.
 */
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
  // Creating and deleting a payment link are offered only to a role that may change the catalog;
  // any other reads the list, without its actions column or the create form.
  const mayEdit = can(view.role, 'catalog');
  const listed = listing(
    list,
    {
      columns: [
        { heading: c.description },
        { heading: c.amount, numeric: true },
        { heading: c.status },
        { heading: c.created, nowrap: true },
        { heading: c.link },
        ...(mayEdit ? [{ heading: c.actions }] : []),
      ],
      row: (link, i) => [
        link.description,
        linkMoney(link, view),
        w.linkStatus[link.status] ?? link.status,
        dashboardWords[view.lang].date(link.created_on),
        html`<input id="link_${i}" value="${link.link}" readonly aria-label="${`${c.link}: ${link.description}`}">`,
        ...(mayEdit
          ? [
              html`<a href="${`${base}/${encodeURIComponent(link.id)}/delete`}" aria-label="${`${w.delete}: ${link.description}`}">${w.delete}</a>`,
            ]
          : []),
      ],
    },
    w.noLinks,
    { base, query, w },
  );
  const values = { currency: 'USD', ...form.values };
  const shown = { ...form, values };
  const create =
    mayEdit &&
    csrfForm(
      base,
      view.csrf,
      html`<p class="help">${w.linkNote}</p>
${textInput('description', w.fields.description, shown, { maxlength: 300, required: true })}
${textInput('amount', w.fields.amount, shown, { help: w.amountHelp, inputmode: 'decimal', maxlength: 32, required: true })}
${select('currency', w.fields.currency, values.currency, currencyChoices, form.fieldErrors.currency)}
<button type="submit">${w.create}</button>`,
      { idempotency_key: form.idempotencyKey },
    );
  const madeCard =
    made &&
    html`<section class="card" aria-labelledby="made_link">
<h2 id="made_link">${made.description}</h2>
${linkField('made_link_url', made.link, w.linkUrl, w)}
</section>`;
  return catalogPage(view, {
    title: w.linksTitle,
    notice,
    problem: form.problem ?? listProblem,
    before: madeCard || undefined,
    listed,
    create: create ? { id: 'new_link', title: w.newLink, form: create } : undefined,
  });
}

/** GET /dashboard/links/{id}/delete: what deleting the link does, then the button. */
export function linkDeletePage(view: ShellContext, link: LinkListItem): Page {
  const w = catalogWords[view.lang];
  const base = `${view.root}/links`;
  return deletePage(
    view,
    w.deleteLinkTitle(link.description),
    html`<dl>${details([[w.columns.amount, linkMoney(link, view)]])}</dl>
${linkField('link_url', link.link, w.linkUrl, w)}`,
    w.deleteLinkWarning,
    `${base}/${encodeURIComponent(link.id)}/delete`,
    w.deleteLinkConfirm,
    base,
  );
}
