/**
 * The dashboard's admin pages (shared/dashboard/team-http.ts): the account's users with the
 * invitation form, each user's role change and removal; the audit log; and the connectors of both
 * modes, with the form that connects one to Stripe and the disconnect. Each needs a permission only
 * an admin's role has (shared/team/roles.ts); every other role gets 403 with nothing read or changed.
 */
import * as v from 'valibot';
import { queryParameter } from '../core/query.ts';
import * as rules from '../core/rules.ts';
import { linkLifetimeMs } from '../team/links.ts';
import { maxUsers } from '../team/users.ts';
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

/** An audit log cursor: the `<at>#<id>` of an entry (shared/team/audit.ts). */
const auditCursor = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#[A-Za-z0-9]{12}$/;

/** GET /dashboard/audit's parameters, as the route row documents them. */
export const AuditPageQuerySchema = v.object({
  before: queryParameter(
    'string',
    'Where the page starts: the `<at>#<id>` of the last entry of the page before (its “Older entries” link); the page lists the entries older than it, newest first.',
    v.pipe(v.string(), v.regex(auditCursor, rules.invalid), v.metadata({ pattern: auditCursor.source })),
  ),
});

const page = { 200: { description: 'The page', media: html }, 303: toSignIn } as const;

const userNotFound = {
  404: { description: 'No such user in this account (none, or another account’s): saying so', body: 'html' },
} as const;

const modeNotFound = {
  404: { description: 'The path names no mode (test or live): saying so', body: 'html' },
} as const;

/** The DynamoDB APIs of a form that changes a user and shows the users list again on a refusal. */
const userWrites = ['GetItem', 'Query', 'UpdateItem', 'DeleteItem'] as const;

const invitationDays = linkLifetimeMs.invitation / 86_400_000;

