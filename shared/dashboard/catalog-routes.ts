/**
 * The dashboard's plans, products and payment links pages (shared/dashboard/catalog-http.ts): for
 * each, the list with the create form, the create form's POST, the delete confirmation page and the
 * delete form's POST; for plans, the archive and restore form's POST too. Each reads and writes what the API's own route for it does, plus the session
 * (common-routes.ts) and the create forms' one-submit claims.
 */
import { LinkListQuerySchema } from '../payment-links/schemas.ts';
import { PlanListQuerySchema } from '../plans/list-query.ts';
import { ProductListQuerySchema } from '../products/schemas.ts';
import {
  type DashboardRoute,
  dashboardHandler,
  form,
  formErrors,
  html,
  pageErrors,
  signedIn,
  toSignIn,
} from './common-routes.ts';
import { withNotices } from './notice-query.ts';

/** Writes of a create or delete (transactions hold puts, updates and deletes), and the form's claim. */
const writes = ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] as const;

const notFound = (what: string) =>
  ({
    404: { description: `No such ${what} in this account and mode`, body: 'html' },
  }) as const;

const listed = {
  200: { description: 'The page', media: html },
  303: toSignIn,
};

const createAnswers = (list: string) => ({
  303: {
    description: 'Created (or the same form submitted again: nothing more created), or no session in force',
    headers: { Location: `The list, \`/dashboard/${list}?created={id}\`, saying what was created.` },
  },
});

const deleteAnswers = (list: string) => ({
  303: {
    description: 'Deleted (or no session in force: to the sign-in form)',
    headers: { Location: `The list, \`/dashboard/${list}?deleted=1\`, saying so.` },
  },
});

const createErrors = (refusals: string) =>
  ({
    ...formErrors,
    400: { description: `${refusals}: the form again, each error beside its field`, body: 'html' },
    409: { description: 'The same form is still being submitted', body: 'html' },
  }) as const;

