/**
 * The dashboard's events pages as views: the list as GET /v1/events/ pages and filters it, and one
 * event as the API and webhooks show it. Pure functions of what the domain read
 * (shared/dashboard/events-http.ts), tested without a stack.
 */
import type { PageRequest } from '../core/pagination.ts';
import type { WebhookBody } from '../events/webhook-body.ts';
import { html } from '../web/html.ts';
import type { Page } from '../web/page.ts';
import type { Problem } from '../web/problems.ts';
import { idLink, options } from './charge-views.ts';
import { dashboardPage, link, refusal, type ShellContext } from './shell.ts';
import { dataTable } from './table.ts';
import { code, eventUrl, pager } from './webhooks-views.ts';
import { webhookWords } from './webhooks-words.ts';
import { dashboardWords } from './words.ts';

/** GET /dashboard/events: the API's events list (its paging and `type` filter). */
export function eventsPage(
  view: ShellContext,
  list:
    | { results: readonly WebhookBody[]; count: number; page: PageRequest; type?: string | undefined }
    | undefined,
  eventTypes: readonly string[],
  shown: { retentionDays: number; problem?: Problem },
): Page {
  const w = webhookWords[view.lang];
  const c = w.columns;
  const date = dashboardWords[view.lang].date;
  const table = list?.results.length
    ? dataTable(
        [{ heading: c.date, nowrap: true }, { heading: c.type }, { heading: c.event }],
        list.results.map((event) => [
          date(event.created_at),
          code(event.type),
          idLink(eventUrl(view, event.id), event.id),
        ]),
      )
    : html`<p>${w.noEvents}</p>`;
  const type = list?.type;
  // "Any type" is never marked chosen: the form shows it first when none is.
  const types = html`<option value="">${w.anyType}</option>${options(
    eventTypes.map((name) => [name, name]),
    type,
  )}`;
  // A GET form changes nothing: it needs no CSRF token, and the filter stays in the address.
  const filter = html`<form method="get" action="${`${view.root}/events`}">
<label for="type">${w.typeFilter}</label>
<select id="type" name="type">${types}</select>
<button type="submit">${w.filter}</button>
</form>`;
  return dashboardPage(
    view,
    w.eventsTitle,
    html`${refusal(shown.problem)}<section class="card">${filter}</section>
<div class="card">${table}</div>
${list && pager(view, 'events', list.page, list.count, type ? { type } : {})}
<p class="help">${w.retention(shown.retentionDays)}</p>`,
    shown.problem?.status ?? 200,
  );
}

/** GET /dashboard/events/{id}: the event as the API and webhooks show it, pretty-printed and escaped. */
export function eventPage(view: ShellContext, event: WebhookBody): Page {
  const w = webhookWords[view.lang];
  return dashboardPage(
    view,
    w.eventTitle(event.id),
    html`<section class="card">
<pre class="json" tabindex="0" aria-label="JSON">${JSON.stringify(event, null, 2)}</pre>
</section>
<p>${link(`${view.root}/events`, w.toEvents)}</p>`,
  );
}
