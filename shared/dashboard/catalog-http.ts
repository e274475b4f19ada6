/**
 * The dashboard's plans, products and payment links pages: what each reads and does, through the
 * functions the API's handlers call (the lists with the API's query schemas, addPlan,
 * createProductFromForm, createLinks, removePlan, deactivateProduct, deleteLink), in the session's
 * account and mode, so the dashboard can do nothing the API forbids. What the domain refuses is
 * shown on the page with the API's status; the create schema's refusals beside their fields.
 *
 * Each create form carries a key made with the page; the first submit claims it (form-once.ts), so
 * a form submitted twice creates once. Each delete is two steps: a page that says what deleting
 * does, then its form.
 */
import { Conflict } from '../core/errors.ts';
import { coreMessages, type Lang } from '../core/messages.ts';
import { validate } from '../core/validation.ts';
import type { Deps } from '../db/deps.ts';
import type { ApiAnswer } from '../http/render.ts';
import type { MediaStore } from '../media/store.ts';
import { LinkListQuerySchema } from '../payment-links/schemas.ts';
import { createLinks, deleteLink, linkIdParam, linkList, linkOf } from '../payment-links/service.ts';
import { parsePlanListQuery } from '../plans/list-query.ts';
import { planIdParam } from '../plans/path.ts';
import { getPlan, listPlans } from '../plans/repository.ts';
import { UpdatePlanSchema } from '../plans/schemas.ts';
import { addPlan, changePlan, removePlan } from '../plans/service.ts';
import { deactivateProduct, getProduct, listProducts } from '../products/repository.ts';
import { ProductListQuerySchema } from '../products/schemas.ts';
import { createProductFromForm, productIdParam } from '../products/service.ts';
import type { Problem } from '../web/problems.ts';
import { typedAmount } from './amount-input.ts';
import { type CreateForm, type ListPage, notFoundPage } from './catalog-views.ts';
import { catalogWords } from './catalog-words.ts';
import { actOnce, isFormKey, newFormKey } from './form-once.ts';
import { type DashboardDeps, field, orProblem, pageAnswer, type SignedIn, seeOther } from './http.ts';
import { linkDeletePage, linksPage, type MadeLink } from './links-views.ts';
import { planDeletePage, plansPage } from './plans-views.ts';
import { productDeletePage, productsPage } from './products-views.ts';
import type { ShellContext } from './shell.ts';
import { dashboardWords } from './words.ts';

export type CatalogDeps = DashboardDeps & { media: MediaStore };

/** A fresh form: a new key, nothing posted. */
const freshForm = (): CreateForm => ({ idempotencyKey: newFormKey(), values: {}, fieldErrors: {} });

/** The form's posted fields, as text (the ones named), trimmed of nothing: the schema decides. */
const postedValues = (body: unknown, names: readonly string[]) =>
  Object.fromEntries(names.map((name) => [name, field(body, name)]));

/** The form posted without its optional fields left empty (an empty field is no value). */
const filledOnly = (values: Record<string, string>, required: readonly string[]) =>
  Object.fromEntries(
    Object.entries(values).filter(([name, value]) => required.includes(name) || value.trim() !== ''),
  );

/** A list read with the API's query schema; a query the API refuses is the page's problem, with its status. */
function listed<T>(
  lang: Lang,
  read: () => Promise<ListPage<T>>,
): Promise<{ list?: ListPage<T>; problem?: Problem }> {
  return orProblem<{ list?: ListPage<T>; problem?: Problem }>(
    lang,
    async () => ({ list: await read() }),
    // The list's refusals say what they are in their title ("Invalid page", "No plans found"). The
    // title and the message are two sentences: after a colon the message's capital would be wrong
    // in Spanish, and lower-casing it is not safe for every message (a name, an id at its start).
    (problem) => ({
      problem: problem.title ? { ...problem, message: `${problem.title}. ${problem.message}` } : problem,
    }),
  );
}

/**
 * A create form's POST: `create` (the area's own function, under the form's key, once per form),
 * then 303 to the list saying what was made; or the page again with the values posted, the same key
 * and the schema's errors beside their fields, with the API's status. The `amount` field (a
 * decimal comma on a Spanish page) is read as every amount field of the dashboard is (typedAmount);
 * the page shows it again as it was typed.
 */
