/**
 * The dashboard's webhook endpoints pages: what each reads and does, through the functions the
 * API's handlers call (listEndpoints, registerEndpoint, rotateSecret, deleteEndpoint, listAttempts,
 * redeliverEvent), in the session's account and mode, so the dashboard can do nothing the API
 * forbids. The lists parse their query with the API's own schemas. A failure of the domain is
 * shown on the page with the status the API answers it with.
 */
import { isPrefixedId } from '../core/ids.ts';
import { parsePageRequest } from '../core/pagination.ts';
import { validate } from '../core/validation.ts';
import type { Deps } from '../db/deps.ts';
import type { ApiAnswer } from '../http/render.ts';
import type { Problem } from '../web/problems.ts';
import { createEndpointSchema, deliveryView, endpointView, maxEndpoints } from '../webhooks/endpoint.ts';
import { redeliverEvent, redeliveryLimits } from '../webhooks/events.ts';
import { deleteEndpoint, getEndpoint, listAttempts, listEndpoints } from '../webhooks/repository.ts';
import type { SecretBox } from '../webhooks/secrets.ts';
import {
  endpointIdParam,
  eventIdParam,
  registerEndpoint,
  rotateSecret,
  rotationOverlapMs,
} from '../webhooks/service.ts';
import { actOnce, formKeyPattern, newFormKey } from './form-once.ts';
import {
  type DashboardDeps,
  dashboardRoot,
  field,
  orProblem,
  pageAnswer,
  recordPath,
  type SignedIn,
  seeOther,
  signedInForm,
  signedInPage,
} from './http.ts';
import {
  confirmPage,
  type EndpointFormState,
  endpointPage,
  endpointsPage,
  endpointUrl,
  notFoundPage,
  secretPage,
} from './webhooks-views.ts';
import { webhookWords } from './webhooks-words.ts';
import { dashboardWords } from './words.ts';
/** The pages' dependencies: the dashboard's, and the event catalogue's type names where a page lists them. */
export interface WebhookPagesDeps extends DashboardDeps {
  eventTypes: readonly string[];
}

/** The path under /dashboard/ of the endpoint or event a request names (the language switch comes back to it). */
export const endpointPath = recordPath('webhooks');

/** Runs `read`; a failure the domain states becomes the problem shown (with the API's status). */
export const readOr = <T>(lang: SignedIn['view']['lang'], read: () => Promise<T>) =>
  orProblem<{ value: T } | { problem: Problem }>(
    lang,
    async () => ({ value: await read() }),
    (problem) => ({ problem }),
  );

const endpointMissing = (signed: SignedIn) => {
  const w = webhookWords[signed.view.lang];
  return pageAnswer(
    notFoundPage(signed.view, w.endpointNotFound, `${signed.view.root}/webhooks`, w.toEndpoints),
  );
};

/** The endpoints list (GET /v1/webhook-endpoints/'s paging) with the create form in `form`'s state. */
async function endpointsAnswer(
  deps: WebhookPagesDeps,
  signed: SignedIn,
  form: EndpointFormState,
  notice?: string,
): Promise<ApiAnswer> {
  const { scope, view, request } = signed;
  const read = await readOr(view.lang, async () => {
    const page = parsePageRequest(request.query);
    return { ...(await listEndpoints(deps, scope, page)), page };
  });
  const list =
    'value' in read
      ? { endpoints: read.value.endpoints.map(endpointView), count: read.value.count, page: read.value.page }
      : undefined;
  return pageAnswer(
    endpointsPage(view, list, deps.eventTypes, form, {
      maxEndpoints,
      ...(notice ? { notice } : {}),
      ...('problem' in read ? { problem: read.problem } : {}),
    }),
  );
}

/** GET /dashboard/webhooks; `?deleted=we_…` after a deletion says so. */
export const showEndpoints = signedInPage(
  'webhooks',
  'webhooks',
  (deps: WebhookPagesDeps, signed: SignedIn): Promise<ApiAnswer> => {
    const deleted = signed.request.query.deleted ?? '';
    const notice = isPrefixedId(deleted, 'we') ? webhookWords[signed.view.lang].deleted(deleted) : undefined;
    return endpointsAnswer(deps, signed, { idempotencyKey: newFormKey() }, notice);
  },
);