export const catalogRoutes: readonly DashboardRoute[] = [
  {
    method: 'GET',
    path: '/dashboard/plans',
    handler: dashboardHandler,
    page: 'plans#showPlans',
    permission: 'read',
    operationId: 'showDashboardPlans',
    auth: false,
    access: signedIn({ actions: ['GetItem', 'Query'], indexes: ['gsi1'] }),
    summary:
      'The plans (HTML): the plans list with its paging (`page`, `page_size`) and filters, and the create form',
    description:
      'Lists the plans of the account and mode as GET /v1/plans/ does (newest first, numbered pages, the same filters), with a form to create one and a link to delete each.',
    query: withNotices(PlanListQuerySchema, {
      created: 'The plan just created',
      changed: 'The plan just changed',
      deleted: 'Set after a plan was deleted',
    }),
    answers: listed,
    errors: {
      ...pageErrors,
      400: {
        description: 'A malformed filter, or no plan matches the filters: the page, saying so',
        body: 'html',
      },
      404: { description: 'A page past the last: the page, saying so', body: 'html' },
    },
  },
  {
    method: 'POST',
    path: '/dashboard/plans',
    handler: dashboardHandler,
    page: 'plans#submitPlan',
    permission: 'catalog',
    audit: 'plan.create',
    operationId: 'createPlanFromDashboard',
    auth: false,
    access: { ...signedIn({ actions: [...writes], indexes: ['gsi1'] }), media: 'write' },
    summary:
      'The plan form (form-encoded `name`, `description`, `amount`, `currency`, `interval`, `interval_count`, `trial_period_days`, `idempotency_key`, `csrf_token`): creates as POST /v1/plans/ does; 303 to the list',
    description:
      'Creates the plan through the same code as POST /v1/plans/, so its create schema decides what is valid. The form carries a key made with the page: a form submitted twice creates one plan.',
    bodyTypes: form,
    answers: createAnswers('plans'),
    errors: createErrors('The plan is refused as POST /v1/plans/ refuses it'),
  },
  {
    method: 'POST',
    path: '/dashboard/plans/{id}/active',
    handler: dashboardHandler,
    page: 'plans#submitPlanActive',
    permission: 'catalog',
    audit: 'plan.active',
    operationId: 'setPlanActiveFromDashboard',
    auth: false,
    // A refusal shows the plans list again: its Query too.
    access: signedIn({ actions: ['GetItem', 'Query', 'UpdateItem'], indexes: ['gsi1'] }),
    summary:
      'Archives or restores a plan (form-encoded `active` true or false, `csrf_token`): as PUT /v1/plans/{id}/ with `active`; 303 to the list',
    description:
      'Changes the plan’s `active` through the same code as PUT /v1/plans/{id}/: an archived plan takes no new subscriptions while its subscriptions go on; restoring undoes it. Setting what the plan already is changes nothing.',
    bodyTypes: form,
    answers: {
      303: {
        description: 'Archived or restored (or no session in force: to the sign-in form)',
        headers: { Location: 'The list, `/dashboard/plans?changed=<id>`, saying which.' },
      },
    },
    errors: {
      ...formErrors,
      400: { description: '`active` is neither true nor false: the list, saying so', body: 'html' },
      ...notFound('plan'),
    },
  },
  {
    method: 'GET',
    path: '/dashboard/plans/{id}/delete',
    handler: dashboardHandler,
    page: 'plans#showPlanDelete',
    permission: 'catalog',
    operationId: 'showDashboardPlanDelete',
    auth: false,
    access: signedIn({ actions: ['GetItem'] }),
    summary:
      'Deleting a plan, the confirmation step (HTML): what it does to its subscriptions, and the button',
    description:
      'Says that deleting a plan is for good and cancels each of its active subscriptions (their customers and the merchant are e-mailed), with the form that deletes it.',
    answers: listed,
    errors: { ...pageErrors, ...notFound('plan') },
  },
  {
    method: 'POST',
    path: '/dashboard/plans/{id}/delete',
    handler: dashboardHandler,
    page: 'plans#submitPlanDelete',
    permission: 'catalog',
    audit: 'plan.delete',
    operationId: 'deletePlanFromDashboard',
    auth: false,
    access: signedIn({ actions: [...writes, 'BatchGetItem'], indexes: ['gsi1'] }),
    summary:
      'The plan delete form (form-encoded `csrf_token`): deletes as DELETE /v1/plans/{id}/ does; 303 to the list',
    description:
      'Deletes the plan for good through the same code as DELETE /v1/plans/{id}/: its active subscriptions are then canceled, each on its own.',
    bodyTypes: form,
    answers: deleteAnswers('plans'),
    errors: { ...formErrors, ...notFound('plan') },
  },
  {
    method: 'GET',
    path: '/dashboard/products',
    handler: dashboardHandler,
    page: 'products#showProducts',
    permission: 'read',
    operationId: 'showDashboardProducts',
    auth: false,
    access: signedIn({ actions: ['GetItem', 'Query'], indexes: ['gsi1'] }),
    summary:
      'The products (HTML): the active products with their paging (`page`, `page_size`), search and filters, and the create form',
    description:
      'Lists the active products of the account and mode as GET /v1/products/ does, with a form to create one (text fields; images through the API) and a link to delete each.',
    query: withNotices(ProductListQuerySchema, {
      created: 'The product just created',
      deleted: 'Set after a product was deleted',
    }),
    answers: listed,
    errors: {
      ...pageErrors,
      400: { description: 'A malformed filter: the page, saying so', body: 'html' },
      404: { description: 'A page past the last: the page, saying so', body: 'html' },
    },
  },
  {
    method: 'POST',
    path: '/dashboard/products',
    handler: dashboardHandler,
    page: 'products#submitProduct',
    permission: 'catalog',
    audit: 'product.create',
    operationId: 'createProductFromDashboard',
    auth: false,
    access: { ...signedIn({ actions: [...writes], indexes: ['gsi1'] }), media: 'write' },
    summary:
      'The product form (form-encoded `name`, `price`, `currency`, `short_description`, `description`, `sku`, `stock`, `idempotency_key`, `csrf_token`): creates as POST /v1/products/ does; 303 to the list',
    description:
      'Creates the product through the same code as POST /v1/products/ (its text fields; images are added through the API). A form submitted twice creates one product.',
    bodyTypes: form,
    answers: createAnswers('products'),
    errors: createErrors('The product is refused as POST /v1/products/ refuses it'),
  },
  {
    method: 'GET',
    path: '/dashboard/products/{id}/delete',
    handler: dashboardHandler,
    page: 'products#showProductDelete',
    permission: 'catalog',
    operationId: 'showDashboardProductDelete',
    auth: false,
    access: signedIn({ actions: ['GetItem'] }),
    summary: 'Deleting a product, the confirmation step (HTML): what it does, and the button',
    description:
      'Says that a deleted product leaves the list and cannot be changed, while payment links naming it keep working, with the form that deletes it.',
    answers: listed,
    errors: { ...pageErrors, ...notFound('product') },
  },
  {
    method: 'POST',
    path: '/dashboard/products/{id}/delete',
    handler: dashboardHandler,
    page: 'products#submitProductDelete',
    permission: 'catalog',
    audit: 'product.delete',
    operationId: 'deleteProductFromDashboard',
    auth: false,
    access: signedIn({ actions: [...writes], indexes: ['gsi1'] }),
    summary:
      'The product delete form (form-encoded `csrf_token`): deletes as DELETE /v1/products/{id}/ does; 303 to the list',
    description: 'Deactivates the product through the same code as DELETE /v1/products/{id}/.',
    bodyTypes: form,
    answers: deleteAnswers('products'),
    errors: { ...formErrors, ...notFound('product') },
  },
  {
    method: 'GET',
    path: '/dashboard/links',
    handler: dashboardHandler,
    page: 'links#showLinks',
    permission: 'read',
    operationId: 'showDashboardLinks',
    auth: false,
    access: signedIn({ actions: ['GetItem', 'Query'], indexes: ['gsi1'] }),
    summary:
      'The payment links (HTML): the links list with its paging (`page`, `page_size`), each link’s URL to copy, and the create form',
    description:
      'Lists the payment links of the account and mode as GET /v1/payment-links/ does, each with its page’s URL in a read-only field, with a form to create one and a link to delete each.',
    query: withNotices(LinkListQuerySchema, {
      created: 'The payment link just created',
      deleted: 'Set after a payment link was deleted',
    }),
    answers: listed,
    errors: {
      ...pageErrors,
      400: { description: 'A malformed `page` or `page_size`: the page, saying so', body: 'html' },
      404: { description: 'A page past the last: the page, saying so', body: 'html' },
    },
  },
  {
    method: 'POST',
    path: '/dashboard/links',
    handler: dashboardHandler,
    page: 'links#submitLink',
    permission: 'catalog',
    audit: 'payment_link.create',
    operationId: 'createLinkFromDashboard',
    auth: false,
    access: signedIn({ actions: [...writes], indexes: ['gsi1'] }),
    summary:
      'The payment link form (form-encoded `description`, `amount`, `currency`, `idempotency_key`, `csrf_token`): creates as POST /v1/payment-links/ does; 303 to the list showing its URL',
    description:
      'Creates one payment link through the same code as POST /v1/payment-links/ (links for named customers are made through the API). A form submitted twice creates one link.',
    bodyTypes: form,
    answers: createAnswers('links'),
    errors: {
      ...createErrors(
        'The link is refused as POST /v1/payment-links/ refuses it (an amount below the equivalent of USD 1.00 included)',
      ),
      406: { description: 'No description: the form again, saying so', body: 'html' },
    },
  },
  {
    method: 'GET',
    path: '/dashboard/links/{id}/delete',
    handler: dashboardHandler,
    page: 'links#showLinkDelete',
    permission: 'catalog',
    operationId: 'showDashboardLinkDelete',
    auth: false,
    access: signedIn({ actions: ['GetItem', 'Query'] }),
    summary: 'Deleting a payment link, the confirmation step (HTML): what it does, and the button',
    description:
      'Says that a deleted link’s page stops taking payments at once while its charges stay, with the form that deletes it.',
    answers: listed,
    errors: { ...pageErrors, ...notFound('payment link') },
  },
  {
    method: 'POST',
    path: '/dashboard/links/{id}/delete',
    handler: dashboardHandler,
    page: 'links#submitLinkDelete',
    permission: 'catalog',
    audit: 'payment_link.delete',
    operationId: 'deleteLinkFromDashboard',
    auth: false,
    access: signedIn({ actions: [...writes], indexes: ['gsi1'] }),
    summary:
      'The payment link delete form (form-encoded `csrf_token`): deletes as DELETE /v1/payment-links/{id}/ does; 303 to the list',
    description:
      'Deletes the link through the same code as DELETE /v1/payment-links/{id}/: its page is gone.',
    bodyTypes: form,
    answers: deleteAnswers('links'),
    errors: {
      ...formErrors,
      ...notFound('payment link'),
      409: { description: 'A payment of the link is under way', body: 'html' },
    },
  },
];
