/**
 * The dashboard's admin pages (docs/design.md#team-sign-in), each for a role with the permission its
 * row names (only an admin's): the account's users (the team area's repository) with the
 * invitation, which adds an invited user, makes a one-time link to set a password and e-mails it;
 * each user's role change and removal, never of the account's last admin; the audit log, read-only;
 * and the connectors of both modes, connected to Stripe or disconnected through the same code as
 * `accounts connect`.
 *
 * A form that makes something (an invitation, a connection) acts once per form (form-once.ts). Every
 * form that acted is written to the audit log by signedInForm, naming the record it acted on.
 */
import { merchantName } from '../accounts/account.ts';
import { ConnectRefused, connectionsOf, connectMode } from '../acquirer/connect.ts';
import { ConnectionChanged } from '../acquirer/connection.ts';
import { stripeEventsPath } from '../connectors/paths.ts';
import type { Mode } from '../core/account.ts';
import { DomainError, type FailureKind } from '../core/errors.ts';
import { isLang } from '../core/messages.ts';
import { isEmail, validate } from '../core/validation.ts';
import type { Deps } from '../db/deps.ts';
import type { ApiRequest } from '../http/handler.ts';
import type { ApiAnswer } from '../http/render.ts';
import type { Mailer } from '../mail/send.ts';
import { auditPage } from '../team/audit.ts';
import { accessUrl, linkLifetimeMs, makeLink } from '../team/links.ts';
import { invitationMail } from '../team/mail.ts';
import { isRole } from '../team/roles.ts';
import {
  addUser,
  changeRole,
  getAccountUser,
  listUsers,
  maxUsers,
  normalEmail,
  removeUser,
  type TeamUser,
  type UserChange,
} from '../team/users.ts';
import type { Problem } from '../web/problems.ts';
import { actOnce, isFormKey, newFormKey } from './form-once.ts';
import {
  type DashboardDeps,
  field,
  orProblem,
  pageAnswer,
  type SignedIn,
  seeOther,
  signedInForm,
  signedInPage,
} from './http.ts';
import { messagePage } from './shell.ts';
import { AuditPageQuerySchema } from './team-routes.ts';
import {
  auditLogPage,
  connectorsPage,
  disconnectPage,
  type InviteForm,
  modeNotFoundPage,
  removeUserPage,
  userNotFoundPage,
  usersPage,
} from './team-views.ts';
import { teamWords } from './team-words.ts';
import { dashboardWords } from './words.ts';

/** What the invitation needs besides the dashboard's dependencies: a mailer (shared/mail/send.ts). */
export type TeamDeps = DashboardDeps & { mailer: Mailer };

/** The invitation link's lifetime, in whole days, as the pages say it. */
const invitationDays = Math.round(linkLifetimeMs.invitation / 86_400_000);

/**
 * A refusal the page states in its own words, with the status of its kind: a DomainError, so a
 * form acting once (form-once.ts) frees its key and the corrected form acts as new.
 */
class PageRefusal extends DomainError {
  readonly kind: FailureKind;
  constructor(kind: FailureKind, message: string) {
    super(message);
    this.name = 'PageRefusal';
    this.kind = kind;
  }
}

const freshInvite = (): InviteForm => ({ idempotencyKey: newFormKey(), values: {}, fieldErrors: {} });

/** The users page: the list as it stands, the invitation form, what was done or refused. */
async function usersAnswer(
  deps: Deps,
  signed: SignedIn,
  shown: {
    form?: InviteForm;
    notice?: (users: readonly TeamUser[]) => string | undefined;
    problem?: Problem;
  } = {},
): Promise<ApiAnswer> {
  const users = await listUsers(deps, signed.scope.developerId);
  return pageAnswer(
    usersPage(signed.view, users, shown.form ?? freshInvite(), {
      signedInUserId: signed.user.user_id,
      invitationDays,
      ...(shown.notice ? { notice: shown.notice(users) } : {}),
      ...(shown.problem ? { problem: shown.problem } : {}),
    }),
  );
}

/** Where the language switch of a user's page comes back to. */
const userPath = (request: ApiRequest) =>
  /^usr_[A-Za-z0-9]{24}$/.test(request.params.id ?? '') ? `users/${request.params.id}/remove` : 'users';

/**
 * GET /dashboard/users: listUsers, with the notice of what was just done (`invited=1`,
 * `changed=<user id>` naming the user and the new role, `removed=1`).
 */
