/**
 * The dashboard's admin pages through the local gateway (D20): an admin invites a user, whose
 * e-mailed one-time link signs them in with the invited role (and works once); role changes and
 * removals, never of the account's last admin, two admins removing each other at once included;
 * removal ending the removed user's session; the audit log naming who did what; the connectors page
 * showing and changing what each mode moves money through, never echoing a secret; and every other
 * role refused (403) on every admin page and form, with nothing changed.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { newStandInStripeAccount } from '../../infra/local/stripe-accounts.ts';
import { connectionsOf } from '../../shared/acquirer/connect.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { auditPage } from '../../shared/team/audit.ts';
import type { Role } from '../../shared/team/roles.ts';
import { listUsers } from '../../shared/team/users.ts';
import { payThroughCheckout } from '../support/checkout.ts';
import { DashboardClient, dashboardUrl, formToken, hiddenField } from '../support/dashboard.ts';
import { waitForMail } from '../support/mail.ts';
import {
  api,
  apiKey,
  localInfo,
  newAccount,
  type TestAccount,
  useLocalEnvironment,
} from '../support/stack.ts';
import { newUser } from '../support/team.ts';

beforeAll(() => {
  useLocalEnvironment();
});

/** A new account with one admin signed in (in test mode). */
async function adminOf(label: string): Promise<{ account: TestAccount; admin: DashboardClient }> {
  const account = await newAccount(label);
  const admin = await new DashboardClient().signedIn(account.testKey);
  return { account, admin };
}

const emailOf = (client: DashboardClient) => client.user?.email as string;
const userIdOf = (client: DashboardClient) => client.user?.user.user_id as string;

/** The users of an account as stored, without the time of their last change. */
const usersOf = async (developerId: number) =>
  (await listUsers(makeDeps(), developerId)).map(({ updated_at: _, ...user }) => user);

/** The audit log's rows as the page shows them: the action, who (an e-mail) and the record. */
function auditRows(page: string) {
  return page
    .split('<tr role="row">')
    .slice(2)
    .map((row) => ({
      action: /data-action="([^"]*)"/.exec(row)?.[1],
      who: /data-label="Who">([^<]*)</.exec(row)?.[1],
      record: /data-label="Record"><code>([^<]*)</.exec(row)?.[1],
      mode: /data-label="Mode">([^<]*)</.exec(row)?.[1],
    }));
}

/** Invites `email` as `role` from the users page: the form's answer. */
async function invite(admin: DashboardClient, email: string, role: Role) {
  const page = await admin.get('users');
  expect(page.status, page.html).toBe(200);
  return admin.post('users', {
    csrf_token: formToken(page.html),
    idempotency_key: hiddenField(page.html, 'idempotency_key'),
    email,
    role,
  });
}