/** The checked boxes of a form field: one value comes as text, several as a list. */
function fieldList(body: unknown, name: string): string[] {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * POST /dashboard/webhooks: registerEndpoint, as POST /v1/webhook-endpoints/ calls it (the same
 * schema, the same address checks), once per form. The answer is the one page that shows the new
 * endpoint's signing secret; a second submit of the same form goes to the endpoint, secret unseen.
 */
export const submitEndpoint = signedInForm(
  'webhooks',
  'webhooks',
  async (deps: WebhookPagesDeps & { secrets: SecretBox }, signed: SignedIn): Promise<ApiAnswer> => {
    const { scope, view, request } = signed;
    const key = field(request.body, 'idempotency_key');
    const url = field(request.body, 'url').trim();
    const description = field(request.body, 'description');
    const events = fieldList(request.body, 'events');
    const again = (problem: Problem) =>
      endpointsAnswer(deps, signed, {
        // The same key again: the corrected form still acts once.
        idempotencyKey: formKeyPattern.test(key) ? key : newFormKey(),
        url,
        description,
        events,
        problem,
      });
    if (!formKeyPattern.test(key)) {
      return again({ status: 400, message: dashboardWords[view.lang].formExpired });
    }
    return orProblem(
      view.lang,
      async () => {
        // No box checked: every event, as the API's default.
        const input = validate(createEndpointSchema(deps.eventTypes), {
          url,
          description,
          ...(events.length ? { events } : {}),
        });
        // A later submit is told the endpoint's id only: the signing secret is shown once.
        const once = await actOnce(
          deps,
          deps.keys,
          scope,
          { key, purpose: 'create-endpoint' },
          () => registerEndpoint(deps, scope, input),
          ({ endpoint }) => ({ id: endpoint.id }),
        );
        if (once.kind !== 'first') {
          // Another submit of the form: its entry is the first's (one per form key); while the
          // first still runs, it writes none.
          signed.auditRecord = once.kind === 'again' ? once.kept.id : false;
          return seeOther(
            once.kind === 'again'
              ? `${endpointUrl(view, once.kept.id)}?already=created`
              : `${dashboardRoot(deps.baseUrl)}/webhooks`,
          );
        }
        const { endpoint, secret } = once.value;
        signed.auditRecord = endpoint.id;
        return pageAnswer(secretPage(view, webhookWords[view.lang].createdTitle, endpoint, secret, 201));
      },
      again,
    );
  },
);

/** The endpoint's page: its fields, its deliveries (the API's list and paging), redelivery forms. */
async function endpointAnswer(
  deps: Deps,
  signed: SignedIn,
  notice?: string,
  problem?: Problem,
): Promise<ApiAnswer> {
  const { scope, view, request } = signed;
  const endpoint = await namedEndpoint(deps, signed);
  if (!endpoint) return endpointMissing(signed);
  const read = await readOr(view.lang, async () => {
    const page = parsePageRequest(request.query);
    return { ...(await listAttempts(deps, scope, endpoint.id, page)), page };
  });
  if ('problem' in read) {
    // A malformed page or page size, or a page past the last: the first page, saying so.
    return endpointAnswer(deps, { ...signed, request: { ...request, query: {} } }, notice, read.problem);
  }
  const { count, attempts, page } = read.value;
  const rows = attempts.map((attempt) => ({ delivery: deliveryView(attempt), redeliverKey: newFormKey() }));
  return pageAnswer(
    endpointPage(
      view,
      endpointView(endpoint),
      { rows, count, page },
      {
        perEvent: redeliveryLimits.perEvent,
        perAccount: redeliveryLimits.perAccount,
        ...(notice ? { notice } : {}),
        ...(problem ? { problem } : {}),
      },
    ),
  );
}

/** GET /dashboard/webhooks/{id}; after a redelivery or a repeated create form, a notice says so. */
export const showEndpoint = signedInPage(
  'webhooks',
  endpointPath,
  (deps: Deps, signed: SignedIn): Promise<ApiAnswer> => {
    const w = webhookWords[signed.view.lang];
    const { query } = signed.request;
    const redelivered = query.redelivered ?? '';
    const count = Number(query.count);
    const notice =
      query.already === 'created'
        ? w.alreadyCreated
        : isPrefixedId(redelivered, 'evt')
          ? query.already === 'redelivered'
            ? w.redeliveredAlready
            : Number.isSafeInteger(count) && count >= 0
              ? w.redelivered(redelivered, count)
              : undefined
          : undefined;
    return endpointAnswer(deps, signed, notice);
  },
);

/**
 * POST /dashboard/webhooks/{id}/redeliver: redeliverEvent to this endpoint, as POST
 * /v1/events/{id}/redeliver/ calls it with `endpoint_id` (its hourly limits apply: past them, the
 * page says so with 429), once per form; 303 back to the endpoint's page.
 */
export const submitRedeliver = signedInForm(
  'webhooks',
  endpointPath,
  async (deps: DashboardDeps, signed: SignedIn): Promise<ApiAnswer> => {
    const { scope, view, request } = signed;
    const endpointId = await orProblem(
      view.lang,
      async () => endpointIdParam(request.params.id),
      () => undefined,
      { only: 404 },
    );
    if (endpointId === undefined) return endpointMissing(signed);
    const key = field(request.body, 'idempotency_key');
    const eventId = field(request.body, 'event_id');
    const back = (query: Record<string, string>) =>
      seeOther(`${endpointUrl(view, endpointId)}?${new URLSearchParams(query)}`);
    return orProblem(
      view.lang,
      async () => {
        if (!formKeyPattern.test(key)) {
          return endpointAnswer(deps, signed, undefined, {
            status: 400,
            message: dashboardWords[view.lang].formExpired,
          });
        }
        const once = await actOnce(
          deps,
          deps.keys,
          scope,
          { key, purpose: `redeliver:${endpointId}:${eventId}` },
          () => redeliverEvent(deps, scope, eventIdParam(eventId), { endpoint_id: endpointId }),
        );
        signed.auditRecord = once.kind === 'busy' ? false : `${endpointId} ${eventId}`;
        if (once.kind !== 'first') return back({ redelivered: eventId, already: 'redelivered' });
        return back({ redelivered: eventId, count: String(once.value) });
      },
      async (problem) => {
        if (problem.status === 404 && !(await endpointExists(deps, signed, endpointId)))
          return endpointMissing(signed);
        const page = await endpointAnswer(deps, signed, undefined, problem);
        // Past the limits, the page says when as the API's 429 does: in Retry-After too.
        return problem.retryAfterSeconds === undefined
          ? page
          : { ...page, headers: { ...page.headers, 'Retry-After': String(problem.retryAfterSeconds) } };
      },
    );
  },
);

const endpointExists = (deps: Deps, signed: SignedIn, id: string) =>
  orProblem(
    signed.view.lang,
    async () => {
      await getEndpoint(deps, signed.scope, id);
      return true;
    },
    () => false,
    { only: 404 },
  );

/** The endpoint a request names, or undefined (then the 404 page) when the account and mode have none. */
const namedEndpoint = (deps: Deps, signed: SignedIn) =>
  orProblem(
    signed.view.lang,
    () => getEndpoint(deps, signed.scope, endpointIdParam(signed.request.params.id)),
    () => undefined,
    { only: 404 },
  );

/** GET /dashboard/webhooks/{id}/rotate-secret: the confirmation step. */
export const showRotateSecret = signedInPage(
  'webhooks',
  endpointPath,
  async (deps: Deps, signed: SignedIn): Promise<ApiAnswer> => {
    const endpoint = await namedEndpoint(deps, signed);
    if (!endpoint) return endpointMissing(signed);
    const w = webhookWords[signed.view.lang];
    const at = endpointUrl(signed.view, endpoint.id);
    return pageAnswer(
      confirmPage(
        signed.view,
        w.rotateConfirmTitle,
        w.rotateConfirm(endpoint.url, rotationOverlapMs / 3_600_000),
        `${at}/rotate-secret`,
        w.rotateConfirmButton,
        at,
      ),
    );
  },
);

/**
 * POST /dashboard/webhooks/{id}/rotate-secret: rotateSecret, as POST
 * /v1/webhook-endpoints/{id}/rotate-secret/ calls it; the answer shows the new secret this once.
 */
export const submitRotateSecret = signedInForm(
  'webhooks',
  endpointPath,
  async (deps: Deps & { secrets: SecretBox }, signed: SignedIn): Promise<ApiAnswer> => {
    // rotateSecret reads the endpoint itself (NotFound when the account and mode have none): no read before it.
    return orProblem(
      signed.view.lang,
      async () => {
        const rotated = await rotateSecret(deps, signed.scope, endpointIdParam(signed.request.params.id));
        const w = webhookWords[signed.view.lang];
        return pageAnswer(secretPage(signed.view, w.rotatedTitle, rotated.endpoint, rotated.secret, 200));
      },
      (problem) =>
        problem.status === 404 ? endpointMissing(signed) : endpointAnswer(deps, signed, undefined, problem),
    );
  },
);

/** GET /dashboard/webhooks/{id}/delete: the confirmation step. */
export const showDeleteEndpoint = signedInPage(
  'webhooks',
  endpointPath,
  async (deps: Deps, signed: SignedIn): Promise<ApiAnswer> => {
    const endpoint = await namedEndpoint(deps, signed);
    if (!endpoint) return endpointMissing(signed);
    const w = webhookWords[signed.view.lang];
    const at = endpointUrl(signed.view, endpoint.id);
    return pageAnswer(
      confirmPage(
        signed.view,
        w.deleteConfirmTitle,
        w.deleteConfirm(endpoint.url),
        `${at}/delete`,
        w.deleteConfirmButton,
        at,
      ),
    );
  },
);

/** POST /dashboard/webhooks/{id}/delete: deleteEndpoint, as DELETE /v1/webhook-endpoints/{id}/ calls it. */
export const submitDeleteEndpoint = signedInForm(
  'webhooks',
  endpointPath,
  (deps: Deps & DashboardDeps, signed: SignedIn): Promise<ApiAnswer> => {
    return orProblem(
      signed.view.lang,
      async () => {
        const id = endpointIdParam(signed.request.params.id);
        await deleteEndpoint(deps, signed.scope, id);
        return seeOther(`${dashboardRoot(deps.baseUrl)}/webhooks?${new URLSearchParams({ deleted: id })}`);
      },
      () => endpointMissing(signed),
      { only: 404 },
    );
  },
);
