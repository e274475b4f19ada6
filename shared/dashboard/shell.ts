/**
 * The dashboard's page shell (docs/design.md#merchant-dashboard): the hosted pages' shell
 * (`hostedPage`: a per-page nonce for the one stylesheet under a strict Content-Security-Policy, no
 * script at all, never framed, never cached, no referrer) with the dashboard's bar: the merchant,
 * the mode (TEST or LIVE), the navigation of every section, the language switch and sign-out. Every
 * page is made of `html` templates (shared/web/html.ts), which escape every value; every form
 * carries the session's CSRF token. The parts many pages share are here too: a refusal and a
 * notice, a pager, a message page with its way back, and the confirmation before a destructive
 * action.
 *
 * A new page: its words in words.ts, a view that returns `dashboardPage(view, …)`, its section's
 * `path` below (a section without one is shown, not linked), and a route row. A list of records is
 * written with `dataTable` (table.ts): below 40rem the styles here turn each of its rows into a
 * bordered block of "heading: value" lines (the heading row hidden from sight, not from screen
 * readers), so no page scrolls sideways on a phone; dates and cards stay on one line when wide.
 */
import type { Mode } from '../core/account.ts';
import type { Lang } from '../core/messages.ts';
import { chartStyles } from '../stats/charts.ts';
import { can, type Permission, type Role } from '../team/roles.ts';
import { type Html, html } from '../web/html.ts';
import { contentSecurityPolicy, hostedPage, type Page } from '../web/page.ts';
import { signInWords } from './sign-in-words.ts';
import { type DashboardWords, dashboardWords } from './words.ts';

export type SectionId = keyof DashboardWords['sections'];

/**
 * Every section of the dashboard, in the navigation's order; `path` (under /dashboard/) once its
 * page is built, and the permission its page needs: the navigation shows a user only the sections
 * their role may open. A section without a page is listed, not linked: no page pretends. The
 * profile is reached from the bar, not the navigation.
 */
export const sections: readonly { id: SectionId; path?: string; permission: Permission; inNav?: false }[] = [
  { id: 'overview', path: '', permission: 'read' },
  { id: 'charges', path: 'charges', permission: 'read' },
  { id: 'customers', path: 'customers', permission: 'read' },
  { id: 'subscriptions', path: 'subscriptions', permission: 'read' },
  { id: 'plans', path: 'plans', permission: 'read' },
  { id: 'products', path: 'products', permission: 'read' },
  { id: 'links', path: 'links', permission: 'read' },
  { id: 'webhooks', path: 'webhooks', permission: 'read' },
  { id: 'events', path: 'events', permission: 'read' },
  { id: 'keys', path: 'api-keys', permission: 'api_keys' },
  { id: 'users', path: 'users', permission: 'users' },
  { id: 'audit', path: 'audit', permission: 'audit' },
  { id: 'connectors', path: 'connectors', permission: 'connectors' },
  { id: 'profile', path: 'profile', permission: 'self', inNav: false },
];

/** What every signed-in page knows besides its own records. */
export interface ShellContext {
  lang: Lang;
  /** The dashboard's absolute URL, `<public base URL>/dashboard`, without a trailing slash. */
  root: string;
  merchant: string;
  mode: Mode;
  /** The session's CSRF token, posted back by every form. */
  csrf: string;
  /** The page's path under the root (`charges/ch_…`): where the language switch comes back to. */
  here: string;
  section: SectionId;
  /** The account, for what the page tells an operator to run. */
  developerId?: number;
  /** The signed-in user's role (the navigation shows what it may open) and e-mail. */
  role: Role;
  email: string;
  /** Whether the user has a second factor: the live switch is offered only then. */
  twoFactor: boolean;
  /** What the mode is connected to: the page says so. @default a real acquirer, unnamed */
  connector?: 'simulated' | 'stripe' | 'none';
  /** The Stripe account it is connected to, as the page names it (its name, else its id). */
  stripeAccount?: string;
}

