/**
 * A subscription's page in the dashboard, its end at the period's end and Resume (decision D19),
 * against the local stack: "Cancel at end of period" sets `cancel_at_period_end` on the API's view
 * and charges nothing, once under a double submit; Resume clears it and it renews; a change of plan
 * or quantity made with the API's PUT shows as pending (the plan's name as it is now, or that it was
 * deleted since); both forms are refused without the session's CSRF token; a past-due, canceled or
 * not started subscription answers its page saying why (409), as does a Resume once its day has come.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { displayDate } from '../../shared/core/display.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { runBilling } from '../../shared/subscriptions/billing.ts';
import { simulatedAcquirer } from '../support/acquirer.ts';
import { listCharges, testCards } from '../support/checkout.ts';
import { DashboardClient, dashboardUrl, formToken } from '../support/dashboard.ts';
import { concurrently } from '../support/race.ts';
import { api, apiKey, newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';
import { type Seed, subscribe } from '../support/subscriptions.ts';
import { storedEventItems } from '../support/table.ts';

const day = 86_400_000;
const billingDeps = () => ({ ...makeDeps(), acquirer: simulatedAcquirer() });

/** A merchant of its own (a billing run at a later date then meets only its subscriptions), signed in. */
interface Merchant {
  account: TestAccount;
  auth: string;
  planId: string;
  browser: DashboardClient;
}

async function merchant(headers: Record<string, string> = {}): Promise<Merchant> {
  const account = await newAccount('dash-subscriptions');
  const auth = apiKey(account.testKey);
  const plan = await api('POST', '/v1/plans/', {
    auth,
    body: { name: 'Gold', amount: '10.50', currency: 'USD', interval: 'month', interval_count: 1 },
  });
  expect(plan.status, plan.text).toBe(201);
  const browser = await new DashboardClient(headers).signedIn(account.testKey);
  return { account, auth, planId: plan.json.data.id as string, browser };
}

/** An active subscription of `own` in its first period (or, with `seed`, as it says). */
const started = (own: Merchant, seed: Partial<Seed> = {}) =>
  subscribe({ account: own.account, planId: own.planId, anchor: new Date().toISOString(), ...seed });

const viewOf = async (own: Merchant, id: string) =>
  (await api('GET', `/v1/subscriptions/${id}`, { auth: own.auth })).json;

const chargesFor = async (own: Merchant, id: string) =>
  (await listCharges(own.auth, 'limit=1000')).filter((charge) => charge.subscription_id === id);

/** The `subscription.updated` events stored about subscription `id`. */
const updatesOf = async (own: Merchant, id: string) =>
  (await storedEventItems(own.account.developerId, 'test'))
    .map((item) => item.detail)
    .filter((detail) => detail.type === 'subscription.updated' && detail.data.object.subscription_id === id);

/** Posts the subscription's form `action` with the CSRF token of its page. */
async function act(own: Merchant, id: string, action: 'cancel-at-period-end' | 'resume') {
  const page = await own.browser.get(`subscriptions/${id}`);
  expect(page.status, page.html).toBe(200);
  return own.browser.post(`subscriptions/${id}/${action}`, { csrf_token: formToken(page.html) });
}

let shared: Merchant;
beforeAll(async () => {
  useLocalEnvironment();
  shared = await merchant();
});

