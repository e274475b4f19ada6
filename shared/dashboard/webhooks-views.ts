/**
 * The dashboard's webhook endpoints pages as views, and what the events and API keys pages
 * (events-views.ts, keys-views.ts) share with them: pure functions of what the domain read
 * (shared/dashboard/webhooks-http.ts), so they are tested without a stack. A secret (an endpoint's
 * signing secret) appears only on the one answer that made it, as the API shows it; every other
 * page shows what the API's reads show.
 */
import { type PageRequest, totalPages } from '../core/pagination.ts';
import { can } from '../team/roles.ts';
import { type Html, html } from '../web/html.ts';
import type { Page } from '../web/page.ts';
import type { Problem } from '../web/problems.ts';
import type { DeliveryView, EndpointView } from '../webhooks/endpoint.ts';
import { details } from './charge-views.ts';
import {
  confirmPage as confirmStep,
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
import { type WebhookWords, webhookWords } from './webhooks-words.ts';
import { dashboardWords } from './words.ts';

/** A value as the API names it (an id, an event type): as code. */
export const code = (value: string): Html => html`<code>${value}</code>`;

export const endpointUrl = (view: ShellContext, id: string) =>
  `${view.root}/webhooks/${encodeURIComponent(id)}`;
export const eventUrl = (view: ShellContext, id: string) => `${view.root}/events/${encodeURIComponent(id)}`;

/**
 * The pager of a numbered list, as the API's `page`/`page_size` pages it: links to the previous and
 * next page with the same size (and any filter), and where this page is.
 */
export function pager(
  view: ShellContext,
  path: string,
  page: PageRequest,
  count: number,
  filters: Record<string, string> = {},
): Html {
  const w = webhookWords[view.lang];
  const last = Math.max(totalPages(count, page.pageSize), 1);
  const at = (n: number) =>
    `${view.root}/${path}?${new URLSearchParams({ ...filters, page: String(n), page_size: String(page.pageSize) })}`;
  return pageLinks(
    w.pageOf(page.page, last, count),
    page.page > 1 ? { url: at(Math.min(page.page - 1, last)), text: w.previousPage } : undefined,
    page.page < last ? { url: at(page.page + 1), text: w.nextPage } : undefined,
  );
}

const eventsText = (events: readonly string[], w: WebhookWords) =>
  events.includes('*') ? html`${w.allEvents}` : events.map((event, i) => html`${i > 0 && ' '}${code(event)}`);

/** What the create form shows again after a refusal: the values posted and the same key. */
export interface EndpointFormState {
  idempotencyKey: string;
  url?: string;
  description?: string;
  events?: readonly string[];
  problem?: Problem;
}

/**
 * GET /dashboard/webhooks: the endpoints (the API's list, paged) and, for a role that may add one,
 * the form to add one.
 */
export function endpointsPage(
  view: ShellContext,
  list: { endpoints: readonly EndpointView[]; count: number; page: PageRequest } | undefined,
  eventTypes: readonly string[],
  form: EndpointFormState,
  options: { maxEndpoints: number; notice?: string; problem?: Problem },
): Page {
  const w = webhookWords[view.lang];
  const c = w.columns;
  const table = list?.endpoints.length
    ? dataTable(
        [
          { heading: c.url },
          { heading: c.events },
          { heading: c.status },
          { heading: c.created, nowrap: true },
        ],
        list.endpoints.map((endpoint) => [
          html`${link(endpointUrl(view, endpoint.id), endpoint.url)}<br><small>${code(endpoint.id)}</small>`,
          html`${eventsText(endpoint.events, w)}`,
          endpoint.enabled ? w.enabled : w.disabled,
          dashboardWords[view.lang].date(endpoint.created_at),
        ]),
      )
    : html`<p>${w.noEndpoints}</p>`;
  // Adding an endpoint is offered only to a role that may manage webhooks; any other reads the list.
  const mayAdd = can(view.role, 'webhooks');
  const chosen = new Set(form.events ?? []);
  const boxes = eventTypes.map(
    (type, i) =>
      html`<li><input type="checkbox" id="event-${i}" name="events" value="${type}"${chosen.has(type) && html` checked`}> <label class="inline" for="event-${i}">${code(type)}</label></li>`,
  );
  const create =
    mayAdd &&
    csrfForm(
      `${view.root}/webhooks`,
      view.csrf,
      html`${refusal(form.problem)}<label for="url">${w.url}</label>
<input id="url" name="url" type="url" required maxlength="2048" autocomplete="off" spellcheck="false" aria-describedby="url_help" value="${form.url ?? ''}">
<p id="url_help" class="help">${w.urlHelp}</p>
<label for="description">${w.description}</label>
<input id="description" name="description" maxlength="500" autocomplete="off" value="${form.description ?? ''}">
<fieldset><legend>${w.eventsLegend}</legend>
<p class="help">${w.eventsHelp}</p>
<ul class="checks">${boxes}</ul>
</fieldset>
<p class="help">${w.endpointLimit(options.maxEndpoints)}</p>
<button type="submit">${w.create}</button>`,
      { idempotency_key: form.idempotencyKey },
    );
  return dashboardPage(
    view,
    w.endpointsTitle,
    html`${notice(options.notice)}${refusal(options.problem)}<div class="card">${table}</div>
${list && pager(view, 'webhooks', list.page, list.count)}
${
  create &&
  html`<section class="card" aria-labelledby="add">
<h2 id="add">${w.addEndpoint}</h2>
${create}
</section>`
}`,
    options.problem?.status ?? form.problem?.status ?? 200,
  );
}

/** The one answer that shows an endpoint's secret: after creating the endpoint, or rotating its secret. */
export function secretPage(
  view: ShellContext,
  title: string,
  endpoint: { id: string; url: string },
  secret: string,
  status: number,
): Page {
  const w = webhookWords[view.lang];
  return dashboardPage(
    view,
    title,
    html`<section class="card">
<dl>
${details([
  [w.endpointFields.url, endpoint.url],
  [w.endpointFields.id, code(endpoint.id)],
  [w.secret, html`<code class="secret" data-secret>${secret}</code>`],
])}
</dl>
${notice(w.secretOnce)}
<p>${link(endpointUrl(view, endpoint.id), w.toEndpoint)}</p>
</section>`,
    status,
  );
}

/** One delivery attempt as the API's deliveries list shows it, with its Redeliver form key. */
export interface DeliveryRow {
  delivery: DeliveryView;
  redeliverKey: string;
}

/** GET /dashboard/webhooks/{id}: the endpoint, its deliveries (the API's list, paged), redelivery. */
export function endpointPage(
  view: ShellContext,
  endpoint: EndpointView,
  deliveries: { rows: readonly DeliveryRow[]; count: number; page: PageRequest },
  options: { perEvent: number; perAccount: number; notice?: string; problem?: Problem },
): Page {
  const w = webhookWords[view.lang];
  const c = w.columns;
  const f = w.endpointFields;
  const date = dashboardWords[view.lang].date;
  const at = endpointUrl(view, endpoint.id);
  // Rotating the secret, deleting the endpoint and redelivering are offered only to a role that
  // may manage webhooks; any other reads the endpoint and its deliveries, without the action column.
  const mayManage = can(view.role, 'webhooks');
  const list = deliveries.rows.length
    ? dataTable(
        [
          { heading: c.date, nowrap: true },
          { heading: c.event },
          { heading: c.attempt, numeric: true },
          { heading: c.answer, numeric: true },
          { heading: c.error },
          { heading: c.duration, numeric: true },
          { heading: c.nextRetry, nowrap: true },
          ...(mayManage ? [{ heading: c.action }] : []),
        ],
        deliveries.rows.map(({ delivery, redeliverKey }) => [
          date(delivery.created_at),
          html`${code(delivery.event_type)}<br><small><a href="${eventUrl(view, delivery.event_id)}">${code(delivery.event_id)}</a></small>`,
          String(delivery.attempt),
          delivery.status_code === null ? w.noAnswer : String(delivery.status_code),
          html`${delivery.error !== null && code(delivery.error)}`,
          `${delivery.duration_ms} ms`,
          delivery.next_retry_at ? date(delivery.next_retry_at) : '',
          ...(mayManage
            ? [
                csrfForm(
                  `${at}/redeliver`,
                  view.csrf,
                  html`<button type="submit" class="small" aria-label="${`${w.redeliver} ${delivery.event_id}`}">${w.redeliver}</button>`,
                  { event_id: delivery.event_id, idempotency_key: redeliverKey },
                ),
              ]
            : []),
        ]),
      )
    : html`<p>${w.noDeliveries}</p>`;
  return dashboardPage(
    view,
    w.endpointTitle(endpoint.url),
    html`${notice(options.notice)}${refusal(options.problem)}<section class="card"><dl>
${details([
  [f.id, code(endpoint.id)],
  [f.url, endpoint.url],
  [f.events, html`${eventsText(endpoint.events, w)}`],
  [f.description, endpoint.description],
  [f.status, endpoint.enabled ? w.enabled : w.disabled],
  [f.created, date(endpoint.created_at)],
])}
</dl>
${mayManage && html`<p class="pager">${link(`${at}/rotate-secret`, w.rotateSecret)}${link(`${at}/delete`, w.deleteEndpoint)}</p>`}
</section>
<section class="card" aria-labelledby="deliveries">
<h2 id="deliveries">${w.deliveries}</h2>
${mayManage && html`<p class="help">${w.redeliverLimits(options.perEvent, options.perAccount)}</p>`}
${list}
${pager(view, `webhooks/${encodeURIComponent(endpoint.id)}`, deliveries.page, deliveries.count)}
</section>
<p>${link(`${view.root}/webhooks`, w.toEndpoints)}</p>`,
    options.problem?.status ?? 200,
  );
}

/** A confirmation step before a destructive action: what it does, the button, and a way back. */
export function confirmPage(
  view: ShellContext,
  title: string,
  text: string,
  action: string,
  button: string,
  back: string,
  hidden: Record<string, string> = {},
): Page {
  return confirmStep(
    view,
    title,
    html`<p>${text}</p>`,
    { action, button, hidden },
    { url: back, text: webhookWords[view.lang].cancel },
  );
}

/** A record the account and mode do not have: 404, with the way back to its list. */
export const notFoundPage = (view: ShellContext, message: string, back: string, backText: string): Page =>
  messagePage(view, 404, dashboardWords[view.lang].notFoundTitle, message, { url: back, text: backText });
