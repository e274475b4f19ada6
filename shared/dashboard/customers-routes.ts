/**
 * The dashboard's customers and subscriptions pages (spread into `dashboardRoutes`): HTML, `auth:
 * false` for the gateway, each handler opening the session from its cookie.
 */
import * as v from 'valibot';
import { queryParameter } from '../core/query.ts';
import * as rules from '../core/rules.ts';
import { CustomerListQuerySchema } from '../customers/schemas.ts';
import { SubscriptionListQuerySchema } from '../subscriptions/schemas.ts';
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

/** How many subscriptions, and how many charges, a customer's page lists at a time. */
export const customerListPageSize = 20;

const pageNumber = (list: string) =>
  queryParameter(
    'integer',
    `Which page of the customer's ${list}, ${customerListPageSize} at a time, newest first (default 1).`,
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, rules.positive_integer),
      v.transform(Number),
      v.minValue(1, rules.positive_integer),
      v.maxValue(10_000, rules.positive_integer),
    ),
    { blank: 'invalid' },
  );

/** The customer page's query: a page of each of the customer's own lists. */
export const CustomerPageQuerySchema = v.pipe(
  v.object({
    subscriptions_page: pageNumber('subscriptions'),
    charges_page: pageNumber('charges'),
  }),
  v.transform((query) => ({
    subscriptions: query.subscriptions_page ?? 1,
    charges: query.charges_page ?? 1,
  })),
);

const malformed = (what: string) => ({
  400: { description: `${what}: the page, saying so`, body: 'html' as const },
});
const page = { 200: { description: 'The page', media: html }, 303: toSignIn } as const;

