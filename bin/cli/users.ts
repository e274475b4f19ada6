/**
 * `cobro users add | list | remove | reset-password`: the people of an account who sign in to the
 * dashboard (docs/design.md#team-sign-in). The operator adds an account's first admin here; that
 * admin invites the others from the dashboard's Users page. Every change is written to the
 * account's audit log as made by the command line.
 *
 * A new user's password is set by the user, through a one-time link this command prints (24 hours,
 * once), or given on stdin (`--password-stdin`, for scripts). A link is keyed with the stage's
 * fingerprint secret and starts with its public base URL: the local stack's environment has both;
 * against a deployed table, FINGERPRINT_SECRET_ID and PUBLIC_BASE_URL must be set.
 */
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { getAccount } from '../../shared/accounts/repository.ts';
import { envNames } from '../../shared/core/config.ts';
import { stageSecret, tokenKeys } from '../../shared/core/secrets.ts';
import type { Deps } from '../../shared/db/deps.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { audit } from '../../shared/team/audit.ts';
import { accessUrl, linkLifetimeMs, makeLink } from '../../shared/team/links.ts';
import {
  hashPassword,
  passwordMaxLength,
  passwordMinLength,
  passwordProblem,
} from '../../shared/team/password.ts';
import { roles } from '../../shared/team/roles.ts';
import { removeSecondFactor } from '../../shared/team/two-factor.ts';
import {
  addUser,
  cliActor,
  findUserByEmail,
  listUsers,
  maxUsers,
  normalEmail,
  removeUser,
  type TeamUser,
} from '../../shared/team/users.ts';
import { parsedOptions, UsageError } from './options.ts';
import { target } from './target.ts';

/** The address the audit log names for a change made from the command line. */
const cliAddress = 'cli';

const AccountSchema = v.pipe(
  v.string('account is required'),
  v.regex(/^[1-9]\d{0,14}$/, 'account: an account id is a positive integer'),
  v.transform(Number),
);

const EmailSchema = v.pipe(
  v.string('email is required'),
  v.trim(),
  v.minLength(1, 'email is required'),
  v.maxLength(254, 'email: at most 254 characters'),
  v.email('email: not a valid e-mail address'),
  v.transform(normalEmail),
);

const UserSchema = v.object({ account: AccountSchema, email: EmailSchema });

const AddSchema = v.object({
  account: AccountSchema,
  email: EmailSchema,
  role: v.picklist(roles, (issue) =>
    issue.input === undefined
      ? 'role is required'
      : `role: ${roles.slice(0, -1).join(', ')} or ${roles.at(-1)}`,
  ),
});

/** How long a link printed here works: as the first admin's and a reset's, 24 hours. */
const linkLifetime = linkLifetimeMs.first;
const lifetimeWords = `${linkLifetime / 3_600_000} hours`;

/** The deployed stack's outputs that hold what a link needs, by variable. */
const outputOf: Record<string, string> = {
  [envNames.fingerprintSecret]: 'FingerprintSecretArn',
  [envNames.publicBaseUrl]: 'PublicBaseUrl',
};

/**
 * What makes one-time links here: the fingerprint secret (read now, so a secret the credentials
 * may not read fails before anything is changed) and the public base URL.
 */
