/**
 * The dashboard's customers pages: what each reads and does, through the functions the API's
 * handlers call (the customers list and its query, getCustomer, the customer index's
 * listCustomerSubscriptions and listCustomerCharges, the portal's createPortal), in the session's
 * account and mode. A failure of the domain (no such customer, a page past the last) is shown on the
 * page with the status the API answers it with.
 */
import { listCustomerCharges } from '../charges/repository.ts';
import { validate } from '../core/validation.ts';
import { getCustomer, listCustomers } from '../customers/repository.ts';
import type { CustomerListQuery } from '../customers/schemas.ts';
import { customerIdParam, parseCustomerListQuery } from '../customers/service.ts';
import type { Deps } from '../db/deps.ts';
import type { ApiAnswer } from '../http/render.ts';
import { createPortal, type PortalKeys } from '../portal/service.ts';
import { listCustomerSubscriptions } from '../subscriptions/repository.ts';
import { type Subscription, subscriptionView } from '../subscriptions/subscription.ts';
import { CustomerPageQuerySchema, customerListPageSize } from './customers-routes.ts';
import { customerPage, customersPage, customerUrl, portalLinkPage, problemPage } from './customers-views.ts';
import { customerWords } from './customers-words.ts';
import { actOnce, formKeyPattern, newFormKey } from './form-once.ts';
import {
  type DashboardDeps,
  field,
  orProblem,
  pageAnswer,
  recordPath,
  type SignedIn,
  signedInForm,
  signedInPage,
} from './http.ts';
import { dashboardWords } from './words.ts';

/**
 * A query as a GET form sends it: a browser sends every field of the form, filled or not, and an
 * empty field asks for no filter. Whatever is typed in a field is still parsed as the API parses it.
 */
export function filledQuery(query: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '',
    ),
  );
}

/** The next billing date a subscription shows, as the API's subscription record says it. */
export const nextBillingOf = (subscription: Subscription) => subscriptionView(subscription).next_billing_date;

/** The path under /dashboard/ of the customer a request names (the language switch comes back to it). */
export const customerPath = recordPath('customers');

/**
 * GET /dashboard/customers: the customers list's query (`search`, `page`, `page_size`) parsed as
 * GET /v1/customers/ parses it, and one page of the same list (newest first, or the customers whose
 * first name or e-mail holds the search). The page always shows numbered pages: the API's bare
 * search view is for programs.
 */
export const showCustomers = signedInPage(
  'customers',
  'customers',
  async (deps: Deps, { scope, view, request }: SignedIn): Promise<ApiAnswer> => {
    const raw = filledQuery(request.query);
    const search = raw.search ?? '';
    let query: CustomerListQuery | undefined;
    return orProblem(
      view.lang,
      async () => {
        query = parseCustomerListQuery(raw);
        const list = await listCustomers(deps, scope, query);
        return pageAnswer(customersPage(view, list, query, search));
      },
      (problem) => pageAnswer(customersPage(view, undefined, query, search, problem)),
    );
  },
);

/**
 * GET /dashboard/customers/{id}: the customer, a page of their subscriptions and a page of their
 * charges, read side by side from the customer's own index; another account's (or mode's)
 * customer, or an id that is no customer's, is the API's 404.
 */
export const showCustomer = signedInPage(
  'customers',
  customerPath,
  async (deps: Deps, { scope, view, request }: SignedIn): Promise<ApiAnswer> => {
    const back = { url: `${view.root}/customers`, label: customerWords[view.lang].customersTitle };
    return orProblem(
      view.lang,
      async () => {
        const pages = validate(CustomerPageQuerySchema, filledQuery(request.query));
        const id = customerIdParam(request.params.id);
        const [customer, subscriptions, charges] = await Promise.all([
          getCustomer(deps, scope, id),
          listCustomerSubscriptions(deps, scope, id, {
            page: pages.subscriptions,
            pageSize: customerListPageSize,
          }),
          listCustomerCharges(deps, scope, id, { page: pages.charges, pageSize: customerListPageSize }),
        ]);
        return pageAnswer(
          customerPage(
            view,
            customer,
            { ...subscriptions, page: pages.subscriptions },
            { ...charges, page: pages.charges },
            nextBillingOf,
            newFormKey(),
          ),
        );
      },
      (problem) => pageAnswer(problemPage(view, problem, back)),
    );
  },
);

export interface PortalFormDeps extends DashboardDeps {
  portalKeys: PortalKeys;
}

/**
 * POST /dashboard/customers/{id}/portal: a portal link for the customer through createPortal, as
 * POST /v1/customers/{id}/portal/ makes it (one hour), shown on the answer page itself: a link opens
 * the portal without a login, so it is never put in a URL nor stored to be shown again. The form's
 * key makes a double submit make one link (actOnce); the second submit says the link was made
 * and shown, until when it opens, and that the customer's page makes a new one.
 */
export const submitPortalLink = signedInForm(
  'customers',
  customerPath,
  async (deps: PortalFormDeps, { scope, view, request }: SignedIn): Promise<ApiAnswer> => {
    const c = customerWords[view.lang];
    const formKey = field(request.body, 'idempotency_key');
    return orProblem(
      view.lang,
      async () => {
        const id = customerIdParam(request.params.id);
        const customer = await getCustomer(deps, scope, id);
        const back = { url: customerUrl(view, id), label: c.backToCustomer };
        if (!formKeyPattern.test(formKey)) {
          return pageAnswer(
            problemPage(view, { status: 400, message: dashboardWords[view.lang].formExpired }, back),
          );
        }
        // A later submit of the form is told until when the link opens, never the link itself.
        const made = await actOnce(
          deps,
          deps.keys,
          scope,
          { key: formKey, purpose: `portal-link:${id}` },
          () => createPortal(deps, deps.portalKeys, deps.baseUrl, scope, id),
          (link) => ({ expires_at: link.expires_at }),
        );
        if (made.kind !== 'first') {
          const message =
            made.kind === 'again'
              ? c.portalAlready(dashboardWords[view.lang].date(made.kept.expires_at))
              : c.formBusy;
          return pageAnswer(problemPage(view, { status: 409, message }, back));
        }
        return pageAnswer(portalLinkPage(view, customer, made.value));
      },
      (problem) =>
        pageAnswer(problemPage(view, problem, { url: `${view.root}/customers`, label: c.customersTitle })),
    );
  },
);
