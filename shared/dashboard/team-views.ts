/**
 * The dashboard's admin pages as views: the users with the invitation form and each user's role
 * form and Remove link, the removal's confirmation, the audit log, and the connectors with their
 * Stripe forms and the disconnect's confirmation. Pure functions of what the domain read
 * (shared/dashboard/team-http.ts), tested without a stack. No page ever shows a secret: the Stripe
 * key and signing secret fields are password fields that are never filled in.
 */
import type { Mode } from '../core/account.ts';
import { maxEmailLength } from '../core/validation.ts';
import type { AuditEntry } from '../team/audit.ts';
import { roles } from '../team/roles.ts';
import type { TeamUser } from '../team/users.ts';
import { type Html, html } from '../web/html.ts';
import type { Page } from '../web/page.ts';
import type { Problem } from '../web/problems.ts';
import { select } from './catalog-views.ts';
import { options } from './charge-views.ts';
import {
  confirmPage,
  csrfForm,
  dashboardPage,
  link,
  messagePage,
  notice,
  refusal,
  type ShellContext,
} from './shell.ts';
import { type Cell, dataTable } from './table.ts';
import { teamWords } from './team-words.ts';
import { dashboardWords } from './words.ts';

/** The invitation form as shown: the values posted (after a refusal), its key, and what was refused. */
export interface InviteForm {
  idempotencyKey: string;
  values: { email?: string; role?: string };
  /** The message of each refused field, by the field's name. */
  fieldErrors: Record<string, string>;
  problem?: Problem;
}

/** A mode's connection as the connectors page shows it (never a secret: a Stripe key's hint only). */
export interface ConnectionRow {
  mode: Mode;
  connector: 'simulated' | 'stripe' | 'none';
  stripe_account: string | null;
  stripe_account_name: string | null;
  key: string | null;
  connected_at: string | null;
}

const code = (text: string) => html`<code>${text}</code>`;

/** The role choices, in the roles' order, named in the page's language. */
const roleChoices = (view: ShellContext) =>
  roles.map((role) => [role, dashboardWords[view.lang].roles[role]] as const);

/** A user's role form: the select and its button, posting to the user's role path. */
function roleForm(view: ShellContext, user: TeamUser): Html {
  const w = teamWords[view.lang];
  return csrfForm(
    `${view.root}/users/${user.user_id}/role`,
    view.csrf,
    html`<select name="role" aria-label="${w.roleOf(user.email)}">${options(roleChoices(view), user.role)}</select>
<button class="small" type="submit">${w.changeRole}</button>`,
    {},
    'inline',
  );
}

/** The invitation form: an e-mail address and a role (a viewer unless chosen), under the form's key. */
function inviteForm(view: ShellContext, form: InviteForm, invitationDays: number): Html {
  const w = teamWords[view.lang];
  const emailError = form.fieldErrors.email;
  const help = roles.map((role) => html`<li>${w.roleHelp[role]}</li>`);
  return html`<p>${w.inviteIntro(invitationDays)}</p>
${refusal(form.problem)}
${csrfForm(
  `${view.root}/users`,
  view.csrf,
  html`<label for="invite_email">${w.email}</label>
<input id="invite_email" name="email" type="email" autocomplete="off" spellcheck="false" required maxlength="${maxEmailLength}" value="${form.values.email ?? ''}"${
    emailError && html` aria-invalid="true" aria-describedby="invite_email_error"`
  }>
${emailError && html`<p id="invite_email_error" class="error">${emailError}</p>`}
${select('role', w.role, form.values.role ?? 'viewer', roleChoices(view), form.fieldErrors.role, 'invite_role')}
<ul class="help">${help}</ul>
<button type="submit">${w.sendInvite}</button>`,
  { idempotency_key: form.idempotencyKey },
)}`;
}

/**
 * GET /dashboard/users: every user of the account (the signed-in one marked), the invitation form
 * and each user's role form and Remove link. The status is the list's refusal's (a last admin's
 * 409), else the invitation form's, else 200.
 */
