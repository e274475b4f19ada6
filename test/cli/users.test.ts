/**
 * `cobro users add | list | remove | reset-password` against the running test stack, and what the
 * people it adds then do over HTTP: follow the one-time link, set a password, sign in. Also the
 * local stack's demo admin, whose sign-in link the `npm start` banner prints.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { demoAdminLink } from '../../infra/local/demo.ts';
import { localEnvironment, projectRoot } from '../../infra/local/info.ts';
import { envNames } from '../../shared/core/config.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { auditPage } from '../../shared/team/audit.ts';
import { findUserByEmail, getUser, listUsers } from '../../shared/team/users.ts';
import { cli, expectCliRefusal } from '../support/cli.ts';
import { DashboardClient, dashboardUrl, formToken } from '../support/dashboard.ts';
import { localInfo, newAccount, useLocalEnvironment } from '../support/stack.ts';
import { newUser } from '../support/team.ts';

const run = promisify(execFile);

let browsers = 0;
/** A browser on a loopback address of this file's own: its wrong passwords count against no other file's. */
const newBrowser = () => new DashboardClient({}, { from: `127.0.77.${++browsers}` });

const newEmail = (label: string) => `${label}-${randomUUID()}@team.example.com`;

/** The one-time link a command printed (the only /dashboard/access/ URL in its output). */
function linkIn(stdout: string): string {
  const links = stdout.match(/http:\/\/\S+\/dashboard\/access\/[A-Za-z0-9]{43}/g) ?? [];
  expect(links, stdout).toHaveLength(1);
  return links[0] as string;
}

/** `users add … --password-stdin` with `input` piped in. */
function addWithPassword(args: string[], input: string) {
  const running = cli('users', 'add', ...args, '--password-stdin');
  running.child.stdin?.end(input);
  return running;
}

/** The account's audit log entries of one action naming one record. */
async function audited(developerId: number, action: string, record: string) {
  useLocalEnvironment();
  const { entries } = await auditPage(makeDeps(), developerId);
  return entries.filter((entry) => entry.action === action && entry.record === record);
}

/** Follows a set-password link as a browser does: its form, then the new password posted twice. */
async function setPasswordThrough(link: string, password: string) {
  const browser = newBrowser();
  const form = await browser.get(link);
  expect(form.status, form.html).toBe(200);
  expect(form.html).toContain('name="confirm"');
  const done = await browser.post(link, { csrf_token: formToken(form.html), password, confirm: password });
  return { browser, done };
}

