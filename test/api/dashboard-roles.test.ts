/**
 * Every role against every dashboard route, from the dashboard's own route table (so a page added
 * later is checked here without a line of this file, or fails for want of a record to name): a
 * route a role may use answers it (a page 200; a form anything but 403 and never 5xx), a route it may
 * not use answers 403 with its reason and changes nothing, whatever the form says. Which role may
 * use which route is shared/team/roles.ts; this test reads it only through each row's permission,
 * and checks the few rules D20 states in so many words independently.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { connectionsOf } from '../../shared/acquirer/connect.ts';
import { eventCatalogue } from '../../shared/api/events.ts';
import { dashboardRows } from '../../shared/dashboard/area.ts';
import type { DashboardRoute } from '../../shared/dashboard/common-routes.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { auditPage } from '../../shared/team/audit.ts';
import { can, type Role, roles } from '../../shared/team/roles.ts';
import { listUsers } from '../../shared/team/users.ts';
import { payThroughCheckout } from '../support/checkout.ts';
import { DashboardClient, dashboardUrl, formToken } from '../support/dashboard.ts';
import { api, apiKey, newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';
import { subscribe } from '../support/subscriptions.ts';
import { newUser } from '../support/team.ts';

const rows = dashboardRows(eventCatalogue.map((event) => event.type));
const signedInRows = rows.filter((row) => row.permission !== 'public');
/** Sign-out ends the session it is sent in: it is tried last, on its own. */
const isSignOut = (row: DashboardRoute) => row.path === '/dashboard/sign-out';

let account: TestAccount;
let auth: string;
/** A record of the account for each path parameter the dashboard's paths name, by what precedes it. */
const records: Record<string, string> = {};
const clients = {} as Record<Role, DashboardClient>;

beforeAll(async () => {
  useLocalEnvironment();
  account = await newAccount('dashboard-roles');
  auth = apiKey(account.testKey);
  const paid = await payThroughCheckout(auth, { payment: { description: 'Roles order' } });
  records.charges = paid.chargeId;
  const customer = await api('POST', '/v1/customers/', {
    auth,
    body: { first_name: 'Role', last_name: 'Reader', email: `roles-${Date.now()}@example.com` },
  });
  records.customers = customer.json.data.id;
  const plan = await api('POST', '/v1/plans/', {
    auth,
    body: { name: 'Roles plan', amount: '3.00', currency: 'USD', interval: 'month', interval_count: 1 },
  });
  records.plans = plan.json.data.id;
  const subscription = await subscribe({
    account,
    planId: plan.json.data.id as string,
    anchor: new Date().toISOString(),
    customerId: customer.json.data.id as string,
  });
  records.subscriptions = subscription.id;
  const product = await api('POST', '/v1/products/', {
    auth,
    body: { name: 'Roles product', price: '2.00' },
  });
  records.products = product.json.data.id;
  const link = await api('POST', '/v1/payment-links/', {
    auth,
    body: { description: 'Roles link', amount: '2.00', currency: 'USD' },
  });
  records.links = link.json.data.id;
  const endpoint = await api('POST', '/v1/webhook-endpoints/', {
    auth,
    body: { url: 'http://127.0.0.1:9/roles', description: 'Roles endpoint' },
  });
  records.webhooks = endpoint.json.data.id;
  const events = await api('GET', '/v1/events/?page_size=1', { auth });
  records.events = events.json.results[0].id;
  records.users = (await newUser(account.developerId, { role: 'viewer', label: 'target' })).user.user_id;
  records.connectors = 'live';
  for (const [name, value] of Object.entries(records)) expect(value, name).toBeTruthy();
  // Each with a second factor: what live mode's rules ask of a user is not what this test checks.
  for (const role of roles) {
    clients[role] = new DashboardClient();
    await clients[role].signedInAs(await newUser(account.developerId, { role, twoFactor: true }));
  }
});

