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
 * - A signed-in page or form is refused with 403, before anything of its own runs, to a user whose
 *   role lacks the permission its route row names (shared/team/roles.ts): the check is here, where
 *   every page's domain call starts, not only in the navigation.
 * - A form that changed something writes its audit log entry (shared/team/audit.ts) with the action
 *   its row names, the signed-in user, the record (what `act` set as `auditRecord`, else the path's
 *   `{id}`) and the client's address.
 *
 * A page is `signedInPage(section, here, render)` for a GET, `signedInForm(section, here, act)`
 * for a POST; `render`/`act` get the function's dependencies, the session's scope and the shell's
 * context. The sign-in pages, which open no session, are in sign-in-http.ts.
 */
import { timingSafeEqual } from 'node:crypto';
import { isLang, type Lang } from '../core/messages.ts';
import { type Deps, makeDeps } from '../db/deps.ts';
import { publicBaseUrl } from '../http/base-url.ts';
import { statusOf } from '../http/errors.ts';
import type { ApiRequest } from '../http/handler.ts';
import { headerOf } from '../http/headers.ts';
import type { ApiAnswer } from '../http/render.ts';
import { audit } from '../team/audit.ts';
import { can } from '../team/roles.ts';
import { type TwoFactor, twoFactorBox } from '../team/two-factor.ts';
import type { Page } from '../web/page.ts';
import { pageProblems } from '../web/problems.ts';
import type { DashboardRoute } from './common-routes.ts';
import { isFormKey } from './form-once.ts';
import { type OpenSession, openSession, type SessionKeys, stageSessionKeys } from './session.ts';
import { messagePage, type SectionId, type ShellContext } from './shell.ts';
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

export interface DashboardDeps extends Deps {
  keys: SessionKeys & { twoFactor: TwoFactor };
  /** The stage's public base URL: the dashboard is `<baseUrl>/dashboard/`. */
  baseUrl: string;
}

/** A function's dependencies, built once per module: `base` is makeDeps() or acquirerDeps(). */
export function dashboardDeps<D extends Deps>(base: D = makeDeps() as D): D & DashboardDeps {
  return { ...base, keys: { ...stageSessionKeys(), twoFactor: twoFactorBox() }, baseUrl: publicBaseUrl() };
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
  /**
   * The record a form acted on, for its audit log entry, when the path's `{id}` does not name it (a
   * record the form made); `false` when the form, though it answered without error, changed nothing
   * (a role set to the one the user had, a form still being acted on by its first submit).
   */
  auditRecord?: string | false;
  /**
   * The submission's own key, when it is not the form's `idempotency_key` (which counts by itself):
   * the same submission again writes no second entry.
   */
  auditOnce?: string;
  /** What the entry says of its record beyond its id (a user's e-mail and role). */
  auditDetail?: string;
}

export async function signedIn(
  deps: DashboardDeps,
  request: ApiRequest,
  section: SectionId,
  here: string,
): Promise<SignedIn | undefined> {
  const open = await openSession(deps, deps.keys, cookieOf(request, cookieNames.session));
  if (!open) return undefined;
  const lang = langOf(request);
  const { account, session, user } = open;
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
      role: user.role,
      email: user.email,
      twoFactor: user.totp_sealed !== undefined,
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

export const toSignIn = (deps: DashboardDeps) => seeOther(`${dashboardRoot(deps.baseUrl)}/sign-in`);

/**
 * What answers a row of the dashboard: a function of the function's dependencies, the request and
 * the row it came by (its permission and audit action).
 */
export type DashboardPage<D = DashboardDeps> = (
  deps: D,
  request: ApiRequest,
  row: Pick<DashboardRoute, 'permission' | 'audit'>,
) => Promise<ApiAnswer>;

/**
 * Where the language switch of a page comes back to: its path under /dashboard/, the same for
 * every request or read from the request (a record's page).
 */
export type Here = string | ((request: ApiRequest) => string);

const hereOf = (here: Here, request: ApiRequest) => (typeof here === 'string' ? here : here(request));

/** 403: the user's role may not use the page or form; nothing of it ran. */
function refusedToRole(signed: SignedIn): ApiAnswer {
  const w = dashboardWords[signed.view.lang];
  return pageAnswer(
    messagePage(signed.view, 403, w.errorTitle, w.roleRefused, {
      url: `${signed.view.root}/`,
      text: w.sections.overview,
    }),
  );
}

/**
 * A GET page for a signed-in user, in the navigation's `section`: 303 to sign-in without a session
 * in force, 403 when the user's role lacks the row's permission, else `render`.
 */
export function signedInPage<D>(
  section: SectionId,
  here: Here,
  render: (deps: D, signed: SignedIn) => Promise<ApiAnswer>,
): DashboardPage<D & DashboardDeps> {
  return async (deps, request, row) => {
    const signed = await signedIn(deps, request, section, hereOf(here, request));
    if (!signed) return toSignIn(deps);
    if (row.permission !== 'public' && !can(signed.user.role, row.permission)) return refusedToRole(signed);
    return render(deps, signed);
  };
}

/** Whether a form's answer says it acted: anything but an error page or the way to sign in. */
const acted = (answer: ApiAnswer) =>
  answer.status < 400 && !answer.headers?.Location?.endsWith('/dashboard/sign-in');

/**
 * A form's POST for a signed-in user: 303 to sign-in without a session in force, 403 (nothing
 * changed) when the user's role lacks the row's permission or the CSRF token is not the session's;
 * else `act`, and then, when it acted, the audit log entry of the row's action.
 */
export function signedInForm<D>(
  section: SectionId,
  here: Here,
  act: (deps: D, signed: SignedIn) => Promise<ApiAnswer>,
): DashboardPage<D & DashboardDeps> {
  return async (deps, request, row) => {
    const signed = await signedIn(deps, request, section, hereOf(here, request));
    if (!signed) return toSignIn(deps);
    if (row.permission !== 'public' && !can(signed.user.role, row.permission)) return refusedToRole(signed);
    if (!tokenMatches(signed.session.csrf, field(request.body, 'csrf_token'))) {
      const w = dashboardWords[signed.view.lang];
      return pageAnswer(messagePage(signed.view, 403, w.errorTitle, w.formExpired));
    }
    const answer = await act(deps, signed);
    // A form made with a key of its own (a form that acts once, a refund form) writes its entry
    // once for that key, however often it is sent: a second submit, or a retry after the entry's
    // write failed, finds the key's mark and writes none, or the entry the first one missed.
    const posted = field(request.body, 'idempotency_key');
    const onceKey = signed.auditOnce ?? (isFormKey(posted) ? posted : undefined);
    if (row.audit && signed.auditRecord !== false && acted(answer))
      await audit(deps, {
        developerId: signed.scope.developerId,
        actor: signed.user,
        action: row.audit,
        record: signed.auditRecord ?? request.params.id,
        // A change to the account's team is no mode's: its entry names none.
        ...(row.audit.startsWith('user.') ? {} : { mode: signed.scope.mode }),
        address: clientAddress(request),
        ...(onceKey ? { once: onceKey } : {}),
        ...(signed.auditDetail ? { detail: signed.auditDetail } : {}),
      });
    return answer;
  };
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

/** The path under /dashboard/ of the record a request names: `<list>/<id>`, or `<list>/` when it names none. */
export const recordPath = (list: string) => (request: ApiRequest) =>
  `${list}/${/^[A-Za-z0-9_-]+$/.test(request.params.id ?? '') ? request.params.id : ''}`;
