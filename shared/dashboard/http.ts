/**
 * The dashboard's requests (docs/design.md#merchant-dashboard): its cookies, its session, its CSRF
 * check and its language, around pages that call the same domain functions the API's handlers call
 * (never the API over HTTP), so the dashboard can do nothing the API forbids.
 *
 * - The session cookie is HttpOnly, SameSite=Strict, scoped to the dashboard's path, 8 hours, and
 *   Secure when the configured public URL is https: decided from configuration, never from a
 *   request's headers, which the caller chooses.
 * - A page without a session in force (none, expired, signed out, or opened by a key since rotated)
 *   answers 303 to the sign-in form; so does a form posted without one, which changes nothing.
 * - Every form posts the session's CSRF token, compared in constant time; another one is refused
 *   with 403 and nothing changed. The sign-in form, before any session, posts the value of a
 *   sign-in cookie of its own instead (a double-submit token).
 *
 * A new page is one handler: `signedInPage(deps, section, render)` for a GET, `signedInForm(deps,
 * section, act)` for a POST; `render`/`act` get the session's scope and the shell's context.
 */
import { timingSafeEqual } from 'node:crypto';
import { randomToken } from '../core/ids.ts';
import { isLang, type Lang } from '../core/messages.ts';
import { type Deps, makeDeps } from '../db/deps.ts';
import { publicBaseUrl } from '../http/base-url.ts';
import { statusOf } from '../http/errors.ts';
import type { ApiRequest } from '../http/handler.ts';
import { headerOf } from '../http/headers.ts';
import type { ApiAnswer } from '../http/render.ts';
import type { Page } from '../web/page.ts';
import { pageProblems } from '../web/problems.ts';
import {
  endSession,
  type OpenSession,
  openSession,
  type SessionKeys,
  sessionLifetimeMs,
  signIn,
  stageSessionKeys,
} from './session.ts';
import { messagePage, type SectionId, type ShellContext, type SignInProblem, signInPage } from './shell.ts';
import { dashboardWords } from './words.ts';

/**
 * Failures as the dashboard's pages show them (shared/web/problems.ts), each with the status the
 * API answers it with: `problemOf` for one in hand, `orProblem` the one error boundary of a page.
 */
export const { problemOf, orProblem } = pageProblems(statusOf);

/** The cookies of the dashboard. */
export const cookieNames = {
  session: 'cobro_dashboard',
  signIn: 'cobro_dashboard_signin',
  lang: 'cobro_dashboard_lang',
} as const;

/** How long the sign-in form's token and the language choice are kept. */
const signInCookieSeconds = 3600;
const langCookieSeconds = 365 * 86_400;

export interface DashboardDeps extends Deps {
  keys: SessionKeys;
  /** The stage's public base URL: the dashboard is `<baseUrl>/dashboard/`. */
  baseUrl: string;
}

/** A function's dependencies, built once per module: `base` is makeDeps() or acquirerDeps(). */
export function dashboardDeps<D extends Deps>(base: D = makeDeps() as D): D & DashboardDeps {
  return { ...base, keys: stageSessionKeys(), baseUrl: publicBaseUrl() };
}

/** The dashboard's absolute URL, without a trailing slash. */
export const dashboardRoot = (baseUrl: string) => `${baseUrl}/dashboard`;

/** The cookies' path: the dashboard's path under the public URL (`/dashboard`, or `/prod/dashboard`). */
const cookiePath = (baseUrl: string) => new URL(dashboardRoot(baseUrl)).pathname;

