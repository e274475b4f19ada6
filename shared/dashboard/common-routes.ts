/**
 * What every dashboard route row shares (shared/dashboard/routes.ts and each section's routes): the
 * one function that serves them, the HTML answers, the 303 to sign-in, the errors of a page and of
 * a form, and the access of a signed-in page (the session and the account read in one
 * BatchGetItem, the fingerprint secret).
 */
import { sizeText } from '../core/limits.ts';
import type { Access, Answer, ErrorAnswer, Route } from '../http/route.ts';
import type { Permission } from '../team/roles.ts';

/**
 * The dashboard is one function routed inside (shared/dashboard/router-http.ts): API Gateway sends
 * it every request under `prefix` (`/dashboard` and `/dashboard/{proxy+}`, whatever the method),
 * and the rows of this area say which page answers each. Its role is the union of its rows' access.
 */
export const dashboardFunction = {
  handler: 'functions/dashboard/dashboard.ts',
  prefix: '/dashboard',
} as const;

/** The handler every dashboard row names: the one function. */
export const dashboardHandler = dashboardFunction.handler;

/**
 * A row of the dashboard: a route as the API's table has it (its method and path, the access its
 * page needs, what the OpenAPI document says of it), and the page that answers it.
 */
export interface DashboardRoute extends Route {
  readonly handler: typeof dashboardHandler;
  /**
   * `<module>#<name>`: the page `name` that `shared/dashboard/<module>-http.ts` exports (a
   * DashboardPage: made with signedInPage or signedInForm of ./http.ts, or written as one for a page
   * without a session, as sign-in-http.ts does). The function loads a module the first time one of
   * its pages is asked for.
   */
  readonly page: `${string}#${string}`;
  /**
   * What a user's role must allow for the row (shared/team/roles.ts); `public` for the pages before a
   * session (sign-in, one-time links). A role without it gets 403 and nothing is read or changed:
   * the check is made by signedInPage and signedInForm (./http.ts) before the page's own code runs.
   */
  readonly permission: Permission | 'public';
  /**
   * A form that changes something: the action its audit log entry names (`refund.create`), written
   * once the form has acted (shared/team/audit.ts); `false` for a form that changes nothing stored
   * of the account (the language switch). Every POST row but the public ones says which.
   */
  readonly audit?: string | false;
}

export const html = ['text/html'] as const;

/** The most a dashboard form's body may be: no form of it comes near. */
export const dashboardFormBytes = 4 * 1024;

export const toSignIn: Answer = {
  description:
    'No session in force (none, expired, signed out, its user removed, or its password changed since): to the sign-in form',
  headers: { Location: 'The sign-in form, `/dashboard/sign-in`.' },
};

export const pageErrors = {
  403: {
    description: 'The signed-in user’s role may not use this page (or the form expired): nothing changed',
    body: 'html',
  },
  500: { description: 'Unexpected failure, with a request id', body: 'MessageEnvelope' },
} as const satisfies Record<number, ErrorAnswer>;

export const formErrors = {
  ...pageErrors,
  403: {
    description:
      'The form expired (its CSRF token is not the session’s), or the signed-in user’s role may not use it: nothing changed',
    body: 'html',
  },
  413: { description: `A form body over ${sizeText(dashboardFormBytes)}`, body: 'MessageEnvelope' },
} as const satisfies Record<number, ErrorAnswer>;

export const form = ['application/x-www-form-urlencoded'] as const;

/**
 * What every signed-in page reads: the session, its user and the account, in one BatchGetItem; a
 * form also puts its audit log entry (PutItem).
 */
const session = ['BatchGetItem', 'PutItem'] as const;
export const signedIn = (access: Access['table'] = { actions: [] }): Access => ({
  table: { ...access, actions: [...new Set([...session, ...access.actions])] },
  fingerprintSecret: true,
});
