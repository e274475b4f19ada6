/**
 * The signed-in user's own profile against the local stack: setting up the TOTP second factor (the
 * QR code drawn inline, the key as text, a code from it made by the tests' own RFC 6238 code) and
 * what it opens (the code step of sign-in, each code once, live mode); turning it off with the
 * password (the session back in test mode); changing the password, which ends every other session
 * of the user while this one goes on; and the refusals that change nothing. Each change is in the
 * account's audit log.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeDeps } from '../../shared/db/deps.ts';
import { type AuditEntry, auditPage } from '../../shared/team/audit.ts';
import { getUser } from '../../shared/team/users.ts';
import { DashboardClient, dashboardUrl, formToken, hiddenField } from '../support/dashboard.ts';
import { newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';
import { linkFor, newInvitedUser, newUser, type TestUser } from '../support/team.ts';
import { totpCode } from '../support/totp.ts';

let account: TestAccount;
let address = 0;

beforeAll(async () => {
  useLocalEnvironment();
  account = await newAccount('profile');
});

/**
 * A browser from a loopback address of its own (127.0.130.<n>): the wrong codes and passwords
 * these tests send never meet another suite's in the per-address sign-in limit.
 */
const client = () => new DashboardClient({}, { from: `127.0.130.${++address}` });

/** A 6-digit code that is none of those the secret makes for the steps around now. */
function wrongCode(secret: string): string {
  const near = new Set([-2, -1, 0, 1, 2].map((steps) => totpCode(secret, new Date(), steps)));
  return ['000000', '111111', '222222', '333333', '444444', '555555'].find(
    (code) => !near.has(code),
  ) as string;
}

/** The key the set-up page shows: its data attribute, and the same key as typed, in groups of 4. */
function shownKey(page: string): string {
  const key = /data-totp-secret="([A-Z2-7]+)">([A-Z2-7 ]+)<\/code>/.exec(page);
  expect(key, page.slice(0, 2000)).not.toBeNull();
  const [, secret = '', grouped = ''] = key ?? [];
  expect(grouped).toBe(secret.match(/.{1,4}/g)?.join(' '));
  expect(secret.length).toBeGreaterThanOrEqual(32);
  return secret;
}

/** The account's audit log entries of `action` naming `user`, newest first. */
async function audited(action: string, user: TestUser): Promise<AuditEntry[]> {
  const { entries } = await auditPage(makeDeps(), account.developerId);
  return entries.filter((entry) => entry.action === action && entry.actor_id === user.user.user_id);
}

/** The profile page, 200. */
async function profile(browser: DashboardClient): Promise<string> {
  const page = await browser.get('profile');
  expect(page.status, page.html).toBe(200);
  return page.html;
}

/** The mode the dashboard's bar says the session is in. */
async function modeShown(browser: DashboardClient): Promise<string | undefined> {
  const page = await browser.get('');
  expect(page.status, page.html).toBe(200);
  return /data-mode="(test|live)"/.exec(page.html)?.[1];
}

/** Sets the second factor up from the profile: the set-up page, then a code from its key. The key. */
async function enrol(browser: DashboardClient): Promise<string> {
  const started = await browser.post('profile/two-factor/start', {
    csrf_token: formToken(await profile(browser)),
  });
  expect(started.status, started.html).toBe(200);
  const secret = shownKey(started.html);
  const on = await browser.post('profile/two-factor', {
    csrf_token: formToken(started.html),
    code: totpCode(secret),
  });
  expect(on.status, on.html).toBe(303);
  expect(on.location).toBe(dashboardUrl('profile?two_factor=on'));
  return secret;
}

