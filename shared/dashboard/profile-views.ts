/**
 * The signed-in user's own profile as views (profile-http.ts reads and acts): who they are, the
 * password form, and the second factor (the button that starts its set-up, or the form that turns
 * it off); and the set-up's page, with the QR code (qr-svg.ts), the key as text, and the code form.
 * Pure functions of what the page was given, so they are tested without a stack.
 */
import { type Html, html } from '../web/html.ts';
import type { Page } from '../web/page.ts';
import { profileWords } from './profile-words.ts';
import { qrSvg } from './qr-svg.ts';
import { csrfForm, dashboardPage, link, notice, refusal, type ShellContext } from './shell.ts';
import { dashboardWords } from './words.ts';

/** A field of the password form, and what was refused of it. */
export interface PasswordProblem {
  field: 'current_password' | 'password' | 'confirm';
  message: string;
}

/** What the profile shows besides the shell's context (its e-mail, role and second factor). */
export interface ProfileState {
  /** Whether the user has a password (one signed in by a one-time link may have none yet). */
  hasPassword: boolean;
  /** What was just done. */
  notice?: string;
  password?: PasswordProblem;
  /** Why the second factor's section refused what was asked of it. */
  twoFactor?: string;
  /** Why the form that turns the second factor off refused its password. */
  removePassword?: string;
}

/** A password field with its label, help and, when it was refused, its error beside it. */
function passwordInput(
  id: string,
  label: string,
  options: {
    name?: string;
    autocomplete: 'current-password' | 'new-password';
    help?: string;
    error?: string;
  },
): Html {
  const { help, error } = options;
  const described = [help ? `${id}_help` : '', error ? `${id}_error` : ''].filter(Boolean);
  const fresh = options.autocomplete === 'new-password';
  return html`<label for="${id}">${label}</label>
<input id="${id}" name="${options.name ?? id}" type="password" autocomplete="${options.autocomplete}" required${
    fresh && html` minlength="12"`
  } maxlength="256"${error && html` aria-invalid="true"`}${described.length > 0 && html` aria-describedby="${described.join(' ')}"`}>
${help && html`<p id="${id}_help" class="help">${help}</p>`}${error && html`<p id="${id}_error" class="error">${error}</p>`}`;
}

/** The password form: the current one (when there is one), the new one twice. */
function passwordSection(view: ShellContext, state: ProfileState): Html {
  const w = profileWords[view.lang];
  const errorOf = (field: PasswordProblem['field']) =>
    state.password?.field === field ? state.password.message : undefined;
  return html`<section class="card" aria-labelledby="password_title">
<h2 id="password_title">${w.passwordTitle}</h2>
<p>${state.hasPassword ? w.passwordIntro : w.noPasswordYet}</p>
${csrfForm(
  `${view.root}/profile/password`,
  view.csrf,
  html`<input type="email" name="username" autocomplete="username" value="${view.email}" hidden>
${
  state.hasPassword &&
  passwordInput('current_password', w.currentPassword, {
    autocomplete: 'current-password',
    error: errorOf('current_password'),
  })
}
${passwordInput('password', w.newPassword, { autocomplete: 'new-password', help: w.passwordHelp, error: errorOf('password') })}
${passwordInput('confirm', w.confirmPassword, { autocomplete: 'new-password', error: errorOf('confirm') })}
<button type="submit">${w.changePassword}</button>`,
)}
</section>`;
}

/** The second factor: the button that starts its set-up, or the form that turns it off. */
function twoFactorSection(view: ShellContext, state: ProfileState): Html {
  const w = profileWords[view.lang];
  const action = !view.twoFactor
    ? csrfForm(
        `${view.root}/profile/two-factor/start`,
        view.csrf,
        html`<button type="submit">${w.setUp}</button>`,
      )
    : state.hasPassword
      ? csrfForm(
          `${view.root}/profile/two-factor/remove`,
          view.csrf,
          html`${passwordInput('remove_password', w.currentPassword, {
            name: 'password',
            autocomplete: 'current-password',
            help: w.removeHelp,
            error: state.removePassword,
          })}
<button type="submit">${w.turnOff}</button>`,
        )
      : html`<p>${w.removeNeedsPassword}</p>`;
  return html`<section class="card" aria-labelledby="two_factor_title">
<h2 id="two_factor_title">${w.twoFactor}</h2>
<p>${view.twoFactor ? w.twoFactorOnIntro : w.twoFactorOffIntro}</p>
${refusal(state.twoFactor ? { message: state.twoFactor } : undefined)}
${action}
</section>`;
}

/** GET /dashboard/profile: who the user is, the password form and the second factor's. */
export function profilePage(view: ShellContext, state: ProfileState, status = 200): Page {
  const w = profileWords[view.lang];
  return dashboardPage(
    view,
    w.title,
    html`${notice(state.notice)}
<section class="card" aria-labelledby="account_title">
<h2 id="account_title">${w.accountTitle}</h2>
<dl>
<dt>${w.email}</dt><dd>${view.email}</dd>
<dt>${w.role}</dt><dd>${dashboardWords[view.lang].roles[view.role]}</dd>
<dt>${w.twoFactor}</dt><dd data-two-factor="${view.twoFactor ? 'on' : 'off'}">${view.twoFactor ? w.on : w.off}</dd>
</dl>
</section>
${passwordSection(view, state)}
${twoFactorSection(view, state)}`,
    status,
  );
}

/** A TOTP key as it is typed: groups of 4 characters. */
export const groupedKey = (secret: string): string => secret.match(/.{1,4}/g)?.join(' ') ?? '';

/** What the set-up page shows: the otpauth URI (drawn as the QR code) and its key. */
export interface Enrolment {
  uri: string;
  secret: string;
}

/**
 * The second factor's set-up (the answer to POST /dashboard/profile/two-factor/start, and to a
 * wrong code, 400): the QR code, the key in groups of 4, and the code form that turns it on.
 */
export function enrolmentPage(view: ShellContext, enrolment: Enrolment, problem?: string): Page {
  const w = profileWords[view.lang];
  return dashboardPage(
    view,
    w.enrolTitle,
    html`<section class="card">
<ol>
<li><p>${w.scanStep}</p>
${qrSvg(enrolment.uri, w.qrLabel(view.email))}
<p>${w.keyStep} <code data-totp-secret="${enrolment.secret}">${groupedKey(enrolment.secret)}</code></p></li>
<li><p>${w.codeStep}</p>
${csrfForm(
  `${view.root}/profile/two-factor`,
  view.csrf,
  html`<label for="code">${w.code}</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required pattern="[0-9 ]{6,7}" maxlength="7"${
    problem && html` aria-invalid="true"`
  } aria-describedby="${problem ? 'code_help code_error' : 'code_help'}">
<p id="code_help" class="help">${w.codeHelp}</p>
${problem && html`<p id="code_error" class="error" role="alert">${problem}</p>`}
<button type="submit">${w.turnOn}</button>`,
)}</li>
</ol>
<p>${link(`${view.root}/profile`, w.backToProfile)}</p>
</section>`,
    problem ? 400 : 200,
  );
}