async function linkMaker() {
  const missing = [envNames.fingerprintSecret, envNames.publicBaseUrl].filter((name) => !process.env[name]);
  if (missing.length > 0)
    throw new Error(
      `a one-time link needs ${missing.map((name) => `${name} (the stack's ${outputOf[name]} output)`).join(' and ')} in the environment; nothing was changed`,
    );
  const baseUrl = publicBaseUrl();
  const keys = tokenKeys(stageSecret(envNames.fingerprintSecret));
  await keys.sign();
  return async (deps: Deps, user: TeamUser) => {
    const token = await makeLink(deps, keys, {
      userId: user.user_id,
      developerId: user.developer_id,
      purpose: 'set_password',
      lifetimeMs: linkLifetime,
    });
    return {
      url: accessUrl(baseUrl, token),
      expiresAt: new Date(deps.clock().getTime() + linkLifetime).toISOString(),
    };
  };
}

/** The bytes read from stdin at most: far more than the longest password, far less than a file. */
const stdinLimit = 4096;

/** The password piped in: all of stdin but one trailing newline, checked as the dashboard checks one. */
async function passwordFromStdin(): Promise<string> {
  // Typed at a terminal, a password would show as it is typed: only a pipe is read.
  if (process.stdin.isTTY)
    throw new UsageError(
      '--password-stdin: pipe the password in (printf \'%s\' "$PASSWORD" | npm run -s cli -- users add …)',
    );
  process.stdin.setEncoding('utf8');
  let text = '';
  for await (const chunk of process.stdin) {
    text += chunk;
    if (text.length > stdinLimit) break;
  }
  const password = text.replace(/\r?\n$/, '');
  const problem = passwordProblem(password);
  if (problem === 'too_short')
    throw new UsageError(`--password-stdin: a password has at least ${passwordMinLength} characters`);
  if (problem === 'too_long')
    throw new UsageError(`--password-stdin: a password has at most ${passwordMaxLength} characters`);
  return password;
}

/** Refuses (exit 1) an account id that is no account's. */
async function accountMustExist(deps: Deps, developerId: number): Promise<void> {
  if (!(await getAccount(deps, developerId))) throw new Error(`there is no account ${developerId}`);
}

/** The user an e-mail address signs in as, in this account; refused (exit 1) otherwise. */
async function accountUser(deps: Deps, developerId: number, email: string): Promise<TeamUser> {
  await accountMustExist(deps, developerId);
  const user = await findUserByEmail(deps, email);
  if (!user || user.developer_id !== developerId)
    throw new Error(
      `account ${developerId} has no dashboard user ${email} (npm run -s cli -- users list --account ${developerId})`,
    );
  return user;
}

/** The dashboard's sign-in address, when the environment says where the stage answers. */
function dashboardUrl(): string {
  return process.env[envNames.publicBaseUrl] ? `${publicBaseUrl()}/dashboard/` : 'the dashboard';
}

/** `users add`: a new user of an account, with a set-password link, or the password piped in. */
export async function usersAdd(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      account: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      'state-dir': { type: 'string' },
    },
  });
  const { account, email, role } = parsedOptions(AddSchema, {
    account: values.account,
    email: values.email,
    role: values.role,
  });
  const password = values['password-stdin'] ? await passwordFromStdin() : undefined;
  await target(values['state-dir']);
  const deps = makeDeps();
  await accountMustExist(deps, account);
  // The dashboard's Users page lists every user of an account on one page, as the invitation holds.
  if ((await listUsers(deps, account)).length >= maxUsers)
    throw new Error(`account ${account} has ${maxUsers} dashboard users, as many as an account may have`);
  const link = password === undefined ? await linkMaker() : undefined;
  const added = await addUser(deps, {
    developerId: account,
    email,
    role,
    ...(password === undefined ? {} : { passwordHash: await hashPassword(password) }),
    addedBy: cliActor.user_id,
  });
  if (!added.added)
    throw new Error(
      `${email} is already a dashboard user, of this account or another (an e-mail address signs in to one account only)`,
    );
  const { user } = added;
  await audit(deps, {
    developerId: account,
    actor: cliActor,
    action: 'user.add',
    record: user.user_id,
    detail: `${user.email} as ${user.role}`,
    address: cliAddress,
  });
  const made = link ? await link(deps, user) : undefined;
  if (values.json) {
    console.log(
      JSON.stringify({
        user_id: user.user_id,
        developer_id: account,
        email,
        role,
        status: user.status,
        ...(made ? { set_password_url: made.url, set_password_url_expires_at: made.expiresAt } : {}),
      }),
    );
    return;
  }
  console.log(`user ${user.user_id} added to account ${account}: ${email}, ${role}, ${user.status}`);
  if (made)
    console.log(`set-password link for ${email}, valid ${lifetimeWords} (until ${made.expiresAt}) and once:
  ${made.url}
It opens a form to choose a password, then signs them in. It is shown only here: send it to them.`);
  else console.log(`${email} signs in at ${dashboardUrl()} with the password given.`);
}