export const customerRoutes: readonly DashboardRoute[] = [
  {
    method: 'GET',
    path: '/dashboard/customers',
    handler: dashboardHandler,
    page: 'customers#showCustomers',
    permission: 'read',
    operationId: 'showDashboardCustomers',
    auth: false,
    access: signedIn({ actions: ['GetItem', 'Query'], indexes: ['gsi1'] }),
    summary: 'The customers (HTML): the customers list, with its `search` and paging (`page`, `page_size`)',
    description:
      'Lists the customers of the account and mode as GET /v1/customers/ does, newest first, or those whose first name or e-mail holds `search`, one numbered page at a time. An empty field of its search form asks for no search.',
    query: CustomerListQuerySchema,
    answers: page,
    errors: {
      ...pageErrors,
      ...malformed('A blank `search`, or a malformed `page` or `page_size`'),
      404: { description: 'A page past the last: the page, saying so', body: 'html' },
    },
  },
  {
    method: 'GET',
    path: '/dashboard/customers/{id}',
    handler: dashboardHandler,
    page: 'customers#showCustomer',
    permission: 'read',
    operationId: 'showDashboardCustomer',
    auth: false,
    access: signedIn({ actions: ['GetItem', 'Query'], indexes: ['gsi3'] }),
    summary: 'One customer (HTML): their fields, subscriptions and charges, and the portal link form',
    description:
      "Shows a customer of the account and mode, a page of their subscriptions and a page of their charges (newest first, read from the customer's own index; each charge links to its page), and a form that makes a link to their portal.",
    query: CustomerPageQuerySchema,
    answers: page,
    errors: {
      ...pageErrors,
      ...malformed('A malformed `subscriptions_page` or `charges_page`'),
      404: { description: 'No such customer in this account and mode', body: 'html' },
    },
  },
  {
    method: 'POST',
    path: '/dashboard/customers/{id}/portal',
    handler: dashboardHandler,
    page: 'customers#submitPortalLink',
    permission: 'portal_link',
    audit: 'portal_link.create',
    operationId: 'makePortalLinkFromDashboard',
    auth: false,
    access: signedIn({ actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] }),
    summary:
      'The portal link form (form-encoded `idempotency_key`, `csrf_token`): a customer portal link as POST /v1/customers/{id}/portal/ makes it',
    description:
      "Makes a link to the customer's portal through the same code as POST /v1/customers/{id}/portal/ (it opens for one hour) and answers a page showing it, to copy, with the time it stops opening. The link is shown on that answer only (never in a URL, never stored to be shown again); the form's idempotency key makes a form submitted twice make one link.",
    bodyTypes: form,
    answers: { 200: { description: 'The link made, and until when it opens', media: html }, 303: toSignIn },
    errors: {
      ...formErrors,
      400: { description: 'The form’s idempotency key is missing or malformed: nothing made', body: 'html' },
      404: { description: 'No such customer in this account and mode', body: 'html' },
      409: {
        description:
          'The same form made its link already (or is still making it): the page says until when that link opens',
        body: 'html',
      },
    },
  },
  {
    method: 'GET',
    path: '/dashboard/subscriptions',
    handler: dashboardHandler,
    page: 'subscriptions#showSubscriptions',
    permission: 'read',
    operationId: 'showDashboardSubscriptions',
    auth: false,
    access: signedIn({ actions: ['GetItem', 'Query'], indexes: ['gsi1', 'gsi2'] }),
    summary:
      'The subscriptions (HTML): the subscriptions list, with its `status` and `plan_id` filters and paging (`page`, `page_size`)',
    description:
      'Lists the subscriptions of the account and mode as GET /v1/subscriptions does, pending ones included, newest first, one numbered page at a time, optionally of one status or plan. An empty field of its filter form asks for no filter.',
    query: SubscriptionListQuerySchema,
    answers: page,
    errors: {
      ...pageErrors,
      ...malformed('An unknown `status`, or a malformed `page` or `page_size`'),
      404: { description: 'A page past the last: the page, saying so', body: 'html' },
    },
  },
  {
    method: 'GET',
    path: '/dashboard/subscriptions/{id}',
    handler: dashboardHandler,
    page: 'subscriptions#showSubscription',
    permission: 'read',
    operationId: 'showDashboardSubscription',
    auth: false,
    // GetItem: the subscription, and the plan of its pending change.
    access: signedIn({ actions: ['GetItem'] }),
    summary:
      'One subscription (HTML): plan, quantity, amount per interval, status, period, card, customer, a pending change, and its end at the period’s end or Resume',
    description:
      "Shows a subscription of the account and mode: its plan, quantity and amount per interval, status, current period and next billing date (or, when set to end at the period's end, the day it ends), a change of plan or quantity pending for the renewal (the plan's name as it is now, or that it was deleted since), the brand and last four digits of its card, and a link to its customer. While it is active or trialing, a form that ends it at the period's (or trial's) end, or, once set and until that day, one that resumes it; while it is not canceled, a link to the confirmation of a cancel at once.",
    query: withNotices(undefined, {
      canceled: 'Set after the subscription was canceled',
      ending:
        'Set after the subscription was set to end at the period’s end (the page reads the day from it)',
      resumed: 'Set after the subscription was resumed',
    }),
    answers: page,
    errors: {
      ...pageErrors,
      404: { description: 'No such subscription in this account and mode', body: 'html' },
    },
  },
  {
    method: 'GET',
    path: '/dashboard/subscriptions/{id}/cancel',
    handler: dashboardHandler,
    page: 'subscriptions#showCancel',
    permission: 'cancel',
    operationId: 'confirmDashboardCancel',
    auth: false,
    access: signedIn({ actions: ['GetItem'] }),
    summary: 'The confirmation step before canceling a subscription (HTML); it changes nothing',
    description:
      'Asks whether to cancel the subscription, with the form that does it and a way back that keeps it. A subscription canceled already shows its own page instead.',
    answers: page,
    errors: {
      ...pageErrors,
      404: { description: 'No such subscription in this account and mode', body: 'html' },
    },
  },
  {
    method: 'POST',
    path: '/dashboard/subscriptions/{id}/cancel',
    handler: dashboardHandler,
    page: 'subscriptions#submitCancel',
    permission: 'cancel',
    audit: 'subscription.cancel',
    operationId: 'cancelFromDashboard',
    auth: false,
    access: signedIn({
      actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
    }),
    summary:
      'The confirmed cancel (form-encoded `csrf_token`): cancels as DELETE /v1/subscriptions/{id} does; 303 to the subscription',
    description:
      'Cancels the subscription through the same code as DELETE /v1/subscriptions/{id}, as the merchant’s request: it is never charged again and the customer is e-mailed. Of two submits, one cancels; the other shows the API’s 409 on the subscription’s page.',
    bodyTypes: form,
    answers: {
      303: {
        description: 'Canceled (or no session in force: to the sign-in form)',
        headers: { Location: 'The subscription’s page, saying it was canceled.' },
      },
    },
    errors: {
      ...formErrors,
      404: { description: 'No such subscription in this account and mode', body: 'html' },
      409: { description: 'The subscription was canceled already: its page, saying so', body: 'html' },
    },
  },
  ...(
    [
      {
        end: true,
        path: 'cancel-at-period-end',
        page: 'submitEndAtPeriodEnd',
        operationId: 'endSubscriptionAtPeriodEndFromDashboard',
        summary:
          'Cancel at the end of the period (form-encoded `csrf_token`): sets `cancel_at_period_end` as PUT /v1/subscriptions/{id} does; 303 to the subscription',
        description:
          'Sets `cancel_at_period_end` through the same code as PUT /v1/subscriptions/{id}: the subscription stays active until the end of its current period (or trial) and then ends instead of renewing; nothing is charged, and the customer is e-mailed. Setting it when it is set already changes nothing, so a form submitted twice acts once.',
        done: 'Set to end',
        notice: 'ending',
        refused:
          'The subscription cannot be set to end (canceled, past due, or not started yet): its page, saying why',
      },
      {
        end: false,
        path: 'resume',
        page: 'submitResume',
        operationId: 'resumeSubscriptionFromDashboard',
        summary:
          'Resume a subscription set to end (form-encoded `csrf_token`): clears `cancel_at_period_end` as PUT /v1/subscriptions/{id} does; 303 to the subscription',
        description:
          'Clears `cancel_at_period_end` through the same code as PUT /v1/subscriptions/{id}, until the day the subscription was set to end: it renews as before, and the customer is e-mailed. Nothing changes for one not set to end, so a form submitted twice acts once.',
        done: 'Resumed',
        notice: 'resumed',
        refused:
          'The subscription cannot be resumed (canceled, past due, not started yet, or the day it was set to end has come): its page, saying why',
      },
    ] as const
  ).map(
    (row): DashboardRoute => ({
      method: 'POST',
      path: `/dashboard/subscriptions/{id}/${row.path}`,
      handler: dashboardHandler,
      page: `subscriptions#${row.page}`,
      permission: 'cancel',
      audit: row.end ? 'subscription.cancel_at_period_end' : 'subscription.resume',
      operationId: row.operationId,
      auth: false,
      // updateSubscription: GetItem (the subscription), PutItem (the subscription and its
      // subscription.updated, one transaction conditioned on the version read). The end at the
      // period's end moves no due entry and asks the acquirer nothing.
      access: signedIn({ actions: ['GetItem', 'PutItem'] }),
      summary: row.summary,
      description: row.description,
      bodyTypes: form,
      answers: {
        303: {
          description: `${row.done} (or no session in force: to the sign-in form)`,
          headers: { Location: `The subscription’s page, \`?${row.notice}=1\`, saying so.` },
        },
      },
      errors: {
        ...formErrors,
        404: { description: 'No such subscription in this account and mode', body: 'html' },
        409: { description: row.refused, body: 'html' },
      },
    }),
  ),
];