describe('the second factor', () => {
  it('is set up from a QR code and its key, then asked for at every sign-in, each code once; it opens live mode', async () => {
    const user = await newUser(account.developerId, { role: 'viewer' });
    const browser = await client().signedInAs(user);

    // Before: off, and live mode refused (403), the session still in test mode.
    const before = await profile(browser);
    expect(before).toContain(user.email);
    expect(before).toContain('Viewer');
    expect(before).toContain('data-two-factor="off"');
    const live = await browser.switchMode('live');
    expect(live.status, live.html).toBe(403);
    expect(live.html).toContain('Live mode needs two-factor sign-in');
    expect(await modeShown(browser)).toBe('test');

    // The set-up page: the QR code drawn inline (no script, no image to fetch), the key as text.
    const started = await browser.post('profile/two-factor/start', { csrf_token: formToken(before) });
    expect(started.status, started.html).toBe(200);
    expect(started.headers.get('cache-control')).toBe('no-store');
    expect(started.html).toMatch(/<svg class="qr" role="img" aria-label="[^"]+" viewBox="0 0 (\d+) \1"/);
    expect(started.html).toMatch(/<path fill="#000" d="(M\d+ \d+h1v1h-1z)+"/);
    expect(started.html).not.toMatch(/<script|<img/i);
    const policy = started.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toMatch(/script-src|unsafe-inline/);
    const secret = shownKey(started.html);
    // Still off: the pending secret signs nobody in, and nothing of it is stored in clear.
    const pending = await getUser(makeDeps(), user.user.user_id);
    expect(pending?.totp_sealed).toBeUndefined();
    expect(JSON.stringify(pending)).not.toContain(secret);

    // A wrong code: the set-up page again, 400, with the same key; still off.
    const wrong = await browser.post('profile/two-factor', {
      csrf_token: formToken(started.html),
      code: wrongCode(secret),
    });
    expect(wrong.status, wrong.html).toBe(400);
    expect(wrong.html).toContain('That code is not right');
    expect(shownKey(wrong.html)).toBe(secret);
    expect(await profile(browser)).toContain('data-two-factor="off"');
    expect(await audited('user.two_factor_on', user)).toEqual([]);

    // The right code: on.
    const on = await browser.post('profile/two-factor', {
      csrf_token: formToken(started.html),
      code: totpCode(secret),
    });
    expect(on.status, on.html).toBe(303);
    expect(on.location).toBe(dashboardUrl('profile?two_factor=on'));
    const after = await browser.get('profile?two_factor=on');
    expect(after.html).toContain('data-two-factor="on"');
    expect(after.html).toContain('Two-factor sign-in is on. You can switch to live mode now.');
    const stored = await getUser(makeDeps(), user.user.user_id);
    expect(stored?.totp_sealed).toBeDefined();
    expect(JSON.stringify(stored)).not.toContain(secret);
    const [entry] = await audited('user.two_factor_on', user);
    expect(entry).toMatchObject({ record: user.user.user_id, actor_email: user.email });
    // A change to one's own sign-in is no mode's.
    expect(entry?.mode).toBeUndefined();

    // Live mode now opens.
    const switched = await browser.switchMode('live');
    expect(switched.status, switched.html).toBe(303);
    expect(await modeShown(browser)).toBe('live');

    // Signed out, signing in asks for the code: a wrong one is 401, the next step's opens a
    // session (the set-up took the current step's).
    const home = await browser.get('');
    expect((await browser.post('sign-out', { csrf_token: formToken(home.html) })).status).toBe(303);
    const again = client();
    const step = await again.signIn(user.email, user.password);
    expect(step.status, step.html).toBe(200);
    expect(step.html).toContain('name="code"');
    const refused = await again.post('sign-in/code', {
      csrf_token: formToken(step.html),
      challenge: hiddenField(step.html, 'challenge'),
      code: wrongCode(secret),
    });
    expect(refused.status, refused.html).toBe(401);
    const code = totpCode(secret, new Date(), 1);
    const opened = await again.post('sign-in/code', {
      csrf_token: formToken(step.html),
      challenge: hiddenField(step.html, 'challenge'),
      code,
    });
    expect(opened.status, opened.html).toBe(303);
    expect(opened.location).toBe(dashboardUrl());
    expect(await modeShown(again)).toBe('test');

    // The same code, in a new sign-in, works no more.
    const replay = client();
    const replayStep = await replay.signIn(user.email, user.password);
    expect(replayStep.status, replayStep.html).toBe(200);
    const replayed = await replay.post('sign-in/code', {
      csrf_token: formToken(replayStep.html),
      challenge: hiddenField(replayStep.html, 'challenge'),
      code,
    });
    expect(replayed.status, replayed.html).toBe(401);
    expect(replay.jar.has('cobro_dashboard')).toBe(false);

    // On already: another set-up is refused (409) until it is turned off, which asks for the password.
    const twice = await again.post('profile/two-factor/start', {
      csrf_token: formToken(await profile(again)),
    });
    expect(twice.status, twice.html).toBe(409);
    expect(twice.html).toContain('Two-factor sign-in is on already');
    expect((await getUser(makeDeps(), user.user.user_id))?.totp_sealed).toBe(stored?.totp_sealed);
  });

  it('is turned off with the password only, which puts a live session back in test mode', async () => {
    const user = await newUser(account.developerId, { role: 'support', twoFactor: true });
    const browser = await client().signedInAs(user);
    expect((await browser.switchMode('live')).status).toBe(303);
    expect(await modeShown(browser)).toBe('live');

    // A wrong password: 400, nothing changed.
    const page = await profile(browser);
    const wrong = await browser.post('profile/two-factor/remove', {
      csrf_token: formToken(page),
      password: `${user.password}x`,
    });
    expect(wrong.status, wrong.html).toBe(400);
    expect(wrong.html).toContain('That is not your current password; nothing was changed.');
    expect(wrong.html).toMatch(/id="remove_password"[^>]*aria-invalid="true"/);
    expect((await getUser(makeDeps(), user.user.user_id))?.totp_sealed).toBeDefined();
    expect(await modeShown(browser)).toBe('live');
    expect(await audited('user.two_factor_off', user)).toEqual([]);

    // The right one: off, and the session in test mode; live mode refused again.
    const off = await browser.post('profile/two-factor/remove', {
      csrf_token: formToken(page),
      password: user.password,
    });
    expect(off.status, off.html).toBe(303);
    expect(off.location).toBe(dashboardUrl('profile?two_factor=off'));
    expect((await browser.get('profile?two_factor=off')).html).toContain(
      'Two-factor sign-in is off; this session is in test mode.',
    );
    const stored = await getUser(makeDeps(), user.user.user_id);
    expect(stored?.totp_sealed).toBeUndefined();
    expect(await modeShown(browser)).toBe('test');
    expect((await browser.switchMode('live')).status).toBe(403);
    const [entry] = await audited('user.two_factor_off', user);
    expect(entry).toMatchObject({ record: user.user.user_id });
    expect(entry?.mode).toBeUndefined();

    // Signing in asks for no code now.
    expect((await client().signIn(user.email, user.password)).status).toBe(303);

    // Set up anew, the session stays in test mode: the switch back was stored, not only shown.
    await enrol(browser);
    expect(await modeShown(browser)).toBe('test');
  });
});