const styles = `
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f4f5f7}
main{max-width:80rem;margin:0 auto;padding:1rem}
a{color:#0b4cc7}
.bar{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;background:#fff;border-radius:.6rem;padding:.6rem 1rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.brand{font-weight:700;margin:0}.mode{margin:0;font-weight:700;border-radius:.3rem;padding:.1rem .5rem}
.mode-test{background:#fff4cc;color:#5c4500}.mode-live{background:#e3f5e8;color:#0f5323}
.bar form{margin:0}.spacer{flex:1}
nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:.75rem 0;padding:0}
nav .soon{color:#555}nav [aria-current]{font-weight:700;color:#1a1a1a}
h1{font-size:1.4rem;margin:1rem 0 .5rem}h2{font-size:1.1rem;margin:1.25rem 0 .5rem}
.card{background:#fff;border-radius:.6rem;padding:1rem;box-shadow:0 1px 3px rgba(0,0,0,.12);margin:.75rem 0;overflow-x:auto}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #ddd;vertical-align:top}
td.num,th.num{text-align:right;white-space:nowrap}td.nowrap,th.nowrap{white-space:nowrap}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}h1{overflow-wrap:anywhere}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input,select{box-sizing:border-box;font-size:1rem;padding:.5rem;border:1px solid #767676;border-radius:.4rem;width:100%;max-width:24rem}
button{margin-top:.75rem;padding:.55rem 1rem;font-size:1rem;font-weight:700;border:0;border-radius:.4rem;background:#1f5eff;color:#fff;cursor:pointer}
.bar button{margin:0;padding:.3rem .7rem;font-size:.9rem;background:#fff;color:#0b4cc7;border:1px solid #0b4cc7}
.error{background:#fde8e8;color:#7a0000;border-radius:.4rem;padding:.6rem .8rem;margin:.75rem 0}
.notice{background:#e3f5e8;color:#0f5323;border-radius:.4rem;padding:.6rem .8rem;margin:.75rem 0}
.test{background:#fff4cc;color:#5c4500;border-radius:.4rem;padding:.4rem .6rem;margin:.75rem 0}
.pager{display:flex;gap:1rem;margin:.75rem 0}
form.inline{display:inline;margin:0}
.forms{display:grid;gap:0 1rem;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr))}
small,.help{color:#555}code{font-size:.9em}
fieldset{border:1px solid #ccc;border-radius:.4rem;margin:.75rem 0;max-width:40rem}legend{font-weight:600}
.checks{list-style:none;padding:0;margin:0;columns:16rem}.checks input{width:auto}label.inline{display:inline;font-weight:400;margin:0}
button.small{margin:0;padding:.3rem .6rem;font-size:.9rem}code.secret{word-break:break-all}
pre.json{margin:0;white-space:pre-wrap;word-break:break-word;font-size:.85rem}
h1,dd,p{overflow-wrap:anywhere}
@media (max-width:40rem){
table.records,table.records tbody,table.records tr,table.records td{display:block}
table.records thead{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip-path:inset(50%);white-space:nowrap;border:0}
table.records tr{border:1px solid #ddd;border-radius:.4rem;padding:.35rem .6rem;margin:0 0 .6rem}
table.records td,table.records td.num{border:0;padding:.15rem 0;text-align:left;white-space:normal;overflow-wrap:anywhere}
table.records td::before{content:attr(data-label) ": ";font-weight:600;color:#444}
table.records td:empty{display:none}
}
${chartStyles}`;

/** The shell's headers and policy around `body`. */
export function shell(status: number, title: string, body: Html, lang: Lang): Page {
  return hostedPage({
    status,
    title,
    body,
    lang,
    styles,
    // No script at all; forms post only to the dashboard's own origin.
    policy: (nonce) => contentSecurityPolicy(nonce),
    head: html`\n<meta name="robots" content="noindex">`,
  });
}

/** A form with the session's CSRF token (and any hidden fields), posting to `action`. */
export function csrfForm(
  action: string,
  csrf: string,
  inner: Html,
  hidden: Record<string, string> = {},
  className?: string,
): Html {
  const fields = Object.entries(hidden).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  );
  return html`<form method="post" action="${action}"${className && html` class="${className}"`}><input type="hidden" name="csrf_token" value="${csrf}">${fields}${inner}</form>`;
}

/** What the domain refused, said where the reader looks first (nothing without one). */
export const refusal = (problem: { message: string } | undefined): Html =>
  html`${problem && html`<p class="error" role="alert">${problem.message}</p>`}`;

/** What was just done (nothing when nothing was). */
export const notice = (text: string | undefined): Html =>
  html`${text && html`<p class="notice" role="status">${text}</p>`}`;

/** A link to `url` saying `text`. */
export const link = (url: string, text: string): Html => html`<a href="${url}">${text}</a>`;

