/**
 * The audit log against the local stack: each kind of change made in the dashboard writes one entry
 * with who made it (the signed-in user's id and e-mail), what (the row's action), which record, the
 * mode, when and from which address; a form sent twice writes one entry; entries read newest first,
 * paged. Which actions exist comes from the dashboard's route table, so a new form that changes
 * something and is not done here fails this test.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eventCatalogue } from '../../shared/api/events.ts';
import { dashboardRows } from '../../shared/dashboard/area.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { type AuditEntry, audit, auditPage, auditPageSize } from '../../shared/team/audit.ts';
import { payThroughCheckout } from '../support/checkout.ts';
import { DashboardClient, formToken, hiddenField } from '../support/dashboard.ts';
import { api, apiKey, newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';
import { subscribe } from '../support/subscriptions.ts';

let account: TestAccount;
let auth: string;

beforeAll(async () => {
  useLocalEnvironment();
  account = await newAccount('dashboard-audit');
  auth = apiKey(account.testKey);
});

/** Every entry of the account's log, newest first. */
async function entries(developerId: number): Promise<AuditEntry[]> {
  const all: AuditEntry[] = [];
  let before: string | undefined;
  do {
    const page = await auditPage(makeDeps(), developerId, before);
    all.push(...page.entries);
    before = page.next;
  } while (before);
  return all;
}

/** The actions this file does through the dashboard's own forms (the team's and the profile's are done in their own suites). */
const doneHere = [
  'refund.create',
  'portal_link.create',
  'subscription.cancel',
  'subscription.cancel_at_period_end',
  'subscription.resume',
  'plan.create',
  'plan.active',
  'plan.delete',
  'product.create',
  'product.delete',
  'payment_link.create',
  'payment_link.delete',
  'webhook_endpoint.create',
  'webhook.redeliver',
  'webhook_endpoint.rotate_secret',
  'webhook_endpoint.delete',
  'api_key.rotate',
];

