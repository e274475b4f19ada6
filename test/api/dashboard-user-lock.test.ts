/**
 * The per-user lock of dashboard sign-in, against the local stack: 10 failed sign-ins in a row for
 * one e-mail address (wrong passwords or wrong codes), from any client addresses, lock it for 15
 * minutes, a right password included; an e-mail that is no user's locks alike; a success starts the
 * count again. Each try comes from its own loopback address so the per-address limit (tested in
 * dashboard-sign-in-limit.test.ts) never is what refuses it. The lock's end is reached with the
 * domain function and a clock of the test's own.
 */
import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { signIn, stageSessionKeys } from '../../shared/dashboard/session.ts';
import { type Deps, makeDeps } from '../../shared/db/deps.ts';
import { countUserFailure, emailHash, userFailureLimit, userLockMs } from '../../shared/team/lock.ts';
import { DashboardClient, dashboardUrl, formToken, hiddenField } from '../support/dashboard.ts';
import { newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';
import { linkFor, newUser } from '../support/team.ts';
import { totpCode } from '../support/totp.ts';

let account: TestAccount;
let block = 0;

beforeAll(async () => {
  useLocalEnvironment();
  account = await newAccount('user-lock');
});

/** A browser from a loopback address of its own (127.0.<block>.<n>): each try counts against a new address. */
const nextBlock = () => {
  block += 1;
  let n = 0;
  return () => new DashboardClient({}, { from: `127.0.${60 + block}.${++n}` });
};

describe('one e-mail address, many client addresses', { timeout: 60_000 }, () => {
  it(`${userFailureLimit} wrong passwords lock the user for 15 minutes: the right one is refused (429) from anywhere; other users are not`, async () => {
    const user = await newUser(account.developerId);
    const other = await newUser(account.developerId);
    const fresh = nextBlock();
    for (let n = 1; n < userFailureLimit; n++)
      expect((await fresh().signIn(user.email, `wrong password ${n}`)).status).toBe(401);
    const tenth = await fresh().signIn(user.email, 'wrong password 10');
    expect(tenth.status).toBe(429);
    const locked = await fresh().signIn(user.email, user.password);
    expect(locked.status, locked.html).toBe(429);
    expect(locked.html).toMatch(
      /Too many failed sign-ins for this e-mail address: it is locked for 1[45] more minutes/,
    );
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(userLockMs / 1000 - 60);
    expect(retryAfter).toBeLessThanOrEqual(userLockMs / 1000);
    expect(locked.cookies.some((cookie) => cookie.startsWith('cobro_dashboard='))).toBe(false);
    // The case of the address changes nothing.
    expect((await fresh().signIn(user.email.toUpperCase(), user.password)).status).toBe(429);
    // Another user of the same account, from the same address as the last try, signs in.
    const opened = await fresh().signIn(other.email, other.password);
    expect(opened.status).toBe(303);
    expect(opened.location).toBe(dashboardUrl());
  });

  it('an e-mail that is no user’s locks the same way (the lock tells nobody which addresses are users’)', async () => {
    const fresh = nextBlock();
    const email = `nobody-${Date.now()}@example.com`;
    const statuses: number[] = [];
    for (let n = 1; n <= userFailureLimit + 1; n++)
      statuses.push((await fresh().signIn(email, `guess ${n}`)).status);
    expect(statuses).toEqual([...Array(userFailureLimit - 1).fill(401), 429, 429]);
  });

  it(`${3 * userFailureLimit} wrong passwords at once from as many addresses: ${userFailureLimit - 1} are answered 401, every other one 429, and the user is locked`, async () => {
    const user = await newUser(account.developerId);
    const fresh = nextBlock();
    const browsers = Array.from({ length: 3 * userFailureLimit }, () => fresh());
    const forms = await Promise.all(browsers.map((browser) => browser.get('sign-in')));
    const statuses = await Promise.all(
      browsers.map((browser, n) =>
        browser.post('sign-in', {
          csrf_token: formToken(forms[n]?.html ?? ''),
          email: user.email,
          password: `wrong ${n}`,
        }),
      ),
    );
    const counts = statuses.map((answer) => answer.status);
    expect(counts.filter((status) => status === 401)).toHaveLength(userFailureLimit - 1);
    expect(counts.filter((status) => status === 429)).toHaveLength(2 * userFailureLimit + 1);
    expect((await fresh().signIn(user.email, user.password)).status).toBe(429);
  });

  it('wrong second-factor codes count as failures too: the tenth locks the user', async () => {
    const user = await newUser(account.developerId, { twoFactor: true });
    const fresh = nextBlock();
    const statuses: number[] = [];
    for (let n = 1; n <= userFailureLimit; n++) {
      const browser = fresh();
      const step = await browser.signIn(user.email, user.password);
      expect(step.status, step.html).toBe(200);
      const wrongCode = totpCode(user.totpSecret as string) === '000000' ? '111111' : '000000';
      const answer = await browser.post('sign-in/code', {
        csrf_token: formToken(step.html),
        challenge: hiddenField(step.html, 'challenge'),
        code: wrongCode,
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([...Array(userFailureLimit - 1).fill(401), 429]);
    // Now the password alone is refused before any code is asked for.
    expect((await fresh().signIn(user.email, user.password)).status).toBe(429);
  });
});

describe('one-time links', () => {
  it('never skip the second factor: a user with one is asked for the code after the link', async () => {
    const user = await newUser(account.developerId, { twoFactor: true });
    const browser = new DashboardClient({}, { from: '127.0.91.1' });
    const url = await linkFor(user.user, 'set_password');
    const form = await browser.get(url);
    const step = await browser.post(url, {
      csrf_token: formToken(form.html),
      password: 'a new passphrase here',
      confirm: 'a new passphrase here',
    });
    expect(step.status, step.html).toBe(200);
    expect(step.html).toContain('name="code"');
    expect(browser.jar.has('cobro_dashboard')).toBe(false);
    const coded = await browser.post('sign-in/code', {
      csrf_token: formToken(step.html),
      challenge: hiddenField(step.html, 'challenge'),
      code: totpCode(user.totpSecret as string),
    });
    expect(coded.status, coded.html).toBe(303);
    expect(browser.jar.has('cobro_dashboard')).toBe(true);
  });

  it('a locked user’s link is refused and left unused; once the lock is over it still works', async () => {
    const user = await newUser(account.developerId);
    const fresh = nextBlock();
    for (let n = 1; n <= userFailureLimit; n++) await fresh().signIn(user.email, `wrong ${n}`);
    const url = await linkFor(user.user, 'sign_in');
    const browser = fresh();
    const form = await browser.get(url);
    expect(form.status).toBe(200);
    expect((await browser.post(url, { csrf_token: formToken(form.html) })).status).toBe(429);
    // Still there: the form shows again (it would be 404 once used).
    expect((await browser.get(url)).status).toBe(200);
  });
});

describe('a session guessing its own password', () => {
  it('wrong current passwords on the profile count toward the lock: then even the right one is refused there and at sign-in', async () => {
    const user = await newUser(account.developerId);
    const client = await new DashboardClient({}, { from: '127.0.90.1' }).signedInAs(user);
    const csrf = formToken((await client.get('profile')).html);
    const change = (current: string) =>
      client.post('profile/password', {
        csrf_token: csrf,
        current_password: current,
        password: 'a brand new passphrase',
        confirm: 'a brand new passphrase',
      });
    for (let n = 1; n <= userFailureLimit; n++) expect((await change(`guess ${n}`)).status).toBe(400);
    expect((await change(user.password)).status).toBe(400);
    expect(
      (await new DashboardClient({}, { from: '127.0.90.2' }).signIn(user.email, user.password)).status,
    ).toBe(429);
  });
});

describe('the lock, by the domain function', () => {
  const keys = () => stageSessionKeys();
  const at = (ms: number): Deps => ({ ...makeDeps(), clock: () => new Date(ms) });
  const start = Date.UTC(2026, 0, 7, 10);
  let address = 0;
  const from = () => `198.51.100.${100 + (address++ % 100)}`;

  it('the lock ends 15 minutes after the failure that set it; a success before the limit starts the count again', async () => {
    const user = await newUser(account.developerId);
    const sign = (ms: number, password: string) =>
      signIn(at(ms), keys(), { email: user.email, password, address: from() });
    for (let n = 0; n < userFailureLimit - 1; n++)
      expect(await sign(start + n, 'wrong')).toEqual({ opened: false, refused: 'wrong' });
    expect((await sign(start + 100, user.password)).opened).toBe(true);
    // The count started again: nine more failures lock nothing.
    for (let n = 0; n < userFailureLimit - 1; n++)
      expect((await sign(start + 200 + n, 'wrong')).opened).toBe(false);
    expect((await sign(start + 300, user.password)).opened).toBe(true);
    for (let n = 0; n < userFailureLimit; n++) await sign(start + 400 + n, 'wrong');
    const lockedAt = start + 400 + userFailureLimit - 1;
    expect(await sign(lockedAt + userLockMs - 1000, user.password)).toEqual({
      opened: false,
      refused: 'locked',
      retryAfterSeconds: 1,
    });
    expect((await sign(lockedAt + userLockMs, user.password)).opened).toBe(true);
  });

  it('a right password read while parallel failures lock the user opens no session', async () => {
    const user = await newUser(account.developerId);
    const when = start + 10 * userLockMs;
    const base = at(when);
    const hash = emailHash(user.email, await keys().sign());
    let locked = false;
    const db = Object.create(base.db) as DynamoDBDocumentClient;
    db.send = (async (command: unknown) => {
      const answer = await (base.db.send as (c: unknown) => Promise<unknown>)(command);
      if (command instanceof BatchGetCommand && !locked) {
        locked = true;
        for (let n = 0; n < userFailureLimit; n++) await countUserFailure(base, hash, new Date(when));
      }
      return answer;
    }) as DynamoDBDocumentClient['send'];
    const outcome = await signIn({ ...base, db }, keys(), {
      email: user.email,
      password: user.password,
      address: from(),
    });
    expect(locked).toBe(true);
    expect(outcome).toMatchObject({ opened: false, refused: 'locked' });
  });
});