describe("a subscription's end at the period's end, from its page", () => {
  it('"Cancel at end of period" sets cancel_at_period_end, charges nothing, says the day; Resume clears it and it renews', async () => {
    const own = await merchant();
    const { id } = await started(own);
    const end = (await viewOf(own, id)).current_period_end as string;
    const date = displayDate(end, 'en');
    const page = await own.browser.get(`subscriptions/${id}`);
    expect(page.html).toContain(
      `At the end of the period: it stays active until ${date}, the end of the period already paid for, and then ends.`,
    );
    expect(page.html).toContain('<button type="submit">Cancel at end of period</button>');
    // Cancelling at once stays, said as such.
    expect(page.html).toContain('Cancel now: it ends at once and is never charged again');
    expect(page.html).toContain(`href="${dashboardUrl(`subscriptions/${id}/cancel`)}">Cancel now…</a>`);
    expect(page.html).toContain('<dt>Next billing date</dt>');
    expect(page.html).not.toContain('Ends on');

    // Two submits of the form at once: both answer the page that says it ends; one change is made.
    const csrf = formToken(page.html);
    const answers = await concurrently(2, () =>
      own.browser.post(`subscriptions/${id}/cancel-at-period-end`, { csrf_token: csrf }),
    );
    for (const answer of answers) {
      expect(answer.status, answer.html).toBe(303);
      expect(answer.location).toBe(dashboardUrl(`subscriptions/${id}?ending=1`));
    }
    expect(await viewOf(own, id)).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
      cancel_at: end,
    });
    expect((await updatesOf(own, id)).map((detail) => detail.data.previous_attributes)).toEqual([
      { cancel_at_period_end: false, cancel_at: null },
    ]);
    expect(await chargesFor(own, id)).toEqual([]);

    const ending = await own.browser.get(answers[0]?.location as string);
    expect(ending.status, ending.html).toBe(200);
    expect(ending.html).toContain(
      `The subscription ends on ${date}. It will not be charged again; the customer is told by e-mail.`,
    );
    expect(ending.html).toContain(
      `<dt>Ends on</dt><dd><time data-ends datetime="${end}">${date}</time></dd>`,
    );
    expect(ending.html).not.toContain('Next billing date');
    expect(ending.html).toContain(`It ends on ${date}: it will not renew, and nothing more is charged.`);
    expect(ending.html).toContain('<button type="submit">Resume</button>');
    expect(ending.html).not.toContain('Cancel at end of period');
    // Cancelling at once is still offered.
    expect(ending.html).toContain('Cancel now…');

    const resumed = await own.browser.post(`subscriptions/${id}/resume`, {
      csrf_token: formToken(ending.html),
    });
    expect(resumed.status, resumed.html).toBe(303);
    expect(resumed.location).toBe(dashboardUrl(`subscriptions/${id}?resumed=1`));
    expect(await viewOf(own, id)).toMatchObject({
      status: 'active',
      cancel_at_period_end: false,
      cancel_at: null,
    });
    const renewing = await own.browser.get(resumed.location as string);
    expect(renewing.html).toContain(
      'The subscription renews as before: it is no longer set to end. The customer is told by e-mail.',
    );
    expect(renewing.html).toContain('<dt>Next billing date</dt>');
    expect(renewing.html).not.toContain('Ends on');
    expect(renewing.html).not.toContain('>Resume</button>');
    expect(renewing.html).toContain('<button type="submit">Cancel at end of period</button>');
    // A Resume posted again changes nothing more.
    expect((await act(own, id, 'resume')).status).toBe(303);
    expect((await updatesOf(own, id)).map((detail) => detail.data.previous_attributes)).toEqual([
      { cancel_at_period_end: false, cancel_at: null },
      { cancel_at_period_end: true, cancel_at: end },
    ]);
    expect(await chargesFor(own, id)).toEqual([]);

    // At the period's end it renews, as before.
    const run = await runBilling(billingDeps(), new Date(Date.parse(end) + 1000), {
      developerId: own.account.developerId,
    });
    expect(run).toMatchObject({ renewed: 1, canceled: 0 });
    expect((await chargesFor(own, id)).map((charge) => charge.amount)).toEqual([21]);
  });

  it("left set, it ends at the period's end instead of charging; its page then offers nothing", async () => {
    const own = await merchant();
    const { id } = await started(own);
    expect((await act(own, id, 'cancel-at-period-end')).status).toBe(303);
    const end = (await viewOf(own, id)).cancel_at as string;
    const run = await runBilling(billingDeps(), new Date(Date.parse(end) + 1000), {
      developerId: own.account.developerId,
    });
    expect(run).toMatchObject({ canceled: 1, renewed: 0 });
    expect(await chargesFor(own, id)).toEqual([]);
    const page = await own.browser.get(`subscriptions/${id}`);
    expect(page.html).toContain('data-status="canceled"');
    expect(page.html).toContain('This subscription is canceled.');
    expect(page.html).not.toMatch(/>(Resume|Cancel at end of period)<\/button>/);
    expect(page.html).not.toContain('/cancel-at-period-end"');
    expect(page.html).not.toContain('Cancel now…');
  });

  it('in a trial: "Cancel at end of trial", ending at the trial\'s end, nothing charged', async () => {
    const trialEnd = new Date(Date.now() + 5 * day).toISOString();
    const { id } = await started(shared, { anchor: trialEnd, trial: true });
    const page = await shared.browser.get(`subscriptions/${id}`);
    const date = displayDate(trialEnd, 'en');
    expect(page.html).toContain(
      `At the end of the trial: the trial goes on until ${date} and then the subscription ends. Nothing is charged`,
    );
    const set = await shared.browser.post(`subscriptions/${id}/cancel-at-period-end`, {
      csrf_token: formToken(page.html),
    });
    expect(set.status, set.html).toBe(303);
    expect(await viewOf(shared, id)).toMatchObject({
      status: 'trialing',
      cancel_at_period_end: true,
      cancel_at: trialEnd,
    });
    expect((await shared.browser.get(set.location as string)).html).toContain(
      `The subscription ends on ${date}.`,
    );
    expect(await chargesFor(shared, id)).toEqual([]);
  });

  it('refuses both forms without the session’s CSRF token, changing nothing', async () => {
    const { id } = await started(shared);
    for (const fields of [{}, { csrf_token: '' }, { csrf_token: 'x'.repeat(32) }] as Record<
      string,
      string
    >[]) {
      const refused = await shared.browser.post(`subscriptions/${id}/cancel-at-period-end`, fields);
      expect(refused.status, refused.html).toBe(403);
      expect(refused.html).toContain('This form expired');
    }
    expect(await viewOf(shared, id)).toMatchObject({ cancel_at_period_end: false, cancel_at: null });
    expect((await act(shared, id, 'cancel-at-period-end')).status).toBe(303);
    for (const fields of [{}, { csrf_token: 'x'.repeat(32) }] as Record<string, string>[]) {
      const refused = await shared.browser.post(`subscriptions/${id}/resume`, fields);
      expect(refused.status, refused.html).toBe(403);
    }
    expect((await viewOf(shared, id)).cancel_at_period_end).toBe(true);
    expect(await updatesOf(shared, id)).toHaveLength(1);
    // Without a session: to the sign-in form, nothing changed.
    const stranger = new DashboardClient();
    const signedOut = await stranger.post(`subscriptions/${id}/resume`, { csrf_token: 'x' });
    expect(signedOut.status).toBe(303);
    expect(signedOut.location).toBe(dashboardUrl('sign-in'));
    expect((await viewOf(shared, id)).cancel_at_period_end).toBe(true);
  });

  it('a past-due subscription: both answer its page saying why (409), changing nothing', async () => {
    const own = await merchant();
    const { id } = await started(own, {
      anchor: new Date(Date.now() - 32 * day).toISOString(),
      card: testCards.declinesWhenStored,
    });
    await runBilling(billingDeps(), new Date(), { developerId: own.account.developerId });
    expect((await viewOf(own, id)).status).toBe('past_due');
    const page = await own.browser.get(`subscriptions/${id}`);
    expect(page.html).not.toContain('Cancel at end of period');
    expect(page.html).toContain('Cancel now…');
    const why =
      'While a payment is overdue, this subscription cannot be set to end at the end of its period, nor resumed: its period is not paid. It can only be canceled now.';
    expect(page.html).toContain(why);
    for (const action of ['cancel-at-period-end', 'resume'] as const) {
      const refused = await act(own, id, action);
      expect(refused.status, refused.html).toBe(409);
      expect(refused.html).toContain(`<p class="error" role="alert">${why}</p>`);
      expect(refused.html).toContain('data-status="past_due"');
    }
    expect(await viewOf(own, id)).toMatchObject({ status: 'past_due', cancel_at_period_end: false });
    expect(await updatesOf(own, id)).toEqual([]);
    // The API refuses it the same way.
    const put = await api('PUT', `/v1/subscriptions/${id}`, {
      auth: own.auth,
      body: { cancel_at_period_end: true },
    });
    expect(put.status).toBe(409);
  });

  it('a canceled subscription: both answer its page saying why (409), changing nothing', async () => {
    const { id } = await started(shared);
    expect((await api('DELETE', `/v1/subscriptions/${id}`, { auth: shared.auth })).status).toBe(200);
    const home = await shared.browser.get('subscriptions');
    for (const action of ['cancel-at-period-end', 'resume'] as const) {
      const refused = await shared.browser.post(`subscriptions/${id}/${action}`, {
        csrf_token: formToken(home.html),
      });
      expect(refused.status, refused.html).toBe(409);
      expect(refused.html).toContain(
        'This subscription is canceled: it can no longer be set to end or resumed.',
      );
      expect(refused.html).toContain('data-status="canceled"');
    }
    expect(await viewOf(shared, id)).toMatchObject({ status: 'canceled', cancel_at_period_end: false });
    expect(await updatesOf(shared, id)).toEqual([]);
  });

  it('once the day it ends has come (before the billing step ends it): no Resume, and a Resume is 409', async () => {
    const own = await merchant();
    // Its first period ended a day ago; the merchant set it to end then, with the API.
    const { id } = await started(own, { anchor: new Date(Date.now() - 32 * day).toISOString() });
    const set = await api('PUT', `/v1/subscriptions/${id}`, {
      auth: own.auth,
      body: { cancel_at_period_end: true },
    });
    expect(set.status, set.text).toBe(200);
    const page = await own.browser.get(`subscriptions/${id}`);
    expect(page.html).toContain('<dt>Ends on</dt>');
    expect(page.html).not.toContain('>Resume</button>');
    const come = 'Its end has come: it can no longer be resumed.';
    expect(page.html).toContain(come);
    const resumed = await own.browser.post(`subscriptions/${id}/resume`, {
      csrf_token: formToken(page.html),
    });
    expect(resumed.status, resumed.html).toBe(409);
    expect(resumed.html).toContain(`<p class="error" role="alert">${come}`);
    expect(await viewOf(own, id)).toMatchObject({ status: 'active', cancel_at_period_end: true });
    expect(await updatesOf(own, id)).toHaveLength(1);
    const run = await runBilling(billingDeps(), new Date(), { developerId: own.account.developerId });
    expect(run).toMatchObject({ canceled: 1, renewed: 0 });
    expect(await chargesFor(own, id)).toEqual([]);
  });

  it("another account's subscription is 404 to both forms, and stays as it was", async () => {
    const other = await merchant();
    const { id } = await started(other);
    const home = await shared.browser.get('subscriptions');
    for (const action of ['cancel-at-period-end', 'resume'] as const) {
      const refused = await shared.browser.post(`subscriptions/${id}/${action}`, {
        csrf_token: formToken(home.html),
      });
      expect(refused.status, action).toBe(404);
      expect(refused.html).toContain('The id matches no subscription.');
    }
    expect(await viewOf(other, id)).toMatchObject({ status: 'active', cancel_at_period_end: false });
  });

  it('a notice in the query says only what the record holds: ?ending=1 on one not set to end says nothing', async () => {
    const { id } = await started(shared);
    const page = await shared.browser.get(`subscriptions/${id}?ending=1`);
    expect(page.status, page.html).toBe(200);
    expect(page.html).not.toContain('class="notice"');
    expect((await shared.browser.get(`subscriptions/${id}?ending=2&resumed=1`)).html).toContain(
      'The subscription renews as before',
    );
    // Any other parameter is refused, as on every route.
    expect((await shared.browser.get(`subscriptions/${id}?ended=1`)).status).toBe(400);
  });
});

