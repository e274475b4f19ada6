/**
 * The dashboard's subscriptions pages: what each reads and does, through the functions the API's
 * handlers call (listSubscriptions with the API's query schema, subscriptionOf, cancelSubscription),
 * in the session's account and mode. A failure of the domain (no such subscription, one canceled
 * already) is shown on the page with the status the API answers it with.
 */
import { validate } from '../core/validation.ts';
import type { Deps } from '../db/deps.ts';
import type { ApiAnswer } from '../http/render.ts';
import { SubscriptionListQuerySchema } from '../subscriptions/schemas.ts';
import { cancelSubscription, listSubscriptions, subscriptionOf } from '../subscriptions/service.ts';
import { subscriptionView } from '../subscriptions/subscription.ts';
import { filledQuery, nextBillingOf } from './customers-http.ts';
import { problemPage } from './customers-views.ts';
import { customerWords } from './customers-words.ts';
import {
  type DashboardDeps,
  dashboardRoot,
  orProblem,
  pageAnswer,
  recordPath,
  type SignedIn,
  seeOther,
  signedInForm,
  signedInPage,
} from './http.ts';
import type { ShellContext } from './shell.ts';
import {
  confirmCancelPage,
  type SubscriptionNotice,
  subscriptionPage,
  subscriptionsPage,
} from './subscriptions-views.ts';

/** The path under /dashboard/ of the subscription a request names (the language switch comes back to it). */
export const subscriptionPath = recordPath('subscriptions');

/**
 * GET /dashboard/subscriptions: the query of GET /v1/subscriptions (`status`, `plan_id`, `page`,
 * `page_size`), parsed by the same schema, and one page of the same list.
 */
export const showSubscriptions = signedInPage(
  'subscriptions',
  'subscriptions',
  async (deps: Deps, { scope, view, request }: SignedIn): Promise<ApiAnswer> => {
    const raw = filledQuery(request.query);
    const pageSize = /^\d+$/.test(raw.page_size ?? '') ? Number(raw.page_size) : undefined;
    const filters = { status: raw.status, planId: raw.plan_id, pageSize };
    return orProblem(
      view.lang,
      async () => {
        const page = await listSubscriptions(deps, scope, validate(SubscriptionListQuerySchema, raw));
        return pageAnswer(subscriptionsPage(view, page, filters, nextBillingOf));
      },
      (problem) => pageAnswer(subscriptionsPage(view, undefined, filters, nextBillingOf, problem)),
    );
  },
);

const backToList = (view: ShellContext) => ({
  url: `${view.root}/subscriptions`,
  label: customerWords[view.lang].backToSubscriptions,
});

/** The subscription's page (read now), saying what the last action did; its 404 page when there is none. */
async function subscriptionAnswer(
  deps: Deps,
  { scope, view }: SignedIn,
  id: string,
  notice?: SubscriptionNotice,
): Promise<ApiAnswer> {
  return orProblem(
    view.lang,
    async () => {
      const subscription = await subscriptionOf(deps, scope, id);
      return pageAnswer(subscriptionPage(view, subscription, subscriptionView(subscription), notice));
    },
    (problem) => pageAnswer(problemPage(view, problem, backToList(view))),
  );
}

/** GET /dashboard/subscriptions/{id}; `?canceled=1` after a cancel says it was made. */
export const showSubscription = signedInPage(
  'subscriptions',
  subscriptionPath,
  (deps: Deps, signed: SignedIn): Promise<ApiAnswer> =>
    subscriptionAnswer(
      deps,
      signed,
      signed.request.params.id ?? '',
      signed.request.query.canceled === '1' ? { kind: 'canceled' } : undefined,
    ),
);

/**
 * GET /dashboard/subscriptions/{id}/cancel: the confirmation step before a cancel (nothing changes
 * here); a subscription canceled already shows its own page, which says so.
 */
export const showCancel = signedInPage(
  'subscriptions',
  subscriptionPath,
  async (deps: Deps, signed: SignedIn): Promise<ApiAnswer> => {
    const id = signed.request.params.id ?? '';
    return orProblem(
      signed.view.lang,
      async () => {
        const subscription = await subscriptionOf(deps, signed.scope, id);
        if (subscription.status === 'canceled') return subscriptionAnswer(deps, signed, id);
        return pageAnswer(confirmCancelPage(signed.view, subscription));
      },
      (problem) => pageAnswer(problemPage(signed.view, problem, backToList(signed.view))),
    );
  },
);

/**
 * POST /dashboard/subscriptions/{id}/cancel: cancelSubscription, as DELETE /v1/subscriptions/{id}
 * calls it (the merchant asked for it), then 303 to the subscription's page. Its conditional write
 * lets one cancel through: a second (a double submit, another tab) gets the API's 409, shown on the
 * subscription's page; a subscription the account and mode do not have is the API's 404.
 */
export const submitCancel = signedInForm(
  'subscriptions',
  subscriptionPath,
  async (deps: DashboardDeps, signed: SignedIn): Promise<ApiAnswer> => {
    const id = signed.request.params.id ?? '';
    return orProblem(
      signed.view.lang,
      async () => {
        const canceled = await cancelSubscription(deps, signed.scope, id, 'requested');
        return seeOther(
          `${dashboardRoot(deps.baseUrl)}/subscriptions/${encodeURIComponent(canceled.id)}?canceled=1`,
        );
      },
      (problem) =>
        problem.status === 404
          ? pageAnswer(problemPage(signed.view, problem, backToList(signed.view)))
          : subscriptionAnswer(deps, signed, id, { kind: 'problem', problem }),
    );
  },
);