/** A Set-Cookie value: HttpOnly, SameSite=Strict, the dashboard's path, Secure when the public URL is https. */
export function setCookie(baseUrl: string, name: string, value: string, maxAgeSeconds: number): string {
  const secure = baseUrl.startsWith('https:') ? '; Secure' : '';
  return `${name}=${value}; Path=${cookiePath(baseUrl)}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}

/** The value of a cookie the request carries, or undefined. */
export function cookieOf(request: ApiRequest, name: string): string | undefined {
  const header = headerOf(request.event.headers, 'cookie') ?? '';
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** The page's language: the switch's cookie when set, else the browser's Accept-Language. */
export function langOf(request: ApiRequest): Lang {
  const chosen = cookieOf(request, cookieNames.lang);
  return isLang(chosen) ? chosen : request.lang;
}

/** Whether a posted token is the expected one, in constant time; an empty expected value matches nothing. */
export function tokenMatches(expected: string | undefined, posted: unknown): boolean {
  if (!expected || typeof posted !== 'string') return false;
  const a = Buffer.from(posted);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A form field as text: whatever else a browser (or anyone) posts reads as ''. */
export function field(body: unknown, name: string): string {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : '';
}

const noStore = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

/** A page as the answer. */
export const pageAnswer = (page: Page, headers: Record<string, string> = {}): ApiAnswer => ({
  status: page.status,
  html: page.html,
  headers: { ...page.headers, ...headers },
});

/** 303 to `location` (absolute), never cached. */
export const seeOther = (location: string, headers: Record<string, string> = {}): ApiAnswer => ({
  status: 303,
  headers: { Location: location, ...noStore, ...headers },
});

/** What a signed-in page's render or form's action gets. */
export interface SignedIn extends OpenSession {
  view: ShellContext;
  request: ApiRequest;
}

async function signedIn(
  deps: DashboardDeps,
  request: ApiRequest,
  section: SectionId,
  here: string,
): Promise<SignedIn | undefined> {
  const open = await openSession(deps, deps.keys, cookieOf(request, cookieNames.session));
  if (!open) return undefined;
  const lang = langOf(request);
  const { account, session } = open;
  return {
    ...open,
    request,
    view: {
      lang,
      root: dashboardRoot(deps.baseUrl),
      merchant: account.company_name || account.name,
      mode: session.mode,
      csrf: session.csrf,
      here,
      section,
      developerId: account.developer_id,
      connector: open.connection.connector,
      ...(open.connection.connector === 'stripe'
        ? {
            stripeAccount: open.connection.record.stripe.account_name
              ? `${open.connection.record.stripe.account_name} (${open.connection.record.stripe.account_id})`
              : open.connection.record.stripe.account_id,
          }
        : {}),
    },
  };
}

const toSignIn = (deps: DashboardDeps) => seeOther(`${dashboardRoot(deps.baseUrl)}/sign-in`);

/**
 * A GET page for a signed-in merchant: 303 to sign-in without a session in force. `here` is the
 * page's path under /dashboard/ (the language switch comes back to it).
 */
export function signedInPage(
  deps: DashboardDeps,
  section: SectionId,
  here: (request: ApiRequest) => string,
  render: (signed: SignedIn) => Promise<ApiAnswer>,
) {
  return async (request: ApiRequest): Promise<ApiAnswer> => {
    const signed = await signedIn(deps, request, section, here(request));
    return signed ? render(signed) : toSignIn(deps);
  };
}

/**
 * A form's POST for a signed-in merchant: 303 to sign-in without a session in force, 403 (the
 * form expired, nothing changed) when its CSRF token is not the session's; else `act`.
 */
export function signedInForm(
  deps: DashboardDeps,
  section: SectionId,
  here: (request: ApiRequest) => string,
  act: (signed: SignedIn) => Promise<ApiAnswer>,
) {
  return async (request: ApiRequest): Promise<ApiAnswer> => {
    const signed = await signedIn(deps, request, section, here(request));
    if (!signed) return toSignIn(deps);
    if (!tokenMatches(signed.session.csrf, field(request.body, 'csrf_token'))) {
      const w = dashboardWords[signed.view.lang];
      return pageAnswer(messagePage(signed.view, 403, w.errorTitle, w.formExpired));
    }
    return act(signed);
  };
}

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

/** GET /dashboard/sign-in: the form (it reads nothing stored, so its function gets no table and no secret). */
export const showSignIn = (deps: SignInFormDeps) => async (request: ApiRequest) =>
  signInAnswer(deps, request);

/**
 * POST /dashboard/sign-in: a secret key opens a session in its mode (303 to the dashboard, the
 * session cookie set, any session the browser held before ended); a key that is no account's (or
 * was rotated) shows the form again, 401, and counts against the client's address; past the limit
 * of failures, the form again with 429 and `Retry-After`, whatever key is sent (./sign-in-limit.ts).
 */
export const submitSignIn = (deps: DashboardDeps) => async (request: ApiRequest) => {
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
export const submitSignOut = (deps: DashboardDeps) =>
  signedInForm(
    deps,
    'overview',
    () => '',
    async ({ request }) => {
      await endSession(deps, deps.keys, cookieOf(request, cookieNames.session));
      return seeOther(`${dashboardRoot(deps.baseUrl)}/sign-in`, {
        'Set-Cookie': setCookie(deps.baseUrl, cookieNames.session, '', 0),
      });
    },
  );

/** Where the language switch may come back to: a path under /dashboard/, nothing else. */
const backPattern = /^[A-Za-z0-9_-]*(\/[A-Za-z0-9_-]+)*$/;

/**
 * POST /dashboard/language: the language chosen (a cookie), then 303 back to the page it was chosen
 * on. The form carries the session's CSRF token, or the sign-in form's before signing in.
 */
export const submitLanguage = (deps: DashboardDeps) => async (request: ApiRequest) => {
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

/** The path under /dashboard/ of the charge a request names (the language switch comes back to it). */
export const chargePath = (request: ApiRequest) =>
  `charges/${/^[A-Za-z0-9_-]+$/.test(request.params.id ?? '') ? request.params.id : ''}`;