export const showUsers = signedInPage('users', 'users', (deps: Deps, signed) => {
  const { query } = signed.request;
  const w = teamWords[signed.view.lang];
  return usersAnswer(deps, signed, {
    notice: (users) => {
      if (query.invited) return w.invited;
      if (query.removed) return w.removed;
      const changed = query.changed && users.find((user) => user.user_id === query.changed);
      return changed
        ? w.roleChanged(changed.email, dashboardWords[signed.view.lang].roles[changed.role])
        : undefined;
    },
  });
});

/**
 * Invites one user: adds them (invited, no password), makes their one-time set-password link and
 * e-mails it to them, in the account's language (the page's when the account names none), naming
 * the account, who invited them and the role. Answers the new user's id.
 */
async function invite(deps: TeamDeps, signed: SignedIn, email: string, role: TeamUser['role']) {
  const { scope, view, account, user: inviter } = signed;
  const w = teamWords[view.lang];
  // The users page lists them all: an account never has more than it shows.
  if ((await listUsers(deps, scope.developerId)).length >= maxUsers)
    throw new PageRefusal('invalid', w.tooManyUsers(maxUsers));
  const added = await addUser(deps, {
    developerId: scope.developerId,
    email,
    role,
    addedBy: inviter.user_id,
  });
  if (!added.added) throw new PageRefusal('conflict', w.emailTaken);
  const { user } = added;
  const token = await makeLink(deps, deps.keys, {
    userId: user.user_id,
    developerId: scope.developerId,
    purpose: 'set_password',
    lifetimeMs: linkLifetimeMs.invitation,
  });
  const mail = invitationMail({
    language: isLang(account.language) ? account.language : view.lang,
    merchant: { name: merchantName(account), logoUrl: account.logo ?? null },
    inviterEmail: inviter.email,
    role,
    url: accessUrl(deps.baseUrl, token),
    expiresAt: new Date(deps.clock().getTime() + linkLifetimeMs.invitation).toISOString(),
  });
  await deps.mailer.send({ to: user.email, ...mail });
  return user.user_id;
}

/**
 * POST /dashboard/users: the invitation, once per form; 303 to the users saying it was sent. An
 * address that is no e-mail or a role that is none shows the form again (400) with the values
 * posted; an address that is a user's already, 409.
 */
export const submitInvite = signedInForm('users', 'users', async (deps: TeamDeps, signed) => {
  const { request, view, scope } = signed;
  const w = teamWords[view.lang];
  const key = field(request.body, 'idempotency_key');
  const email = normalEmail(field(request.body, 'email'));
  const role = field(request.body, 'role');
  const values = { email, role };
  if (!isFormKey(key))
    return usersAnswer(deps, signed, {
      form: {
        ...freshInvite(),
        values,
        problem: { status: 400, message: dashboardWords[view.lang].formExpired },
      },
    });
  if (!isEmail(email) || !isRole(role)) {
    const fieldErrors: Record<string, string> = {
      ...(isEmail(email) ? {} : { email: w.emailInvalid }),
      ...(isRole(role) ? {} : { role: w.roleInvalid }),
    };
    return usersAnswer(deps, signed, {
      form: {
        idempotencyKey: key,
        values,
        fieldErrors,
        problem: { status: 400, message: Object.values(fieldErrors).join(' ') },
      },
    });
  }
  return orProblem(
    view.lang,
    async () => {
      const once = await actOnce(deps, deps.keys, scope, { key, purpose: 'invite' }, () =>
        invite(deps, signed, email, role),
      );
      if (once.kind === 'busy') throw new PageRefusal('conflict', w.stillSubmitting);
      // The user invited is the entry's record (written once for the form's key).
      signed.auditRecord = once.kind === 'first' ? once.value : once.kept;
      signed.auditDetail = `${email} as ${role}`;
      return seeOther(`${view.root}/users?invited=1`);
    },
    // The same key: the corrected form is still the one form, acting at most once.
    (problem) =>
      usersAnswer(deps, signed, { form: { idempotencyKey: key, values, fieldErrors: {}, problem } }),
  );
});

/** What a refused change of a user shows: the users page saying why (409), or the 404 page. */
function refusedChange(deps: Deps, signed: SignedIn, outcome: Exclude<UserChange, 'done'>) {
  const w = teamWords[signed.view.lang];
  if (outcome === 'not_found') return Promise.resolve(pageAnswer(userNotFoundPage(signed.view)));
  const message = outcome === 'last_admin' ? w.lastAdmin : w.changedMeanwhile;
  return usersAnswer(deps, signed, { problem: { status: 409, message } });
}

/**
 * POST /dashboard/users/{id}/role: changeRole, never of the account's last admin (409, nothing
 * changed); 303 to the users naming the new role. The role the user has already changes nothing.
 */
