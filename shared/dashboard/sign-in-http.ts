/**
 * The dashboard's pages before a session (docs/design.md#merchant-dashboard): the sign-in form and
 * its POST, which opens a session from a secret API key; sign-out, which ends it; and the language
 * switch, which works before and after signing in.
 *
 * The sign-in form, before any session, posts the value of a sign-in cookie of its own as its CSRF
 * token (a double-submit token). Failed sign-ins are counted per client address
 * (./sign-in-limit.ts); the address is the connection's, never a header the sender writes.
 */
import { randomToken } from '../core/ids.ts';
import { isLang } from '../core/messages.ts';
import type { ApiRequest } from '../http/handler.ts';
import type { ApiAnswer } from '../http/render.ts';
import {
  cookieNames,
  cookieOf,
  type DashboardDeps,
  type DashboardPage,
  dashboardRoot,
  field,
  langOf,
  pageAnswer,
  seeOther,
  setCookie,
  signedIn,
  signedInForm,
  tokenMatches,
} from './http.ts';
import { endSession, sessionLifetimeMs, signIn } from './session.ts';
import { messagePage, type SignInProblem, signInPage } from './shell.ts';
import { dashboardWords } from './words.ts';

/** How long the sign-in form's token and the language choice are kept. */
const signInCookieSeconds = 3600;
const langCookieSeconds = 365 * 86_400;

/** What the sign-in form alone needs: no table, no secret. */
type SignInFormDeps = Pick<DashboardDeps, 'baseUrl'>;

/** The sign-in form's token: the request's sign-in cookie, or a new one (then set with the page). */
function signInToken(deps: SignInFormDeps, request: ApiRequest): { token: string; set?: string } {
  const held = cookieOf(request, cookieNames.signIn);
  if (held && /^[A-Za-z0-9]{32}$/.test(held)) return { token: held };
  const token = randomToken(32);
  return { token, set: setCookie(deps.baseUrl, cookieNames.signIn, token, signInCookieSeconds) };
}

function signInAnswer(deps: SignInFormDeps, request: ApiRequest, problem?: SignInProblem): ApiAnswer {
  const { token, set } = signInToken(deps, request);
  const page = signInPage({ root: dashboardRoot(deps.baseUrl), lang: langOf(request), csrf: token }, problem);
  const headers: Record<string, string> = set ? { 'Set-Cookie': set } : {};
  if (typeof problem === 'object') headers['Retry-After'] = String(problem.retryAfterSeconds);
  return pageAnswer(page, headers);
}

/**
 * The address a request came from, as API Gateway saw the connection (the local gateway gives the
 * socket's): never a header such as X-Forwarded-For, which whoever sends the request writes, so a
 * guesser could not name a new address for each try. API Gateway always sets it; without one, every
 * such request shares one count.
 */
export function clientAddress(request: ApiRequest): string {
  return request.event.requestContext?.identity?.sourceIp || 'unknown';
}

/** GET /dashboard/sign-in: the form (it reads nothing stored). */
export const showSignIn: DashboardPage<SignInFormDeps> = async (deps, request) => signInAnswer(deps, request);

/**
 * POST /dashboard/sign-in: a secret key opens a session in its mode (303 to the dashboard, the
 * session cookie set, any session the browser held before ended); a key that is no account's (or
 * was rotated) shows the form again, 401, and counts against the client's address; past the limit
 * of failures, the form again with 429 and `Retry-After`, whatever key is sent (./sign-in-limit.ts).
 */
export const submitSignIn: DashboardPage = async (deps, request) => {
  if (!tokenMatches(cookieOf(request, cookieNames.signIn), field(request.body, 'csrf_token')))
    return signInAnswer(deps, request, 'form_expired');
  const opened = await signIn(deps, deps.keys, field(request.body, 'api_key').trim(), clientAddress(request));
  if (!opened.opened)
    return signInAnswer(
      deps,
      request,
      opened.refused === 'blocked'
        ? { blocked: true, retryAfterSeconds: opened.retryAfterSeconds }
        : 'wrong_key',
    );
  // A session this browser held before is ended, not left to open pages until its 8 hours are up.
  await endSession(deps, deps.keys, cookieOf(request, cookieNames.session));
  const cookie = setCookie(deps.baseUrl, cookieNames.session, opened.cookie, sessionLifetimeMs / 1000);
  return seeOther(`${dashboardRoot(deps.baseUrl)}/`, { 'Set-Cookie': cookie });
};

/**
 * POST /dashboard/sign-out: the session's item is deleted (the cookie opens nothing from now on,
 * wherever it was copied) and the cookie cleared; 303 to the sign-in form.
 */
export const submitSignOut = signedInForm('overview', '', async (deps: DashboardDeps, { request }) => {
  await endSession(deps, deps.keys, cookieOf(request, cookieNames.session));
  return seeOther(`${dashboardRoot(deps.baseUrl)}/sign-in`, {
    'Set-Cookie': setCookie(deps.baseUrl, cookieNames.session, '', 0),
  });
});

/** Where the language switch may come back to: a path under /dashboard/, nothing else. */
const backPattern = /^[A-Za-z0-9_-]*(\/[A-Za-z0-9_-]+)*$/;

/**
 * POST /dashboard/language: the language chosen (a cookie), then 303 back to the page it was chosen
 * on. The form carries the session's CSRF token, or the sign-in form's before signing in.
 */
export const submitLanguage: DashboardPage = async (deps, request) => {
  const signed = await signedIn(deps, request, 'overview', '');
  const expected = signed ? signed.session.csrf : cookieOf(request, cookieNames.signIn);
  if (!tokenMatches(expected, field(request.body, 'csrf_token'))) {
    if (!signed) return signInAnswer(deps, request, 'form_expired');
    const w = dashboardWords[signed.view.lang];
    return pageAnswer(messagePage(signed.view, 403, w.errorTitle, w.formExpired));
  }
  const lang = field(request.body, 'lang');
  const back = field(request.body, 'back');
  const location = `${dashboardRoot(deps.baseUrl)}/${backPattern.test(back) && back.length <= 200 ? back : ''}`;
  if (!isLang(lang)) return seeOther(location);
  return seeOther(location, {
    'Set-Cookie': setCookie(deps.baseUrl, cookieNames.lang, lang, langCookieSeconds),
  });
};