describe('a pending change on the page', () => {
  it("shows a change made with the API's PUT: the plan's name as it is now, then that it was deleted since", async () => {
    const own = await merchant();
    const { id } = await started(own);
    const cheaper = await api('POST', '/v1/plans/', {
      auth: own.auth,
      body: { name: 'Silver <i>', amount: '5.00', currency: 'USD', interval: 'month', interval_count: 1 },
    });
    expect(cheaper.status, cheaper.text).toBe(201);
    const silver = cheaper.json.data.id as string;
    // A lower amount per period: pending for the renewal at the period's end.
    const put = await api('PUT', `/v1/subscriptions/${id}`, {
      auth: own.auth,
      body: { plan_id: silver, quantity: 3 },
    });
    expect(put.status, put.text).toBe(200);
    const pending = put.json.pending_change as { plan_id: string; quantity: number; effective_at: string };
    expect(pending).toMatchObject({ plan_id: silver, quantity: 3 });
    const on = displayDate(pending.effective_at, 'en');

    const page = await own.browser.get(`subscriptions/${id}`);
    expect(page.html).toContain(
      `<dt>Pending change</dt><dd>Changes to Silver &lt;i&gt; × 3 on ${on} <small>(<code>${silver}</code>)</small></dd>`,
    );
    // The plan renamed since: its name as it is now.
    const renamed = await api('PUT', `/v1/plans/${silver}/`, {
      auth: own.auth,
      body: { name: 'Silver plus' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await own.browser.get(`subscriptions/${id}`)).html).toContain(
      `Changes to Silver plus × 3 on ${on}`,
    );
    // Deleted since: said so, with its id; the change still applies.
    expect((await api('DELETE', `/v1/plans/${silver}/`, { auth: own.auth })).status).toBe(200);
    expect((await viewOf(own, id)).pending_change).toMatchObject({ plan_id: silver, quantity: 3 });
    const deleted = await own.browser.get(`subscriptions/${id}`);
    expect(deleted.html).toContain(
      `Changes to Silver &lt;i&gt; × 3 on ${on}. Plan ${silver} has been deleted since; the change still applies, as it was asked for.`,
    );

    // Spanish.
    const spanish = await new DashboardClient({ 'Accept-Language': 'es' }).signedIn(own.account.testKey);
    const es = await spanish.get(`subscriptions/${id}`);
    expect(es.html).toContain(
      `<dt>Cambio pendiente</dt><dd>Cambia a Silver &lt;i&gt; × 3 el ${displayDate(pending.effective_at, 'es')}. El plan ${silver} se eliminó después`,
    );
    // Asking for the current plan and quantity clears it: the page then shows none.
    const cleared = await api('PUT', `/v1/subscriptions/${id}`, {
      auth: own.auth,
      body: { plan_id: own.planId, quantity: 2 },
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.json.pending_change).toBeNull();
    expect((await own.browser.get(`subscriptions/${id}`)).html).not.toContain('Pending change');
  });
});

describe('in Spanish', () => {
  it('offers, sets and undoes the end at the period’s end, in Spanish', async () => {
    const own = await merchant({ 'Accept-Language': 'es' });
    const { id } = await started(own);
    const end = (await viewOf(own, id)).current_period_end as string;
    const date = displayDate(end, 'es');
    const page = await own.browser.get(`subscriptions/${id}`);
    expect(page.html).toContain(
      `Al final del periodo: sigue activa hasta el ${date}, fin del periodo ya pagado, y entonces termina.`,
    );
    expect(page.html).toContain('<button type="submit">Cancelar al final del periodo</button>');
    expect(page.html).toContain('Cancelar ahora: termina de inmediato');
    const set = await own.browser.post(`subscriptions/${id}/cancel-at-period-end`, {
      csrf_token: formToken(page.html),
    });
    const ending = await own.browser.get(set.location as string);
    expect(ending.html).toContain(`La suscripción termina el ${date}. No se volverá a cobrar`);
    expect(ending.html).toContain(
      `<dt>Termina el</dt><dd><time data-ends datetime="${end}">${date}</time></dd>`,
    );
    expect(ending.html).toContain('<button type="submit">Reanudar</button>');
    const resumed = await own.browser.post(`subscriptions/${id}/resume`, {
      csrf_token: formToken(ending.html),
    });
    expect((await own.browser.get(resumed.location as string)).html).toContain(
      'La suscripción se renueva como antes: ya no está previsto que termine.',
    );
    expect(await viewOf(own, id)).toMatchObject({ cancel_at_period_end: false, cancel_at: null });
  });
});
