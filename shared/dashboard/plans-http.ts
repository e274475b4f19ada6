/**
 * The dashboard's plans pages: the list with GET /v1/plans/'s query, the create form through
 * addPlan (as POST /v1/plans/ calls it), archive and restore through changePlan (as PUT
 * /v1/plans/{id}/ does), and the delete's two steps through removePlan, in the session's account
 * and mode, so the dashboard can do nothing the API forbids.
 */
import { validate } from '../core/validation.ts';
import type { Deps } from '../db/deps.ts';
import type { ApiAnswer } from '../http/render.ts';
import { parsePlanListQuery } from '../plans/list-query.ts';
import { planIdParam } from '../plans/path.ts';
import { getPlan, listPlans } from '../plans/repository.ts';
import { UpdatePlanSchema } from '../plans/schemas.ts';
import { addPlan, changePlan, removePlan } from '../plans/service.ts';
import {
  type CatalogDeps,
  catalogPath,
  confirmation,
  deletedNotice,
  freshForm,
  listed,
  named,
  submitAction,
  submitCreate,
} from './catalog-http.ts';
import type { CreateForm } from './catalog-views.ts';
import { catalogWords } from './catalog-words.ts';
import { type DashboardDeps, field, pageAnswer, type SignedIn, signedInForm, signedInPage } from './http.ts';
import { planDeletePage, plansPage } from './plans-views.ts';

const planFields = [
  'name',
  'description',
  'amount',
  'currency',
  'interval',
  'interval_count',
  'trial_period_days',
] as const;
const planRequired = ['name', 'description', 'amount', 'currency', 'interval', 'interval_count'] as const;
async function plansAnswer(deps: Deps, signed: SignedIn, form: CreateForm): Promise<ApiAnswer> {
  const { scope, view, request } = signed;
  const query = request.query;
  const readPlan = (id: string) => getPlan(deps, scope, planIdParam(id));
  const [{ list, problem }, made, changed] = await Promise.all([
    listed(view.lang, async () => {
      const listQuery = parsePlanListQuery(query);
      const { count, plans } = await listPlans(deps, scope, listQuery);
      return { records: plans, count, page: listQuery.page };
    }),
    named(view.lang, form.problem ? undefined : query.created, readPlan),
    // After archive or restore: the plan as it is now says which was done.
    named(view.lang, query.created ? undefined : query.changed, readPlan),
  ]);
  const w = catalogWords[view.lang];
  const notice = made
    ? w.created(made.name)
    : changed
      ? (changed.active ? w.restored : w.archived)(changed.name)
      : deletedNotice(query, w.deletedPlan);
  return pageAnswer(plansPage(view, query, list, form, notice, problem));
}

/** GET /dashboard/plans: the plans list (GET /v1/plans/'s query: paging, filters) and the create form. */
export const showPlans = signedInPage('plans', 'plans', (deps: Deps, signed: SignedIn) =>
  plansAnswer(deps, signed, freshForm()),
);

/** POST /dashboard/plans: addPlan, as POST /v1/plans/ calls it, once per form. */
export const submitPlan = signedInForm('plans', 'plans', (deps: CatalogDeps, signed: SignedIn) =>
  submitCreate(
    deps,
    signed,
    planFields,
    planRequired,
    'amount',
    'plans',
    async (body) => (await addPlan(deps, signed.scope, body)).id,
    (form) => plansAnswer(deps, { ...signed, request: { ...signed.request, query: {} } }, form),
  ),
);

/**
 * POST /dashboard/plans/{id}/active (`active` true or false): archives or restores the plan through
 * changePlan, as PUT /v1/plans/{id}/ with `active` does; 303 to the list saying which. No
 * confirmation step: either is undone by the other. A plan the account and mode lack is the 404 page.
 */
export const submitPlanActive = signedInForm(
  'plans',
  catalogPath('plans'),
  (deps: Deps, signed: SignedIn): Promise<ApiAnswer> => {
    const { scope, view, request } = signed;
    const active = field(request.body, 'active');
    return submitAction(
      view,
      'plans',
      async () => {
        // A path naming no plan is 404 before the form is read, as for the API's PUT.
        const planId = planIdParam(request.params.id);
        // The API's own update schema reads the flag (anything but true or false is its 400).
        const input = validate(UpdatePlanSchema, { active: { true: true, false: false }[active] ?? active });
        await changePlan(deps, scope, planId, { active: input.active });
      },
      (problem) => plansAnswer(deps, signed, { ...freshForm(), problem }),
      () => new URLSearchParams({ changed: planIdParam(request.params.id) }).toString(),
    );
  },
);

/** GET /dashboard/plans/{id}/delete: what deleting the plan does to its subscriptions. */
export const showPlanDelete = signedInPage(
  'plans',
  catalogPath('plans'),
  (deps: Deps, { scope, view, request }: SignedIn) =>
    confirmation(
      view,
      'plans',
      () => getPlan(deps, scope, planIdParam(request.params.id)),
      (plan) => planDeletePage(view, plan),
    ),
);

/** POST /dashboard/plans/{id}/delete: removePlan, as DELETE /v1/plans/{id}/ calls it. */
export const submitPlanDelete = signedInForm(
  'plans',
  catalogPath('plans'),
  (deps: DashboardDeps, signed: SignedIn) =>
    submitAction(
      signed.view,
      'plans',
      () => removePlan(deps, signed.scope, planIdParam(signed.request.params.id)),
      (problem) => plansAnswer(deps, signed, { ...freshForm(), problem }),
    ),
);
