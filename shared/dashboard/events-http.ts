/**
 * The dashboard's events pages: listEvents with GET /v1/events/'s query schema (`page`,
 * `page_size`, `type`), and getEvent, as GET /v1/events/{id}/ shows it, in the session's account
 * and mode. A query the API refuses is shown on the list with the API's status.
 */
import type { PageRequest } from '../core/pagination.ts';
import { validate } from '../core/validation.ts';
import type { Deps } from '../db/deps.ts';
import { eventRetentionDays } from '../events/event.ts';
import { webhookBody } from '../events/webhook-body.ts';
import type { ApiAnswer } from '../http/render.ts';
import { EventListQuerySchema, getEvent, listEvents } from '../webhooks/events.ts';
import { eventIdParam } from '../webhooks/service.ts';
import { eventPage, eventsPage } from './events-views.ts';
import { orProblem, pageAnswer, recordPath, type SignedIn, signedInPage } from './http.ts';
import { readOr, type WebhookPagesDeps } from './webhooks-http.ts';
import { notFoundPage } from './webhooks-views.ts';
import { webhookWords } from './webhooks-words.ts';

/** The path under /dashboard/ of the event a request names (the language switch comes back to it). */
export const eventPath = recordPath('events');

/** GET /dashboard/events: listEvents with GET /v1/events/'s query (`page`, `page_size`, `type`). */
export const showEvents = signedInPage(
  'events',
  'events',
  async (deps: WebhookPagesDeps, signed: SignedIn): Promise<ApiAnswer> => {
    const { scope, view, request } = signed;
    const read = await readOr(view.lang, async () => {
      const query: { page: PageRequest; type?: string | undefined } = validate(
        EventListQuerySchema,
        request.query,
      );
      const answer = await listEvents(deps, scope, query);
      return {
        results: answer.results,
        count: answer.count,
        page: query.page,
        type: query.type || undefined,
      };
    });
    return pageAnswer(
      eventsPage(view, 'value' in read ? read.value : undefined, deps.eventTypes, {
        retentionDays: eventRetentionDays,
        ...('problem' in read ? { problem: read.problem } : {}),
      }),
    );
  },
);

/** GET /dashboard/events/{id}: getEvent, as GET /v1/events/{id}/ shows it. */
export const showEvent = signedInPage(
  'events',
  eventPath,
  async (deps: Deps, signed: SignedIn): Promise<ApiAnswer> => {
    const { scope, view, request } = signed;
    const w = webhookWords[view.lang];
    return orProblem(
      view.lang,
      async () =>
        pageAnswer(
          eventPage(view, webhookBody(await getEvent(deps, scope, eventIdParam(request.params.id)))),
        ),
      () => pageAnswer(notFoundPage(view, w.eventNotFound, `${view.root}/events`, w.toEvents)),
      { only: 404 },
    );
  },
);