export const teamRoutes: readonly DashboardRoute[] = [
  {
    method: 'GET',
    path: '/dashboard/users',
    handler: dashboardHandler,
    page: 'team#showUsers',
    permission: 'users',
    operationId: 'showDashboardUsers',
    auth: false,
    access: signedIn({ actions: ['Query'], indexes: ['gsi1'] }),
    summary:
      'The users (HTML): every user of the account with role, status, second factor and when added; the invitation form; each user’s role form and Remove link',
    description:
      'Lists the people who sign in to the account’s dashboard, by e-mail, marking the signed-in user, with a form to invite another and, for each user, a form to change the role and a link to remove them. Admins only.',
    query: withNotices(undefined, {
      invited: 'Set after an invitation was sent',
      changed: 'The user whose role was just changed',
      removed: 'Set after a user was removed',
    }),
    answers: page,
    errors: pageErrors,
  },
  {
    method: 'POST',
    path: '/dashboard/users',
    handler: dashboardHandler,
    page: 'team#submitInvite',
    permission: 'users',
    audit: 'user.invite',
    operationId: 'inviteUserFromDashboard',
    auth: false,
    // The user, the e-mail's claim and the admins' count in one transaction; the link (PutItem);
    // the form's one-submit claim; the users list again on a refusal.
    access: { ...signedIn({ actions: [...userWrites, 'PutItem'], indexes: ['gsi1'] }), mail: true },
    summary:
      'The invitation form (form-encoded `email`, `role`, `idempotency_key`, `csrf_token`): adds an invited user and e-mails them a link to set their password; 303 to the users',
    description: `Adds the user as \`invited\` with the role chosen and e-mails the address, in the account’s language, a one-time link to set a password, valid for ${invitationDays} days; following it signs the user in. The form carries a key made with the page: a form submitted twice invites once. An account has at most ${maxUsers} users.`,
    bodyTypes: form,
    answers: {
      303: {
        description: 'Invited (or the same form submitted again: nothing more done), or no session in force',
        headers: { Location: 'The users, `/dashboard/users?invited=1`, saying an invitation was sent.' },
      },
    },
    errors: {
      ...formErrors,
      400: {
        description: `Not an e-mail address, no role, a form without its key, or the account has ${maxUsers} users already: the form again, saying why`,
        body: 'html',
      },
      409: {
        description:
          'The e-mail address is a user’s already (of this account or another), or the same form is still being submitted: the form again, saying so',
        body: 'html',
      },
    },
  },
  {
    method: 'POST',
    path: '/dashboard/users/{id}/role',
    handler: dashboardHandler,
    page: 'team#submitRole',
    permission: 'users',
    audit: 'user.role',
    operationId: 'changeUserRoleFromDashboard',
    auth: false,
    access: signedIn({ actions: ['GetItem', 'Query', 'UpdateItem'], indexes: ['gsi1'] }),
    summary:
      'A user’s role form (form-encoded `role`, `csrf_token`): gives the user that role; 303 to the users',
    description:
      'Changes the user’s role; it applies from the user’s next page. The account’s last admin keeps the role: an account always has at least one admin. Choosing the role the user has changes nothing.',
    bodyTypes: form,
    answers: {
      303: {
        description: 'Changed (or no session in force: to the sign-in form)',
        headers: { Location: 'The users, `/dashboard/users?changed={id}`, saying the new role.' },
      },
    },
    errors: {
      ...formErrors,
      400: { description: '`role` is no role: the users, saying so', body: 'html' },
      ...userNotFound,
      409: {
        description:
          'The user is the account’s last admin, or was changed meanwhile: the users, saying so; nothing changed',
        body: 'html',
      },
    },
  },
  {
    method: 'GET',
    path: '/dashboard/users/{id}/remove',
    handler: dashboardHandler,
    page: 'team#showRemoveUser',
    permission: 'users',
    operationId: 'showDashboardUserRemove',
    auth: false,
    access: signedIn({ actions: ['GetItem'] }),
    summary: 'Removing a user, the confirmation step (HTML): what it does, and the button',
    description:
      'Says that the user can no longer sign in and that their open sessions end at once, with the form that removes them.',
    answers: page,
    errors: { ...pageErrors, ...userNotFound },
  },
  {
    method: 'POST',
    path: '/dashboard/users/{id}/remove',
    handler: dashboardHandler,
    page: 'team#submitRemoveUser',
    permission: 'users',
    audit: 'user.remove',
    operationId: 'removeUserFromDashboard',
    auth: false,
    access: signedIn({ actions: [...userWrites], indexes: ['gsi1'] }),
    summary: 'The remove form (form-encoded `csrf_token`): removes the user; 303 to the users',
    description:
      'Removes the user and frees their e-mail address; every session they have open ends at their next request. Never the account’s last admin: of two admins removing each other at the same moment, one stays.',
    bodyTypes: form,
    answers: {
      303: {
        description: 'Removed (or no session in force: to the sign-in form)',
        headers: { Location: 'The users, `/dashboard/users?removed=1`, saying so.' },
      },
    },
    errors: {
      ...formErrors,
      ...userNotFound,
      409: {
        description:
          'The user is the account’s last admin, or was changed meanwhile: the users, saying so; nothing changed',
        body: 'html',
      },
    },
  },
  {
    method: 'GET',
    path: '/dashboard/audit',
    handler: dashboardHandler,
    page: 'team#showAudit',
    permission: 'audit',
    operationId: 'showDashboardAuditLog',
    auth: false,
    access: signedIn({ actions: ['Query'] }),
    summary:
      'The audit log (HTML): every change made in the dashboard, newest first, 50 at a time, with a link to older entries (`before`)',
    description:
      'Lists the account’s audit log: when, who (the user’s e-mail), the action, the record, the mode and the client’s address of each change. Read-only: nothing in cobro edits or deletes an entry.',
    query: AuditPageQuerySchema,
    answers: page,
    errors: {
      ...pageErrors,
      400: { description: 'A malformed `before`: the page, saying so', body: 'html' },
    },
  },
  {
    method: 'GET',
    path: '/dashboard/connectors',
    handler: dashboardHandler,
    page: 'team#showConnectors',
    permission: 'connectors',
    operationId: 'showDashboardConnectors',
    auth: false,
    access: signedIn({ actions: ['GetItem'] }),
    summary:
      'The connectors (HTML): what each mode moves money through (connector, Stripe account, key hint, since when), the Stripe connect forms and the disconnect links',
    description:
      'Shows both modes’ connections as `accounts connect` does, never a secret (only a Stripe key’s hint), with a form per mode to connect it to a Stripe account and a link to disconnect it.',
    query: withNotices(undefined, {
      connected: 'The mode just connected to Stripe',
      disconnected: 'The mode just disconnected',
    }),
    answers: page,
    errors: pageErrors,
  },
  {
    method: 'POST',
    path: '/dashboard/connectors/{mode}',
    handler: dashboardHandler,
    page: 'team#submitConnect',
    permission: 'connectors',
    audit: 'connector.connect',
    operationId: 'connectStripeFromDashboard',
    auth: false,
    // The connection (GetItem, PutItem), the form's one-submit claim; the secrets sealed under the
    // stage's key.
    access: {
      ...signedIn({ actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] }),
      webhookKey: true,
    },
    summary:
      'The Stripe connect form of a mode, test or live (form-encoded `stripe_key`, optional `stripe_webhook_secret`, `idempotency_key`, `csrf_token`): connects it as `accounts connect` does; 303 to the connectors',
    description:
      'Checks the key with one read of the Stripe account it opens (it must be of the mode: `sk_live_…` for live), then the webhook endpoint the signing secret belongs to, pointed at cobro’s events URL for the account (none given: cobro makes it), and stores both secrets sealed. Neither is ever shown again, on any page. A form submitted twice connects once.',
    bodyTypes: form,
    answers: {
      303: {
        description: 'Connected (or no session in force: to the sign-in form)',
        headers: { Location: 'The connectors, `/dashboard/connectors?connected={mode}`, saying so.' },
      },
    },
    errors: {
      ...formErrors,
      400: {
        description:
          'No Stripe key, a key of another mode or that Stripe refuses, a webhook endpoint missing or not sending the events cobro needs, or a form without its key: the page, saying why; nothing stored',
        body: 'html',
      },
      ...modeNotFound,
      409: {
        description: 'The connection changed at the same moment, or the same form is still being submitted',
        body: 'html',
      },
    },
  },
  {
    method: 'GET',
    path: '/dashboard/connectors/{mode}/disconnect',
    handler: dashboardHandler,
    page: 'team#showDisconnect',
    permission: 'connectors',
    operationId: 'showDashboardConnectorDisconnect',
    auth: false,
    access: signedIn({ actions: ['GetItem'] }),
    summary: 'Disconnecting a mode, the confirmation step (HTML): what it does, and the button',
    description:
      'Says what disconnecting does: live mode is then connected to nothing (live payments answer 400 until it is connected again); test mode goes back to the simulated acquirer.',
    answers: page,
    errors: { ...pageErrors, ...modeNotFound },
  },
  {
    method: 'POST',
    path: '/dashboard/connectors/{mode}/disconnect',
    handler: dashboardHandler,
    page: 'team#submitDisconnect',
    permission: 'connectors',
    audit: 'connector.disconnect',
    operationId: 'disconnectFromDashboard',
    auth: false,
    access: signedIn({ actions: ['GetItem', 'PutItem'] }),
    summary:
      'The disconnect form (form-encoded `csrf_token`): live mode to nothing, test mode to the simulated acquirer, as `accounts connect --live none` does; 303 to the connectors',
    description:
      'Connects live mode to nothing (every live money request then answers 400) or test mode back to the simulated acquirer; the Stripe secrets the mode kept are no longer used.',
    bodyTypes: form,
    answers: {
      303: {
        description: 'Disconnected (or no session in force: to the sign-in form)',
        headers: { Location: 'The connectors, `/dashboard/connectors?disconnected={mode}`, saying so.' },
      },
    },
    errors: {
      ...formErrors,
      ...modeNotFound,
      409: { description: 'The connection changed at the same moment: nothing done', body: 'html' },
    },
  },
];