/** The pager of a numbered list: where the page is, then the links to the previous and next pages. */
export function pageLinks(
  where: string,
  previous?: { url: string; text: string },
  next?: { url: string; text: string },
): Html {
  return html`<p class="pager"><span>${where}</span>${
    previous && html`<a href="${previous.url}" rel="prev">${previous.text}</a>`
  }${next && html`<a href="${next.url}" rel="next">${next.text}</a>`}</p>`;
}

/** The language switch: a button that posts the other language and comes back to `here`. */
function languageSwitch(root: string, csrf: string, lang: Lang, here: string): Html {
  const other: Lang = lang === 'en' ? 'es' : 'en';
  return csrfForm(
    `${root}/language`,
    csrf,
    html`<button type="submit" lang="${other}">${dashboardWords[lang].otherLanguage}</button>`,
    { lang: other, back: here },
  );
}

/** What the page says of its mode: a test, live on the simulated acquirer, or live connected to nothing. */
function modeNote(view: ShellContext): Html | undefined {
  const w = dashboardWords[view.lang];
  if (view.mode === 'test') return html`<p class="test" role="note">${w.testNote}</p>`;
  if (view.connector === 'simulated') return html`<p class="test" role="note">${w.simulatedLiveNote}</p>`;
  if (view.connector === 'none')
    return html`<p class="test" role="alert">${w.notConnectedNote(view.developerId ?? 0)}</p>`;
  if (view.connector === 'stripe' && view.stripeAccount)
    return html`<p role="note">${w.stripeNote(view.stripeAccount)}</p>`;
  return undefined;
}

/**
 * The mode switch of the bar: to test from live; to live only for a user with a second factor,
 * else the reason, linked to the profile where it is set up.
 */
function modeSwitch(view: ShellContext): Html {
  const w = dashboardWords[view.lang];
  if (view.mode === 'live')
    return csrfForm(`${view.root}/mode`, view.csrf, html`<button type="submit">${w.switchToTest}</button>`, {
      mode: 'test',
      back: view.here,
    });
  if (!view.twoFactor)
    return html`<a class="help" href="${`${view.root}/profile`}">${w.liveNeedsTwoFactor}</a>`;
  return csrfForm(`${view.root}/mode`, view.csrf, html`<button type="submit">${w.switchToLive}</button>`, {
    mode: 'live',
    back: view.here,
  });
}

/** A signed-in page: the bar, the navigation, then `body` under its `title` heading. */
export function dashboardPage(view: ShellContext, title: string, body: Html, status = 200): Page {
  const w = dashboardWords[view.lang];
  const nav = sections
    .filter(({ permission, inNav }) => inNav !== false && can(view.role, permission))
    .map(({ id, path }) =>
      path === undefined
        ? html`<li><span class="soon" title="${w.notYet}">${w.sections[id]}</span></li>`
        : html`<li><a href="${`${view.root}/${path}`}"${id === view.section && html` aria-current="page"`}>${w.sections[id]}</a></li>`,
    );
  const mode = view.mode === 'live' ? w.liveMode : w.testMode;
  return shell(
    status,
    `${title} · ${w.product}`,
    html`<div class="bar">
<p class="brand">${view.merchant}</p>
<p class="mode mode-${view.mode}" data-mode="${view.mode}"><span class="help">${w.modeLabel}:</span> ${mode}</p>
<span class="spacer"></span>
${modeSwitch(view)}
<a href="${`${view.root}/profile`}">${w.signedInAs(view.email, w.roles[view.role])}</a>
${languageSwitch(view.root, view.csrf, view.lang, view.here)}
${csrfForm(`${view.root}/sign-out`, view.csrf, html`<button type="submit">${w.signOut}</button>`)}
</div>
<nav aria-label="${w.navLabel}"><ul>${nav}</ul></nav>
${modeNote(view)}
<h1>${title}</h1>
${body}`,
    view.lang,
  );
}

/**
 * Why the sign-in form is shown again: a wrong e-mail or password (401), an expired form (403), an
 * address blocked or an e-mail locked after too many failed sign-ins, for `retryAfterSeconds` more
 * (429), or a code step that waited too long (401).
 */
export type SignInProblem =
  | 'wrong_credentials'
  | 'form_expired'
  | 'challenge_expired'
  | { blocked: 'address' | 'user'; retryAfterSeconds: number };

