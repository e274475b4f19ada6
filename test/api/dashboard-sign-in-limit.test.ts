/**
 * Failed dashboard sign-ins are limited per client address and per e-mail address (the user lock),
 * against the local stack: each test's
 * browser connects from its own loopback address (the local gateway gives the socket's address, as
 * API Gateway gives the connection's), so the counts of other suites (from 127.0.0.1) are untouched.
 * The window's end, and the lock's, are reached with the domain function and a clock of the
 * test's own. Wrong sign-ins for the address limit use a new unknown e-mail each, so no e-mail's own
 * lock is what refuses them.
 */
import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { cookieNames } from '../../shared/dashboard/http.ts';
import { openSession, signIn, stageSessionKeys } from '../../shared/dashboard/session.ts';
import {
  addressHash,
  countFailure,
  signInFailureLimit,
  signInWindowMs,
  signInWindowOf,
} from '../../shared/dashboard/sign-in-limit.ts';
import { type Deps, makeDeps } from '../../shared/db/deps.ts';
import { getItems } from '../../shared/db/get-items.ts';
import { DashboardClient, dashboardUrl, formToken } from '../support/dashboard.ts';
import { newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';
import { newUser, type TestUser } from '../support/team.ts';

let account: TestAccount;
let right: TestUser;

beforeAll(async () => {
  useLocalEnvironment();
  account = await newAccount('sign-in-limit');
  right = await newUser(account.developerId);
});

/** The n-th wrong sign-in: an e-mail that is no user's (a new one each time), and some password. */
const run = Date.now();
const wrong = (n: number) => ({
  email: `nobody-${run}-${n}-${Math.random()}@example.com`,
  password: 'not the password',
});
/** The right user's sign-in. */
const rightOne = () => ({ email: right.email, password: right.password });
const sessionCookie = (cookies: string[]) =>
  cookies.find((cookie) => cookie.startsWith(`${cookieNames.session}=`));

/**
 * Resolves once the clock is at least `marginMs` away from the end of its sign-in window, so what a
 * test counts through the stack (which dates it by the real clock) all falls in one window.
 */
async function awayFromWindowEnd(marginMs: number): Promise<void> {
  while (signInWindowMs - (Date.now() % signInWindowMs) < marginMs)
    await new Promise((resolve) => setTimeout(resolve, 100));
}

/** The failures counted for `address` in the window `now` falls in, as stored. */
async function storedCounter(address: string, now = new Date()) {
  const hash = addressHash(address, await stageSessionKeys().sign());
  const [item] = await getItems(makeDeps(), [signInWindowOf(hash, now).key]);
  return item;
}

/** Posts the sign-in form `times` at once, with the same form: the statuses answered. */
async function postAtOnce(
  browser: DashboardClient,
  tries: { email: string; password: string }[],
): Promise<number[]> {
  const form = await browser.get('sign-in');
  const csrf = formToken(form.html);
  const answers = await Promise.all(
    tries.map((fields) => browser.post('sign-in', { csrf_token: csrf, ...fields })),
  );
  return answers.map((answer) => answer.status);
}

// A test may first wait up to 20 s for the clock to leave the end of a window.
describe('failed sign-ins from one address', { timeout: 60_000 }, () => {
  it(`after ${signInFailureLimit} wrong sign-ins the right password is refused too: 429, Retry-After, the form saying to wait, no session`, async () => {
    await awayFromWindowEnd(20_000);
    const from = '127.0.41.1';
    const browser = new DashboardClient({}, { from });
    for (let n = 1; n <= signInFailureLimit; n++) {
      const { email, password } = wrong(n);
      const refused = await browser.signIn(email, password);
      expect(refused.status, refused.html).toBe(401);
      expect(refused.html).toContain('Wrong e-mail address or password.');
    }
    const blocked = await browser.signIn(right.email, right.password);
    expect(blocked.status, blocked.html).toBe(429);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(signInWindowMs / 1000);
    // The window's end, to the second, as the stack's clock and this one agree.
    const end = signInWindowOf('any', new Date()).endMs;
    expect(Math.abs(retryAfter - (end - Date.now()) / 1000)).toBeLessThan(5);
    expect(blocked.html).toMatch(
      /Too many failed sign-ins from this address\. Wait \d+ minutes? and try again/,
    );
    expect(blocked.html).toContain('name="password"');
    expect(sessionCookie(blocked.cookies)).toBeUndefined();
    expect(blocked.headers.get('cache-control')).toBe('no-store');

    // In Spanish for a browser that asks for it; a header naming another address changes nothing.
    const spanish = new DashboardClient(
      { 'Accept-Language': 'es', 'X-Forwarded-For': '203.0.113.9' },
      { from },
    );
    const enEspanol = await spanish.signIn(right.email, right.password);
    expect(enEspanol.status).toBe(429);
    expect(enEspanol.html).toMatch(
      /Demasiados inicios de sesión fallidos desde esta dirección\. Espera \d+ minutos?/,
    );
    expect(sessionCookie(enEspanol.cookies)).toBeUndefined();

    // The count stayed at the limit (a refusal while blocked counts nothing), under a keyed hash:
    // the item holds no address, and the table's TTL removes it once the window is over.
    const counter = await storedCounter(from);
    expect(counter?.failures).toBe(signInFailureLimit);
    expect(counter?.expires_at).toBe(Math.ceil(end / 1000));
    expect(JSON.stringify(counter)).not.toContain(from);
    expect(JSON.stringify(counter)).not.toContain('127.0.41');

    // Another address signs in as the same user at once.
    const elsewhere = new DashboardClient({}, { from: '127.0.41.2' });
    const opened = await elsewhere.signIn(right.email, right.password);
    expect(opened.status, opened.html).toBe(303);
    expect(opened.location).toBe(dashboardUrl());
    expect(sessionCookie(opened.cookies)).toBeDefined();
  });

  it('a sign-in that succeeds counts nothing, and an address under the limit keeps signing in', async () => {
    await awayFromWindowEnd(20_000);
    const from = '127.0.41.3';
    const browser = new DashboardClient({}, { from });
    const signIn = (fields: { email: string; password: string }) =>
      browser.signIn(fields.email, fields.password);
    for (let n = 1; n < signInFailureLimit; n++) expect((await signIn(wrong(n))).status).toBe(401);
    for (let n = 0; n < 3; n++) expect((await signIn(rightOne())).status).toBe(303);
    expect((await storedCounter(from))?.failures).toBe(signInFailureLimit - 1);
    expect((await signIn(wrong(0))).status).toBe(401);
    expect((await signIn(rightOne())).status).toBe(429);
  });

  it(`${3 * signInFailureLimit} wrong sign-ins at once: exactly ${signInFailureLimit} are looked at and counted, the rest refused (429)`, async () => {
    await awayFromWindowEnd(20_000);
    const from = '127.0.41.4';
    const statuses = await postAtOnce(
      new DashboardClient({}, { from }),
      Array.from({ length: 3 * signInFailureLimit }, (_, n) => wrong(n)),
    );
    expect(statuses.filter((status) => status === 401)).toHaveLength(signInFailureLimit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(2 * signInFailureLimit);
    expect((await storedCounter(from))?.failures).toBe(signInFailureLimit);
    expect((await new DashboardClient({}, { from }).signIn(right.email, right.password)).status).toBe(429);
  });
});

describe('the window, by the domain function', () => {
  const keys = () => stageSessionKeys();
  const at = (ms: number): Deps => ({ ...makeDeps(), clock: () => new Date(ms) });
  // A window of the clock well in the past of the stack's own, so nothing else counts in it.
  const start = Math.floor(Date.UTC(2026, 0, 5, 10) / signInWindowMs) * signInWindowMs;

  it('a blocked address signs in again once its window has ended; another address never was blocked', async () => {
    const address = '198.51.100.7';
    for (let n = 0; n < signInFailureLimit; n++)
      expect(await signIn(at(start + n * 1000), keys(), { ...wrong(n), address })).toEqual({
        opened: false,
        refused: 'wrong',
      });
    const lastSecond = await signIn(at(start + signInWindowMs - 1), keys(), { ...rightOne(), address });
    expect(lastSecond).toEqual({ opened: false, refused: 'blocked', retryAfterSeconds: 1 });
    expect(await signIn(at(start + 60_000), keys(), { ...rightOne(), address })).toEqual({
      opened: false,
      refused: 'blocked',
      retryAfterSeconds: (signInWindowMs - 60_000) / 1000,
    });
    const other = await signIn(at(start + 60_000), keys(), { ...rightOne(), address: '198.51.100.8' });
    expect(other.opened).toBe(true);

    const next = await signIn(at(start + signInWindowMs), keys(), { ...rightOne(), address });
    expect(next.opened).toBe(true);
    if (!next.opened) return;
    const open = await openSession(at(start + signInWindowMs + 1000), keys(), next.cookie);
    expect(open?.scope).toEqual({ developerId: account.developerId, mode: 'test' });
  });

  it('IPv6 addresses of one /64 share a count; IPv4-mapped addresses count as the IPv4 address', async () => {
    const when = start + 2 * signInWindowMs;
    for (let n = 0; n < signInFailureLimit; n++)
      await signIn(at(when), keys(), { ...wrong(n), address: `2001:db8:7:1::${(n + 1).toString(16)}` });
    expect((await signIn(at(when), keys(), { ...rightOne(), address: '2001:db8:7:1:ffff::2' })).opened).toBe(
      false,
    );
    expect((await signIn(at(when), keys(), { ...rightOne(), address: '2001:db8:7:2::1' })).opened).toBe(true);

    for (let n = 0; n < signInFailureLimit; n++)
      await signIn(at(when), keys(), { ...wrong(n), address: '192.0.2.44' });
    expect(await signIn(at(when), keys(), { ...rightOne(), address: '::ffff:192.0.2.44' })).toMatchObject({
      refused: 'blocked',
    });
  });

  it('a right password read while parallel failures fill the window opens no session', async () => {
    const when = start + 3 * signInWindowMs;
    const address = '198.51.100.9';
    const base = at(when);
    const window = signInWindowOf(addressHash(address, await keys().sign()), new Date(when));
    // The failures land between this sign-in's read (the counter below the limit) and its write.
    let filled = false;
    const db = Object.create(base.db) as DynamoDBDocumentClient;
    db.send = (async (command: unknown) => {
      const answer = await (base.db.send as (c: unknown) => Promise<unknown>)(command);
      if (command instanceof BatchGetCommand && !filled) {
        filled = true;
        for (let n = 0; n < signInFailureLimit; n++)
          expect(await countFailure(base, window, new Date(when))).toBe(true);
      }
      return answer;
    }) as DynamoDBDocumentClient['send'];
    const outcome = await signIn({ ...base, db }, keys(), { ...rightOne(), address });
    expect(filled).toBe(true);
    expect(outcome).toMatchObject({ opened: false, refused: 'blocked' });
    // And the window took no failure beyond the limit.
    expect(await countFailure(base, window, new Date(when))).toBe(false);
    const [counter] = await getItems(base, [window.key]);
    expect(counter?.failures).toBe(signInFailureLimit);
  });

  it('a blocked address costs one read (the batch: no user is read, no password checked) and writes nothing', async () => {
    const when = start + 4 * signInWindowMs;
    const address = '198.51.100.10';
    const base = at(when);
    for (let n = 0; n < signInFailureLimit; n++) await signIn(base, keys(), { ...wrong(n), address });
    const asked: unknown[] = [];
    const db = Object.create(base.db) as DynamoDBDocumentClient;
    db.send = ((command: { input: unknown }) => {
      asked.push(command.input);
      return (base.db.send as (c: unknown) => Promise<unknown>)(command);
    }) as unknown as DynamoDBDocumentClient['send'];
    expect(await signIn({ ...base, db }, keys(), { ...rightOne(), address })).toMatchObject({
      refused: 'blocked',
    });
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(asked)).toContain(
      JSON.stringify(signInWindowOf(addressHash(address, await keys().sign()), new Date(when)).key.pk),
    );
    expect(JSON.stringify(asked)).not.toContain(right.user.user_id);
  });
});
