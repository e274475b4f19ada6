/**
 * The dashboard's webhooks, events and API keys pages as views: pure functions of what the domain
 * read (shared/dashboard/webhooks-http.ts), so they are tested without a stack. Secrets (an
 * endpoint's signing secret, a new API key) appear only on the one answer that made them, as the
 * API shows them; every other page shows what the API's reads show (keys masked, never a secret).
 */
import type { ApiKeysView } from '../auth/schemas.ts';
import type { Mode } from '../core/account.ts';
import { escapeHtml } from '../core/html.ts';
import { type PageRequest, totalPages } from '../core/pagination.ts';
import type { WebhookBody } from '../events/webhook-body.ts';
import type { Page } from '../web/page.ts';
import type { Problem } from '../web/problems.ts';
import type { DeliveryView, EndpointView } from '../webhooks/endpoint.ts';
import { csrfForm, dashboardPage, type ShellContext, shell } from './shell.ts';
import { dataTable } from './table.ts';
import { type WebhookWords, webhookWords } from './webhooks-words.ts';
import { dashboardWords } from './words.ts';

const e = escapeHtml;
const errorOf = (problem: Problem | undefined) =>
  problem ? `<p class="error" role="alert">${e(problem.message)}</p>` : '';
const noticeOf = (notice: string | undefined) =>
  notice ? `<p class="notice" role="status">${e(notice)}</p>` : '';
const code = (value: string) => `<code>${e(value)}</code>`;

export const endpointUrl = (view: ShellContext, id: string) =>
  `${view.root}/webhooks/${encodeURIComponent(id)}`;
const eventUrl = (view: ShellContext, id: string) => `${view.root}/events/${encodeURIComponent(id)}`;

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
): string {
  const w = webhookWords[view.lang];
  const last = Math.max(totalPages(count, page.pageSize), 1);
  const link = (n: number, text: string, rel: string) =>
    `<a href="${e(`${view.root}/${path}?${new URLSearchParams({ ...filters, page: String(n), page_size: String(page.pageSize) })}`)}" rel="${rel}">${e(text)}</a>`;
  const previous = page.page > 1 ? link(Math.min(page.page - 1, last), w.previousPage, 'prev') : '';
  const next = page.page < last ? link(page.page + 1, w.nextPage, 'next') : '';
  return `<p class="pager"><span>${e(w.pageOf(page.page, last, count))}</span>${previous}${next}</p>`;
}

const eventsText = (events: readonly string[], w: WebhookWords) =>
  events.includes('*') ? e(w.allEvents) : events.map(code).join(' ');

/** What the create form shows again after a refusal: the values posted and the same key. */
export interface EndpointFormState {
  idempotencyKey: string;
  url?: string;
  description?: string;
  events?: readonly string[];
  problem?: Problem;
}

/** GET /dashboard/webhooks: the endpoints (the API's list, paged) and the form to add one. */
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
          `<a href="${e(endpointUrl(view, endpoint.id))}">${e(endpoint.url)}</a><br><small><code>${e(endpoint.id)}</code></small>`,
          eventsText(endpoint.events, w),
          e(endpoint.enabled ? w.enabled : w.disabled),
          e(dashboardWords[view.lang].date(endpoint.created_at)),
        ]),
      )
    : `<p>${e(w.noEndpoints)}</p>`;
  const chosen = new Set(form.events ?? []);
  const boxes = eventTypes
    .map(
      (type, i) =>
        `<li><input type="checkbox" id="event-${i}" name="events" value="${e(type)}"${chosen.has(type) ? ' checked' : ''}> <label class="inline" for="event-${i}"><code>${e(type)}</code></label></li>`,
    )
    .join('');
  const create = csrfForm(
    `${view.root}/webhooks`,
    view.csrf,
    `${errorOf(form.problem)}<label for="url">${e(w.url)}</label>
<input id="url" name="url" type="url" required maxlength="2048" autocomplete="off" spellcheck="false" aria-describedby="url_help" value="${e(form.url ?? '')}">
<p id="url_help" class="help">${e(w.urlHelp)}</p>
<label for="description">${e(w.description)}</label>
<input id="description" name="description" maxlength="500" autocomplete="off" value="${e(form.description ?? '')}">
<fieldset><legend>${e(w.eventsLegend)}</legend>
<p class="help">${e(w.eventsHelp)}</p>
<ul class="checks">${boxes}</ul>
</fieldset>
<p class="help">${e(w.endpointLimit(options.maxEndpoints))}</p>
<button type="submit">${e(w.create)}</button>`,
    { idempotency_key: form.idempotencyKey },
  );
  return dashboardPage(
    view,
    w.endpointsTitle,
    `${noticeOf(options.notice)}${errorOf(options.problem)}<div class="card">${table}</div>
${list ? pager(view, 'webhooks', list.page, list.count) : ''}
<section class="card" aria-labelledby="add">
<h2 id="add">${e(w.addEndpoint)}</h2>
${create}
</section>`,
    options.problem?.status ?? form.problem?.status ?? 200,
  );
}

