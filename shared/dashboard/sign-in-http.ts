/**
 * The dashboard's pages before a session (docs/design.md#team-sign-in): the sign-in form and its
 * POST (e-mail and password), the TOTP code step, the one-time links (set a password, or sign in
 * once); and, around a session, sign-out, the language switch (before and after signing in) and the
 * mode switch (live only for a user with a second factor).
 *
 * Forms before any session post the value of a sign-in cookie of their own as their CSRF token (a
 * double-submit token). Failed sign-ins are counted per client address (./sign-in-limit.ts) and per
 * e-mail address (shared/team/lock.ts); the client's address is the connection's, never a header
 * the sender writes. An API key typed into the form is a wrong password like any other.
 */
import { randomToken } from '../core/ids.ts';
import { isLang } from '../core/messages.ts';
import type { ApiRequest } from '../http/handler.ts';
import type { ApiAnswer } from '../http/render.ts';
import { audit } from '../team/audit.ts';
import { type AccessLink, linkHolds, readLink, useLink } from '../team/links.ts';
import { hashPassword, passwordProblem } from '../team/password.ts';
import { getUser, setPassword } from '../team/users.ts';
import { html } from '../web/html.ts';
import {
  clientAddress,
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
import {
  endSession,
  type SignInOutcome,
  sessionLifetimeMs,
  signIn,
  signInByLink,
  signInHeld,
  signInWithCode,
  updateSession,
} from './session.ts';
import {
  codePage,
  csrfForm,
  link,
  messagePage,
  type PublicContext,
  publicPage,
  refusal,
  type SignInProblem,
  signInPage,
} from './shell.ts';
import { signInWords } from './sign-in-words.ts';
import { dashboardWords } from './words.ts';

export { clientAddress } from './http.ts';

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

/** The context of a page before a session, and the Set-Cookie of its form's token when it is new. */
function publicContext(deps: SignInFormDeps, request: ApiRequest, here: string) {
  const { token, set } = signInToken(deps, request);
  const context: PublicContext = {
    root: dashboardRoot(deps.baseUrl),
    lang: langOf(request),
    csrf: token,
    here,
  };
  return { context, headers: (set ? { 'Set-Cookie': set } : {}) as Record<string, string> };
}

function signInAnswer(
  deps: SignInFormDeps,
  request: ApiRequest,
  problem?: SignInProblem,
  email = '',
): ApiAnswer {
  const { context, headers } = publicContext(deps, request, 'sign-in');
  if (typeof problem === 'object') headers['Retry-After'] = String(problem.retryAfterSeconds);
  return pageAnswer(signInPage(context, problem, email), headers);
}

/** GET /dashboard/sign-in: the form (it reads nothing stored). */
export const showSignIn: DashboardPage<SignInFormDeps> = async (deps, request) => signInAnswer(deps, request);

/** Whether the form before a session posted its own cookie's token. */
const publicFormHolds = (request: ApiRequest) =>
  tokenMatches(cookieOf(request, cookieNames.signIn), field(request.body, 'csrf_token'));

/**
 * A session opened: 303 to the dashboard with its cookie; the session this browser held before is
 * ended, not left to open pages until its 8 hours are up.
 */
async function opened(deps: DashboardDeps, request: ApiRequest, cookie: string): Promise<ApiAnswer> {
  await endSession(deps, deps.keys, cookieOf(request, cookieNames.session));
  const set = setCookie(deps.baseUrl, cookieNames.session, cookie, sessionLifetimeMs / 1000);
  return seeOther(`${dashboardRoot(deps.baseUrl)}/`, { 'Set-Cookie': set });
}

/** What a sign-in step answers for each outcome. */
async function signInOutcome(
  deps: DashboardDeps,
  request: ApiRequest,
  outcome: SignInOutcome,
  email: string,
): Promise<ApiAnswer> {
  if (outcome.opened) return opened(deps, request, outcome.cookie);
  switch (outcome.refused) {
    case 'code_needed': {
      const { context, headers } = publicContext(deps, request, 'sign-in');
      return pageAnswer(codePage(context, outcome.challenge), headers);
    }
    case 'blocked':
    case 'locked':
      return signInAnswer(
        deps,
        request,
        {
          blocked: outcome.refused === 'blocked' ? 'address' : 'user',
          retryAfterSeconds: outcome.retryAfterSeconds,
        },
        email,
      );
    case 'expired':
      return signInAnswer(deps, request, 'challenge_expired');
    default:
      return signInAnswer(deps, request, 'wrong_credentials', email);
  }
}

/**
 * POST /dashboard/sign-in: an e-mail address and its password open a session (303 to the
 * dashboard), or, for a user with a second factor, the code form; a wrong pair shows the form again
 * (401), counted against the client's address and the e-mail; past either limit, 429 with
 * `Retry-After`, whatever is sent.
 */
export const submitSignIn: DashboardPage = async (deps, request) => {
  if (!publicFormHolds(request)) return signInAnswer(deps, request, 'form_expired');
  const email = field(request.body, 'email').trim().slice(0, 254);
  const outcome = await signIn(deps, deps.keys, {
    email,
    password: field(request.body, 'password'),
    address: clientAddress(request),
  });
  return signInOutcome(deps, request, outcome, email);
};

/**
 * POST /dashboard/sign-in/code: the TOTP code for the challenge the code form carries: the session
 * (303), the code form again for a wrong code (401, counted as a failed sign-in), or the sign-in
 * form when the challenge is over.
 */
export const submitCode: DashboardPage = async (deps, request) => {
  if (!publicFormHolds(request)) return signInAnswer(deps, request, 'form_expired');
  const challenge = field(request.body, 'challenge');
  const outcome = await signInWithCode(deps, deps.keys, {
    challenge,
    code: field(request.body, 'code'),
    address: clientAddress(request),
  });
  if (!outcome.opened && outcome.refused === 'wrong') {
    const { context, headers } = publicContext(deps, request, 'sign-in');
    return pageAnswer(codePage(context, challenge, true), headers);
  }
  return signInOutcome(deps, request, outcome, '');
};

/** The token of a one-time link's path, as given (checked by the link's reads). */
const linkToken = (request: ApiRequest) => request.params.token ?? '';

/** The page of a one-time link that no longer works (used, expired, or none): 404. */
function linkGone(deps: SignInFormDeps, request: ApiRequest): ApiAnswer {
  const { context, headers } = publicContext(deps, request, 'sign-in');
  const w = signInWords[context.lang];
  // Titled as every "not found" page of the dashboard is; the heading below says which link.
  return pageAnswer(
    publicPage(
      context,
      dashboardWords[context.lang].notFoundTitle,
      html`<h2>${w.linkGoneTitle}</h2>${refusal({ message: w.linkGone })}
<p>${link(`${context.root}/sign-in`, w.toSignIn)}</p>`,
      404,
    ),
    headers,
  );
}

/** A one-time link's form: a new password (twice), or the one button that signs in. */
function linkForm(
  deps: SignInFormDeps,
  request: ApiRequest,
  access: AccessLink,
  email: string,
  problem?: string,
): ApiAnswer {
  const { context, headers } = publicContext(deps, request, 'sign-in');
  const w = signInWords[context.lang];
  const action = `${context.root}/access/${linkToken(request)}`;
  const page =
    access.purpose === 'sign_in'
      ? publicPage(
          context,
          w.linkSignInTitle,
          html`<p>${w.linkSignInIntro(email)}</p>
${csrfForm(action, context.csrf, html`<button type="submit">${w.continueAs}</button>`)}`,
        )
      : publicPage(
          context,
          w.setPasswordTitle,
          html`<p>${w.setPasswordIntro(email)}</p>
${refusal(problem ? { message: problem } : undefined)}
${csrfForm(
  action,
  context.csrf,
  html`<input type="email" name="username" autocomplete="username" value="${email}" hidden>
<label for="password">${w.newPassword}</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="12" maxlength="256" aria-describedby="password_help">
<p id="password_help" class="help">${w.passwordHelp}</p>
<label for="confirm">${w.confirmPassword}</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="12" maxlength="256">
<button type="submit">${w.setPassword}</button>`,
)}`,
          problem ? 400 : 200,
        );
  return pageAnswer(page, headers);
}

/** GET /dashboard/access/{token}: the link's form, while the link is unused and in time; it uses nothing up. */
export const showAccess: DashboardPage = async (deps, request) => {
  const access = await readLink(deps, deps.keys, linkToken(request));
  const user = access && (await getUser(deps, access.user_id));
  if (!access || !user || !linkHolds(access, user)) return linkGone(deps, request);
  return linkForm(deps, request, access, user.email);
};

/** Why a new password is refused, in the page's words; undefined when it is acceptable. */
function newPasswordProblem(request: ApiRequest, password: string, confirm: string): string | undefined {
  const w = signInWords[langOf(request)];
  const problem = passwordProblem(password);
  if (problem === 'too_short') return w.passwordTooShort;
  if (problem === 'too_long') return w.passwordTooLong;
  return password === confirm ? undefined : w.passwordsDiffer;
}

/**
 * POST /dashboard/access/{token}: uses the link up and signs its user in (303 to the dashboard, or
 * the code form for a user with a second factor: a link never skips it);
 * a set-password link first stores the new password (raising the user's password version, which
 * ends every session opened before). A password that is refused (too short, the two differ) shows
 * the form again, 400, the link unused.
 */
export const submitAccess: DashboardPage = async (deps, request) => {
  const token = linkToken(request);
  const pending = await readLink(deps, deps.keys, token);
  const user = pending && (await getUser(deps, pending.user_id));
  if (!pending || !user || !linkHolds(pending, user)) return linkGone(deps, request);
  if (!publicFormHolds(request)) return signInAnswer(deps, request, 'form_expired');
  let hash: string | undefined;
  if (pending.purpose === 'set_password') {
    const password = field(request.body, 'password');
    const problem = newPasswordProblem(request, password, field(request.body, 'confirm'));
    if (problem) return linkForm(deps, request, pending, user.email, problem);
    hash = await hashPassword(password);
  }
  // A sign-in that would be refused (the address blocked, the e-mail locked) leaves the link unused.
  const held = await signInHeld(deps, deps.keys, user.email, clientAddress(request));
  if (held) return signInOutcome(deps, request, held, user.email);
  // Used once: of two submits, the second finds the link gone.
  const used = await useLink(deps, deps.keys, token);
  if (!used) return linkGone(deps, request);
  let signedInAs = user;
  if (hash) {
    const version = await setPassword(deps, user.user_id, hash);
    if (version === undefined) return linkGone(deps, request);
    signedInAs = { ...user, password_hash: hash, password_version: version, status: 'active' };
    await audit(deps, {
      developerId: user.developer_id,
      actor: user,
      action: 'user.password_set',
      record: user.user_id,
      address: clientAddress(request),
    });
  }
  const outcome = await signInByLink(deps, deps.keys, signedInAs, clientAddress(request));
  return signInOutcome(deps, request, outcome, user.email);
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

/** Where the language and mode switches may come back to: a path under /dashboard/, nothing else. */
const backPattern = /^[A-Za-z0-9_-]*(\/[A-Za-z0-9_-]+)*$/;
const backOf = (deps: { baseUrl: string }, request: ApiRequest) => {
  const back = field(request.body, 'back');
  return `${dashboardRoot(deps.baseUrl)}/${backPattern.test(back) && back.length <= 200 ? back : ''}`;
};

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
  const location = backOf(deps, request);
  if (!isLang(lang)) return seeOther(location);
  return seeOther(location, {
    'Set-Cookie': setCookie(deps.baseUrl, cookieNames.lang, lang, langCookieSeconds),
  });
};

/**
 * POST /dashboard/mode: the session's mode (`test` or `live`), then 303 back. Live only for a user
 * with a second factor: without one, 403 saying why, the session left in test mode.
 */
export const submitMode = signedInForm('overview', '', async (deps: DashboardDeps, signed) => {
  const { request, view, session, user } = signed;
  const mode = field(request.body, 'mode');
  if (mode !== 'test' && mode !== 'live') return seeOther(backOf(deps, request));
  if (mode === 'live' && !user.totp_sealed) {
    const w = dashboardWords[view.lang];
    return pageAnswer(
      messagePage(view, 403, w.errorTitle, w.liveNeedsTwoFactor, {
        url: `${view.root}/profile`,
        text: w.sections.profile,
      }),
    );
  }
  await updateSession(deps, session, { mode });
  return seeOther(backOf(deps, request));
});