export function usersPage(
  view: ShellContext,
  users: readonly TeamUser[],
  form: InviteForm,
  shown: { signedInUserId: string; invitationDays: number; notice?: string; problem?: Problem },
): Page {
  const w = teamWords[view.lang];
  const d = dashboardWords[view.lang];
  const c = w.userColumns;
  const table = dataTable(
    [
      { heading: c.email },
      { heading: c.role },
      { heading: c.status },
      { heading: c.twoFactor },
      { heading: c.added, nowrap: true },
      { heading: c.changeRole },
      { heading: c.remove },
    ],
    users.map((user): Cell[] => [
      html`${user.email}${user.user_id === shown.signedInUserId && html` <strong>${w.you}</strong>`}`,
      { html: d.roles[user.role], attributes: { 'data-role': user.role } },
      { html: w.statuses[user.status], attributes: { 'data-status': user.status } },
      user.totp_sealed ? w.twoFactorOn : w.twoFactorOff,
      d.date(user.created_at),
      roleForm(view, user),
      html`<a href="${`${view.root}/users/${user.user_id}/remove`}" aria-label="${w.removeLabel(user.email)}">${w.remove}</a>`,
    ]),
  );
  return dashboardPage(
    view,
    d.sections.users,
    html`${notice(shown.notice)}${refusal(shown.problem)}<p>${w.usersIntro}</p>
<section class="card">${table}</section>
<section class="card" aria-labelledby="invite">
<h2 id="invite">${w.inviteTitle}</h2>
${inviteForm(view, form, shown.invitationDays)}
</section>`,
    shown.problem?.status ?? form.problem?.status ?? 200,
  );
}

/** GET /dashboard/users/{id}/remove: what removing the user does, and the button. */
export function removeUserPage(view: ShellContext, user: TeamUser, self: boolean): Page {
  const w = teamWords[view.lang];
  return confirmPage(
    view,
    w.removeTitle(user.email),
    html`<p>${w.removeWhat(user.email, dashboardWords[view.lang].roles[user.role])}</p>
${self && html`<p class="error" role="note">${w.removeSelf}</p>`}`,
    { action: `${view.root}/users/${user.user_id}/remove`, button: w.removeConfirm },
    { url: `${view.root}/users`, text: w.cancel },
  );
}

/** No such user in the account: 404, with the way back to the users. */
export function userNotFoundPage(view: ShellContext): Page {
  const w = teamWords[view.lang];
  return messagePage(view, 404, dashboardWords[view.lang].notFoundTitle, w.userNotFound, {
    url: `${view.root}/users`,
    text: w.backToUsers,
  });
}

/** An entry's moment to the second, in UTC (the column's heading says so): `2026-11-22 10:15:03`. */
const auditTime = (at: string) => at.slice(0, 19).replace('T', ' ');

/**
 * GET /dashboard/audit: one page of the log, newest first, with the way to older entries (`next`,
 * the cursor of its last entry) and, past the first page, back to the newest.
 */
export function auditLogPage(
  view: ShellContext,
  log: { entries: readonly AuditEntry[]; next?: string; before?: string },
  problem?: Problem,
): Page {
  const w = teamWords[view.lang];
  const c = w.auditColumns;
  const listed =
    log.entries.length === 0
      ? html`<p>${log.before ? w.noOlderEntries : w.noEntries}</p>`
      : dataTable(
          [
            { heading: c.when, nowrap: true },
            { heading: c.who },
            { heading: c.action },
            { heading: c.record },
            { heading: c.mode },
            { heading: c.address },
          ],
          log.entries.map((entry) => [
            html`<time datetime="${entry.at}">${auditTime(entry.at)}</time>`,
            entry.actor_email,
            { html: code(entry.action), attributes: { 'data-action': entry.action } },
            // The record's id, then what it alone would not say later (a removed user's e-mail).
            html`${entry.record ? code(entry.record) : ''}${entry.detail ? ` ${entry.detail}` : ''}`,
            entry.mode ? w.modes[entry.mode] : '',
            entry.address,
          ]),
        );
  const pager =
    (log.before || log.next) &&
    html`<p class="pager">${log.before && link(`${view.root}/audit`, w.newestEntries)}${
      log.next &&
      html`<a href="${`${view.root}/audit?${new URLSearchParams({ before: log.next })}`}" rel="next">${w.olderEntries}</a>`
    }</p>`;
  return dashboardPage(
    view,
    dashboardWords[view.lang].sections.audit,
    html`${refusal(problem)}<p>${w.auditIntro}</p>
<p class="help" role="note">${w.auditReadOnly}</p>
<section class="card">${listed}
${pager}</section>`,
    problem?.status ?? 200,
  );
}

/** Whether a mode has something to disconnect: live anything but nothing, test a Stripe account. */
export const disconnectable = (connection: ConnectionRow) =>
  connection.mode === 'live' ? connection.connector !== 'none' : connection.connector === 'stripe';