/** A row's path with a record of the account for its parameter: the one named after the list before it. */
function pathOf(row: DashboardRoute): string {
  const path = row.path.replace(/^\/dashboard\//, '');
  return path.replace(/([a-z-]+)\/\{([a-z_]+)\}/g, (_, list: string, name: string) => {
    const record = records[list];
    if (!record)
      throw new Error(
        `${row.method} ${row.path}: no record for {${name}} after ${list}/; add one to this test`,
      );
    return `${list}/${record}`;
  });
}

/** A GET's query where the page needs one to show its form (the key rotation asks which key). */
const queryOf = (row: DashboardRoute) => (row.path === '/dashboard/api-keys/rotate' ? '?type=test' : '');

/** What any form might take: a refused form must change nothing whatever it says. */
const acting = {
  idempotency_key: 'I'.repeat(32),
  amount: '',
  reason: 'duplicate',
  type: 'test',
  name: 'Refused',
  price: '1.00',
  currency: 'USD',
  interval: 'month',
  interval_count: '1',
  description: 'Refused',
  url: 'http://127.0.0.1:9/refused',
  email: `refused-${Date.now()}@example.com`,
  role: 'admin',
  mode: 'test',
  lang: 'es',
  back: '',
  event_id: 'evt_x',
};

/** What the account holds, as the API, the team's repository and the audit log show it. */
async function snapshot() {
  const deps = makeDeps();
  const lists = await Promise.all(
    [
      '/v1/payments/?limit=100',
      '/v1/refunds/',
      '/v1/plans/',
      '/v1/products/',
      '/v1/payment-links/',
      '/v1/webhook-endpoints/',
      '/v1/customers/',
      `/v1/subscriptions/${records.subscriptions}`,
      '/v1/auth/api-keys/',
    ].map(async (path) => (await api('GET', path, { auth })).json),
  );
  return {
    lists,
    users: (await listUsers(deps, account.developerId)).map(({ updated_at: _, ...user }) => user),
    audit: (await auditPage(deps, account.developerId)).entries,
    connections: await connectionsOf(deps, account.developerId),
  };
}

describe('each role against every dashboard route', { timeout: 180_000 }, () => {
  it('every signed-in row names a permission; every form that changes something names its audit action', () => {
    for (const row of signedInRows) {
      expect(row.permission, `${row.method} ${row.path}`).toBeTruthy();
      if (row.method === 'POST') expect(row.audit, `${row.method} ${row.path}`).not.toBeUndefined();
    }
    // D20 in so many words: only admins manage users and connectors and read the audit log; a
    // viewer reads only; a developer neither refunds nor cancels; support refunds and cancels.
    const may = (role: Role, method: string, path: string) => {
      const row = rows.find((r) => r.method === method && r.path === path);
      if (!row || row.permission === 'public') throw new Error(`${method} ${path}: no such row`);
      return can(role, row.permission);
    };
    for (const role of roles) {
      expect(may(role, 'GET', '/dashboard/users'), role).toBe(role === 'admin');
      expect(may(role, 'GET', '/dashboard/audit'), role).toBe(role === 'admin');
      expect(may(role, 'GET', '/dashboard/connectors'), role).toBe(role === 'admin');
      expect(may(role, 'POST', '/dashboard/api-keys/rotate'), role).toBe(role === 'admin');
      expect(may(role, 'GET', '/dashboard/api-keys'), role).toBe(role === 'admin' || role === 'developer');
      expect(may(role, 'POST', '/dashboard/charges/{id}/refunds'), role).toBe(
        role === 'admin' || role === 'support',
      );
      expect(may(role, 'POST', '/dashboard/subscriptions/{id}/cancel'), role).toBe(
        role === 'admin' || role === 'support',
      );
      expect(may(role, 'POST', '/dashboard/customers/{id}/portal'), role).toBe(
        role === 'admin' || role === 'support',
      );
      expect(may(role, 'POST', '/dashboard/webhooks'), role).toBe(role === 'admin' || role === 'developer');
      expect(may(role, 'POST', '/dashboard/plans'), role).toBe(role === 'admin' || role === 'developer');
      expect(may(role, 'GET', '/dashboard/charges'), role).toBe(true);
    }
    // One's own profile (password, second factor) is every role's; nothing of the account is a viewer's.
    const viewerWrites = signedInRows.filter(
      (row) =>
        row.method === 'POST' &&
        row.audit &&
        row.permission !== 'self' &&
        can('viewer', row.permission as never),
    );
    expect(viewerWrites.map((row) => row.path)).toEqual([]);
  });

  it('a refused page or form answers 403 saying why, and nothing of the account changes', async () => {
    const before = await snapshot();
    let refusals = 0;
    for (const role of roles) {
      const client = clients[role];
      const home = await client.get('');
      expect(home.status, home.html).toBe(200);
      const csrf = formToken(home.html);
      for (const row of signedInRows) {
        if (can(role, row.permission as never)) continue;
        const path = pathOf(row);
        const answer =
          row.method === 'GET'
            ? await client.get(`${path}${queryOf(row)}`)
            : await client.post(path, { csrf_token: csrf, ...acting });
        expect(answer.status, `${role} ${row.method} ${path}: ${answer.html.slice(0, 300)}`).toBe(403);
        expect(answer.html).toContain('Your role does not allow this page or action');
        refusals += 1;
      }
    }
    expect(refusals).toBeGreaterThan(20);
    expect(await snapshot()).toEqual(before);
  });

  it('an allowed page answers 200 to each role; the navigation shows a role only what it may open', async () => {
    for (const role of roles) {
      const client = clients[role];
      for (const row of signedInRows.filter((r) => r.method === 'GET' && can(role, r.permission as never))) {
        const path = `${pathOf(row)}${queryOf(row)}`;
        const answer = await client.get(path);
        expect(answer.status, `${role} GET ${path}: ${answer.html.slice(0, 300)}`).toBe(200);
      }
      const nav = /<nav[^>]*>([\s\S]*?)<\/nav>/.exec((await client.get('')).html)?.[1] ?? '';
      const links = [...nav.matchAll(/href="[^"]*\/dashboard\/([^"]*)"/g)].map((match) => match[1]);
      for (const link of links) {
        const row = signedInRows.find((r) => r.method === 'GET' && r.path === `/dashboard/${link}`);
        expect(row, `${role}: the navigation links /dashboard/${link}, which is no page`).toBeDefined();
        expect(can(role, row?.permission as never), `${role}: the navigation links /dashboard/${link}`).toBe(
          true,
        );
      }
      expect(links.includes('users')).toBe(role === 'admin');
      expect(links.includes('api-keys')).toBe(role === 'admin' || role === 'developer');
    }
  });

  it('no page offers a role a form or a link it may not use', async () => {
    const root = new URL(dashboardUrl()).pathname;
    /** The row a page's form or link goes to, by method and concrete path. */
    const rowOf = (method: string, path: string) =>
      rows.find(
        (row) =>
          row.method === method && new RegExp(`^${row.path.replace(/\{[a-z_]+\}/g, '[^/]+')}$`).test(path),
      );
    for (const role of roles) {
      const client = clients[role];
      for (const row of signedInRows.filter((r) => r.method === 'GET' && can(role, r.permission as never))) {
        const page = `${pathOf(row)}${queryOf(row)}`;
        const { html } = await client.get(page);
        const targets = [
          ...[...html.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => ['POST', m[1] as string]),
          ...[...html.matchAll(/<a href="([^"]+)"/g)].map((m) => ['GET', m[1] as string]),
        ];
        for (const [method, url] of targets) {
          const path = new URL(url as string, dashboardUrl()).pathname;
          if (!path.startsWith(root)) continue;
          const target = rowOf(method as string, path);
          if (!target || target.permission === 'public') continue;
          expect(can(role, target.permission), `${role} on ${page}: ${method} ${path}`).toBe(true);
        }
      }
    }
  });

  it('an allowed form is let through to its page’s own checks (never 403, never a failure) for each role', async () => {
    for (const role of roles) {
      const client = clients[role];
      const csrf = formToken((await client.get('')).html);
      const forms = signedInRows.filter(
        (r) => r.method === 'POST' && !isSignOut(r) && can(role, r.permission as never),
      );
      for (const row of forms) {
        const path = pathOf(row);
        // Only the CSRF token: each page then refuses what is missing, or acts on the record.
        const answer = await client.post(path, { csrf_token: csrf });
        expect(answer.status, `${role} POST ${path}: ${answer.html.slice(0, 300)}`).not.toBe(403);
        expect(answer.status, `${role} POST ${path}`).toBeLessThan(500);
      }
      const out = await client.post('sign-out', { csrf_token: csrf });
      expect(out.status).toBe(303);
    }
  });
});