/** `users list`: an account's users, by e-mail. */
export async function usersList(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      account: { type: 'string' },
      json: { type: 'boolean', default: false },
      'state-dir': { type: 'string' },
    },
  });
  const account = parsedOptions(AccountSchema, values.account);
  await target(values['state-dir']);
  const deps = makeDeps();
  await accountMustExist(deps, account);
  const users = (await listUsers(deps, account)).map((user) => ({
    user_id: user.user_id,
    email: user.email,
    role: user.role,
    status: user.status,
    two_factor: user.totp_sealed !== undefined,
    created_at: user.created_at,
  }));
  if (values.json) {
    console.log(JSON.stringify(users));
    return;
  }
  if (users.length === 0) {
    console.log(
      `account ${account} has no dashboard users: npm run -s cli -- users add --account ${account} --email EMAIL --role admin`,
    );
    return;
  }
  const rows = [
    ['e-mail', 'role', 'status', 'two-factor', 'created'],
    ...users.map((user) => [
      user.email,
      user.role,
      user.status,
      user.two_factor ? 'yes' : 'no',
      `${user.created_at.slice(0, 16).replace('T', ' ')} UTC`,
    ]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  console.log(`account ${account}: ${users.length} dashboard user${users.length === 1 ? '' : 's'}`);
  for (const row of rows)
    console.log(
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    );
}

/** `users remove`: a user removed (its sessions end with it); never the account's last admin. */
export async function usersRemove(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      account: { type: 'string' },
      email: { type: 'string' },
      'state-dir': { type: 'string' },
    },
  });
  const { account, email } = parsedOptions(UserSchema, { account: values.account, email: values.email });
  await target(values['state-dir']);
  const deps = makeDeps();
  const user = await accountUser(deps, account, email);
  const outcome = await removeUser(deps, user);
  if (outcome === 'last_admin')
    throw new Error(
      `${email} is the last admin of account ${account}, who alone may manage its users: add or promote another admin first (npm run -s cli -- users add --account ${account} --email EMAIL --role admin)`,
    );
  if (outcome === 'not_found') throw new Error(`${email} was removed meanwhile, by someone else`);
  if (outcome !== 'done')
    throw new Error(`${email} changed while it was being removed: run the command again`);
  await audit(deps, {
    developerId: account,
    actor: cliActor,
    action: 'user.remove',
    record: user.user_id,
    detail: `${user.email} (${user.role})`,
    address: cliAddress,
  });
  console.log(`removed ${email} (${user.role}) from account ${account}: its sessions have ended`);
}

/**
 * `users reset-password`: a new set-password link for a user (forgotten password); with
 * --clear-two-factor, its second factor removed too (a lost phone).
 */
export async function usersResetPassword(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      account: { type: 'string' },
      email: { type: 'string' },
      'clear-two-factor': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      'state-dir': { type: 'string' },
    },
  });
  const { account, email } = parsedOptions(UserSchema, { account: values.account, email: values.email });
  await target(values['state-dir']);
  const deps = makeDeps();
  const user = await accountUser(deps, account, email);
  const link = await linkMaker();
  const cleared = values['clear-two-factor'] && user.totp_sealed !== undefined;
  if (values['clear-two-factor'] && !(await removeSecondFactor(deps, user.user_id)))
    throw new Error(`${email} was removed meanwhile`);
  const made = await link(deps, user);
  await audit(deps, {
    developerId: account,
    actor: cliActor,
    action: 'user.reset_password',
    record: user.user_id,
    detail: user.email,
    address: cliAddress,
  });
  if (values.json) {
    console.log(
      JSON.stringify({
        user_id: user.user_id,
        developer_id: account,
        email,
        two_factor_cleared: cleared,
        set_password_url: made.url,
        set_password_url_expires_at: made.expiresAt,
      }),
    );
    return;
  }
  if (values['clear-two-factor'])
    console.log(
      cleared
        ? `${email}: second factor removed (they may set one up again under Your profile; live mode needs it)`
        : `${email} had no second factor`,
    );
  console.log(`set-password link for ${email}, valid ${lifetimeWords} (until ${made.expiresAt}) and once:
  ${made.url}
${user.password_hash ? `The current password works until a new one is set through it; setting one ends every session of ${email}.` : `${email} has no password yet: the link sets the first one.`}
It is shown only here: send it to them.`);
}