/** The one answer that shows a secret or a key: after creating an endpoint, or rotating its secret. */
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
    `<section class="card">
<dl>
<dt>${e(w.endpointFields.url)}</dt><dd>${e(endpoint.url)}</dd>
<dt>${e(w.endpointFields.id)}</dt><dd>${code(endpoint.id)}</dd>
<dt>${e(w.secret)}</dt><dd><code class="secret" data-secret>${e(secret)}</code></dd>
</dl>
<p class="notice" role="status">${e(w.secretOnce)}</p>
<p><a href="${e(endpointUrl(view, endpoint.id))}">${e(w.toEndpoint)}</a></p>
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
  const row = (name: string, value: string) => `<dt>${e(name)}</dt><dd>${value}</dd>`;
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
          { heading: c.action },
        ],
        deliveries.rows.map(({ delivery, redeliverKey }) => [
          e(date(delivery.created_at)),
          `${code(delivery.event_type)}<br><small><a href="${e(eventUrl(view, delivery.event_id))}"><code>${e(delivery.event_id)}</code></a></small>`,
          String(delivery.attempt),
          delivery.status_code === null ? e(w.noAnswer) : String(delivery.status_code),
          delivery.error === null ? '' : code(delivery.error),
          `${delivery.duration_ms} ms`,
          delivery.next_retry_at ? e(date(delivery.next_retry_at)) : '',
          csrfForm(
            `${endpointUrl(view, endpoint.id)}/redeliver`,
            view.csrf,
            `<button type="submit" class="small" aria-label="${e(`${w.redeliver} ${delivery.event_id}`)}">${e(w.redeliver)}</button>`,
            { event_id: delivery.event_id, idempotency_key: redeliverKey },
          ),
        ]),
      )
    : `<p>${e(w.noDeliveries)}</p>`;
  return dashboardPage(
    view,
    w.endpointTitle(endpoint.url),
    `${noticeOf(options.notice)}${errorOf(options.problem)}<section class="card"><dl>
${row(f.id, code(endpoint.id))}
${row(f.url, e(endpoint.url))}
${row(f.events, eventsText(endpoint.events, w))}
${row(f.description, e(endpoint.description))}
${row(f.status, e(endpoint.enabled ? w.enabled : w.disabled))}
${row(f.created, e(date(endpoint.created_at)))}
</dl>
<p class="pager"><a href="${e(`${endpointUrl(view, endpoint.id)}/rotate-secret`)}">${e(w.rotateSecret)}</a><a href="${e(`${endpointUrl(view, endpoint.id)}/delete`)}">${e(w.deleteEndpoint)}</a></p>
</section>
<section class="card" aria-labelledby="deliveries">
<h2 id="deliveries">${e(w.deliveries)}</h2>
<p class="help">${e(w.redeliverLimits(options.perEvent, options.perAccount))}</p>
${list}
${pager(view, `webhooks/${encodeURIComponent(endpoint.id)}`, deliveries.page, deliveries.count)}
</section>
<p><a href="${e(`${view.root}/webhooks`)}">${e(w.toEndpoints)}</a></p>`,
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
  const w = webhookWords[view.lang];
  return dashboardPage(
    view,
    title,
    `<section class="card">
<p>${e(text)}</p>
${csrfForm(action, view.csrf, `<button type="submit">${e(button)}</button>`, hidden)}
<p><a href="${e(back)}">${e(w.cancel)}</a></p>
</section>`,
  );
}

/** A record the account and mode do not have: 404, with the way back to its list. */
export function notFoundPage(view: ShellContext, message: string, back: string, backText: string): Page {
  const d = dashboardWords[view.lang];
  return dashboardPage(
    view,
    d.notFoundTitle,
    `<p class="error" role="alert">${e(message)}</p>
<p><a href="${e(back)}">${e(backText)}</a></p>`,
    404,
  );
}

/** GET /dashboard/events: the API's events list (its paging and `type` filter). */
export function eventsPage(
  view: ShellContext,
  list:
    | { results: readonly WebhookBody[]; count: number; page: PageRequest; type?: string | undefined }
    | undefined,
  eventTypes: readonly string[],
  options: { retentionDays: number; problem?: Problem },
): Page {
  const w = webhookWords[view.lang];
  const c = w.columns;
  const date = dashboardWords[view.lang].date;
  const table = list?.results.length
    ? dataTable(
        [{ heading: c.date, nowrap: true }, { heading: c.type }, { heading: c.event }],
        list.results.map((event) => [
          e(date(event.created_at)),
          code(event.type),
          `<a href="${e(eventUrl(view, event.id))}"><code>${e(event.id)}</code></a>`,
        ]),
      )
    : `<p>${e(w.noEvents)}</p>`;
  const type = list?.type;
  const options_ = [`<option value="">${e(w.anyType)}</option>`]
    .concat(
      eventTypes.map(
        (name) => `<option value="${e(name)}"${name === type ? ' selected' : ''}>${e(name)}</option>`,
      ),
    )
    .join('');
  // A GET form changes nothing: it needs no CSRF token, and the filter stays in the address.
  const filter = `<form method="get" action="${e(`${view.root}/events`)}">