export const submitRole = signedInForm('users', 'users', async (deps: DashboardDeps, signed) => {
  const { request, view, scope } = signed;
  const user = await getAccountUser(deps, scope.developerId, request.params.id ?? '');
  if (!user) return pageAnswer(userNotFoundPage(view));
  const role = field(request.body, 'role');
  if (!isRole(role))
    return usersAnswer(deps, signed, { problem: { status: 400, message: teamWords[view.lang].roleInvalid } });
  const outcome = await changeRole(deps, user, role);
  if (outcome !== 'done') return refusedChange(deps, signed, outcome);
  if (user.role === role) signed.auditRecord = false;
  signed.auditDetail = `${user.email}: ${user.role} to ${role}`;
  return seeOther(`${view.root}/users?${new URLSearchParams({ changed: user.user_id })}`);
});

/** GET /dashboard/users/{id}/remove: the confirmation, or the 404 page. */
export const showRemoveUser = signedInPage('users', userPath, async (deps: Deps, signed) => {
  const user = await getAccountUser(deps, signed.scope.developerId, signed.request.params.id ?? '');
  if (!user) return pageAnswer(userNotFoundPage(signed.view));
  return pageAnswer(removeUserPage(signed.view, user, user.user_id === signed.user.user_id));
});

/**
 * POST /dashboard/users/{id}/remove: removeUser (their sessions end with them, as each reads its
 * user), never the account's last admin (409, nothing changed); 303 to the users.
 */
export const submitRemoveUser = signedInForm('users', userPath, async (deps: DashboardDeps, signed) => {
  const { request, view, scope } = signed;
  const user = await getAccountUser(deps, scope.developerId, request.params.id ?? '');
  if (!user) return pageAnswer(userNotFoundPage(view));
  const outcome = await removeUser(deps, user);
  if (outcome !== 'done') return refusedChange(deps, signed, outcome);
  signed.auditDetail = `${user.email} (${user.role})`;
  return seeOther(`${view.root}/users?removed=1`);
});

/**
 * GET /dashboard/audit: auditPage, newest first, 50 a page, from `before` (the cursor the page
 * before linked to); a malformed cursor is the page saying so (400). Nothing here writes.
 */
export const showAudit = signedInPage('audit', 'audit', (deps: Deps, signed) => {
  const { view, scope, request } = signed;
  return orProblem(
    view.lang,
    async () => {
      const { before } = validate(AuditPageQuerySchema, request.query);
      const page = await auditPage(deps, scope.developerId, before);
      return pageAnswer(auditLogPage(view, { ...page, ...(before ? { before } : {}) }));
    },
    (problem) => pageAnswer(auditLogPage(view, { entries: [] }, problem)),
  );
});

/** A mode a path names, or undefined. */
const modeOf = (value: string | undefined): Mode | undefined =>
  value === 'test' || value === 'live' ? value : undefined;

/** Where Stripe must send the account's events: cobro's public events URL, as `accounts connect` checks. */
const eventsUrlOf = (deps: DashboardDeps, developerId: number) =>
  `${deps.baseUrl}${stripeEventsPath(developerId)}`;

/** The connectors page: both modes' connections, each mode's form under a key (a posted one kept). */
async function connectorsAnswer(
  deps: DashboardDeps,
  signed: SignedIn,
  shown: { notice?: string; problem?: Problem; kept?: { mode: Mode; key: string } } = {},
): Promise<ApiAnswer> {
  const { developerId } = signed.scope;
  const connections = await connectionsOf(deps, developerId);
  const formKeys = { test: newFormKey(), live: newFormKey() };
  if (shown.kept) formKeys[shown.kept.mode] = shown.kept.key;
  return pageAnswer(
    connectorsPage(signed.view, connections, {
      formKeys,
      eventsUrl: eventsUrlOf(deps, developerId),
      ...(shown.notice ? { notice: shown.notice } : {}),
      ...(shown.problem ? { problem: shown.problem } : {}),
    }),
  );
}

/** GET /dashboard/connectors: connectionsOf, with the notice of a mode just connected or disconnected. */
export const showConnectors = signedInPage('connectors', 'connectors', (deps: DashboardDeps, signed) => {
  const w = teamWords[signed.view.lang];
  const connected = modeOf(signed.request.query.connected);
  const disconnected = modeOf(signed.request.query.disconnected);
  const notice = connected ? w.connected(connected) : disconnected ? w.disconnected(disconnected) : undefined;
  return connectorsAnswer(deps, signed, notice ? { notice } : {});
});