describe('users add', () => {
  it('prints a one-time link that sets the password and signs in; the user is invited until then', async () => {
    const account = await newAccount('users-add');
    const email = newEmail('Admin');
    const { stdout } = await cli(
      'users',
      'add',
      '--account',
      String(account.developerId),
      '--email',
      email,
      '--role',
      'admin',
    );
    expect(stdout).toContain(
      `added to account ${account.developerId}: ${email.toLowerCase()}, admin, invited`,
    );
    expect(stdout).toContain('valid 24 hours');
    const link = linkIn(stdout);

    useLocalEnvironment();
    const user = await findUserByEmail(makeDeps(), email);
    expect(user).toMatchObject({ developer_id: account.developerId, role: 'admin', status: 'invited' });
    expect(user?.password_hash).toBeUndefined();
    expect(await audited(account.developerId, 'user.add', user?.user_id ?? '')).toEqual([
      expect.objectContaining({ actor_id: 'cli', address: 'cli' }),
    ]);
    // Invited: no password signs in yet.
    expect((await newBrowser().signIn(email, 'any password at all')).status).toBe(401);

    const password = `pw-${randomUUID()}`;
    const { browser, done } = await setPasswordThrough(link, password);
    expect(done.status, done.html).toBe(303);
    expect(done.location).toBe(dashboardUrl());
    expect((await browser.get('')).status).toBe(200);
    // Used once: the link opens nothing any more.
    expect((await newBrowser().get(link)).status).toBe(404);
    const signedIn = await newBrowser().signIn(email, password);
    expect(signedIn.status, signedIn.html).toBe(303);
    expect((await getUser(makeDeps(), user?.user_id ?? ''))?.status).toBe('active');
  });

  it('--password-stdin makes an active user who signs in with it at once; list shows it', async () => {
    const account = await newAccount('users-stdin');
    const email = newEmail('dev');
    const password = `pw-${randomUUID()}`;
    const { stdout } = await addWithPassword(
      ['--account', String(account.developerId), '--email', email, '--role', 'developer', '--json'],
      `${password}\n`,
    );
    const added = JSON.parse(stdout);
    expect(added).toMatchObject({
      developer_id: account.developerId,
      email,
      role: 'developer',
      status: 'active',
    });
    expect(added.set_password_url).toBeUndefined();

    const signedIn = await newBrowser().signIn(email, password);
    expect(signedIn.status, signedIn.html).toBe(303);
    expect(signedIn.location).toBe(dashboardUrl());
    // One trailing newline was dropped, and only that: the password with it is a wrong one.
    expect((await newBrowser().signIn(email, `${password}\n`)).status).toBe(401);

    const listed = await cli('users', 'list', '--account', String(account.developerId));
    expect(listed.stdout).toMatch(
      new RegExp(`^${email}\\s+developer\\s+active\\s+no\\s+\\d{4}-\\d\\d-\\d\\d `, 'm'),
    );
    const json = JSON.parse(
      (await cli('users', 'list', '--account', String(account.developerId), '--json')).stdout,
    );
    expect(json).toEqual([
      {
        user_id: added.user_id,
        email,
        role: 'developer',
        status: 'active',
        two_factor: false,
        created_at: expect.any(String),
      },
    ]);
  });

  it('refuses an e-mail already taken, a bad role, a short password and a missing account', async () => {
    const account = await newAccount('users-refused');
    const id = String(account.developerId);
    const taken = await newUser(account.developerId, { role: 'viewer' });
    await expectCliRefusal(
      ['users', 'add', '--account', id, '--email', taken.email.toUpperCase(), '--role', 'viewer'],
      1,
      'is already a dashboard user',
    );
    await expectCliRefusal(
      ['users', 'add', '--account', id, '--email', newEmail('x'), '--role', 'owner'],
      2,
      /^cobro: --role: role: admin, developer, support or viewer; see: npm run -s cli -- users add --help$/m,
    );
    await expectCliRefusal(
      ['users', 'add', '--account', id, '--email', newEmail('x')],
      2,
      '--role: role is required',
    );
    await expectCliRefusal(
      ['users', 'add', '--email', newEmail('x'), '--role', 'admin'],
      2,
      '--account: account is required',
    );
    await expectCliRefusal(
      ['users', 'add', '--account', id, '--email', 'not-an-email', '--role', 'admin'],
      2,
      'not a valid e-mail address',
    );
    await expectCliRefusal(
      ['users', 'add', '--account', '999999999', '--email', newEmail('x'), '--role', 'admin'],
      1,
      'there is no account 999999999',
    );
    const short = newEmail('short');
    await expect(
      addWithPassword(['--account', id, '--email', short, '--role', 'admin'], 'too short\n'),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('at least 12 characters') });
    useLocalEnvironment();
    expect(await findUserByEmail(makeDeps(), short)).toBeUndefined();
    expect((await listUsers(makeDeps(), account.developerId)).map((user) => user.email)).toEqual([
      taken.email,
    ]);
  });

  it('on a deployed table, says what a link needs and changes nothing without it', async () => {
    const account = await newAccount('users-deployed');
    // The deployed case: TABLE_NAME set (target() leaves the environment as it is), and only what
    // the operator sets.
    const {
      [envNames.fingerprintSecret]: _secret,
      [envNames.publicBaseUrl]: _base,
      ...environment
    } = localEnvironment(localInfo);
    const deployed = (extra: Record<string, string>, ...args: string[]) =>
      run(process.execPath, [join(projectRoot, 'bin/cli.ts'), ...args], {
        cwd: projectRoot,
        env: { PATH: process.env.PATH, ...environment, ...extra },
      });
    const email = newEmail('deployed');
    const args = [
      'users',
      'add',
      '--account',
      String(account.developerId),
      '--email',
      email,
      '--role',
      'admin',
    ];
    await expect(deployed({}, ...args)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /needs FINGERPRINT_SECRET_ID \(the stack's FingerprintSecretArn output\) and PUBLIC_BASE_URL \(the stack's PublicBaseUrl output\).*nothing was changed/,
      ),
    });
    useLocalEnvironment();
    expect(await findUserByEmail(makeDeps(), email)).toBeUndefined();

    const { stdout } = await deployed(
      {
        [envNames.fingerprintSecret]: localEnvironment(localInfo)[envNames.fingerprintSecret] as string,
        [envNames.publicBaseUrl]: localInfo.api_url,
      },
      ...args,
    );
    expect((await newBrowser().get(linkIn(stdout))).status).toBe(200);
  });
});