describe('an invitation', () => {
  it('e-mails a one-time link that signs the new user in with the role given, once', async () => {
    const { account, admin } = await adminOf('team-invite');
    const auth = apiKey(account.testKey);
    const { chargeId } = await payThroughCheckout(auth, { payment: { description: 'Team order' } });

    const list = await admin.get('users');
    expect(list.status, list.html).toBe(200);
    expect(list.html).toContain(emailOf(admin));
    expect(list.html).toContain('(you)');
    const unique = randomUUID();
    // Typed with capitals: the address is stored, mailed and signs in lower-cased.
    const email = `Support-${unique}@Team.Example.com`;
    const form = {
      csrf_token: formToken(list.html),
      idempotency_key: hiddenField(list.html, 'idempotency_key'),
      email,
      role: 'support',
    };
    const sent = await admin.post('users', form);
    expect(sent.status, sent.html).toBe(303);
    expect(sent.location).toBe(dashboardUrl('users?invited=1'));
    expect((await admin.get('users?invited=1')).html).toContain('Invitation sent.');
    // The same form again (a double submit) invites nobody more and logs nothing more.
    const again = await admin.post('users', form);
    expect(again.status, again.html).toBe(303);
    const invited = (await usersOf(account.developerId)).filter((user) => user.role === 'support');
    expect(invited).toEqual([
      expect.objectContaining({
        email: email.toLowerCase(),
        status: 'invited',
        added_by: userIdOf(admin),
      }),
    ]);
    expect(invited[0]).not.toHaveProperty('password_hash');

    const mail = await waitForMail(email.toLowerCase());
    expect(mail.subject).toBe('You are invited to the cobro dashboard of Test team-invite');
    expect(mail.body.text).toContain(emailOf(admin));
    expect(mail.body.text).toContain('as support: reads, refunds');
    expect(mail.body.text).toContain('expires in 7 days');
    const token = new RegExp(`^${dashboardUrl('access/')}([A-Za-z0-9]{43})$`, 'm').exec(mail.body.text)?.[1];
    expect(token, mail.body.text).toBeDefined();
    expect(mail.body.html).toContain(`href="${dashboardUrl(`access/${token}`)}"`);

    // The new user follows the link and sets a password: signed in, as support.
    const newcomer = new DashboardClient();
    const link = await newcomer.get(`access/${token}`);
    expect(link.status, link.html).toBe(200);
    expect(link.html).toContain(email.toLowerCase());
    const password = `pass-${randomUUID()}`;
    const set = await newcomer.post(`access/${token}`, {
      csrf_token: formToken(link.html),
      password,
      confirm: password,
    });
    expect(set.status, set.html).toBe(303);
    expect(set.location).toBe(dashboardUrl());
    const home = await newcomer.get('');
    expect(home.status, home.html).toBe(200);
    expect(home.html).toContain(`${email.toLowerCase()} (Support)`);

    // Support refunds, but the admin pages are not theirs.
    const charge = await newcomer.get(`charges/${chargeId}`);
    expect(charge.status, charge.html).toBe(200);
    const refund = await newcomer.post(`charges/${chargeId}/refunds`, {
      csrf_token: formToken(charge.html),
      idempotency_key: hiddenField(charge.html, 'idempotency_key'),
      amount: '',
      reason: 'duplicate',
    });
    expect(refund.status, refund.html).toBe(303);
    expect((await api('GET', `/v1/charges/${chargeId}/`, { auth })).json.amount_refunded).toBeGreaterThan(0);
    for (const page of ['users', 'audit', 'connectors']) {
      const refused = await newcomer.get(page);
      expect(refused.status, page).toBe(403);
      expect(refused.html).toContain('Your role does not allow this page or action');
    }

    // The link was used: it opens nothing, and signs nobody in.
    const stranger = new DashboardClient();
    const used = await stranger.get(`access/${token}`);
    expect(used.status).toBe(404);
    const reused = await stranger.post(`access/${token}`, {
      csrf_token: formToken(used.html),
      password,
      confirm: password,
    });
    expect(reused.status).toBe(404);
    expect(stranger.jar.has('cobro_dashboard')).toBe(false);

    // The users page shows them active; the audit log names who invited and who refunded.
    const after = await admin.get('users');
    const row = after.html.split('<tr role="row">').find((tr) => tr.includes(email.toLowerCase())) ?? '';
    expect(row).toContain('data-status="active"');
    expect(row).toContain('data-role="support"');
    const newcomerId = invited[0]?.user_id as string;
    const log = auditRows((await admin.get('audit')).html);
    expect(log.filter((entry) => entry.action === 'user.invite')).toEqual([
      { action: 'user.invite', who: emailOf(admin), record: newcomerId, mode: '' },
    ]);
    // The refund's record is the charges area's to name: only who did it, in which mode, is checked.
    expect(log).toContainEqual(
      expect.objectContaining({ action: 'refund.create', who: email.toLowerCase(), mode: 'Test' }),
    );
    // Newest first: the refund came after the invitation.
    const at = (action: string) => log.findIndex((entry) => entry.action === action);
    expect(at('refund.create')).toBeLessThan(at('user.invite'));
  });

  it('refuses an address that is a user’s already (409) and one that is no address (400): nobody is added', async () => {
    const { account, admin } = await adminOf('team-invite-twice');
    const email = `twice-${randomUUID()}@team.example.com`;
    expect((await invite(admin, email, 'viewer')).status).toBe(303);
    const before = await usersOf(account.developerId);

    const twice = await invite(admin, email.toUpperCase(), 'admin');
    expect(twice.status, twice.html).toBe(409);
    expect(twice.html).toContain('This e-mail address already signs in to cobro');
    // A user of another account has the address for the whole stage.
    const elsewhere = await newUser((await newAccount('team-elsewhere')).developerId, { role: 'viewer' });
    expect((await invite(admin, elsewhere.email, 'viewer')).status).toBe(409);
    const malformed = await invite(admin, 'not an address', 'viewer');
    expect(malformed.status).toBe(400);
    expect(malformed.html).toContain('Enter an e-mail address such as');
    expect(malformed.html).toContain('value="not an address"');
    const noRole = await invite(admin, `role-${randomUUID()}@team.example.com`, 'owner' as Role);
    expect(noRole.status).toBe(400);
    expect(noRole.html).toContain('Choose one of the roles.');

    expect(await usersOf(account.developerId)).toEqual(before);
    const invites = (await auditPage(makeDeps(), account.developerId)).entries.filter(
      (entry) => entry.action === 'user.invite',
    );
    expect(invites).toHaveLength(1);
  });
});