/** connectMode, its refusals as the page says them: what the operator would read (400), or a race (409). */
async function connected(deps: DashboardDeps, signed: SignedIn, request: Parameters<typeof connectMode>[2]) {
  const w = teamWords[signed.view.lang];
  try {
    await connectMode(deps, signed.scope.developerId, request);
  } catch (error) {
    // The refusal is written for the command line, naming its option first (`--stripe-key: …`):
    // the page's fields have other names, so it says the rest.
    if (error instanceof ConnectRefused)
      throw new PageRefusal('invalid', w.connectRefused(error.message.replace(/^--[a-z-]+: /, '')));
    if (error instanceof ConnectionChanged) throw new PageRefusal('conflict', w.connectionChanged);
    throw error;
  }
}

/**
 * POST /dashboard/connectors/{mode}: connects the mode to the Stripe account of `stripe_key`, as
 * `accounts connect --mode <mode> --stripe-key …` does with the stage's public events URL (with
 * `stripe_webhook_secret` the endpoint is checked, without it cobro makes it), once per form; 303 to
 * the connectors. A refusal shows the page again (400), the secrets never in it.
 */
export const submitConnect = signedInForm('connectors', 'connectors', async (deps: DashboardDeps, signed) => {
  const { request, view, scope } = signed;
  const w = teamWords[view.lang];
  const mode = modeOf(request.params.mode);
  if (!mode) return pageAnswer(modeNotFoundPage(view));
  if (mode === 'live' && !signed.user.totp_sealed) return liveNeedsTwoFactor(signed);
  const key = field(request.body, 'idempotency_key');
  if (!isFormKey(key))
    return connectorsAnswer(deps, signed, {
      problem: { status: 400, message: dashboardWords[view.lang].formExpired },
    });
  const secretKey = field(request.body, 'stripe_key').trim();
  const webhookSecret = field(request.body, 'stripe_webhook_secret').trim();
  if (!secretKey)
    return connectorsAnswer(deps, signed, {
      problem: { status: 400, message: w.stripeKeyMissing },
      kept: { mode, key },
    });
  return orProblem(
    view.lang,
    async () => {
      const once = await actOnce(deps, deps.keys, scope, { key, purpose: `connect:${mode}` }, async () => {
        await connected(deps, signed, {
          mode,
          connector: 'stripe',
          secretKey,
          webhookSecret: webhookSecret || undefined,
          eventsUrl: eventsUrlOf(deps, scope.developerId),
        });
        return mode;
      });
      if (once.kind === 'busy') throw new PageRefusal('conflict', w.stillSubmitting);
      // The mode connected is the entry's record (written once for the form's key).
      signed.auditRecord = mode;
      return seeOther(`${view.root}/connectors?${new URLSearchParams({ connected: mode })}`);
    },
    (problem) => connectorsAnswer(deps, signed, { problem, kept: { mode, key } }),
  );
});

/**
 * 403: what moves live money (live mode's connection) is changed only by a user with a second
 * factor, as live mode itself is opened only by one; the page says where to set it up.
 */
function liveNeedsTwoFactor(signed: SignedIn): ApiAnswer {
  const w = dashboardWords[signed.view.lang];
  return pageAnswer(
    messagePage(signed.view, 403, w.errorTitle, w.liveNeedsTwoFactor, {
      url: `${signed.view.root}/profile`,
      text: w.sections.profile,
    }),
  );
}

const disconnectPath = (request: ApiRequest) => {
  const mode = modeOf(request.params.mode);
  return mode ? `connectors/${mode}/disconnect` : 'connectors';
};

/** GET /dashboard/connectors/{mode}/disconnect: the confirmation, or the 404 page. */
export const showDisconnect = signedInPage('connectors', disconnectPath, async (_deps, signed) => {
  const mode = modeOf(signed.request.params.mode);
  return pageAnswer(mode ? disconnectPage(signed.view, mode) : modeNotFoundPage(signed.view));
});

/**
 * POST /dashboard/connectors/{mode}/disconnect: live mode to nothing (`accounts connect --live
 * none`), test mode back to the simulated acquirer; 303 to the connectors.
 */
export const submitDisconnect = signedInForm(
  'connectors',
  disconnectPath,
  async (deps: DashboardDeps, signed) => {
    const { request, view } = signed;
    const mode = modeOf(request.params.mode);
    if (!mode) return pageAnswer(modeNotFoundPage(view));
    if (mode === 'live' && !signed.user.totp_sealed) return liveNeedsTwoFactor(signed);
    return orProblem(
      view.lang,
      async () => {
        await connected(
          deps,
          signed,
          mode === 'live' ? { mode, connector: 'none' } : { mode, connector: 'simulated' },
        );
        signed.auditRecord = mode;
        return seeOther(`${view.root}/connectors?${new URLSearchParams({ disconnected: mode })}`);
      },
      (problem) => connectorsAnswer(deps, signed, { problem }),
    );
  },
);