describe('users remove', () => {
  it("never removes an account's last admin; another user goes, its sessions with it", async () => {
    const account = await newAccount('users-remove');
    const id = String(account.developerId);
    const admin = await newUser(account.developerId, { role: 'admin' });
    await expectCliRefusal(
      ['users', 'remove', '--account', id, '--email', admin.email],
      1,
      'is the last admin',
    );
    useLocalEnvironment();
    expect(await getUser(makeDeps(), admin.user.user_id)).toMatchObject({ role: 'admin' });
    expect(await audited(account.developerId, 'user.remove', admin.user.user_id)).toEqual([]);

    const support = await newUser(account.developerId, { role: 'support' });
    const browser = await newBrowser().signedInAs(support);
    expect((await browser.get('')).status).toBe(200);
    const { stdout } = await cli('users', 'remove', '--account', id, '--email', support.email);
    expect(stdout).toContain(`removed ${support.email} (support) from account ${id}`);
    expect(await getUser(makeDeps(), support.user.user_id)).toBeUndefined();
    expect(await audited(account.developerId, 'user.remove', support.user.user_id)).toHaveLength(1);
    // Its session is over: the dashboard sends the browser to sign in.
    const after = await browser.get('');
    expect(after.status).toBe(303);
    expect(after.location).toBe(dashboardUrl('sign-in'));

    // Another account's user is no user of this one.
    const other = await newAccount('users-remove-other');
    const stranger = await newUser(other.developerId, { role: 'viewer' });
    await expectCliRefusal(
      ['users', 'remove', '--account', id, '--email', stranger.email],
      1,
      `account ${id} has no dashboard user`,
    );
    expect(await getUser(makeDeps(), stranger.user.user_id)).toBeDefined();
  });
});

describe('users reset-password', () => {
  it('prints a new set-password link; --clear-two-factor also removes the second factor', async () => {
    const account = await newAccount('users-reset');
    const id = String(account.developerId);
    const user = await newUser(account.developerId, { role: 'support', twoFactor: true });
    useLocalEnvironment();

    const kept = await cli('users', 'reset-password', '--account', id, '--email', user.email);
    expect(kept.stdout).toContain('valid 24 hours');
    const firstLink = linkIn(kept.stdout);
    expect((await getUser(makeDeps(), user.user.user_id))?.totp_sealed).toBeDefined();

    const cleared = await cli(
      'users',
      'reset-password',
      '--account',
      id,
      '--email',
      user.email,
      '--clear-two-factor',
    );
    expect(cleared.stdout).toContain('second factor removed');
    const link = linkIn(cleared.stdout);
    expect(link).not.toBe(firstLink);
    // The newer link replaced the earlier one: the earlier opens nothing now, the newer its form.
    expect((await newBrowser().get(firstLink)).status).toBe(404);
    expect((await newBrowser().get(link)).status).toBe(200);
    expect((await getUser(makeDeps(), user.user.user_id))?.totp_sealed).toBeUndefined();
    expect(await audited(account.developerId, 'user.reset_password', user.user.user_id)).toHaveLength(2);
    const listed = JSON.parse((await cli('users', 'list', '--account', id, '--json')).stdout);
    expect(listed).toEqual([expect.objectContaining({ email: user.email, two_factor: false })]);

    // The old password works until the link sets a new one; then only the new one does.
    expect((await newBrowser().signIn(user.email, user.password)).status).toBe(303);
    const password = `pw-${randomUUID()}`;
    const { done } = await setPasswordThrough(link, password);
    expect(done.status, done.html).toBe(303);
    expect((await newBrowser().signIn(user.email, user.password)).status).toBe(401);
    expect((await newBrowser().signIn(user.email, password)).status).toBe(303);
  });

  it('refuses an e-mail that is no user of the account', async () => {
    const account = await newAccount('users-reset-none');
    await expectCliRefusal(
      ['users', 'reset-password', '--account', String(account.developerId), '--email', newEmail('nobody')],
      1,
      'has no dashboard user',
    );
  });
});

describe("the local stack's demo admin", () => {
  it('is the demo account’s one admin, active, and each start’s link (replacing the one before) signs it in once', async () => {
    const demo = localInfo.demo;
    if (!demo) throw new Error('the test stack recorded no demo account');
    const listed = JSON.parse(
      (await cli('users', 'list', '--account', String(demo.developer_id), '--json')).stdout,
    );
    expect(listed).toEqual([expect.objectContaining({ email: demo.email, role: 'admin', status: 'active' })]);

    // What the next start does: the same user, found by its e-mail, and a fresh link.
    useLocalEnvironment();
    const [first, second] = [await demoAdminLink(demo), await demoAdminLink(demo)];
    expect(first).toMatchObject({ email: demo.email, purpose: 'sign_in', hasPassword: false });
    expect(second?.url).not.toBe(first?.url);
    expect(await listUsers(makeDeps(), demo.developer_id)).toHaveLength(1);

    // The newer start's link replaced the earlier one, which opens nothing now.
    expect((await newBrowser().get(first?.url ?? '')).status).toBe(404);
    const browser = newBrowser();
    const form = await browser.get(second?.url ?? '');
    expect(form.status, form.html).toBe(200);
    expect(form.html).toContain(demo.email);
    const done = await browser.post(second?.url ?? '', { csrf_token: formToken(form.html) });
    expect(done.status, done.html).toBe(303);
    expect(done.location).toBe(dashboardUrl());
    expect((await browser.get('')).status).toBe(200);
    expect((await newBrowser().get(second?.url ?? '')).status).toBe(404);
    // No password was set: none signs in.
    expect((await newBrowser().signIn(demo.email, 'no password works here')).status).toBe(401);
  });
});