describe('the password', () => {
  it('changes in one session, which goes on, and ends every other session of the user', async () => {
    const user = await newUser(account.developerId, { role: 'developer' });
    const changer = await client().signedInAs(user);
    const other = await client().signedInAs(user);
    const page = await profile(changer);
    expect(page).toContain('name="current_password"');
    const fresh = `new-${crypto.randomUUID()}`;
    const version = async () => (await getUser(makeDeps(), user.user.user_id))?.password_version;
    const versionBefore = await version();

    // Refused, nothing changed: a wrong current password, a new one too short, two that differ.
    const refusals: [Record<string, string>, number, RegExp][] = [
      [
        { current_password: 'not my password', password: fresh, confirm: fresh },
        400,
        /That is not your current password/,
      ],
      [
        { current_password: user.password, password: 'short pass1', confirm: 'short pass1' },
        400,
        /at least 12 characters/,
      ],
      [
        { current_password: user.password, password: fresh, confirm: `${fresh}x` },
        400,
        /The two new passwords differ/,
      ],
    ];
    for (const [fields, status, says] of refusals) {
      const refused = await changer.post('profile/password', { csrf_token: formToken(page), ...fields });
      expect(refused.status, refused.html).toBe(status);
      expect(refused.html).toMatch(says);
      expect(refused.html).toContain('aria-invalid="true"');
    }
    expect(await version()).toBe(versionBefore);
    expect((await other.get('')).status).toBe(200);
    expect(await audited('user.password_change', user)).toEqual([]);

    // Changed: this session goes on, the other one is over.
    const changed = await changer.post('profile/password', {
      csrf_token: formToken(page),
      current_password: user.password,
      password: fresh,
      confirm: fresh,
    });
    expect(changed.status, changed.html).toBe(303);
    expect(changed.location).toBe(dashboardUrl('profile?password=1'));
    expect(await version()).toBe((versionBefore ?? 0) + 1);
    const notice = await changer.get('profile?password=1');
    expect(notice.status, notice.html).toBe(200);
    expect(notice.html).toContain('Your password was changed. Every other session of yours was signed out.');
    expect((await changer.get('')).status).toBe(200);
    const ended = await other.get('');
    expect(ended.status).toBe(303);
    expect(ended.location).toBe(dashboardUrl('sign-in'));
    const [entry] = await audited('user.password_change', user);
    expect(entry).toMatchObject({ record: user.user.user_id, actor_email: user.email });

    // The old password signs in no more; the new one does.
    expect((await client().signIn(user.email, user.password)).status).toBe(401);
    await client().signedInAs({ ...user, password: fresh });
  });

  it('is set without a current one by a user who has none yet (signed in by a one-time link)', async () => {
    useLocalEnvironment();
    // As the local stack's demo admin is made: active, with no password, signed in through a link.
    const added = await newInvitedUser(account.developerId, { role: 'admin', active: true });
    const email = added.email;
    const token = (await linkFor(added, 'sign_in', 60_000)).split('/').at(-1) as string;
    const browser = client();
    const form = await browser.get(`access/${token}`);
    expect(form.status, form.html).toBe(200);
    const opened = await browser.post(`access/${token}`, { csrf_token: formToken(form.html) });
    expect(opened.status, opened.html).toBe(303);

    const page = await profile(browser);
    expect(page).not.toContain('name="current_password"');
    expect(page).toContain('You have no password yet');
    const password = `first-${crypto.randomUUID()}`;
    const set = await browser.post('profile/password', {
      csrf_token: formToken(page),
      current_password: 'whatever is sent is not asked for',
      password,
      confirm: password,
    });
    expect(set.status, set.html).toBe(303);
    expect(await profile(browser)).toContain('name="current_password"');
    await client().signedInAs({ user: added, email, password });
  });
});