describe('changing and removing users', () => {
  it('a role change applies at the next page; a removal ends the session; the log names the admin', async () => {
    const { account, admin } = await adminOf('team-change');
    const target = await newUser(account.developerId, { role: 'viewer', label: 'target' });
    const id = target.user.user_id;
    const browser = await new DashboardClient().signedInAs(target);
    expect((await browser.get('api-keys')).status).toBe(403);

    const page = await admin.get('users');
    const changed = await admin.post(`users/${id}/role`, {
      csrf_token: formToken(page.html),
      role: 'developer',
    });
    expect(changed.status, changed.html).toBe(303);
    expect(changed.location).toBe(dashboardUrl(`users?changed=${id}`));
    expect((await admin.get(`users?changed=${id}`)).html).toContain(`${target.email} is now Developer.`);
    // A developer opens the API keys page, from their very next request.
    expect((await browser.get('api-keys')).status).toBe(200);

    const confirm = await admin.get(`users/${id}/remove`);
    expect(confirm.status, confirm.html).toBe(200);
    expect(confirm.html).toContain(`Remove ${target.email}`);
    const removed = await admin.post(`users/${id}/remove`, { csrf_token: formToken(confirm.html) });
    expect(removed.status, removed.html).toBe(303);
    expect(removed.location).toBe(dashboardUrl('users?removed=1'));
    expect((await usersOf(account.developerId)).map((user) => user.user_id)).toEqual([userIdOf(admin)]);
    // The removed user's session is over: the next page is the sign-in form.
    const next = await browser.get('');
    expect(next.status).toBe(303);
    expect(next.location).toBe(dashboardUrl('sign-in'));
    // Removed again: no such user any more.
    expect((await admin.post(`users/${id}/remove`, { csrf_token: formToken(confirm.html) })).status).toBe(
      404,
    );

    const log = auditRows((await admin.get('audit')).html);
    expect(log).toContainEqual({ action: 'user.role', who: emailOf(admin), record: id, mode: '' });
    expect(log).toContainEqual({ action: 'user.remove', who: emailOf(admin), record: id, mode: '' });
    expect(log.filter((entry) => entry.action === 'user.remove')).toHaveLength(1);
    // The removed user's e-mail stays readable in the log beside the id, which no longer names anyone.
    const auditHtml = (await admin.get('audit')).html;
    expect(auditHtml).toContain(`${target.email} (developer)`);
    expect(auditHtml).toContain(`${target.email}: viewer to developer`);
  });

  it('a user that is no user of the account is 404 to every form and page, and nothing changes', async () => {
    const { account, admin } = await adminOf('team-404');
    const other = await newUser((await newAccount('team-404-other')).developerId, { role: 'viewer' });
    const otherBefore = await usersOf(other.user.developer_id);
    const before = await usersOf(account.developerId);
    const csrf = formToken((await admin.get('users')).html);
    for (const id of [other.user.user_id, `usr_${'A'.repeat(24)}`, 'nobody']) {
      expect((await admin.get(`users/${id}/remove`)).status, id).toBe(404);
      const role = await admin.post(`users/${id}/role`, { csrf_token: csrf, role: 'admin' });
      expect(role.status, id).toBe(404);
      expect(role.html).toContain('No such user in this account.');
      expect((await admin.post(`users/${id}/remove`, { csrf_token: csrf })).status, id).toBe(404);
    }
    expect(await usersOf(other.user.developer_id)).toEqual(otherBefore);
    expect(await usersOf(account.developerId)).toEqual(before);
    expect((await auditPage(makeDeps(), account.developerId)).entries).toEqual([]);
  });

  it('the last admin can be neither demoted nor removed (409, nothing changed)', async () => {
    const { account, admin } = await adminOf('team-last-admin');
    await newUser(account.developerId, { role: 'viewer' });
    const before = await usersOf(account.developerId);
    const adminId = userIdOf(admin);

    const page = await admin.get('users');
    const demoted = await admin.post(`users/${adminId}/role`, {
      csrf_token: formToken(page.html),
      role: 'viewer',
    });
    expect(demoted.status, demoted.html).toBe(409);
    expect(demoted.html).toContain('An account keeps at least one admin');
    const confirm = await admin.get(`users/${adminId}/remove`);
    expect(confirm.html).toContain('This is you: you will be signed out.');
    const removed = await admin.post(`users/${adminId}/remove`, { csrf_token: formToken(confirm.html) });
    expect(removed.status, removed.html).toBe(409);
    expect(removed.html).toContain('An account keeps at least one admin');

    expect(await usersOf(account.developerId)).toEqual(before);
    expect((await auditPage(makeDeps(), account.developerId)).entries).toEqual([]);
    expect((await admin.get('users')).status).toBe(200);
  });

  it('two admins removing the same user at the same moment: one removes it, the other is told it is gone (404)', async () => {
    const { account, admin: first } = await adminOf('team-race-same');
    const second = await new DashboardClient().signedIn(account.testKey);
    const target = (await newUser(account.developerId, { role: 'viewer' })).user.user_id;
    const pages = await Promise.all([
      first.get(`users/${target}/remove`),
      second.get(`users/${target}/remove`),
    ]);
    const answers = await Promise.all(
      [first, second].map((admin, n) =>
        admin.post(`users/${target}/remove`, { csrf_token: formToken(pages[n]?.html ?? '') }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 404]);
    expect((await usersOf(account.developerId)).map((user) => user.user_id)).not.toContain(target);
    const removals = (await auditPage(makeDeps(), account.developerId)).entries.filter(
      (entry) => entry.action === 'user.remove',
    );
    expect(removals).toHaveLength(1);
  });

  it('two admins removing each other at the same moment: exactly one stays', async () => {
    const { account, admin: first } = await adminOf('team-race');
    const second = await new DashboardClient().signedIn(account.testKey);
    const [firstPage, secondPage] = await Promise.all([
      first.get(`users/${userIdOf(second)}/remove`),
      second.get(`users/${userIdOf(first)}/remove`),
    ]);
    const answers = await Promise.all([
      first.post(`users/${userIdOf(second)}/remove`, { csrf_token: formToken(firstPage.html) }),
      second.post(`users/${userIdOf(first)}/remove`, { csrf_token: formToken(secondPage.html) }),
    ]);
    const done = answers.filter((answer) => answer.location === dashboardUrl('users?removed=1'));
    expect(done, answers.map((answer) => `${answer.status} ${answer.location}`).join(', ')).toHaveLength(1);
    // The other was refused (the last admin), or found its own user already removed.
    const other = answers.find((answer) => !done.includes(answer));
    expect([409, 303]).toContain(other?.status);
    if (other?.status === 303) expect(other.location).toBe(dashboardUrl('sign-in'));

    const left = await usersOf(account.developerId);
    expect(left).toHaveLength(1);
    expect(left[0]?.role).toBe('admin');
    const survivor = left[0]?.user_id === userIdOf(first) ? first : second;
    expect((await survivor.get('users')).status).toBe(200);
    const removals = (await auditPage(makeDeps(), account.developerId)).entries.filter(
      (entry) => entry.action === 'user.remove',
    );
    expect(removals).toEqual([expect.objectContaining({ actor_email: emailOf(survivor) })]);
  });
});

describe('roles other than admin', () => {
  it('get 403 on the users, audit and connectors pages and every form of them, and nothing changes', async () => {
    const { account, admin } = await adminOf('team-refused');
    const target = (await newUser(account.developerId, { role: 'viewer', label: 'target' })).user.user_id;
    const deps = makeDeps();
    const snapshot = async () => ({
      users: await usersOf(account.developerId),
      connections: await connectionsOf(deps, account.developerId),
      audit: (await auditPage(deps, account.developerId)).entries,
    });
    const clients = [
      await new DashboardClient().signedIn(account.testKey, 'viewer'),
      await new DashboardClient().signedIn(account.testKey, 'developer'),
      await new DashboardClient().signedIn(account.testKey, 'support'),
    ];
    const before = await snapshot();
    for (const client of clients) {
      const role = client.user?.user.role;
      const csrf = formToken((await client.get('')).html);
      for (const page of [
        'users',
        'audit',
        'connectors',
        `users/${target}/remove`,
        'connectors/live/disconnect',
      ]) {
        const refused = await client.get(page);
        expect(refused.status, `${role} GET ${page}`).toBe(403);
        expect(refused.html).toContain('Your role does not allow this page or action');
      }
      const forms: [string, Record<string, string>][] = [
        [
          'users',
          {
            email: `refused-${randomUUID()}@team.example.com`,
            role: 'admin',
            idempotency_key: 'R'.repeat(32),
          },
        ],
        [`users/${target}/role`, { role: 'admin' }],
        [`users/${userIdOf(admin)}/role`, { role: 'viewer' }],
        [`users/${target}/remove`, {}],
        ['connectors/live', { stripe_key: 'sk_live_refused', idempotency_key: 'S'.repeat(32) }],
        ['connectors/live/disconnect', {}],
      ];
      for (const [path, fields] of forms) {
        const refused = await client.post(path, { csrf_token: csrf, ...fields });
        expect(refused.status, `${role} POST ${path}`).toBe(403);
      }
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('the connectors page', () => {
  it('shows the simulated live connection, connects live mode to Stripe without echoing a secret, and disconnects it', async () => {
    const { account, admin: plain } = await adminOf('team-connectors');
    const deps = makeDeps();
    // Live mode's connection moves live money: an admin without a second factor may not change it.
    const unsecured = await plain.get('connectors');
    expect(unsecured.status).toBe(200);
    const csrf = formToken(unsecured.html);
    for (const path of ['connectors/live', 'connectors/live/disconnect']) {
      const refused = await plain.post(path, {
        csrf_token: csrf,
        idempotency_key: 'T'.repeat(32),
        stripe_key: 'sk_live_x',
      });
      expect(refused.status, refused.html).toBe(403);
      expect(refused.html).toContain('Live mode needs two-factor sign-in');
    }
    const admin = new DashboardClient();
    admin.user = await newUser(account.developerId, { twoFactor: true });
    await admin.signedInAs(admin.user);
    const page = await admin.get('connectors');
    expect(page.status, page.html).toBe(200);
    expect(page.html).toContain('The simulated acquirer: no real money moves (local stack only)');
    expect((await connectionsOf(deps, account.developerId)).map((c) => c.connector)).toEqual([
      'simulated',
      'simulated',
    ]);
    expect(page.html).toMatch(
      /<input id="stripe_key_live" name="stripe_key" type="password" autocomplete="off"/,
    );
    // The live mode's form: the key made with it, after its action.
    const liveForm = (html: string) => ({
      csrf_token: formToken(html),
      idempotency_key: hiddenField(html.slice(html.indexOf('/connectors/live"')), 'idempotency_key'),
    });

    // A test key cannot connect live mode: refused before anything is stored, the key not shown.
    const wrongKey = `sk_test_${randomUUID().replaceAll('-', '')}`;
    const refused = await admin.post('connectors/live', { ...liveForm(page.html), stripe_key: wrongKey });
    expect(refused.status, refused.html).toBe(400);
    expect(refused.html).toContain('Nothing was connected: a test key cannot connect live mode');
    expect(refused.html).not.toContain(wrongKey);
    expect((await connectionsOf(deps, account.developerId))[1]?.connector).toBe('simulated');

    const stripe = await newStandInStripeAccount(localInfo, account.developerId);
    const form = {
      ...liveForm(page.html),
      stripe_key: stripe.live_key,
      stripe_webhook_secret: stripe.live_webhook_secret,
    };
    const connected = await admin.post('connectors/live', form);
    expect(connected.status, connected.html).toBe(303);
    expect(connected.location).toBe(dashboardUrl('connectors?connected=live'));
    // The same form again connects nothing more.
    expect((await admin.post('connectors/live', form)).status).toBe(303);
    const live = (await connectionsOf(deps, account.developerId))[1];
    expect(live).toMatchObject({ mode: 'live', connector: 'stripe', stripe_account: stripe.account_id });
    const shown = await admin.get('connectors?connected=live');
    expect(shown.html).toContain('Live mode is connected to Stripe.');
    expect(shown.html).toContain(stripe.account_id);
    expect(shown.html).toContain(live?.key as string);
    for (const secret of [stripe.live_key, stripe.live_webhook_secret]) {
      expect(shown.html).not.toContain(secret);
      expect(connected.html).not.toContain(secret);
    }

    const confirm = await admin.get('connectors/live/disconnect');
    expect(confirm.status, confirm.html).toBe(200);
    expect(confirm.html).toContain('every live payment, refund and renewal is refused');
    const disconnected = await admin.post('connectors/live/disconnect', {
      csrf_token: formToken(confirm.html),
    });
    expect(disconnected.status, disconnected.html).toBe(303);
    expect(disconnected.location).toBe(dashboardUrl('connectors?disconnected=live'));
    expect((await connectionsOf(deps, account.developerId))[1]?.connector).toBe('none');
    expect((await admin.get('connectors')).html).toContain('data-connector="none"');

    expect((await admin.get('connectors/sideways/disconnect')).status).toBe(404);
    const log = auditRows((await admin.get('audit')).html);
    expect(log.filter((entry) => entry.action?.startsWith('connector.'))).toEqual([
      { action: 'connector.disconnect', who: emailOf(admin), record: 'live', mode: 'Test' },
      { action: 'connector.connect', who: emailOf(admin), record: 'live', mode: 'Test' },
    ]);
  });
});

describe('the audit log', () => {
  it('pages 50 entries at a time, newest first, through `before`; refuses a malformed `before` (400)', async () => {
    const { account, admin } = await adminOf('team-audit');
    // 51 role changes of one user, one entry each, so the log needs a second page.
    const target = (await newUser(account.developerId, { role: 'viewer' })).user.user_id;
    const csrf = formToken((await admin.get('users')).html);
    for (let i = 0; i < 51; i++) {
      const answer = await admin.post(`users/${target}/role`, {
        csrf_token: csrf,
        role: i % 2 === 0 ? 'developer' : 'viewer',
      });
      expect(answer.status).toBe(303);
    }
    const first = await admin.get('audit');
    expect(first.status).toBe(200);
    expect(first.html).toContain('The audit log is read-only');
    expect(auditRows(first.html)).toHaveLength(50);
    const older = /<a href="([^"]*audit\?before=[^"]*)" rel="next">/.exec(first.html)?.[1];
    expect(older, first.html).toBeDefined();
    const second = await admin.get((older as string).replaceAll('&amp;', '&'));
    expect(second.status, second.html).toBe(200);
    expect(auditRows(second.html)).toHaveLength(1);
    expect(second.html).not.toContain('rel="next"');
    // Nothing on either page edits or deletes an entry.
    for (const shown of [first.html, second.html]) expect(shown).not.toMatch(/<form[^>]*action="[^"]*audit/);

    for (const before of ['yesterday', '2026-01-01T00:00:00.000Z']) {
      const malformed = await admin.get(`audit?${new URLSearchParams({ before })}`);
      expect(malformed.status, before).toBe(400);
    }
  });
});
