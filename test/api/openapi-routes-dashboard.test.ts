/**
 * Every route of the merchant dashboard answers the way GET /openapi.json says: sign-in and its
 * pages; plans, products and payment links; webhook endpoints, events and API keys; customers and
 * subscriptions; users, the audit log and connectors. Each test exercises exactly the routes openapi-routes.ts gives it, with a merchant
 * of its own.
 */
import { describe, expect } from 'vitest';
import { newStandInStripeAccount } from '../../infra/local/stripe-accounts.ts';
import { payThroughCheckout } from '../support/checkout.ts';
import { DashboardClient, formToken, hiddenField } from '../support/dashboard.ts';
import { api, localInfo } from '../support/stack.ts';
import { subscribe } from '../support/subscriptions.ts';
import { linkFor, newInvitedUser, newUser } from '../support/team.ts';
import { totpCode } from '../support/totp.ts';
import { asAnswer, routeSuite } from './openapi-routes.ts';

describe('every route answers as the document says', () => {
  const suite = routeSuite('dashboard');
  const { routeTest, expectAnswer } = suite;

  routeTest(
    'the merchant dashboard: sign-in, its pages, a refund, the language switch and sign-out',
    async ({ account, auth }) => {
      const { chargeId } = await payThroughCheckout(auth);
      const browser = new DashboardClient();
      expectAnswer('GET', '/dashboard/', asAnswer(await browser.get('')));
      const form = await browser.get('sign-in');
      expectAnswer('GET', '/dashboard/sign-in', asAnswer(form));
      const user = await newUser(account.developerId);
      const signedIn = await browser.post('sign-in', {
        csrf_token: formToken(form.html),
        email: user.email,
        password: user.password,
      });
      expect(signedIn.status, signedIn.html).toBe(303);
      expectAnswer('POST', '/dashboard/sign-in', asAnswer(signedIn));
      expectAnswer('GET', '/dashboard/', asAnswer(await browser.get('')));
      expectAnswer('GET', '/dashboard/charges', asAnswer(await browser.get('charges')));
      const page = await browser.get(`charges/${chargeId}`);
      expectAnswer('GET', '/dashboard/charges/{id}', asAnswer(page));
      const refunded = await browser.post(`charges/${chargeId}/refunds`, {
        csrf_token: formToken(page.html),
        idempotency_key: hiddenField(page.html, 'idempotency_key'),
        amount: '',
        reason: 'duplicate',
      });
      expect(refunded.status, refunded.html).toBe(303);
      expectAnswer('POST', '/dashboard/charges/{id}/refunds', asAnswer(refunded));
      const switched = await browser.post('language', {
        csrf_token: formToken(page.html),
        lang: 'es',
        back: '',
      });
      expectAnswer('POST', '/dashboard/language', asAnswer(switched));
      const out = await browser.post('sign-out', { csrf_token: formToken(page.html) });
      expectAnswer('POST', '/dashboard/sign-out', asAnswer(out));
    },
  );

  routeTest('a person’s sign-in: the code step, a one-time link and the mode switch', async ({ account }) => {
    // A user with a second factor: the password answers the code form, the code the session.
    const user = await newUser(account.developerId, { twoFactor: true });
    const browser = new DashboardClient();
    const step = await browser.signIn(user.email, user.password);
    expect(step.status, step.html).toBe(200);
    expectAnswer('POST', '/dashboard/sign-in', asAnswer(step));
    const coded = await browser.post('sign-in/code', {
      csrf_token: formToken(step.html),
      challenge: hiddenField(step.html, 'challenge'),
      code: totpCode(user.totpSecret as string),
    });
    expect(coded.status, coded.html).toBe(303);
    expectAnswer('POST', '/dashboard/sign-in/code', asAnswer(coded));
    const home = await browser.get('');
    const live = await browser.post('mode', { csrf_token: formToken(home.html), mode: 'live', back: '' });
    expect(live.status, live.html).toBe(303);
    expectAnswer('POST', '/dashboard/mode', asAnswer(live));

    // An invited user's set-password link: its form, then the password set and the user signed in.
    const url = await linkFor(await newInvitedUser(account.developerId));
    const stranger = new DashboardClient();
    const linkForm = await stranger.get(url);
    expectAnswer('GET', '/dashboard/access/{token}', asAnswer(linkForm));
    const used = await stranger.post(url, {
      csrf_token: formToken(linkForm.html),
      password: 'a long enough passphrase',
      confirm: 'a long enough passphrase',
    });
    expect(used.status, used.html).toBe(303);
    expectAnswer('POST', '/dashboard/access/{token}', asAnswer(used));
  });

  routeTest(
    'the dashboard’s plans, products and payment links: lists, create forms, delete confirmations and forms',
    async ({ account }) => {
      const browser = await new DashboardClient().signedIn(account.testKey);
      const sections: { list: string; fields: Record<string, string> }[] = [
        {
          list: 'plans',
          fields: {
            name: 'Doc plan',
            amount: '9.90',
            currency: 'USD',
            interval: 'month',
            interval_count: '1',
          },
        },
        { list: 'products', fields: { name: 'Doc product', price: '5.00' } },
        { list: 'links', fields: { description: 'Doc link', amount: '5.00' } },
      ];
      for (const { list, fields } of sections) {
        const page = await browser.get(list);
        expectAnswer('GET', `/dashboard/${list}`, asAnswer(page));
        const created = await browser.post(list, {
          csrf_token: formToken(page.html),
          idempotency_key: hiddenField(page.html, 'idempotency_key'),
          ...fields,
        });
        expect(created.status, created.html).toBe(303);
        expectAnswer('POST', `/dashboard/${list}`, asAnswer(created));
        const id = new URL(created.location as string).searchParams.get('created') as string;
        if (list === 'plans') {
          const archived = await browser.post(`plans/${id}/active`, {
            csrf_token: formToken(page.html),
            active: 'false',
          });
          expect(archived.status, archived.html).toBe(303);
          expectAnswer('POST', '/dashboard/plans/{id}/active', asAnswer(archived));
        }
        const confirm = await browser.get(`${list}/${id}/delete`);
        expectAnswer('GET', `/dashboard/${list}/{id}/delete`, asAnswer(confirm));
        const deleted = await browser.post(`${list}/${id}/delete`, { csrf_token: formToken(confirm.html) });
        expect(deleted.status, deleted.html).toBe(303);
        expectAnswer('POST', `/dashboard/${list}/{id}/delete`, asAnswer(deleted));
      }
    },
  );

  routeTest(
    'the dashboard’s webhook endpoints, events and API keys: lists, forms, confirmations',
    async ({ account, auth }) => {
      const browser = await new DashboardClient().signedIn(account.testKey);
      const list = await browser.get('webhooks');
      expectAnswer('GET', '/dashboard/webhooks', asAnswer(list));
      const created = await browser.post('webhooks', {
        csrf_token: formToken(list.html),
        idempotency_key: hiddenField(list.html, 'idempotency_key'),
        url: 'http://127.0.0.1:9/hooks',
        description: 'Doc endpoint',
      });
      expect(created.status, created.html).toBe(201);
      expectAnswer('POST', '/dashboard/webhooks', asAnswer(created));
      const id = /<code>(we_[A-Za-z0-9]+)<\/code>/.exec(created.html)?.[1] as string;
      expect(id).toMatch(/^we_/);
      const one = `webhooks/${id}`;
      const page = await browser.get(one);
      expectAnswer('GET', '/dashboard/webhooks/{id}', asAnswer(page));
      // An event of the account, which the endpoint (every type) is sent: a plan made and deleted.
      const plan = await api('POST', '/v1/plans/', {
        auth,
        body: { name: 'Doc hooks', amount: '1.00', currency: 'USD', interval: 'month', interval_count: 1 },
      });
      expect(plan.status, plan.text).toBe(201);
      expect((await api('DELETE', `/v1/plans/${plan.json.data.id}/`, { auth })).status).toBe(200);
      const events = await api('GET', '/v1/events/?type=plan.deleted&page_size=1', { auth });
      const eventId = events.json.results[0].id as string;
      const redelivered = await browser.post(`${one}/redeliver`, {
        csrf_token: formToken(page.html),
        event_id: eventId,
        idempotency_key: 'R'.repeat(32),
      });
      expect(redelivered.status, redelivered.html).toBe(303);
      expectAnswer('POST', '/dashboard/webhooks/{id}/redeliver', asAnswer(redelivered));
      const askRotate = await browser.get(`${one}/rotate-secret`);
      expectAnswer('GET', '/dashboard/webhooks/{id}/rotate-secret', asAnswer(askRotate));
      const rotated = await browser.post(`${one}/rotate-secret`, { csrf_token: formToken(askRotate.html) });
      expect(rotated.status, rotated.html).toBe(200);
      expectAnswer('POST', '/dashboard/webhooks/{id}/rotate-secret', asAnswer(rotated));
      const askDelete = await browser.get(`${one}/delete`);
      expectAnswer('GET', '/dashboard/webhooks/{id}/delete', asAnswer(askDelete));
      const deleted = await browser.post(`${one}/delete`, { csrf_token: formToken(askDelete.html) });
      expect(deleted.status, deleted.html).toBe(303);
      expectAnswer('POST', '/dashboard/webhooks/{id}/delete', asAnswer(deleted));
      expectAnswer('GET', '/dashboard/events', asAnswer(await browser.get('events')));
      expectAnswer('GET', '/dashboard/events/{id}', asAnswer(await browser.get(`events/${eventId}`)));
      expectAnswer('GET', '/dashboard/api-keys', asAnswer(await browser.get('api-keys')));
      const askKey = await browser.get('api-keys/rotate?type=test');
      expectAnswer('GET', '/dashboard/api-keys/rotate', asAnswer(askKey));
      // The session's own key: the answer shows the new key and the session ends.
      const key = await browser.post('api-keys/rotate', { csrf_token: formToken(askKey.html), type: 'test' });
      expect(key.status, key.html).toBe(200);
      expectAnswer('POST', '/dashboard/api-keys/rotate', asAnswer(key));
    },
  );

  routeTest(
    "the dashboard's customers and subscriptions: the lists, a customer, a portal link, a subscription, its end at the period's end, Resume and its cancel",
    async ({ account, auth }) => {
      const customer = await api('POST', '/v1/customers/', {
        auth,
        body: { first_name: 'Dash', last_name: 'Reader', email: `dash-docs-${Date.now()}@example.com` },
      });
      expect(customer.status, customer.text).toBe(201);
      const customerId = customer.json.data.id as string;
      const plan = await api('POST', '/v1/plans/', {
        auth,
        body: { name: 'Docs', amount: '1.00', currency: 'USD', interval: 'month', interval_count: 1 },
      });
      const subscription = await subscribe({
        account,
        planId: plan.json.data.id as string,
        anchor: new Date().toISOString(),
        customerId,
      });
      const browser = await new DashboardClient().signedIn(account.testKey);
      expectAnswer('GET', '/dashboard/customers', asAnswer(await browser.get('customers?search=dash')));
      const page = await browser.get(`customers/${customerId}`);
      expectAnswer('GET', '/dashboard/customers/{id}', asAnswer(page));
      const link = await browser.post(`customers/${customerId}/portal`, {
        csrf_token: formToken(page.html),
        idempotency_key: hiddenField(page.html, 'idempotency_key'),
      });
      expectAnswer('POST', '/dashboard/customers/{id}/portal', asAnswer(link));
      expectAnswer(
        'GET',
        '/dashboard/subscriptions',
        asAnswer(await browser.get('subscriptions?status=active')),
      );
      const one = `subscriptions/${subscription.id}`;
      const shown = await browser.get(one);
      expectAnswer('GET', '/dashboard/subscriptions/{id}', asAnswer(shown));
      const ending = await browser.post(`${one}/cancel-at-period-end`, { csrf_token: formToken(shown.html) });
      expect(ending.status, ending.html).toBe(303);
      expectAnswer('POST', '/dashboard/subscriptions/{id}/cancel-at-period-end', asAnswer(ending));
      const resumed = await browser.post(`${one}/resume`, { csrf_token: formToken(shown.html) });
      expect(resumed.status, resumed.html).toBe(303);
      expectAnswer('POST', '/dashboard/subscriptions/{id}/resume', asAnswer(resumed));
      const confirm = await browser.get(`${one}/cancel`);
      expectAnswer('GET', '/dashboard/subscriptions/{id}/cancel', asAnswer(confirm));
      const canceled = await browser.post(`${one}/cancel`, { csrf_token: formToken(confirm.html) });
      expect(canceled.status, canceled.html).toBe(303);
      expectAnswer('POST', '/dashboard/subscriptions/{id}/cancel', asAnswer(canceled));
      // Its refusals are pages, with statuses the document lists.
      const again = await browser.post(`${one}/cancel`, { csrf_token: formToken(confirm.html) });
      expect(again.status).toBe(409);
      expect(
        suite.doc.paths['/dashboard/subscriptions/{id}/cancel'].post.responses['409'].content,
      ).toHaveProperty('text/html');
      // Canceled: its end at the period's end is the change's 409, a page the document lists.
      const unchangeable = await browser.post(`${one}/cancel-at-period-end`, {
        csrf_token: formToken(confirm.html),
      });
      expect(unchangeable.status, unchangeable.html).toBe(409);
      expect(
        suite.doc.paths['/dashboard/subscriptions/{id}/cancel-at-period-end'].post.responses['409'].content,
      ).toHaveProperty('text/html');
      const missing = await browser.get(`customers/${crypto.randomUUID()}`);
      expect(missing.status).toBe(404);
      expect(suite.doc.paths['/dashboard/customers/{id}'].get.responses['404'].content).toHaveProperty(
        'text/html',
      );
    },
  );

  routeTest(
    'the dashboard’s admin pages: users (an invitation, a role change, a removal), the audit log and the connectors',
    async ({ account }) => {
      // An admin with a second factor: live mode's connection is changed by no one without one.
      const browser = await new DashboardClient().signedInAs(
        await newUser(account.developerId, { twoFactor: true }),
      );
      const users = await browser.get('users');
      expectAnswer('GET', '/dashboard/users', asAnswer(users));
      const invited = await browser.post('users', {
        csrf_token: formToken(users.html),
        idempotency_key: hiddenField(users.html, 'idempotency_key'),
        email: `doc-${crypto.randomUUID()}@team.example.com`,
        role: 'viewer',
      });
      expect(invited.status, invited.html).toBe(303);
      expectAnswer('POST', '/dashboard/users', asAnswer(invited));
      // The invited user's role form names their id.
      const listed = await browser.get('users?invited=1');
      const own = browser.user?.user.user_id as string;
      const id = [...listed.html.matchAll(/\/users\/(usr_[A-Za-z0-9]{24})\/role"/g)]
        .map((match) => match[1])
        .find((found) => found !== own) as string;
      expect(id).toMatch(/^usr_/);
      const role = await browser.post(`users/${id}/role`, {
        csrf_token: formToken(listed.html),
        role: 'support',
      });
      expect(role.status, role.html).toBe(303);
      expectAnswer('POST', '/dashboard/users/{id}/role', asAnswer(role));
      const confirm = await browser.get(`users/${id}/remove`);
      expectAnswer('GET', '/dashboard/users/{id}/remove', asAnswer(confirm));
      const removed = await browser.post(`users/${id}/remove`, { csrf_token: formToken(confirm.html) });
      expect(removed.status, removed.html).toBe(303);
      expectAnswer('POST', '/dashboard/users/{id}/remove', asAnswer(removed));
      expectAnswer('GET', '/dashboard/audit', asAnswer(await browser.get('audit')));
      const connectors = await browser.get('connectors');
      expectAnswer('GET', '/dashboard/connectors', asAnswer(connectors));
      const stripe = await newStandInStripeAccount(localInfo, account.developerId);
      const live = connectors.html.slice(connectors.html.indexOf('/connectors/live"'));
      const connected = await browser.post('connectors/live', {
        csrf_token: formToken(connectors.html),
        idempotency_key: hiddenField(live, 'idempotency_key'),
        stripe_key: stripe.live_key,
        stripe_webhook_secret: stripe.live_webhook_secret,
      });
      expect(connected.status, connected.html).toBe(303);
      expectAnswer('POST', '/dashboard/connectors/{mode}', asAnswer(connected));
      const disconnect = await browser.get('connectors/live/disconnect');
      expectAnswer('GET', '/dashboard/connectors/{mode}/disconnect', asAnswer(disconnect));
      const disconnected = await browser.post('connectors/live/disconnect', {
        csrf_token: formToken(disconnect.html),
      });
      expect(disconnected.status, disconnected.html).toBe(303);
      expectAnswer('POST', '/dashboard/connectors/{mode}/disconnect', asAnswer(disconnected));
      // Its refusals are pages, with statuses the document lists.
      const last = await browser.post(`users/${own}/remove`, { csrf_token: formToken(confirm.html) });
      expect(last.status, last.html).toBe(409);
      expect(suite.doc.paths['/dashboard/users/{id}/remove'].post.responses['409'].content).toHaveProperty(
        'text/html',
      );
      const malformed = await browser.get('audit?before=yesterday');
      expect(malformed.status).toBe(400);
      expect(suite.doc.paths['/dashboard/audit'].get.responses['400'].content).toHaveProperty('text/html');
    },
  );

  routeTest(
    'the dashboard’s profile: the page, a password change, and two-factor sign-in set up and turned off',
    async ({ account }) => {
      const user = await newUser(account.developerId, { role: 'viewer' });
      const browser = await new DashboardClient().signedInAs(user);
      const page = await browser.get('profile');
      expectAnswer('GET', '/dashboard/profile', asAnswer(page));
      const password = `doc-${crypto.randomUUID()}`;
      const changed = await browser.post('profile/password', {
        csrf_token: formToken(page.html),
        current_password: user.password,
        password,
        confirm: password,
      });
      expect(changed.status, changed.html).toBe(303);
      expectAnswer('POST', '/dashboard/profile/password', asAnswer(changed));
      const started = await browser.post('profile/two-factor/start', { csrf_token: formToken(page.html) });
      expectAnswer('POST', '/dashboard/profile/two-factor/start', asAnswer(started));
      const secret = /data-totp-secret="([A-Z2-7]+)"/.exec(started.html)?.[1] as string;
      const on = await browser.post('profile/two-factor', {
        csrf_token: formToken(started.html),
        code: totpCode(secret),
      });
      expect(on.status, on.html).toBe(303);
      expectAnswer('POST', '/dashboard/profile/two-factor', asAnswer(on));
      // Its refusals are pages, with statuses the document lists.
      const wrong = await browser.post('profile/two-factor/remove', {
        csrf_token: formToken(page.html),
        password: user.password,
      });
      expect(wrong.status, wrong.html).toBe(400);
      expect(
        suite.doc.paths['/dashboard/profile/two-factor/remove'].post.responses['400'].content,
      ).toHaveProperty('text/html');
      const off = await browser.post('profile/two-factor/remove', {
        csrf_token: formToken(page.html),
        password,
      });
      expect(off.status, off.html).toBe(303);
      expectAnswer('POST', '/dashboard/profile/two-factor/remove', asAnswer(off));
    },
  );
});