<label for="type">${e(w.typeFilter)}</label>
<select id="type" name="type">${options_}</select>
<button type="submit">${e(w.filter)}</button>
</form>`;
  return dashboardPage(
    view,
    w.eventsTitle,
    `${errorOf(options.problem)}<section class="card">${filter}</section>
<div class="card">${table}</div>
${list ? pager(view, 'events', list.page, list.count, type ? { type } : {}) : ''}
<p class="help">${e(w.retention(options.retentionDays))}</p>`,
    options.problem?.status ?? 200,
  );
}

/** GET /dashboard/events/{id}: the event as the API and webhooks show it, pretty-printed and escaped. */
export function eventPage(view: ShellContext, event: WebhookBody): Page {
  const w = webhookWords[view.lang];
  return dashboardPage(
    view,
    w.eventTitle(event.id),
    `<section class="card">
<pre class="json" tabindex="0" aria-label="JSON">${e(JSON.stringify(event, null, 2))}</pre>
</section>
<p><a href="${e(`${view.root}/events`)}">${e(w.toEvents)}</a></p>`,
  );
}

/** GET /dashboard/api-keys: both keys, masked as the API shows them, and which may be rotated. */
export function keysPage(view: ShellContext, keys: ApiKeysView, problem?: Problem): Page {
  const w = webhookWords[view.lang];
  const c = w.columns;
  const date = dashboardWords[view.lang].date;
  // As the API decides: a test key may rotate only the test key.
  const mayRotate = (mode: Mode) => !(view.mode === 'test' && mode === 'live');
  const table = dataTable(
    [{ heading: c.mode }, { heading: c.key }, { heading: c.created, nowrap: true }, { heading: c.action }],
    (['test', 'live'] as const).map((mode) => [
      e(w.keyModes[mode]),
      code(keys[mode].key),
      e(date(keys[mode].created_at)),
      mayRotate(mode)
        ? `<a href="${e(`${view.root}/api-keys/rotate?${new URLSearchParams({ type: mode })}`)}" aria-label="${e(`${w.rotateKey}: ${w.keyModes[mode]}`)}">${e(w.rotateKey)}</a>`
        : '',
    ]),
  );
  return dashboardPage(
    view,
    w.keysTitle,
    `${errorOf(problem)}<p>${e(w.keysIntro)}</p>
<div class="card">${table}</div>
${view.mode === 'test' ? `<p class="help">${e(w.rotateKeyTestOnly)}</p>` : ''}`,
    problem?.status ?? 200,
  );
}

/** The confirmation step of a key's rotation; says so when it is the key the session was opened with. */
export function keyConfirmPage(view: ShellContext, type: Mode): Page {
  const w = webhookWords[view.lang];
  const name = w.keyModes[type];
  const own = type === view.mode ? ` ${w.keyConfirmOwn}` : '';
  return confirmPage(
    view,
    w.keyConfirmTitle(name),
    `${w.keyConfirm(name)}${own}`,
    `${view.root}/api-keys/rotate`,
    w.keyConfirmButton,
    `${view.root}/api-keys`,
    { type },
  );
}

/**
 * The new key, shown this once. When it replaced the key the session was opened with, the session
 * is over: the page is then the signed-out shell (no navigation, no forms of the ended session)
 * with a link to sign in again.
 */
export function keyRotatedPage(
  view: ShellContext,
  rotated: { type: Mode; key: string },
  signedOut: boolean,
): Page {
  const w = webhookWords[view.lang];
  const name = w.keyModes[rotated.type];
  const body = `<section class="card">
<dl><dt>${e(w.newKey(name))}</dt><dd><code class="secret" data-secret>${e(rotated.key)}</code></dd></dl>
<p class="notice" role="status">${e(w.keyOnce)}</p>
${
  signedOut
    ? `<p>${e(w.signedOutByRotation)}</p>
<p><a href="${e(`${view.root}/sign-in`)}">${e(w.signInAgain)}</a></p>`
    : `<p><a href="${e(`${view.root}/api-keys`)}">${e(w.toKeys)}</a></p>`
}
</section>`;
  if (!signedOut) return dashboardPage(view, w.keyRotatedTitle, body);
  const d = dashboardWords[view.lang];
  return shell(
    200,
    `${w.keyRotatedTitle} · ${d.product}`,
    `<div class="bar"><p class="brand">${e(d.product)}</p></div>
<h1>${e(w.keyRotatedTitle)}</h1>
${body}`,
    view.lang,
  );
}