/** What a mode is connected to, in words. */
function connectorName(view: ShellContext, connection: ConnectionRow): string {
  const w = teamWords[view.lang];
  if (connection.connector === 'simulated' && connection.mode === 'live') return w.simulatedLive;
  return w.connectorNames[connection.connector];
}

/** A mode's Stripe form: the key and the optional signing secret, password fields never filled in. */
function connectForm(view: ShellContext, mode: Mode, key: string, eventsUrl: string): Html {
  const w = teamWords[view.lang];
  return html`<section class="card" aria-labelledby="${`connect_${mode}`}">
<h2 id="${`connect_${mode}`}">${w.connectTitle(mode)}</h2>
<p>${w.connectIntro(mode)}</p>
${csrfForm(
  `${view.root}/connectors/${mode}`,
  view.csrf,
  html`<label for="${`stripe_key_${mode}`}">${w.stripeKey}</label>
<input id="${`stripe_key_${mode}`}" name="stripe_key" type="password" autocomplete="off" spellcheck="false" required maxlength="255" aria-describedby="${`stripe_key_${mode}_help`}">
<p id="${`stripe_key_${mode}_help`}" class="help">${w.stripeKeyHelp(`sk_${mode}_`)}</p>
<label for="${`stripe_webhook_secret_${mode}`}">${w.webhookSecret}</label>
<input id="${`stripe_webhook_secret_${mode}`}" name="stripe_webhook_secret" type="password" autocomplete="off" spellcheck="false" maxlength="255" aria-describedby="${`stripe_webhook_secret_${mode}_help`}">
<p id="${`stripe_webhook_secret_${mode}_help`}" class="help">${w.webhookSecretHelp(eventsUrl)}</p>
<button type="submit">${w.connect}</button>`,
  { idempotency_key: key },
)}
</section>`;
}

/**
 * GET /dashboard/connectors: both modes' connections (a Stripe key only as its hint), each mode's
 * Stripe form (under its own form key) and, where there is something to disconnect, the link.
 */
export function connectorsPage(
  view: ShellContext,
  connections: readonly ConnectionRow[],
  shown: { formKeys: Record<Mode, string>; eventsUrl: string; notice?: string; problem?: Problem },
): Page {
  const w = teamWords[view.lang];
  const d = dashboardWords[view.lang];
  const c = w.connectorColumns;
  const table = dataTable(
    [
      { heading: c.mode },
      { heading: c.connector },
      { heading: c.account },
      { heading: c.key },
      { heading: c.connected, nowrap: true },
      { heading: c.action },
    ],
    connections.map((connection) => [
      w.modes[connection.mode],
      { html: connectorName(view, connection), attributes: { 'data-connector': connection.connector } },
      connection.stripe_account
        ? html`${code(connection.stripe_account)}${connection.stripe_account_name && html` ${connection.stripe_account_name}`}`
        : '',
      connection.key ? code(connection.key) : '',
      connection.connected_at ? d.date(connection.connected_at) : '',
      html`${
        disconnectable(connection) &&
        html`<a href="${`${view.root}/connectors/${connection.mode}/disconnect`}" aria-label="${w.disconnectLabel(connection.mode)}">${w.disconnect}</a>`
      }`,
    ]),
  );
  return dashboardPage(
    view,
    d.sections.connectors,
    html`${notice(shown.notice)}${refusal(shown.problem)}<p>${w.connectorsIntro}</p>
<section class="card">${table}</section>
${(['live', 'test'] as const).map((mode) => connectForm(view, mode, shown.formKeys[mode], shown.eventsUrl))}`,
    shown.problem?.status ?? 200,
  );
}

/** GET /dashboard/connectors/{mode}/disconnect: what disconnecting the mode does, and the button. */
export function disconnectPage(view: ShellContext, mode: Mode): Page {
  const w = teamWords[view.lang];
  return confirmPage(
    view,
    w.disconnectTitle(mode),
    html`<p class="error" role="note">${w.disconnectWhat[mode]}</p>`,
    { action: `${view.root}/connectors/${mode}/disconnect`, button: w.disconnectConfirm },
    { url: `${view.root}/connectors`, text: w.cancel },
  );
}

/** A path that names no mode: 404, with the way back to the connectors. */
export function modeNotFoundPage(view: ShellContext): Page {
  const w = teamWords[view.lang];
  return messagePage(view, 404, dashboardWords[view.lang].notFoundTitle, w.modeNotFound, {
    url: `${view.root}/connectors`,
    text: w.backToConnectors,
  });
}