async function submitCreate(
  deps: DashboardDeps,
  signed: SignedIn,
  fields: readonly string[],
  required: readonly string[],
  amount: string,
  list: string,
  create: (body: Record<string, string>) => Promise<string>,
  again: (form: CreateForm) => Promise<ApiAnswer>,
): Promise<ApiAnswer> {
  const { scope, view, request } = signed;
  const key = field(request.body, 'idempotency_key');
  const values = postedValues(request.body, fields);
  if (!isFormKey(key)) {
    return again({
      idempotencyKey: newFormKey(),
      values,
      fieldErrors: {},
      problem: { status: 400, message: dashboardWords[view.lang].formExpired },
    });
  }
  return orProblem(
    view.lang,
    async () => {
      const typed = values[amount];
      const read = typed === undefined ? values : { ...values, [amount]: typedAmount(typed, view.lang) };
      const once = await actOnce(deps, deps.keys, scope, { key, purpose: `create:${list}` }, () =>
        create(filledOnly(read, required)),
      );
      // The same form still being created by its first submit: 409, as the API's Idempotency-Key.
      if (once.kind === 'busy') throw new Conflict(coreMessages.idempotency_in_progress);
      const created = once.kind === 'first' ? once.value : once.kept;
      return seeOther(`${view.root}/${list}?${new URLSearchParams({ created })}`);
    },
    (problem) =>
      again({
        // The same key: the corrected form is still the one form, created at most once.
        idempotencyKey: key,
        values,
        fieldErrors: problem.fields ?? {},
        problem,
      }),
  );
}

/**
 * A delete (or archive) form's POST: `act` (the area's own function), then 303 to the list with
 * `done` as its query, which says what was done; a record the account and mode do not have is the
 * 404 page, and another refusal the list with the API's status.
 */
async function submitAction(
  view: ShellContext,
  list: string,
  act: () => Promise<void>,
  refused: (problem: Problem) => Promise<ApiAnswer>,
  done = () => 'deleted=1',
): Promise<ApiAnswer> {
  return orProblem(
    view.lang,
    async () => {
      await act();
      return seeOther(`${view.root}/${list}?${done()}`);
    },
    (problem) => (problem.status === 404 ? pageAnswer(notFoundPage(view, list)) : refused(problem)),
  );
}

/** A record's delete confirmation page, or the 404 page. */
async function confirmation<T>(
  view: ShellContext,
  list: string,
  read: () => Promise<T | undefined>,
  page: (record: T) => ReturnType<typeof planDeletePage>,
): Promise<ApiAnswer> {
  return orProblem(
    view.lang,
    async () => {
      const record = await read();
      return pageAnswer(record === undefined ? notFoundPage(view, list) : page(record));
    },
    () => pageAnswer(notFoundPage(view, list)),
    { only: 404 },
  );
}

/**
 * The delete's notice: which kind of record was deleted, from `deleted=1` in the list's query. It
 * names no record: a name carried in the query would let any link make the page say anything.
 */
const deletedNotice = (query: Record<string, string | undefined>, said: string) =>
  query.deleted ? said : undefined;

// Plans

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

/**
 * The record a list's notice names (`created`, or a plan's `changed`, in its query), read beside the
 * list: none for text that is no id of it (no read) or for a record no longer there. Any other
 * failure is the page's.
 */
function named<T>(
  lang: Lang,
  id: string | undefined,
  read: (id: string) => Promise<T | undefined>,
): Promise<T | undefined> {
  if (!id) return Promise.resolve(undefined);
  return orProblem(
    lang,
    () => read(id),
    () => undefined,
    { only: 404 },
  );
}

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
export const showPlans = (deps: Deps, signed: SignedIn) => plansAnswer(deps, signed, freshForm());

/** POST /dashboard/plans: addPlan, as POST /v1/plans/ calls it, once per form. */
export const submitPlan = (deps: CatalogDeps, signed: SignedIn) =>
  submitCreate(
    deps,
    signed,
    planFields,
    planRequired,
    'amount',
    'plans',
    async (body) => (await addPlan(deps, signed.scope, body)).id,
    (form) => plansAnswer(deps, { ...signed, request: { ...signed.request, query: {} } }, form),
  );

/**
 * POST /dashboard/plans/{id}/active (`active` true or false): archives or restores the plan through
 * changePlan, as PUT /v1/plans/{id}/ with `active` does; 303 to the list saying which. No
 * confirmation step: either is undone by the other. A plan the account and mode lack is the 404 page.
 */
export const submitPlanActive = (deps: Deps, signed: SignedIn): Promise<ApiAnswer> => {
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
};

/** GET /dashboard/plans/{id}/delete: what deleting the plan does to its subscriptions. */
export const showPlanDelete = (deps: Deps, { scope, view, request }: SignedIn) =>
  confirmation(
    view,
    'plans',
    () => getPlan(deps, scope, planIdParam(request.params.id)),
    (plan) => planDeletePage(view, plan),
  );

/** POST /dashboard/plans/{id}/delete: removePlan, as DELETE /v1/plans/{id}/ calls it. */
export const submitPlanDelete = (deps: DashboardDeps, signed: SignedIn) =>
  submitAction(
    signed.view,
    'plans',
    () => removePlan(deps, signed.scope, planIdParam(signed.request.params.id)),
    (problem) => plansAnswer(deps, signed, { ...freshForm(), problem }),
  );

// Products

const productFields = [
  'name',
  'price',
  'currency',
  'short_description',
  'description',
  'sku',
  'stock',
] as const;
const productRequired = ['name', 'price'] as const;

