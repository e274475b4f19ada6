/**
 * The merchant dashboard's routes: HTML pages on the API's own origin under /dashboard/. They are
 * `auth: false` for the gateway (a browser sends no API key): each handler opens the session from
 * its cookie itself, and answers 303 to the sign-in form without one.
 */

import { challengeLifetimeMs, userFailureLimit, userLockMs } from '../team/limits.ts';
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
    permission: 'public',
    operationId: 'showDashboardSignIn',
    auth: false,
    access: {},
    summary: 'The dashboard’s sign-in form (HTML)',
    description:
      'Asks for a user’s e-mail address and password (an API key opens nothing here). Sets the form’s own CSRF cookie.',
    answers: { 200: { description: 'The sign-in form', media: html } },
    errors: { 500: pageErrors[500] },
  },
  {
    method: 'POST',
    path: '/dashboard/sign-in',
    handler: dashboardHandler,
    page: 'sign-in#submitSignIn',
    permission: 'public',
    operationId: 'signInToDashboard',
    auth: false,
    // BatchGetItem: the address's counter, the e-mail's lock and claim together, then the user;
    // UpdateItem: a failure counted (address and e-mail); PutItem + ConditionCheckItem + UpdateItem:
    // the session (or the code step's challenge) written while the limits hold; DeleteItem: the
    // browser's previous session ended.
    access: {
      table: { actions: ['BatchGetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem', 'DeleteItem'] },
      fingerprintSecret: true,
    },
    summary:
      'Signs in with a user’s e-mail and password (form-encoded `email`, `password`, `csrf_token`); 303 to the dashboard, or the code form for a user with a second factor',
    description: `Opens a session of 8 hours for the user, in test mode, and sets its cookie (HttpOnly, SameSite=Strict, Path=/dashboard, Secure on https); for a user with a TOTP second factor, answers the code form instead (POST /dashboard/sign-in/code). Only a keyed hash of the session’s token is stored; the session ends at sign-out, at the next sign-in in the same browser, when the user’s password changes (but for the session the change was made in) and when the user is removed. Failed sign-ins are counted per client address (the connection’s, never a header): after ${signInFailureLimit} in a window of ${signInWindowMs / 60_000} minutes of the clock, every sign-in from that address is refused with 429 until the window ends. They are counted per e-mail address too: ${userFailureLimit} failures in a row lock it for ${userLockMs / 60_000} minutes from any address, a right password included (an e-mail that is no user’s locks alike).`,
    bodyTypes: form,
    answers: {
      200: { description: 'The right password of a user with a second factor: the code form', media: html },
      303: {
        description: 'Signed in: to the dashboard, with the session cookie',
        headers: { Location: 'The dashboard, `/dashboard/`.', 'Set-Cookie': 'The session cookie.' },
      },
    },
    errors: {
      ...formErrors,
      401: { description: 'A wrong e-mail or password (never saying which): the form again', body: 'html' },
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
        description: `${signInFailureLimit} failed sign-ins from this address in the current ${signInWindowMs / 60_000}-minute window, or ${userFailureLimit} in a row for this e-mail: the form again, saying to wait; no password is looked at, a right one is refused too`,
        body: 'html',
        headers: { 'Retry-After': 'Seconds until the address or the e-mail may sign in again' },
      },
    },
  },
  {
    method: 'POST',
    path: '/dashboard/sign-in/code',
    handler: dashboardHandler,
    page: 'sign-in#submitCode',
    permission: 'public',
    operationId: 'signInToDashboardWithCode',
    auth: false,
    // BatchGetItem: the challenge, then the counter, the lock and the user; UpdateItem: a failure
    // counted, or the code's step taken; PutItem + DeleteItem + ConditionCheckItem: the session
    // written as the challenge is used up; the TOTP secret opened with the stage's key.
    access: {
      table: { actions: ['BatchGetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem', 'DeleteItem'] },
      fingerprintSecret: true,
      webhookKey: true,
    },
    summary:
      'The second step of a sign-in (form-encoded `challenge`, `code`, `csrf_token`): the TOTP code of the user’s authenticator app; 303 to the dashboard',
    description: `Checks the 6-digit code (RFC 6238: 30-second steps; the current step or one either side) against the user’s second factor. Each step’s code works once. A wrong code is a failed sign-in, counted against the address and the e-mail like a wrong password. The code form waits ${challengeLifetimeMs / 60_000} minutes; after that, the sign-in form again.`,
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
        description:
          'A wrong or used code (the code form again), or a sign-in that waited too long (the sign-in form)',
        body: 'html',
      },
      403: { description: 'The form expired: the sign-in form again', body: 'html' },
      429: {
        description:
          'The address is blocked or the e-mail locked after too many failures: the sign-in form, saying to wait',
        body: 'html',
        headers: { 'Retry-After': 'Seconds until the address or the e-mail may sign in again' },
      },
    },
  },
  {
    method: 'GET',
    path: '/dashboard/access/{token}',
    handler: dashboardHandler,
    page: 'sign-in#showAccess',
    permission: 'public',
    operationId: 'showDashboardAccessLink',
    auth: false,
    access: { table: { actions: ['BatchGetItem', 'GetItem'] }, fingerprintSecret: true },
    summary:
      'A one-time link (HTML): the form to set the user’s password (from `users add`, an invitation or a reset), or to sign in once (the local stack’s banner)',
    description: `Shows the link’s form while the link is unused and in time (24 hours from \`users add\` or \`users reset-password\`, 7 days from an invitation); following it uses nothing up.`,
    answers: { 200: { description: 'The link’s form', media: html } },
    errors: {
      404: { description: 'The link was used, has expired, or is none: saying so', body: 'html' },
      500: pageErrors[500],
    },
  },
  {
    method: 'POST',
    path: '/dashboard/access/{token}',
    handler: dashboardHandler,
    page: 'sign-in#submitAccess',
    permission: 'public',
    operationId: 'useDashboardAccessLink',
    auth: false,
    // BatchGetItem/GetItem: the link and its user; DeleteItem: the link used up; UpdateItem: the
    // password set; PutItem + ConditionCheckItem: the session and the audit log entry.
    access: {
      table: {
        actions: ['BatchGetItem', 'GetItem', 'DeleteItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem'],
      },
      fingerprintSecret: true,
    },
    summary:
      'Uses a one-time link (form-encoded `password` and `confirm` for a set-password link, `csrf_token`): signs its user in; 303 to the dashboard',
    description: `A set-password link stores the new password (at least 12 characters, as an Argon2id hash), which ends every session the user had, then signs the user in; a sign-in link signs in. Either works once. A user with a second factor is then asked for the code, as at sign-in: a link never skips it. While the client's address is blocked or the user locked, the link is refused and left unused.`,
    bodyTypes: form,
    answers: {
      200: { description: 'The user has a second factor: the code form', media: html },
      303: {
        description: 'Signed in: to the dashboard, with the session cookie',
        headers: { Location: 'The dashboard, `/dashboard/`.', 'Set-Cookie': 'The session cookie.' },
      },
    },
    errors: {
      ...formErrors,
      400: {
        description:
          'The password is refused (too short, too long, the two differ): the form again, the link unused',
        body: 'html',
      },
      403: { description: 'The form expired: the sign-in form again', body: 'html' },
      404: { description: 'The link was used, has expired, or is none: saying so', body: 'html' },
      429: {
        description: 'Too many failed sign-ins from this address: the sign-in form, saying to wait',
        body: 'html',
        headers: { 'Retry-After': 'Seconds until the address may sign in again' },
      },
    },
  },
  {
    method: 'POST',
    path: '/dashboard/mode',
    handler: dashboardHandler,
    page: 'sign-in#submitMode',
    permission: 'self',
    audit: false,
    operationId: 'switchDashboardMode',
    auth: false,
    access: signedIn({ actions: ['UpdateItem'] }),
    summary: 'The mode switch (form-encoded `mode` test or live, `back`, `csrf_token`); 303 back',
    description:
      'Switches the session between test and live records. Live mode needs a user with a TOTP second factor: without one, 403 saying why, and the session stays in test mode.',
    bodyTypes: form,
    answers: {
      303: {
        description: 'Back to the page the switch was on, in the mode chosen',
        headers: { Location: 'The page under `/dashboard/` the switch was on.' },
      },
    },
    errors: formErrors,
  },
  {
    method: 'POST',
    path: '/dashboard/sign-out',
    handler: dashboardHandler,
    page: 'sign-in#submitSignOut',
    permission: 'self',
    audit: false,
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
    permission: 'self',
    audit: false,
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
    permission: 'read',
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
    permission: 'read',
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
    permission: 'read',
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
    permission: 'refund',
    audit: 'refund.create',
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