describe('the audit log', { timeout: 120_000 }, () => {
  it('writes each kind of change with its user, record, mode and address; a form sent twice, once', async () => {
    const browser = await new DashboardClient().signedIn(account.testKey);
    const user = browser.user?.user;
    if (!user) throw new Error('no user signed in');
    const ok = (answer: { status: number; html: string }, status = 303) =>
      expect(answer.status, answer.html).toBe(status);

    // A refund, its form sent twice.
    const { chargeId } = await payThroughCheckout(auth);
    const charge = await browser.get(`charges/${chargeId}`);
    const refund = {
      csrf_token: formToken(charge.html),
      idempotency_key: hiddenField(charge.html, 'idempotency_key'),
      amount: '1.00',
      reason: 'duplicate',
    };
    ok(await browser.post(`charges/${chargeId}/refunds`, refund));
    ok(await browser.post(`charges/${chargeId}/refunds`, refund));
    const refunds = (await api('GET', `/v1/refunds/?charge_id=${chargeId}`, { auth })).json as {
      id: string;
    }[];
    expect(refunds).toHaveLength(1);

    // A customer's portal link; a subscription set to end, resumed, canceled.
    const customer = await api('POST', '/v1/customers/', {
      auth,
      body: { first_name: 'Audit', last_name: 'Trail', email: `audit-${Date.now()}@example.com` },
    });
    const customerId = customer.json.data.id as string;
    const customerPage = await browser.get(`customers/${customerId}`);
    ok(
      await browser.post(`customers/${customerId}/portal`, {
        csrf_token: formToken(customerPage.html),
        idempotency_key: hiddenField(customerPage.html, 'idempotency_key'),
      }),
      200,
    );
    const plan = await api('POST', '/v1/plans/', {
      auth,
      body: { name: 'Audit', amount: '1.00', currency: 'USD', interval: 'month', interval_count: 1 },
    });
    const subscription = await subscribe({
      account,
      planId: plan.json.data.id as string,
      anchor: new Date().toISOString(),
      customerId,
    });
    const one = `subscriptions/${subscription.id}`;
    const csrf = formToken((await browser.get(one)).html);
    ok(await browser.post(`${one}/cancel-at-period-end`, { csrf_token: csrf }));
    ok(await browser.post(`${one}/resume`, { csrf_token: csrf }));
    ok(await browser.post(`${one}/cancel`, { csrf_token: csrf }));

    // The catalog: each list's create form (sent twice), a plan archived, each record deleted.
    const made: Record<string, string> = {};
    const lists: [string, Record<string, string>][] = [
      [
        'plans',
        { name: 'Audit plan', amount: '9.90', currency: 'USD', interval: 'month', interval_count: '1' },
      ],
      ['products', { name: 'Audit product', price: '5.00' }],
      ['links', { description: 'Audit link', amount: '5.00' }],
    ];
    for (const [list, fields] of lists) {
      const page = await browser.get(list);
      const form = {
        csrf_token: formToken(page.html),
        idempotency_key: hiddenField(page.html, 'idempotency_key'),
        ...fields,
      };
      const created = await browser.post(list, form);
      ok(created);
      ok(await browser.post(list, form));
      made[list] = new URL(created.location as string).searchParams.get('created') as string;
      if (list === 'plans')
        ok(
          await browser.post(`plans/${made[list]}/active`, { csrf_token: form.csrf_token, active: 'false' }),
        );
      ok(await browser.post(`${list}/${made[list]}/delete`, { csrf_token: form.csrf_token }));
    }

    // A webhook endpoint: made, an event redelivered to it, its secret rotated, deleted; the test key rotated.
    const hooks = await browser.get('webhooks');
    const endpoint = await browser.post('webhooks', {
      csrf_token: formToken(hooks.html),
      idempotency_key: hiddenField(hooks.html, 'idempotency_key'),
      url: 'http://127.0.0.1:9/audit',
      description: 'Audit',
    });
    ok(endpoint, 201);
    const endpointId = /<code>(we_[A-Za-z0-9]+)<\/code>/.exec(endpoint.html)?.[1] as string;
    const eventId = (await api('GET', '/v1/events/?page_size=1', { auth })).json.results[0].id as string;
    ok(
      await browser.post(`webhooks/${endpointId}/redeliver`, {
        csrf_token: csrf,
        event_id: eventId,
        idempotency_key: 'A'.repeat(32),
      }),
    );
    ok(await browser.post(`webhooks/${endpointId}/rotate-secret`, { csrf_token: csrf }), 200);
    ok(await browser.post(`webhooks/${endpointId}/delete`, { csrf_token: csrf }));
    ok(await browser.post('api-keys/rotate', { csrf_token: csrf, type: 'test' }), 200);

    const log = await entries(account.developerId);
    const byAction = new Map<string, AuditEntry[]>();
    for (const entry of log) byAction.set(entry.action, [...(byAction.get(entry.action) ?? []), entry]);
    expect([...byAction.keys()].sort()).toEqual([...doneHere].sort());
    for (const entry of log) {
      expect(entry).toMatchObject({
        actor_id: user.user_id,
        actor_email: user.email,
        mode: 'test',
        address: '127.0.0.1',
      });
      expect(Math.abs(Date.parse(entry.at) - Date.now())).toBeLessThan(120_000);
    }
    // One entry per thing done, naming its record: the refund (sent twice), each record made (sent twice).
    expect(byAction.get('refund.create')?.map((entry) => entry.record)).toEqual([refunds[0]?.id]);
    expect(byAction.get('plan.create')?.map((entry) => entry.record)).toEqual([made.plans]);
    expect(byAction.get('product.create')?.map((entry) => entry.record)).toEqual([made.products]);
    expect(byAction.get('payment_link.create')?.map((entry) => entry.record)).toEqual([made.links]);
    expect(byAction.get('subscription.cancel')?.map((entry) => entry.record)).toEqual([subscription.id]);
    expect(byAction.get('webhook_endpoint.create')?.map((entry) => entry.record)).toEqual([endpointId]);
    expect(byAction.get('portal_link.create')?.map((entry) => entry.record)).toEqual([customerId]);
    // Newest first.
    const times = log.map((entry) => entry.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('every action a dashboard form names is done in some test of the audit log', () => {
    const named = new Set(
      dashboardRows(eventCatalogue.map((event) => event.type))
        .map((row) => row.audit)
        .filter((action): action is string => typeof action === 'string'),
    );
    // The team's and the profile's forms are checked in dashboard-team and dashboard-profile.
    const elsewhere = [...named].filter(
      (action) => action.startsWith('user.') || action.startsWith('connector.'),
    );
    expect([...named].filter((action) => !elsewhere.includes(action)).sort()).toEqual([...doneHere].sort());
  });

  it('one entry per submission key: the same key again (a resubmit, or a retry after the first entry failed) writes none', async () => {
    const own = await newAccount('audit-once');
    const deps = makeDeps();
    const actor = { user_id: 'usr_once', email: 'once@example.com' };
    const entry = (once: string) =>
      audit(deps, {
        developerId: own.developerId,
        actor,
        action: 'plan.create',
        record: 'p',
        address: '192.0.2.1',
        once,
      });
    const [first, second] = await Promise.all([entry('K'.repeat(32)), entry('K'.repeat(32))]);
    expect([first, second].filter((written) => written !== undefined)).toHaveLength(1);
    expect(await entry('K'.repeat(32))).toBeUndefined();
    // Another key is another submission; the same key under another action is another entry.
    expect(await entry('L'.repeat(32))).toBeDefined();
    expect(
      await audit(deps, {
        developerId: own.developerId,
        actor,
        action: 'plan.delete',
        address: '192.0.2.1',
        once: 'K'.repeat(32),
      }),
    ).toBeDefined();
    expect((await entries(own.developerId)).map((e) => e.action).sort()).toEqual([
      'plan.create',
      'plan.create',
      'plan.delete',
    ]);
  });

  it('pages newest first, 50 at a time, and the cursor reaches every entry once', async () => {
    const own = await newAccount('audit-pages');
    const deps = makeDeps();
    const actor = { user_id: 'usr_pages', email: 'pages@example.com' };
    for (let n = 0; n < auditPageSize + 7; n++)
      await audit(deps, {
        developerId: own.developerId,
        actor,
        action: 'test.page',
        record: String(n),
        address: '192.0.2.1',
      });
    const first = await auditPage(deps, own.developerId);
    expect(first.entries).toHaveLength(auditPageSize);
    expect(first.next).toBeDefined();
    const second = await auditPage(deps, own.developerId, first.next);
    expect(second.entries).toHaveLength(7);
    expect(second.next).toBeUndefined();
    const records = [...first.entries, ...second.entries].map((entry) => Number(entry.record));
    expect(records).toEqual(Array.from({ length: auditPageSize + 7 }, (_, n) => auditPageSize + 6 - n));
  });
});