async function productsAnswer(deps: Deps, signed: SignedIn, form: CreateForm): Promise<ApiAnswer> {
  const { scope, view, request } = signed;
  const query = request.query;
  const [{ list, problem }, made] = await Promise.all([
    listed(view.lang, async () => {
      const listQuery = validate(ProductListQuerySchema, query);
      const { count, products } = await listProducts(deps, scope, listQuery);
      return { records: products, count, page: listQuery.page };
    }),
    named(view.lang, form.problem ? undefined : query.created, (id) =>
      getProduct(deps, scope, productIdParam(id)),
    ),
  ]);
  const w = catalogWords[view.lang];
  const notice = made ? w.created(made.name) : deletedNotice(query, w.deletedProduct);
  return pageAnswer(productsPage(view, query, list, form, notice, problem));
}

/** GET /dashboard/products: the active products (GET /v1/products/'s query) and the create form. */
export const showProducts = (deps: Deps, signed: SignedIn) => productsAnswer(deps, signed, freshForm());

/** POST /dashboard/products: createProductFromForm, as POST /v1/products/ calls it (text fields only), once per form. */
export const submitProduct = (deps: CatalogDeps, signed: SignedIn) =>
  submitCreate(
    deps,
    signed,
    productFields,
    productRequired,
    'price',
    'products',
    async (body) => (await createProductFromForm(deps, signed.scope, body)).id,
    (form) => productsAnswer(deps, { ...signed, request: { ...signed.request, query: {} } }, form),
  );

/** GET /dashboard/products/{id}/delete: what deleting the product does. */
export const showProductDelete = (deps: Deps, { scope, view, request }: SignedIn) =>
  confirmation(
    view,
    'products',
    () => getProduct(deps, scope, productIdParam(request.params.id)),
    (product) => productDeletePage(view, product),
  );

/** POST /dashboard/products/{id}/delete: deactivateProduct, as DELETE /v1/products/{id}/ calls it. */
export const submitProductDelete = (deps: Deps, signed: SignedIn) =>
  submitAction(
    signed.view,
    'products',
    async () => {
      await deactivateProduct(deps, signed.scope, productIdParam(signed.request.params.id), deps.clock());
    },
    (problem) => productsAnswer(deps, signed, { ...freshForm(), problem }),
  );

// Payment links

const linkFields = ['description', 'amount', 'currency'] as const;
const linkRequired = ['description', 'amount'] as const;

async function linksAnswer(deps: DashboardDeps, signed: SignedIn, form: CreateForm): Promise<ApiAnswer> {
  const { scope, view, request } = signed;
  const query = request.query;
  const [{ list, problem }, made] = await Promise.all([
    listed(view.lang, async () => {
      const { page } = validate(LinkListQuerySchema, query);
      const { count, results } = await linkList(deps, scope, page);
      return { records: results, count, page };
    }),
    named<MadeLink>(view.lang, form.problem ? undefined : query.created, (id) =>
      linkOf(deps, scope, linkIdParam(id)),
    ),
  ]);
  const w = catalogWords[view.lang];
  const notice = made ? w.created(made.description) : deletedNotice(query, w.deletedLink);
  return pageAnswer(linksPage(view, query, list, form, made, notice, problem));
}

/** GET /dashboard/links: the payment links (GET /v1/payment-links/'s paging) and the create form. */
export const showLinks = (deps: DashboardDeps, signed: SignedIn) => linksAnswer(deps, signed, freshForm());

/** POST /dashboard/links: createLinks, as POST /v1/payment-links/ calls it (one link), once per form. */
export const submitLink = (deps: DashboardDeps, signed: SignedIn) =>
  submitCreate(
    deps,
    signed,
    linkFields,
    linkRequired,
    'amount',
    'links',
    async (body) => {
      const made = await createLinks(deps, signed.scope, body);
      if (Array.isArray(made)) throw new Error('a link without customers is one link');
      return made.id;
    },
    (form) => linksAnswer(deps, { ...signed, request: { ...signed.request, query: {} } }, form),
  );

/** GET /dashboard/links/{id}/delete: what deleting the link does. */
export const showLinkDelete = (deps: DashboardDeps, { scope, view, request }: SignedIn) =>
  confirmation(
    view,
    'links',
    async () => {
      const link = await linkOf(deps, scope, linkIdParam(request.params.id));
      return { ...link, amount: String(link.amount) };
    },
    (link) => linkDeletePage(view, link),
  );

/** POST /dashboard/links/{id}/delete: deleteLink, as DELETE /v1/payment-links/{id}/ calls it. */
export const submitLinkDelete = (deps: DashboardDeps, signed: SignedIn) =>
  submitAction(
    signed.view,
    'links',
    () => deleteLink(deps, signed.scope, linkIdParam(signed.request.params.id)),
    (problem) => linksAnswer(deps, signed, { ...freshForm(), problem }),
  );

/** The path under /dashboard/ of the record a request names (the language switch comes back to it). */
export const catalogPath =
  (list: 'plans' | 'products' | 'links') => (request: { params: Record<string, string | undefined> }) =>
    /^[A-Za-z0-9_-]+$/.test(request.params.id ?? '') ? `${list}/${request.params.id}/delete` : list;
