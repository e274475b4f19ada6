/**
 * The merchant dashboard against the local stack: sign-in by e-mail and password and its cookie,
 * the session's 8 hours, sign-out ending it and key rotation leaving it be, an API key opening
 * nothing, CSRF refusals that change nothing, the account and mode a
 * session sees, refunds through the refunds area's own code (its errors, a double submit), and the
 * 404 and 405 its one function answers for every path under /dashboard.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { openSession, stageSessionKeys } from '../../shared/dashboard/session.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { expectEnvelope } from '../support/answers.ts';
import { createPayment, payThroughCheckout, submitCard, testCards } from '../support/checkout.ts';
import { DashboardClient, dashboardUrl, formToken, hiddenField } from '../support/dashboard.ts';
import { api, apiKey, apiUrl, newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';
import { newUser } from '../support/team.ts';

let account: TestAccount;
let auth: string;
let chargeId: string;

beforeAll(async () => {
  useLocalEnvironment();
  account = await newAccount('dashboard');
  auth = apiKey(account.testKey);
  ({ chargeId } = await payThroughCheckout(auth, { payment: { description: 'Dashboard order' } }));
});

const chargeView = async (id: string) => (await api('GET', `/v1/charges/${id}/`, { auth })).json;
const refundsOf = async (id: string) => (await api('GET', `/v1/refunds/?charge_id=${id}`, { auth })).json;

describe('signing in', () => {
  it('the form, then a session cookie: HttpOnly, SameSite=Strict, Path=/dashboard, 8 hours, not Secure on http', async () => {
    const browser = new DashboardClient();
    const form = await browser.get('sign-in');
    expect(form.status).toBe(200);
    expect(form.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(form.headers.get('content-security-policy')).not.toMatch(/script-src|unsafe-inline/);
    expect(form.headers.get('x-frame-options')).toBe('DENY');
    expect(form.headers.get('cache-control')).toBe('no-store');
    expect(form.html).not.toMatch(/<script/i);

    const user = await newUser(account.developerId);
    const signedIn = await browser.signIn(user.email, user.password);
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(dashboardUrl());
    const session = signedIn.cookies.find((cookie) => cookie.startsWith('cobro_dashboard='));
    expect(session).toBeDefined();
    const attributes = (session as string).split(';').map((part) => part.trim());
    expect(attributes).toEqual(
      expect.arrayContaining(['Path=/dashboard', 'Max-Age=28800', 'HttpOnly', 'SameSite=Strict']),
    );
    // The local stack's public URL is http: no Secure (a browser would drop the cookie), whatever a
    // request's X-Forwarded-Proto says.
    expect(attributes).not.toContain('Secure');

    // The stored session ends 8 hours after sign-in: open a minute before, closed a minute after.
    const cookie = browser.jar.get('cobro_dashboard');
    const keys = stageSessionKeys();
    const open = await openSession(makeDeps(), keys, cookie);
    expect(open?.scope).toEqual({ developerId: account.developerId, mode: 'test' });
    const ends = open?.session.expires_at_ms ?? 0;
    expect(Math.abs(ends - Date.now() - 8 * 3_600_000)).toBeLessThan(60_000);
    expect(open?.session.expires_at).toBe(Math.ceil(ends / 1000));
    const at = (ms: number) => ({ ...makeDeps(), clock: () => new Date(ms) });
    expect(await openSession(at(ends - 60_000), keys, cookie)).toBeDefined();
    expect(await openSession(at(ends + 60_000), keys, cookie)).toBeUndefined();

    const home = await browser.get('');
    expect(home.status, home.html).toBe(200);
    expect(home.html).toContain(chargeId);
    expect(home.html).toMatch(/data-mode="test"/);
  });

  it('a wrong password, an unknown e-mail, or an API key anywhere in the form shows the form again with 401 and opens nothing', async () => {
    const user = await newUser(account.developerId);
    const browser = new DashboardClient();
    const tries: [string, string][] = [
      [user.email, 'not the password at all'],
      [`nobody-${user.email}`, user.password],
      [user.email, account.testKey],
      [account.testKey, account.testKey],
      [account.liveKey, ''],
      ['not an e-mail', user.password],
    ];
    for (const [email, password] of tries) {
      const refused = await browser.signIn(email, password);
      expect(refused.status, `${email} / ${password}`).toBe(401);
      expect(refused.html).toContain('Wrong e-mail address or password.');
      expect(refused.cookies.some((cookie) => cookie.startsWith('cobro_dashboard='))).toBe(false);
    }
    // The sign-in form of old, a key in `api_key`, is no sign-in at all.
    const form = await browser.get('sign-in');
    const old = await browser.post('sign-in', { csrf_token: formToken(form.html), api_key: account.testKey });
    expect(old.status).toBe(401);
    expect(browser.jar.has('cobro_dashboard')).toBe(false);
    expect((await browser.get('')).status).toBe(303);
  });

  it('the sign-in form refuses a post without its own CSRF cookie (403)', async () => {
    const browser = new DashboardClient();
    const form = await browser.get('sign-in');
    const stranger = new DashboardClient();
    const user = await newUser(account.developerId);
    const refused = await stranger.post('sign-in', {
      csrf_token: formToken(form.html),
      email: user.email,
      password: user.password,
    });
    expect(refused.status).toBe(403);
    expect(stranger.jar.has('cobro_dashboard')).toBe(false);
  });

  it('a page or a form without a session answers 303 to the sign-in form and changes nothing', async () => {
    const browser = new DashboardClient();
    for (const path of ['', 'charges', `charges/${chargeId}`]) {
      const page = await browser.get(path);
      expect(page.status).toBe(303);
      expect(page.location).toBe(dashboardUrl('sign-in'));
    }
    const refund = await browser.post(`charges/${chargeId}/refunds`, {
      csrf_token: 'x',
      idempotency_key: 'a'.repeat(32),
      reason: 'duplicate',
    });
    expect(refund.status).toBe(303);
    expect(refund.location).toBe(dashboardUrl('sign-in'));
    // A cookie that is no session's is no session either.
    const user = await newUser(account.developerId);
    browser.jar.set('cobro_dashboard', `${account.developerId}.${user.user.user_id}.${'A'.repeat(43)}`);
    expect((await browser.get('')).status).toBe(303);
    expect((await chargeView(chargeId)).amount_refunded).toBe(0);
  });
});

describe('ending a session', () => {
  it('sign-out deletes the session: the same cookie, copied before, opens nothing', async () => {
    const browser = await new DashboardClient().signedIn(account.testKey);
    const copied = browser.jar.get('cobro_dashboard') as string;
    const home = await browser.get('');
    const out = await browser.post('sign-out', { csrf_token: formToken(home.html) });
    expect(out.status).toBe(303);
    expect(out.location).toBe(dashboardUrl('sign-in'));
    expect(out.cookies.find((cookie) => cookie.startsWith('cobro_dashboard='))).toMatch(/Max-Age=0/);
    const replay = new DashboardClient();
    replay.jar.set('cobro_dashboard', copied);
    const after = await replay.get('');
    expect(after.status).toBe(303);
    expect(after.location).toBe(dashboardUrl('sign-in'));
  });

  it('signing in again ends the session the browser held before', async () => {
    const browser = await new DashboardClient().signedIn(account.testKey);
    const before = browser.jar.get('cobro_dashboard') as string;
    await browser.signedIn(account.liveKey);
    expect(browser.jar.get('cobro_dashboard')).not.toBe(before);
    expect((await browser.get('')).html).toMatch(/data-mode="live"/);
    const replay = new DashboardClient();
    replay.jar.set('cobro_dashboard', before);
    expect((await replay.get('')).status).toBe(303);
  });

  it('rotating an API key signs nobody out (sessions belong to users), and no key opens a session', async () => {
    const own = await newAccount('dashboard-rotation');
    const browser = await new DashboardClient().signedIn(own.testKey);
    const live = await new DashboardClient().signedIn(own.liveKey);
    for (const type of ['test', 'live'] as const) {
      const rotated = await api('PATCH', '/v1/auth/api-keys/', { auth: apiKey(own.liveKey), body: { type } });
      expect(rotated.status, rotated.text).toBe(200);
      if (type === 'live') own.liveKey = rotated.json.data.key as string;
    }
    expect((await browser.get('')).status).toBe(200);
    const livePage = await live.get('');
    expect(livePage.status).toBe(200);
    expect(livePage.html).toMatch(/data-mode="live"/);
  });
});

describe('what a session sees', () => {
  it("another account's charge is 404, on the page and on the refund form, and nothing is refunded", async () => {
    const other = await newAccount('dashboard-other');
    const browser = await new DashboardClient().signedIn(other.testKey);
    const page = await browser.get(`charges/${chargeId}`);
    expect(page.status).toBe(404);
    expect(page.html).not.toContain('Dashboard order');
    const home = await browser.get('');
    const refund = await browser.post(`charges/${chargeId}/refunds`, {
      csrf_token: formToken(home.html),
      idempotency_key: 'b'.repeat(32),
      reason: 'duplicate',
    });
    expect(refund.status).toBe(404);
    expect((await chargeView(chargeId)).amount_refunded).toBe(0);
  });

  it('a live key sees live records only: LIVE, no test charge listed, a test charge is 404', async () => {
    const browser = await new DashboardClient().signedIn(account.liveKey);
    const home = await browser.get('');
    expect(home.status).toBe(200);
    expect(home.html).toMatch(/data-mode="live"/);
    expect(home.html).not.toContain(chargeId);
    const list = await browser.get('charges');
    expect(list.status).toBe(200);
    expect(list.html).not.toContain(chargeId);
    expect((await browser.get(`charges/${chargeId}`)).status).toBe(404);
  });

  it("lists with the API's paging: limit, created_before, and a malformed limit is 400", async () => {
    const own = await newAccount('dashboard-paging');
    const ownAuth = apiKey(own.testKey);
    const first = await payThroughCheckout(ownAuth, { payment: { description: 'First' } });
    const second = await payThroughCheckout(ownAuth, { payment: { description: 'Second' } });
    const browser = await new DashboardClient().signedIn(own.testKey);
    const page = await browser.get('charges?limit=1');
    expect(page.status).toBe(200);
    expect(page.html).toContain(second.chargeId);
    expect(page.html).not.toContain(first.chargeId);
    const older = /href="([^"]+)" rel="next"/.exec(page.html)?.[1]?.replaceAll('&amp;', '&');
    expect(older).toBeDefined();
    const next = await browser.get(older as string);
    expect(next.html).toContain(first.chargeId);
    expect(next.html).not.toContain(second.chargeId);
    const bad = await browser.get('charges?limit=abc');
    expect(bad.status).toBe(400);
  });

  it("finds a charge by its id or its payment's id; an unpaid payment, an unknown id and another mode's id are 404 on the list", async () => {
    const own = await newAccount('dashboard-find');
    const ownAuth = apiKey(own.testKey);
    const paid = await payThroughCheckout(ownAuth, { payment: { description: 'Found me' } });
    const unpaid = await createPayment(ownAuth, { description: 'Not yet' });
    const browser = await new DashboardClient().signedIn(own.testKey);
    const chargePage = dashboardUrl(`charges/${paid.chargeId}`);

    const byCharge = await browser.get(`charges?find=${paid.chargeId}`);
    expect(byCharge.status).toBe(303);
    expect(byCharge.location).toBe(chargePage);
    const byPayment = await browser.get(`charges?find=%20${paid.id}%20`);
    expect(byPayment.status).toBe(303);
    expect(byPayment.location).toBe(chargePage);

    const notPaid = await browser.get(`charges?find=${unpaid.id}`);
    expect(notPaid.status).toBe(404);
    // The payment keeps no decline reason: its status, in words, says why there is no charge.
    expect(notPaid.html).toContain(
      `Payment ${unpaid.id} has no charge: it is not paid (status: pending, checkout not completed yet).`,
    );
    const declined = await createPayment(ownAuth, { description: 'Declined' });
    expect((await submitCard(declined.url, { card_number: testCards.insufficientFunds })).status).toBe(402);
    const spanish = await new DashboardClient({ 'accept-language': 'es' }).signedIn(own.testKey);
    const declinedFound = await spanish.get(`charges?find=${declined.id}`);
    expect(declinedFound.status).toBe(404);
    expect(declinedFound.html).toContain(
      `El pago ${declined.id} no tiene cargo: no está pagado (estado: pendiente, el pago aún no se completó).`,
    );
    expect(notPaid.html).toContain(paid.chargeId);
    const unknown = await browser.get('charges?find=%3Cb%3Ech_nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain('has the id “&lt;b&gt;ch_nothing”');
    const live = await new DashboardClient().signedIn(own.liveKey);
    expect((await live.get(`charges?find=${paid.chargeId}`)).status).toBe(404);
    const stranger = await new DashboardClient().signedIn(account.testKey);
    expect((await stranger.get(`charges?find=${paid.id}`)).status).toBe(404);
  });
});

describe('refunds from the dashboard', () => {
  it('a Spanish page takes a decimal comma in the amount ("1,50" is 1.50); anything else is refused as the API refuses it', async () => {
    const { chargeId: id } = await payThroughCheckout(auth, { payment: { amount: '20.00' } });
    const browser = await new DashboardClient({ 'accept-language': 'es' }).signedIn(account.testKey);
    const page = await browser.get(`charges/${id}`);
    expect(page.status).toBe(200);
    const form = (html: string, amount: string) => ({
      csrf_token: formToken(html),
      idempotency_key: hiddenField(html, 'idempotency_key'),
      amount,
      reason: 'duplicate',
    });
    const made = await browser.post(`charges/${id}/refunds`, form(page.html, '1,50'));
    expect(made.status, made.html).toBe(303);
    expect((await refundsOf(id)).map((refund: { amount: string }) => refund.amount)).toEqual(['1.50']);

    // Not the shape of a decimal comma: passed as typed, so the API's own refusal shows, 400.
    const shown = await browser.get(made.location as string);
    const odd = await browser.post(`charges/${id}/refunds`, form(shown.html, '1,5,0'));
    expect(odd.status).toBe(400);
    expect(odd.html).toContain('value="1,5,0"');
    expect(await refundsOf(id)).toHaveLength(1);

    // An English page keeps the API's rule: a point only.
    const english = await new DashboardClient().signedIn(account.testKey);
    const englishPage = await english.get(`charges/${id}`);
    expect((await english.post(`charges/${id}/refunds`, form(englishPage.html, '1,50'))).status).toBe(400);
    expect(await refundsOf(id)).toHaveLength(1);
  });

  it('a refund with a wrong CSRF token is 403 and refunds nothing', async () => {
    const browser = await new DashboardClient().signedIn(account.testKey);
    const page = await browser.get(`charges/${chargeId}`);
    const refused = await browser.post(`charges/${chargeId}/refunds`, {
      csrf_token: 'A'.repeat(32),
      idempotency_key: hiddenField(page.html, 'idempotency_key'),
      amount: '1.00',
      reason: 'duplicate',
    });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('This form expired');
    expect((await chargeView(chargeId)).amount_refunded).toBe(0);
    expect(await refundsOf(chargeId)).toEqual([]);
  });

  it('refunds in part, once for a double submit; above what is left is 400 on the page, as the API says', async () => {
    const { chargeId: id } = await payThroughCheckout(auth, { payment: { amount: '10.00' } });
    const browser = await new DashboardClient().signedIn(account.testKey);
    const page = await browser.get(`charges/${id}`);
    expect(page.status).toBe(200);
    const fields = {
      csrf_token: formToken(page.html),
      idempotency_key: hiddenField(page.html, 'idempotency_key'),
      amount: '4.00',
      reason: 'requested_by_customer',
    };
    const [one, two] = [
      await browser.post(`charges/${id}/refunds`, fields),
      await browser.post(`charges/${id}/refunds`, fields),
    ];
    for (const answer of [one, two]) {
      expect(answer.status, answer.html).toBe(303);
      expect(answer.location).toMatch(new RegExp(`/dashboard/charges/${id}\\?refunded=`));
    }
    expect(two.location).toBe(one.location);
    const refunds = await refundsOf(id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0].amount).toBe('4.00');
    const shown = await browser.get(one.location as string);
    expect(shown.html).toContain('Refunded 4.00 USD.');
    expect(shown.html).toContain(`re_${refunds[0].id}`);

    // 7.00 is above the 6.00 left: the API's 400 and its words, on the page; nothing refunded.
    const api400 = await api('POST', '/v1/refunds/', {
      auth,
      body: { charge_id: id, amount: '7.00', reason: 'duplicate' },
    });
    expect(api400.status).toBe(400);
    const above = await browser.post(`charges/${id}/refunds`, {
      csrf_token: formToken(shown.html),
      idempotency_key: hiddenField(shown.html, 'idempotency_key'),
      amount: '7.00',
      reason: 'duplicate',
    });
    expect(above.status).toBe(400);
    expect(above.html).toContain(api400.json.content);
    expect(above.html).toContain('value="7.00"');
    expect(await refundsOf(id)).toHaveLength(1);

    // The rest, with the amount left empty: the whole 6.00 left; then nothing is left to refund.
    const rest = await browser.post(`charges/${id}/refunds`, {
      csrf_token: formToken(shown.html),
      idempotency_key: hiddenField(above.html, 'idempotency_key'),
      amount: '',
      reason: 'duplicate',
    });
    expect(rest.status, rest.html).toBe(303);
    const done = await browser.get(rest.location as string);
    expect(done.html).toContain('Refunded 6.00 USD.');
    expect(done.html).toContain('Nothing is left to refund');
    expect((await chargeView(id)).amount_refunded).toBe(10);
  });
});

describe('languages', () => {
  it('Spanish by Accept-Language, and by the switch (a cookie) whatever the browser asks', async () => {
    const spanish = await new DashboardClient({ 'Accept-Language': 'es-ES,es;q=0.9' }).signedIn(
      account.testKey,
    );
    const home = await spanish.get('');
    expect(home.html).toContain('<html lang="es">');
    expect(home.html).toContain('Cargos más recientes');

    const browser = await new DashboardClient({ 'Accept-Language': 'en' }).signedIn(account.testKey);
    const page = await browser.get(`charges/${chargeId}`);
    expect(page.html).toContain('<html lang="en">');
    const switched = await browser.post('language', {
      csrf_token: formToken(page.html),
      lang: 'es',
      back: `charges/${chargeId}`,
    });
    expect(switched.status).toBe(303);
    expect(switched.location).toBe(dashboardUrl(`charges/${chargeId}`));
    const again = await browser.get(switched.location as string);
    expect(again.html).toContain('<html lang="es">');
    expect(again.html).toContain('Reembolsar este cargo');
    // Anywhere but the dashboard is refused as a place to come back to.
    const elsewhere = await browser.post('language', {
      csrf_token: formToken(page.html),
      lang: 'en',
      back: '//evil.example/x',
    });
    expect(elsewhere.location).toBe(dashboardUrl());
  });
});

describe('routing inside the one function', () => {
  // The gateway hands every method of every path under /dashboard to the dashboard's function
  // (ANY /dashboard and ANY /dashboard/{proxy+}): what the gateway answered for a page no route
  // has, and for a method a page does not take, the function answers now, in the same envelope.
  it('an unknown path under /dashboard/ is 404 in the error envelope, as anywhere else, session or not', async () => {
    const elsewhere = await api('GET', '/v1/nothing-here/');
    expectEnvelope(elsewhere, 404, { title: 'Not found', type: 'error' });
    const signedIn = await new DashboardClient().signedIn(account.testKey);
    const cookie = [...signedIn.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    for (const path of ['/dashboard/nothing-here', '/dashboard/charges/ch_x/nothing', '/dashboard/sign-in/x'])
      for (const headers of [{}, { Cookie: cookie }] as Record<string, string>[]) {
        const answer = await api('GET', path, { headers });
        expectEnvelope(answer, 404, { title: 'Not found', type: 'error' });
        expect(answer.json, path).toEqual(elsewhere.json);
        expect(answer.headers.get('content-type'), path).toMatch(/^application\/json/);
      }
  });

  it('a method a known page does not take is 405 with Allow, in the error envelope', async () => {
    // The fallback's 405 on one of the API's own paths: the dashboard's reads the same.
    const api405 = await api('DELETE', '/v1/auth/api-keys/');
    expectEnvelope(api405, 405, { type: 'error' });
    for (const [method, path, allow] of [
      ['DELETE', '/dashboard/sign-in', 'GET, POST'],
      ['PUT', '/dashboard/', 'GET'],
      ['PATCH', '/dashboard/charges/ch_x', 'GET'],
      ['GET', '/dashboard/sign-out', 'POST'],
    ] as const) {
      const answer = await api(method, path);
      expectEnvelope(answer, 405, { type: 'error', title: api405.json.title });
      expect(answer.headers.get('allow'), `${method} ${path}`).toBe(allow);
      expect(answer.json.content, `${method} ${path}`).toContain(allow);
    }
  });

  it('the prefix itself is the overview, the same with or without its slash', async () => {
    const signedIn = await new DashboardClient().signedIn(account.testKey);
    for (const url of [`${apiUrl}/dashboard`, `${apiUrl}/dashboard/`]) {
      const without = await new DashboardClient().get(url);
      expect(without.status, url).toBe(303);
      expect(without.location, url).toBe(dashboardUrl('sign-in'));
      const page = await signedIn.get(url);
      expect(page.status, url).toBe(200);
      expect(page.html, url).toContain(chargeId);
    }
  });
});
