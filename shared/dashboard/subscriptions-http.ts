/**
 * The dashboard's subscriptions pages: what each reads and does, through the functions the API's
 * handlers call (listSubscriptions with the API's query schema, subscriptionOf, cancelSubscription,
 * setEndAtPeriodEnd), in the session's account and mode. A failure of the domain (no such
 * subscription, one canceled already) is shown on the page with the status the API answers it with.
 */
import { validate } from '../core/validation.ts';
import type { Deps } from '../db/deps.ts';
import type { ApiAnswer } from '../http/render.ts';
import { getPlan } from '../plans/repository.ts';
import { SubscriptionListQuerySchema } from '../subscriptions/schemas.ts';
import { cancelSubscription, listSubscriptions, subscriptionOf } from '../subscriptions/service.ts';
import { subscriptionView } from '../subscriptions/subscription.ts';
import { setEndAtPeriodEnd } from '../subscriptions/update.ts';
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

/**
 * The subscription's page (read now), saying what the last action did; its 404 page when there is
 * none. A pending change's plan is read as it is now: its name, or that it was deleted since.
 */
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
      const shown = subscriptionView(subscription);
      const pending = shown.pending_change && (await getPlan(deps, scope, shown.pending_change.plan_id));
      const context = {
        now: deps.clock(),
        ...(shown.pending_change
          ? { pendingPlan: pending ? { name: pending.name } : ('deleted' as const) }
          : {}),
      };
      return pageAnswer(subscriptionPage(view, subscription, shown, notice, context));
    },
    (problem) => pageAnswer(problemPage(view, problem, backToList(view))),
  );
}

/** The notices a redirect to the subscription's page may carry (documented on its row), each `=1`. */
const notices = ['canceled', 'ending', 'resumed'] as const;

/**
 * GET /dashboard/subscriptions/{id}; `?canceled=1` after a cancel says it was made, `?ending=1` the
 * day it now ends (read from the subscription), `?resumed=1` that it renews again.
 */
export const showSubscription = signedInPage(
  'subscriptions',
  subscriptionPath,
  (deps: Deps, signed: SignedIn): Promise<ApiAnswer> => {
    const said = notices.find((name) => signed.request.query[name] === '1');
    return subscriptionAnswer(deps, signed, signed.request.params.id ?? '', said && { kind: said });
  },
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

/**
 * POST /dashboard/subscriptions/{id}/cancel-at-period-end (`end`) and …/resume (not `end`): the
 * subscriptions area's own change sets or clears `cancel_at_period_end`, as PUT
 * /v1/subscriptions/{id} does (setEndAtPeriodEnd, which is updateSubscription for that one field
 * and asks the acquirer nothing: `subscription.updated`, conditioned on the version read, the
 * customer e-mailed; nothing is charged), then 303 to the subscription's page, which says so.
 * Setting what is set already changes nothing (no event) and says the same, so a double submit
 * acts once. A past-due, not started or canceled subscription is the change's 409,
 * shown on its page saying why. As in the customer portal, once the day it ends has come there is
 * nothing to resume, even before the billing step has ended it: a Resume then is 409 too.
 */
function endAtPeriodEnd(end: boolean) {
  return signedInForm(
    'subscriptions',
    subscriptionPath,
    async (deps: DashboardDeps, signed: SignedIn): Promise<ApiAnswer> => {
      const id = signed.request.params.id ?? '';
      const { lang } = signed.view;
      return orProblem(
        lang,
        async () => {
          if (!end) {
            const at = subscriptionView(await subscriptionOf(deps, signed.scope, id)).cancel_at;
            if (at && Date.parse(at) <= deps.clock().getTime()) {
              const problem = { status: 409, message: customerWords[lang].endCome };
              return subscriptionAnswer(deps, signed, id, { kind: 'unchangeable', problem });
            }
          }
          const { subscription } = await setEndAtPeriodEnd(deps, signed.scope, id, end);
          const page = `${dashboardRoot(deps.baseUrl)}/subscriptions/${encodeURIComponent(subscription.id)}`;
          return seeOther(`${page}?${end ? 'ending' : 'resumed'}=1`);
        },
        (problem) =>
          problem.status === 404
            ? pageAnswer(problemPage(signed.view, problem, backToList(signed.view)))
            : subscriptionAnswer(deps, signed, id, {
                kind: problem.status === 409 ? 'unchangeable' : 'problem',
                problem,
              }),
      );
    },
  );
}

/** POST /dashboard/subscriptions/{id}/cancel-at-period-end: it ends at the current period's (or trial's) end. */
export const submitEndAtPeriodEnd = endAtPeriodEnd(true);

/** POST /dashboard/subscriptions/{id}/resume: it no longer ends at the period's end, and renews as before. */
export const submitResume = endAtPeriodEnd(false);
