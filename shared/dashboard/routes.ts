/**
 * The merchant dashboard's routes: HTML pages on the API's own origin under /dashboard/. They are
 * `auth: false` for the gateway (a browser sends no API key): each handler opens the session from
 * its cookie itself, and answers 303 to the sign-in form without one.
 */
import { ChargesPageQuerySchema } from './charges-query.ts';
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
import { signInFailureLimit, signInWindowMs } from './sign-in-limit.ts';

export const dashboardRoutes: readonly DashboardRoute[] = [
  {
    method: 'GET',
    path: '/dashboard/sign-in',
    handler: dashboardHandler,
    page: 'sign-in#showSignIn',
    operationId: 'showDashboardSignIn',
    auth: false,
    access: {},
    summary: 'The dashboard’s sign-in form (HTML)',
    description:
      'Asks for a secret API key (`sk_test_…` or `sk_live_…`); the dashboard then acts in that key’s mode. Sets the form’s own CSRF cookie.',
    answers: { 200: { description: 'The sign-in form', media: html } },
    errors: pageErrors,
  },
  {
    method: 'POST',
    path: '/dashboard/sign-in',
    handler: dashboardHandler,
    page: 'sign-in#submitSignIn',
    operationId: 'signInToDashboard',
    auth: false,
    // BatchGetItem: the key's item and the address's failure counter together; UpdateItem: a failure
    // counted; PutItem + ConditionCheckItem: the session written while the counter is below the
    // limit (one transaction); DeleteItem: the browser's previous session ended.
    access: {
      table: { actions: ['BatchGetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem', 'DeleteItem'] },
      fingerprintSecret: true,
    },
    summary: 'Signs in with a secret API key (form-encoded `api_key`, `csrf_token`); 303 to the dashboard',
    description: `Opens a session of 8 hours in the key’s account and mode and sets its cookie (HttpOnly, SameSite=Strict, Path=/dashboard, Secure on https). Only a keyed hash of the session’s token is stored; the session ends at sign-out, at the next sign-in in the same browser, and when the key that opened it is rotated. Failed sign-ins are counted per client address (the connection’s, never a header): after ${signInFailureLimit} in a window of ${signInWindowMs / 60_000} minutes of the clock, every sign-in from that address is refused with 429 until the window ends, a right key included.`,
    bodyTypes: form,
    answers: {
      303: {
        description: 'Signed in: to the dashboard, with the session cookie',
        headers: { Location: 'The dashboard, `/dashboard/`.', 'Set-Cookie': 'The session cookie.' },
      },
    },
    errors: {
      ...formErrors,
      401: {
        description: 'No account has this key (or it was rotated): the form again, saying so',
        body: 'html',
      },
      403: {
        description: 'The form expired (its CSRF cookie is missing or another): the form again',
        body: 'html',
      },
      409: {
        description:
          'The sign-in collided with many others from the same address at the same moment: nothing was opened; send it again',
        body: 'MessageEnvelope',
      },
      429: {
        description: `${signInFailureLimit} failed sign-ins from this address in the current ${signInWindowMs / 60_000}-minute window: the form again, saying to wait; no key is looked at, a right one is refused too`,
        body: 'html',
        headers: { 'Retry-After': 'Seconds until the window ends and the address may sign in again' },
      },
    },
  },
  {
    method: 'POST',
    path: '/dashboard/sign-out',
    handler: dashboardHandler,
    page: 'sign-in#submitSignOut',
    operationId: 'signOutOfDashboard',
    auth: false,
    access: signedIn({ actions: ['DeleteItem'] }),
    summary: 'Signs out (form-encoded `csrf_token`): the session is deleted; 303 to the sign-in form',
    description:
      'Deletes the session, so its cookie opens nothing any more wherever it was copied, and clears the cookie.',
    bodyTypes: form,
    answers: {
      303: {
        description: 'Signed out (or no session was in force): to the sign-in form',
        headers: { Location: 'The sign-in form, `/dashboard/sign-in`.' },
      },
    },
    errors: formErrors,
  },
  {
    method: 'POST',
    path: '/dashboard/language',
    handler: dashboardHandler,
    page: 'sign-in#submitLanguage',
    operationId: 'setDashboardLanguage',
    auth: false,
    access: signedIn(),
    summary: 'The language switch (form-encoded `lang` en or es, `back`, `csrf_token`); 303 back',
    description:
      'Keeps the language chosen in a cookie and goes back to the dashboard page it was chosen on. Without the switch, pages follow the browser’s Accept-Language.',
    bodyTypes: form,
    answers: {
      303: {
        description: 'Back to the page the switch was on, in the language chosen',
        headers: { Location: 'The page under `/dashboard/` the switch was on.' },
      },
    },
    errors: formErrors,
  },
  {
    method: 'GET',
    path: '/dashboard/',
    handler: dashboardHandler,
    page: 'charges#showOverview',
    operationId: 'showDashboard',
    auth: false,
    access: signedIn({ actions: ['GetItem', 'Query'], indexes: ['gsi1'] }),
    summary:
      'The dashboard’s first page (HTML): its sections, the mode, the last 30 days’ figures and charts, and the newest charges',
    description:
      'Shows the navigation of every section, the mode of the key signed in with (TEST or LIVE), the language switch, sign-out, the last 30 days of the account in that mode (volume by currency, charges, refunds, declines, failed renewals, as SVG charts with their figures) with its active subscriptions and monthly recurring revenue, and its newest charges.',
    answers: { 200: { description: 'The page', media: html }, 303: toSignIn },
    errors: pageErrors,
  },
  {
    method: 'GET',
    path: '/dashboard/charges',
    handler: dashboardHandler,
    page: 'charges#showCharges',
    operationId: 'showDashboardCharges',
    auth: false,
    access: signedIn({ actions: ['Query', 'GetItem'], indexes: ['gsi1'] }),
    summary:
      'The charges (HTML): the payments list, with its paging (`limit`, `created_before`) and `status`, and `find`',
    description:
      'Lists the charges of the account and mode as GET /v1/payments/ does, newest first, with a link to the older ones. `find` looks one charge up by its id or its payment’s id (both read at once) and answers 303 to its page.',
    query: ChargesPageQuerySchema,
    answers: {
      200: { description: 'The page', media: html },
      303: {
        description: 'No session in force: to the sign-in form; or `find` found a charge: to its page',
        headers: { Location: 'The sign-in form, or the charge’s page.' },
      },
    },
    errors: {
      ...pageErrors,
      400: {
        description: 'A malformed `limit`, `created_before` or `find`: the page, saying so',
        body: 'html',
      },
      404: {
        description:
          'No charge of the account and mode has the `find` id (or its payment is unpaid): the list, saying so',
        body: 'html',
      },
    },
  },
  {
    method: 'GET',
    path: '/dashboard/charges/{id}',
    handler: dashboardHandler,
    page: 'charges#showCharge',
    operationId: 'showDashboardCharge',
    auth: false,
    access: signedIn({ actions: ['GetItem', 'Query'], indexes: ['gsi2'] }),
    summary: 'One charge (HTML): its amounts, its refunds, and the refund form',
    description:
      'Shows a charge of the account and mode with its refunds and, while anything is left to refund, a form to refund it in full or in part.',
    query: withNotices(undefined, { refunded: 'The refund just made' }),
    answers: { 200: { description: 'The page', media: html }, 303: toSignIn },
    errors: {
      ...pageErrors,
      404: { description: 'No such charge in this account and mode', body: 'html' },
    },
  },
  {
    method: 'POST',
    path: '/dashboard/charges/{id}/refunds',
    handler: dashboardHandler,
    page: 'charges#submitRefund',
    operationId: 'refundFromDashboard',
    auth: false,
    access: {
      ...signedIn({
        actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
        indexes: ['gsi1', 'gsi2'],
      }),
      webhookKey: true,
    },
    summary:
      'The refund form (form-encoded `amount`, `reason`, `idempotency_key`, `csrf_token`): refunds as POST /v1/refunds/ does; 303 back',
    description:
      'Refunds the charge in full (no amount) or in part through the same code as POST /v1/refunds/, under the form’s idempotency key, so a form submitted twice refunds once. What the API refuses is shown on the charge’s page with the API’s status.',
    bodyTypes: form,
    answers: {
      303: {
        description: 'Refunded (or no session in force: to the sign-in form)',
        headers: { Location: 'The charge’s page, saying what was refunded.' },
      },
    },
    errors: {
      ...formErrors,
      400: {
        description:
          'The refund is refused as POST /v1/refunds/ refuses it (above what is left, already refunded, an amount with too many decimals): the page, saying so',
        body: 'html',
      },
      404: { description: 'No such charge in this account and mode', body: 'html' },
      409: { description: 'The charge was paid out, or the same form is still being refunded', body: 'html' },
      502: { description: 'The acquirer refused the refund; nothing was refunded', body: 'html' },
      504: {
        description: 'The acquirer did not answer in time: submitting the same form again gives the outcome',
        body: 'html',
      },
    },
  },
];
