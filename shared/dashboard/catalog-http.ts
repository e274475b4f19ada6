/**
 * What the dashboard's catalog pages (plans-http.ts, products-http.ts, links-http.ts) share: a
 * list read with the API's query schema, whose refusal is the page's problem with the API's status;
 * a create form's POST, which acts once per form (form-once.ts) through the area's own create
 * function and shows the create schema's refusals beside their fields; a delete's two steps, a
 * page that says what deleting does, then its form; and the notice a list shows after either.
 */
import { Conflict } from '../core/errors.ts';
import { coreMessages, type Lang } from '../core/messages.ts';
import type { ApiAnswer } from '../http/render.ts';
import type { MediaStore } from '../media/store.ts';
import type { Problem } from '../web/problems.ts';
import { typedAmount } from './amount-input.ts';
import { type CreateForm, type ListPage, notFoundPage } from './catalog-views.ts';
import { actOnce, isFormKey, newFormKey } from './form-once.ts';
import { type DashboardDeps, field, orProblem, pageAnswer, type SignedIn, seeOther } from './http.ts';
import type { planDeletePage } from './plans-views.ts';
import type { ShellContext } from './shell.ts';
import { dashboardWords } from './words.ts';

export type CatalogDeps = DashboardDeps & { media: MediaStore };

/** A fresh form: a new key, nothing posted. */
export const freshForm = (): CreateForm => ({ idempotencyKey: newFormKey(), values: {}, fieldErrors: {} });

/** The form's posted fields, as text (the ones named), trimmed of nothing: the schema decides. */
const postedValues = (body: unknown, names: readonly string[]) =>
  Object.fromEntries(names.map((name) => [name, field(body, name)]));

/** The form posted without its optional fields left empty (an empty field is no value). */
const filledOnly = (values: Record<string, string>, required: readonly string[]) =>
  Object.fromEntries(
    Object.entries(values).filter(([name, value]) => required.includes(name) || value.trim() !== ''),
  );

/** A list read with the API's query schema; a query the API refuses is the page's problem, with its status. */
export function listed<T>(
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
export async function submitCreate(
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
      // The record made is the audit entry's (written once for the form's key).
      signed.auditRecord = created;
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
export async function submitAction(
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
export async function confirmation<T>(
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
export const deletedNotice = (query: Record<string, string | undefined>, said: string) =>
  query.deleted ? said : undefined;

/**
 * The record a list's notice names (`created`, or a plan's `changed`, in its query), read beside the
 * list: none for text that is no id of it (no read) or for a record no longer there. Any other
 * failure is the page's.
 */
export function named<T>(
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

/** The path under /dashboard/ of the record a request names (the language switch comes back to it). */
export const catalogPath =
  (list: 'plans' | 'products' | 'links') => (request: { params: Record<string, string | undefined> }) =>
    /^[A-Za-z0-9_-]+$/.test(request.params.id ?? '') ? `${list}/${request.params.id}/delete` : list;
