/**
 * D18 through the local gateway: live mode connected to nothing refuses every request that would
 * move or promise money (400, message envelope, nothing created), while reads, refunds of earlier
 * charges, the catalog and test mode work as before; the local stack connects the simulated
 * acquirer to the live mode of the accounts it creates and labels it on the live pages.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getConnection } from '../../shared/acquirer/connection.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { expectMessage } from '../support/answers.ts';
import {
  createPayment,
  goodYear,
  listCharges,
  openPage,
  payThroughCheckout,
  testCards,
} from '../support/checkout.ts';
import { cli, expectCliRefusal } from '../support/cli.ts';
import { DashboardClient } from '../support/dashboard.ts';
import { api, apiKey, newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';
import { storedEventItems } from '../support/table.ts';

beforeAll(() => useLocalEnvironment());

const notConnected = { title: 'Live mode not connected', type: 'error' };

const connect = (account: TestAccount, ...options: string[]) =>
  cli('accounts', 'connect', '--account', String(account.developerId), ...options);

async function newPlan(auth: string): Promise<string> {
  const created = await api('POST', '/v1/plans/', {
    auth,
    body: { name: 'Gold', amount: '12.00', currency: 'USD', interval: 'month', interval_count: 1 },
  });
  expect(created.status, created.text).toBe(201);
  return created.json.data.id as string;
}

const legacyCharge = (key: string) =>
  api('POST', '/v1/charges/simple/create/', {
    auth: apiKey(key),
    rawBody: new URLSearchParams({
      amount: '10.00',
      currency: 'usd',
      credit_card_number: testCards.approved,
      credit_card_security_code_number: '123',
      exp_month: '12',
      exp_year: goodYear,
    }).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });

describe('the local stack connects the accounts it creates', () => {
  it("an account's live mode moves money through the simulated acquirer, and its live pages say no real money moves", async () => {
    const account = await newAccount('d18-local');
    expect((await getConnection(makeDeps(), account.developerId, 'live')).connector).toBe('simulated');
    const payment = await createPayment(apiKey(account.liveKey));
    const page = await openPage(payment.url);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Simulated acquirer: no real money moves.');
    // A test page says it is a test, not a simulated live one.
    const test = await openPage((await createPayment(apiKey(account.testKey))).url);
    expect(test.html).not.toContain('Simulated acquirer');
    expect(test.html).toContain('Test mode: no real money moves.');
  });

  it('the live dashboard says no real money moves; the test dashboard says it is a test', async () => {
    const account = await newAccount('d18-dashboard');
    const live = await new DashboardClient().signedIn(account.liveKey);
    const overview = await live.get('');
    expect(overview.status).toBe(200);
    expect(overview.html).toContain(
      'connected to the simulated acquirer of the local stack: no real money moves',
    );
    const test = await new DashboardClient().signedIn(account.testKey);
    expect((await test.get('')).html).not.toContain('simulated acquirer');
  });

  it('`accounts connect` without a change shows both modes', async () => {
    const account = await newAccount('d18-show');
    const { stdout } = await connect(account, '--json');
    expect(JSON.parse(stdout)).toEqual([
      expect.objectContaining({ mode: 'test', connector: 'simulated', key: null }),
      expect.objectContaining({ mode: 'live', connector: 'simulated', stripe_account: null }),
    ]);
  });
});

describe('live mode not connected', () => {
  let account: TestAccount;
  let earlierCharge: string;
  let earlierPage: string;
  let planId: string;

  beforeAll(async () => {
    account = await newAccount('d18-none');
    const live = apiKey(account.liveKey);
    // Made while live mode was connected: a charge to refund later and a page left unpaid.
    earlierCharge = (await payThroughCheckout(live)).chargeId;
    earlierPage = (await createPayment(live)).url;
    planId = await newPlan(live);
    const { stdout } = await connect(account, '--live', 'none', '--json');
    expect(JSON.parse(stdout)).toMatchObject({ mode: 'live', connector: 'none' });
  });

  it('refuses a payment, a subscription, a payment link and the legacy charge with 400, creating nothing', async () => {
    const live = apiKey(account.liveKey);
    const before = (await storedEventItems(account.developerId, 'live')).length;
    expectMessage(
      await api('POST', '/v1/payments/', {
        auth: live,
        body: {
          amount: '10.00',
          currency: 'USD',
          description: 'x',
          items: ['x'],
          return_url: 'https://shop.example/',
        },
      }),
      400,
      notConnected,
    );
    expectMessage(
      await api('POST', '/v1/subscriptions', {
        auth: live,
        body: { plan_id: planId, return_url: 'https://shop.example/' },
      }),
      400,
      notConnected,
    );
    expectMessage(
      await api('POST', '/v1/payment-links/', {
        auth: live,
        body: { amount: '10.00', currency: 'USD', description: 'A link' },
      }),
      400,
      notConnected,
    );
    expectMessage(await legacyCharge(account.liveKey), 400, notConnected);
    // Nothing was stored: no event of anything made.
    expect((await storedEventItems(account.developerId, 'live')).length).toBe(before);
  });

  it('a live page made before shows why it cannot be paid (400), and a card posted to it charges nothing', async () => {
    const page = await openPage(earlierPage);
    expect(page.status).toBe(400);
    expect(page.html).toContain('Payments unavailable');
    expect(page.html).not.toContain('name="card_number"');
    const before = await listCharges(apiKey(account.liveKey), 'limit=1000');
    const posted = await fetch(earlierPage, {
      method: 'POST',
      body: new URLSearchParams({
        csrf_token: 'x'.repeat(43),
        email: 'a@example.com',
        cardholder_name: 'A B',
        card_number: testCards.approved,
        exp_month: '12',
        exp_year: goodYear,
        cvc: '123',
      }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
      redirect: 'manual',
    });
    expect([400, 403]).toContain(posted.status);
    expect(await listCharges(apiKey(account.liveKey), 'limit=1000')).toEqual(before);
  });

  it('the live dashboard says why live payments are refused and how an operator connects it', async () => {
    const dashboard = await new DashboardClient().signedIn(account.liveKey);
    const overview = await dashboard.get('');
    expect(overview.status).toBe(200);
    expect(overview.html).toContain('Live mode is not connected to an acquirer');
    expect(overview.html).toContain(`accounts connect --account ${account.developerId} --mode live`);
  });

  it('reads, the catalog, refunds of earlier charges and test mode work as before', async () => {
    const live = apiKey(account.liveKey);
    expect((await api('GET', '/v1/payments/', { auth: live })).status).toBe(200);
    expect((await api('GET', `/v1/plans/${planId}/`, { auth: live })).status).toBe(200);
    const tax = await api('POST', '/v1/taxes/', { auth: live, body: { name: 'IVA', value: '13' } });
    expect(tax.status, tax.text).toBe(201);
    const refund = await api('POST', '/v1/refunds/', {
      auth: live,
      body: { charge_id: earlierCharge, amount: '1.00', reason: 'requested_by_customer' },
    });
    expect(refund.status, refund.text).toBe(201);
    await payThroughCheckout(apiKey(account.testKey));
  });

  it('connected again, live mode takes payments', async () => {
    const other = await newAccount('d18-reconnect');
    await connect(other, '--live', 'none');
    expectMessage(await legacyCharge(other.liveKey), 400, notConnected);
    await connect(other, '--live', 'simulated');
    expect((await legacyCharge(other.liveKey)).status).toBe(201);
  });
});

describe('accounts connect refuses what it cannot do', () => {
  it('test mode cannot be disconnected, options are checked, and an unknown account is named', async () => {
    const account = await newAccount('d18-refusals');
    const id = String(account.developerId);
    await expectCliRefusal(
      ['accounts', 'connect', '--account', id, '--test', 'none'],
      1,
      'test mode always has',
    );
    await expectCliRefusal(
      ['accounts', 'connect', '--account', id, '--live', 'stripe'],
      2,
      '--live: none or simulated',
    );
    await expectCliRefusal(
      ['accounts', 'connect', '--account', id, '--mode', 'live'],
      2,
      '--mode needs --stripe-key (or COBRO_STRIPE_KEY)',
    );
    await expectCliRefusal(
      [
        'accounts',
        'connect',
        '--account',
        id,
        '--mode',
        'live',
        '--stripe-key',
        'sk_test_abc',
        '--stripe-webhook-secret',
        'whsec_abc',
      ],
      1,
      'a test key cannot connect live mode',
    );
    await expectCliRefusal(['accounts', 'connect', '--account', '999999999'], 2, 'no account 999999999');
  });
});