function signInProblem(lang: Lang, problem: SignInProblem): { status: number; message: string } {
  const w = signInWords[lang];
  if (problem === 'wrong_credentials') return { status: 401, message: w.wrongCredentials };
  if (problem === 'challenge_expired') return { status: 401, message: w.challengeExpired };
  if (problem === 'form_expired') return { status: 403, message: dashboardWords[lang].formExpired };
  const minutes = Math.max(1, Math.ceil(problem.retryAfterSeconds / 60));
  return {
    status: 429,
    message: problem.blocked === 'address' ? w.tooManyFailures(minutes) : w.userLocked(minutes),
  };
}

/** What a page before a session knows: where the dashboard is, the language, the sign-in form's token. */
export interface PublicContext {
  root: string;
  lang: Lang;
  csrf: string;
  /** Where the language switch comes back to (under /dashboard/). */
  here: string;
}

/** A page before a session: the product's bar with the language switch, then a card. */
export function publicPage(context: PublicContext, title: string, body: Html, status = 200): Page {
  const w = dashboardWords[context.lang];
  const other: Lang = context.lang === 'en' ? 'es' : 'en';
  return shell(
    status,
    `${title} · ${w.product}`,
    html`<div class="bar"><p class="brand">${w.product}</p><span class="spacer"></span>
${csrfForm(`${context.root}/language`, context.csrf, html`<button type="submit" lang="${other}">${w.otherLanguage}</button>`, { lang: other, back: context.here })}
</div>
<div class="card">
<h1>${title}</h1>
${body}
</div>`,
    context.lang,
  );
}

/**
 * The sign-in form (e-mail and password); `problem` says why the last try failed. `csrf` is the
 * value of the sign-in cookie the form posts back. The e-mail typed is kept; the password never is.
 */
export function signInPage(context: Omit<PublicContext, 'here'>, problem?: SignInProblem, email = ''): Page {
  const w = signInWords[context.lang];
  const shown = problem ? signInProblem(context.lang, problem) : undefined;
  return publicPage(
    { ...context, here: 'sign-in' },
    w.signInTitle,
    html`<p>${w.signInIntro}</p>
${refusal(shown)}
${csrfForm(
  `${context.root}/sign-in`,
  context.csrf,
  html`<label for="email">${w.email}</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" spellcheck="false" value="${email}">
<label for="password">${w.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256">
<button type="submit">${w.signIn}</button>`,
)}`,
    shown?.status ?? 200,
  );
}

/** The second step of a sign-in: the TOTP code, with the challenge it answers. */
export function codePage(context: Omit<PublicContext, 'here'>, challenge: string, wrong = false): Page {
  const w = signInWords[context.lang];
  return publicPage(
    { ...context, here: 'sign-in' },
    w.codeTitle,
    html`<p>${w.codeIntro}</p>
${refusal(wrong ? { message: w.wrongCode } : undefined)}
${csrfForm(
  `${context.root}/sign-in/code`,
  context.csrf,
  html`<label for="code">${w.code}</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required pattern="[0-9 ]{6,7}" maxlength="7" aria-describedby="code_help">
<p id="code_help" class="help">${w.codeHelp}</p>
<button type="submit">${w.verify}</button>`,
  { challenge },
)}`,
    wrong ? 401 : 200,
  );
}

/**
 * A signed-in page that only says something (a form that expired, a record that is not there),
 * with the way back: to the charges unless `back` names another page.
 */
export function messagePage(
  view: ShellContext,
  status: number,
  title: string,
  message: string,
  back?: { url: string; text: string },
): Page {
  const w = dashboardWords[view.lang];
  const to = back ?? { url: `${view.root}/charges`, text: w.backToCharges };
  return dashboardPage(
    view,
    title,
    html`${refusal({ message })}
<p>${link(to.url, to.text)}</p>`,
    status,
  );
}

/**
 * The step before a destructive action: what it does (`what`), the button that does it (a POST
 * with the session's CSRF token), and the way back, which changes nothing.
 */
export function confirmPage(
  view: ShellContext,
  title: string,
  what: Html,
  form: { action: string; button: string; hidden?: Record<string, string> },
  back: { url: string; text: string },
): Page {
  return dashboardPage(
    view,
    title,
    html`<section class="card">
${what}
${csrfForm(form.action, view.csrf, html`<button type="submit">${form.button}</button>`, form.hidden)}
<p>${link(back.url, back.text)}</p>
</section>`,
  );
}
