/**
 * Payment links through the local gateway: creation (with and without customers, every error row),
 * the list and the single view with its payment log, updates and deletion, paying the link's page
 * (a receipt, a charge that can be refunded, `payment_link.paid` to a standardwebhooks receiver,
 * single use under racing submits), the recurring state machine under the billing step, and
 * isolation between accounts and modes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { claimSession } from '../../shared/checkout/repository.ts';
import type { PostedPayForm } from '../../shared/checkout/schemas.ts';
import { submitPayForm } from '../../shared/checkout/submit-http.ts';
import { formatAmount } from '../../shared/core/money/amount.ts';
import { currencies } from '../../shared/core/money/currencies.ts';
import { minimumMet } from '../../shared/core/money/fees.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { sessionOwners } from '../../shared/ledger/owners.ts';
import { runLinkBilling } from '../../shared/payment-links/billing.ts';
import { simulatedAcquirer } from '../support/acquirer.ts';
import { expect400, expectMessage, expectReplayed } from '../support/answers.ts';
import {
  cardFields,
  csrfOf,
  listCharges,
  openPage,
  postForm,
  submitCard,
  testCards,
} from '../support/checkout.ts';
import { cli } from '../support/cli.ts';
import { statusCounts } from '../support/race.ts';
import { type Received, type Receiver, startReceiver, verify } from '../support/receiver.ts';
import {
  api,
  apiKey,
  apiUrl,
  basic,
  newAccount,
  type TestAccount,
  useLocalEnvironment,
} from '../support/stack.ts';

let account: TestAccount;
let auth: string;
let receiver: Receiver;
beforeAll(async () => {
  useLocalEnvironment();
  receiver = await startReceiver();
  account = await newAccount('payment-links');
  auth = basic(account.testKey);
});

const path = '/v1/payment-links/';

async function createLink(body: Record<string, unknown> = {}, key = auth) {
  const created = await api('POST', path, {
    auth: key,
    body: { description: 'Consulting', amount: '25.50', ...body },
  });
  expect(created.status, created.text).toBe(201);
  return created.json.data as { id: string; link: string };
}

const view = async (id: string) => {
  const answer = await api('GET', `${path}${id}/`, { auth });
  expect(answer.status, answer.text).toBe(200);
  return answer.json;
};

const put = (id: string, body: Record<string, unknown>) => api('PUT', `${path}${id}/`, { auth, body });

const runLinks = (now: string, developerId = account.developerId) =>
  runLinkBilling(makeDeps(), new Date(now), { developerId });

describe('creating a payment link', () => {
  it('without customers answers {id, link}; the single view has a number, the list a string', async () => {
    const created = await api('POST', path, { auth, body: { description: 'Consulting', amount: 25.5 } });
    expectMessage(created, 201, { type: 'success' });
    const data = created.json.data;
    expect(Object.keys(data).sort()).toEqual(['id', 'link']);
    expect(data.link).toMatch(/\/checkout\/[A-Za-z0-9_-]+$/);
    const single = await view(data.id);
    expect(single).toMatchObject({
      id: data.id,
      description: 'Consulting',
      amount: 25.5,
      currency: 'USD',
      payment_link: true,
      active: true,
      recurring: false,
      next_date_of_payment: null,
      status: 'pending',
      test: true,
      link: data.link,
      payment_logs: [],
    });
    expect(Date.parse(single.created_on)).not.toBeNaN();
    const listed = await api('GET', `${path}?page_size=100`, { auth });
    expect(listed.status).toBe(200);
    expect(Object.keys(listed.json).sort()).toEqual(['count', 'next', 'previous', 'results']);
    const item = listed.json.results.find((one: { id: string }) => one.id === data.id);
    expect(item).toMatchObject({ amount: '25.50', status: 'pending', payment_link: true });
    expect(item.payment_logs).toBeUndefined();
  });

  it('takes the amount as a string or a number, in the currency given', async () => {
    const asString = await createLink({ amount: '1500', currency: 'jpy' });
    expect(await view(asString.id)).toMatchObject({ amount: 1500, currency: 'JPY' });
    const asNumber = await createLink({ amount: 7, currency: 'EUR' });
    expect(await view(asNumber.id)).toMatchObject({ amount: 7, currency: 'EUR' });
  });

  it('refuses less than the equivalent of USD 1.00, in every currency, and accepts exactly it', async () => {
    for (const currency of currencies.values()) {
      // The smallest amount that meets the minimum, by bisection.
      let low = 1;
      let minor = 10_000_000;
      while (low < minor) {
        const middle = Math.floor((low + minor) / 2);
        if (minimumMet(middle, currency)) minor = middle;
        else low = middle + 1;
      }
      const below = await api('POST', path, {
        auth,
        body: { description: 'x', amount: formatAmount(minor - 1 || 1, currency), currency: currency.code },
      });
      if (minor > 1) {
        expect400(below);
        expect(below.json.content, currency.code).toContain(
          `minimum of 1.00 USD (${formatAmount(minor, currency)} ${currency.code})`,
        );
      }
      const at = await api('POST', path, {
        auth,
        body: { description: 'x', amount: formatAmount(minor, currency), currency: currency.code },
      });
      expect(at.status, `${currency.code} ${at.text}`).toBe(201);
    }
  });

  it('answers every documented creation error (406 without a description, 400 for the rest), and stores nothing', async () => {
    const before = (await api('GET', path, { auth })).json.count;
    const noDescription = await api('POST', path, { auth, body: { amount: '10.00' } });
    expectMessage(noDescription, 406, { title: 'Missing Data' });
    expect(noDescription.json.content).toMatch(/no description for the payment/i);
    expectMessage(await api('POST', path, { auth, body: { description: '  ', amount: '10.00' } }), 406);
    const noAmount = await api('POST', path, { auth, body: { description: 'x' } });
    expect400(noAmount);
    expect(noAmount.json.content).toMatch(/no price for the payment/i);
    const incomplete = await api('POST', path, {
      auth,
      body: {
        description: 'x',
        amount: '10.00',
        customers: [{ first_name: 'Ana', email: 'ana@example.com' }],
      },
    });
    expect400(incomplete);
    expect(incomplete.json.content).toMatch(/first_name, last_name and email, or a customer id/);
    const precision = await api('POST', path, { auth, body: { description: 'x', amount: '10.505' } });
    expectMessage(precision, 400, { type: 'danger' });
    const absentCustomer = await api('POST', path, {
      auth,
      body: { description: 'x', amount: '10.00', customers: ['00000000-0000-4000-8000-000000000000'] },
    });
    expect400(absentCustomer);
    expect400(await api('POST', path, { auth, body: { description: 'x', amount: 'ten' } }));
    expect400(
      await api('POST', path, { auth, body: { description: 'x', amount: '10.00', currency: 'XXX' } }),
    );
    expect((await api('GET', path, { auth })).json.count).toBe(before);
  });

  it('with customers makes one link each: by id, by `customer`, and by name and e-mail (created, then reused)', async () => {
    const existing = await api('POST', '/v1/customers/', {
      auth,
      body: { first_name: 'Grace', last_name: 'Hopper', email: `grace-${Date.now()}@example.com` },
    });
    expect(existing.status, existing.text).toBe(201);
    const graceId = existing.json.data.id as string;
    const email = `new-${Date.now()}@example.com`;
    const created = await api('POST', path, {
      auth,
      body: {
        description: 'Workshop',
        amount: '40.00',
        customers: [graceId, { customer: graceId }, { first_name: 'Alan', last_name: 'Turing', email }],
      },
    });
    expectMessage(created, 201);
    const data = created.json.data as { id: string; customer: string; customer_name: string; link: string }[];
    expect(data).toHaveLength(3);
    expect(data.map((one) => one.customer_name)).toEqual(['Grace Hopper', 'Grace Hopper', 'Alan Turing']);
    expect(new Set(data.map((one) => one.link)).size).toBe(3);
    for (const one of data)
      expect(Object.keys(one).sort()).toEqual(['customer', 'customer_name', 'id', 'link']);
    expect(data[0]?.customer).toBe(graceId);
    const alan = data[2]?.customer as string;
    expect((await api('GET', `/v1/customers/${alan}/`, { auth })).json).toMatchObject({
      email,
      first_name: 'Alan',
    });
    // The same e-mail again (another case): the same customer, not a second one.
    const again = await api('POST', path, {
      auth,
      body: {
        description: 'Workshop 2',
        amount: '40.00',
        customers: [{ first_name: 'A.', last_name: 'Turing', email: email.toUpperCase() }],
      },
    });
    expect(again.json.data[0].customer).toBe(alan);
    // The link's page knows the customer: it does not ask for an e-mail.
    const page = await openPage(data[2]?.link as string);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Workshop');
    expect(page.html).not.toContain('for="email"');
  });

  it('replays a creation sent again with its Idempotency-Key, making one link', async () => {
    const headers = { 'Idempotency-Key': `link-${Date.now()}` };
    const body = { description: 'Once only', amount: '3.00' };
    const first = await api('POST', path, { auth, body, headers });
    const replay = await api('POST', path, { auth, body, headers });
    expectReplayed(first, replay, 201);
    expect((await api('POST', path, { auth, body: { ...body, amount: '4.00' }, headers })).status).toBe(409);
  });

  it('answers the error rows in Spanish with Accept-Language: es', async () => {
    const answer = await api('POST', path, {
      auth,
      body: { amount: '1.00' },
      headers: { 'Accept-Language': 'es' },
    });
    expectMessage(answer, 406, { title: 'Faltan datos' });
  });

  it('answers a huge customers array with a small 400 and creates nothing', async () => {
    const before = (await api('GET', path, { auth })).json.count;
    const customers = Array.from({ length: 20_000 }, (_, i) => ({ email: `bulk-${i}@example.com` }));
    const answer = await api('POST', path, {
      auth,
      body: { description: 'Bulk', amount: '5.00', customers },
    });
    expect400(answer);
    expect(answer.text.length).toBeLessThan(4_000);
    expect((await api('GET', path, { auth })).json.count).toBe(before);
    const tooMany = Array.from({ length: 26 }, (_, i) => ({
      first_name: 'A',
      last_name: 'B',
      email: `many-${i}@example.com`,
    }));
    expect400(
      await api('POST', path, { auth, body: { description: 'Many', amount: '5.00', customers: tooMany } }),
    );
    const none = await api('GET', `/v1/customers/?search=many-0%40example.com`, { auth });
    expect(none.status).toBe(404);
  });

  it('takes a form-encoded body with bracketed customers', async () => {
    const email = `form-${Date.now()}@example.com`;
    const created = await api('POST', path, {
      auth,
      rawBody: new URLSearchParams({
        description: 'Form link',
        amount: '12.00',
        'customers[0][first_name]': 'Form',
        'customers[0][last_name]': 'Client',
        'customers[0][email]': email,
      }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expectMessage(created, 201);
    expect(created.json.data[0]).toMatchObject({ customer_name: 'Form Client' });
  });
});

describe('listing, updating and deleting', () => {
  it('pages Envelope B with page_size (default 10, clamped at 100)', async () => {
    const other = await newAccount('links-list');
    const key = basic(other.testKey);
    for (let i = 0; i < 12; i++) await createLink({ description: `L${i}` }, key);
    const first = await api('GET', path, { auth: key });
    expect(first.json.count).toBe(12);
    expect(first.json.results).toHaveLength(10);
    expect(first.json.results[0].description).toBe('L11');
    expect(first.json.previous).toBeNull();
    expect(first.json.next).toMatch(/^https?:\/\/.*\/v1\/payment-links\/\?page=2&page_size=10$/);
    const second = await api('GET', `${path}?page=2`, { auth: key });
    expect(second.json.results.map((one: { description: string }) => one.description)).toEqual(['L1', 'L0']);
    expect((await api('GET', `${path}?page_size=1000`, { auth: key })).json.results).toHaveLength(12);
    expect((await api('GET', `${path}?page=3`, { auth: key })).status).toBe(404);
    expect400(await api('GET', `${path}?page=0`, { auth: key }));
  });

  it('updates every field; refuses a status outside the list, a bad date, and any change of a paid link', async () => {
    const product = await api('POST', '/v1/products/', {
      auth,
      rawBody: new URLSearchParams({ name: 'Mug', price: '9.00', currency: 'USD' }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(product.status, product.text).toBe(201);
    const customer = await api('POST', '/v1/customers/', {
      auth,
      body: { first_name: 'Edsger', last_name: 'Dijkstra', email: `ed-${Date.now()}@example.com` },
    });
    const link = await createLink();
    const updated = await put(link.id, {
      product: product.json.data.id,
      customer: customer.json.data.id,
      active: true,
      recurring: true,
      next_date_of_payment: '2031-05-31 09:30:00',
      status: 'active',
    });
    expectMessage(updated, 200, { type: 'success' });
    expect(await view(link.id)).toMatchObject({
      product: product.json.data.id,
      customer: customer.json.data.id,
      customer_name: 'Edsger Dijkstra',
      recurring: true,
      next_date_of_payment: '2031-05-31 09:30:00',
      status: 'active',
    });
    // The page knows the link's customer (no e-mail asked) and forgets it with the link.
    expect((await openPage(link.link)).html).not.toContain('for="email"');
    expect((await put(link.id, { customer: null })).status).toBe(200);
    expect((await view(link.id)).customer).toBeNull();
    expect((await openPage(link.link)).html).toContain('for="email"');
    const badStatus = await put(link.id, { status: 'finished' });
    expect400(badStatus);
    expect(badStatus.json.content).toMatch(/specified state is invalid/);
    for (const date of ['2031-05-31', '31/05/2031 09:30:00', '2031-02-30 10:00:00', '2031-05-31T09:30:00'])
      expect(await put(link.id, { next_date_of_payment: date }).then((a) => a.status), date).toBe(400);
    const badDate = await put(link.id, { next_date_of_payment: '2031-05-31' });
    expect(badDate.json.content).toMatch(/YYYY-MM-DD HH:MM:SS/);
    expect400(await put(link.id, { product: '00000000-0000-4000-8000-000000000000' }));
    expect((await view(link.id)).status).toBe('active');
    // Both spellings of canceled are accepted.
    for (const status of ['cancelled', 'canceled', 'inactive', 'defaulter', 'pending'])
      expect((await put(link.id, { status })).status, status).toBe(200);
    expect((await put(link.id, { status: 'paid' })).status).toBe(200);
    const refused = await put(link.id, { active: false });
    expectMessage(refused, 406);
    expect(refused.json.content).toMatch(/paid payment link cannot be modified/);
    expect((await view(link.id)).active).toBe(true);
  });

  it('closes the page with `active` false or a closed status, and opens it again', async () => {
    const link = await createLink();
    expect((await put(link.id, { active: false })).status).toBe(200);
    expect((await openPage(link.link)).status).toBe(410);
    expect((await put(link.id, { active: true })).status).toBe(200);
    expect((await openPage(link.link)).status).toBe(200);
    expect((await put(link.id, { status: 'cancelled' })).status).toBe(200);
    const closed = await openPage(link.link);
    expect(closed.status).toBe(410);
    expect((await postForm(link.link, { csrf_token: 'x', ...cardFields() })).status).toBe(410);
  });

  it('locks its page after five declines, and setting its status again reopens it', async () => {
    const link = await createLink();
    for (let i = 0; i < 5; i++)
      expect((await submitCard(link.link, { card_number: testCards.genericDecline })).status).toBe(402);
    expect((await openPage(link.link)).status).toBe(423);
    expect((await view(link.id)).payment_logs).toHaveLength(5);
    expect((await put(link.id, { status: 'pending' })).status).toBe(200);
    expect((await submitCard(link.link)).status).toBe(200);
    expect((await view(link.id)).status).toBe('paid');
  });

  it('refuses to change a link while a payment of its page is under way (409), deletes it all the same', async () => {
    const link = await createLink();
    const token = new URL(link.link).pathname.split('/').pop() as string;
    // A submit's claim on the page, as the checkout takes it (for its attempt) before asking the acquirer.
    await claimSession(makeDeps(), token, new Date(), 'att_heldbyatestsubmit0000000');
    expectMessage(await put(link.id, { active: false }), 409);
    expect(await view(link.id)).toMatchObject({ active: true, status: 'pending' });
    // A delete answers at once, even mid-payment; the payment under way keeps its closed page to end on.
    expectMessage(await api('DELETE', `${path}${link.id}/`, { auth }), 200);
    expect((await api('GET', `${path}${link.id}/`, { auth })).status).toBe(404);
    const page = await openPage(link.link);
    expect(page.status, page.html).toBe(200);
    expect(page.html).toContain('Payment in progress');
  });

  it('deletes a link: 404 afterwards, its page gone, absent ids 404 everywhere', async () => {
    const link = await createLink();
    expectMessage(await api('DELETE', `${path}${link.id}/`, { auth }), 200);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const answer = await api(method, `${path}${link.id}/`, {
        auth,
        ...(method === 'PUT' ? { body: {} } : {}),
      });
      expectMessage(answer, 404);
      expect(answer.json.content).toMatch(/payment link could not be found/);
    }
    expect((await openPage(link.link)).status).toBe(404);
    expect((await api('GET', `${path}not-a-uuid/`, { auth })).status).toBe(404);
  });

  it('keeps accounts and modes apart', async () => {
    const link = await createLink();
    const stranger = await newAccount('links-stranger');
    for (const key of [basic(stranger.testKey), basic(account.liveKey)]) {
      expect((await api('GET', `${path}${link.id}/`, { auth: key })).status).toBe(404);
      expect(
        (await api('PUT', `${path}${link.id}/`, { auth: key, body: { status: 'inactive' } })).status,
      ).toBe(404);
      expect((await api('DELETE', `${path}${link.id}/`, { auth: key })).status).toBe(404);
      const listed = await api('GET', `${path}?page_size=100`, { auth: key });
      expect(listed.json.results.some((one: { id: string }) => one.id === link.id)).toBe(false);
    }
    expect((await view(link.id)).status).toBe('pending');
  });
});

describe('paying a link', () => {
  it('shows the description and amount, logs a decline, pays once with a receipt, records a refundable charge and sends payment_link.paid', async () => {
    const endpoint = await api('POST', '/v1/webhook-endpoints/', {
      auth,
      body: { url: `${receiver.url}/links`, events: ['payment_link.paid'] },
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const link = await createLink({ description: 'Piano lesson', amount: '30.00' });
    const page = await openPage(link.link);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Piano lesson');
    expect(page.html).toContain('30.00');
    const email = `payer-${Date.now()}@example.com`;
    const declined = await submitCard(link.link, { card_number: testCards.insufficientFunds, email });
    expect(declined.status).toBe(402);
    const paid = await submitCard(link.link, { email });
    expect(paid.status, paid.html).toBe(200);
    expect(paid.html).toContain('Payment received');
    expect(paid.html).toMatch(/ch_[A-Za-z0-9]+/);
    expect(paid.html).not.toContain('4242424242424242');
    const single = await view(link.id);
    expect(single.status).toBe('paid');
    expect(single.payment_logs).toHaveLength(2);
    const [success, failure] = single.payment_logs;
    expect(success).toMatchObject({ status: 'succeeded', amount: 30, currency: 'USD', card_last4: '4242' });
    expect(success.charge_id).toMatch(/^ch_/);
    expect(failure).toMatchObject({
      status: 'failed',
      decline_reason: 'insufficient_funds',
      charge_id: null,
    });
    // The charge is in the payments list, and can be refunded.
    const charge = (await listCharges(auth, 'limit=1000')).find((one) => one.id === success.charge_id);
    expect(charge).toMatchObject({ amount: 30, description: 'Piano lesson', payment_id: null });
    const refund = await api('POST', '/v1/refunds/', {
      auth,
      body: { charge_id: success.charge_id, amount: '5.00', reason: 'requested_by_customer' },
    });
    expect(refund.status, refund.text).toBe(201);
    // Paid: the page says so, a second submit charges nothing (409), and the link cannot change.
    expect((await openPage(link.link)).html).toContain('Payment complete');
    expect(
      (await postForm(link.link, { csrf_token: csrfOf(page.html), ...cardFields({ email }) })).status,
    ).toBe(409);
    expect((await put(link.id, { status: 'pending' })).status).toBe(406);
    expect((await view(link.id)).payment_logs).toHaveLength(2);
    // The webhook, verified with the standardwebhooks package.
    const [delivered] = await receiver.waitFor(
      (request) => request.path === '/links' && request.json.data?.object?.id === link.id,
    );
    // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary paths of the verified body
    const body = verify(endpoint.json.data.secret, delivered as Received) as Record<string, any>;
    expect(body.type).toBe('payment_link.paid');
    expect(body.data).toMatchObject({
      charge_id: success.charge_id,
      object: { id: link.id, status: 'paid' },
    });
  });

  it('charges once when five submits race on one page', async () => {
    const link = await createLink({ amount: '15.00' });
    const csrf = csrfOf((await openPage(link.link)).html);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => postForm(link.link, { csrf_token: csrf, ...cardFields() })),
    );
    expect(statusCounts(answers)).toEqual({ 200: 1, 409: 4 });
    const single = await view(link.id);
    expect(single.payment_logs.filter((log: { status: string }) => log.status === 'succeeded')).toHaveLength(
      1,
    );
    const charges = (await listCharges(auth, 'limit=1000')).filter(
      (one) => one.id === single.payment_logs[0].charge_id,
    );
    expect(charges).toHaveLength(1);
  });
});

describe('a recurring link under the billing step', () => {
  it('goes paid_period → pending_period → defaulter → paid_period, a month at a time from its anchor', async () => {
    const link = await createLink({ description: 'Rent', amount: '100.00' });
    expect((await put(link.id, { recurring: true })).status).toBe(200);
    expect((await submitCard(link.link)).status).toBe(200);
    const first = await view(link.id);
    expect(first.status).toBe('paid_period');
    // Its first next date is a month after the payment; the owner moves it to a Jan 31.
    expect(first.next_date_of_payment).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await put(link.id, { next_date_of_payment: '2031-01-31 12:00:00' })).status).toBe(200);
    expect((await openPage(link.link)).html).toContain('Payment complete');

    expect((await runLinks('2031-01-31T11:59:59.000Z')).pending_period).toBe(0);
    // Two runs at once: the link steps once.
    const [a, b] = await Promise.all([
      runLinks('2031-01-31T12:00:00.000Z'),
      runLinks('2031-01-31T12:00:00.000Z'),
    ]);
    expect(a.pending_period + b.pending_period).toBe(1);
    expect(await view(link.id)).toMatchObject({
      status: 'pending_period',
      next_date_of_payment: '2031-02-28 12:00:00',
    });
    expect((await openPage(link.link)).status).toBe(200);

    expect((await runLinks('2031-02-05T11:59:59.000Z')).defaulter).toBe(0);
    expect((await runLinks('2031-02-05T12:00:00.000Z')).defaulter).toBe(1);
    expect((await view(link.id)).status).toBe('defaulter');

    // Paying the defaulter makes it paid_period again; the date does not move.
    expect((await submitCard(link.link)).status).toBe(200);
    expect(await view(link.id)).toMatchObject({
      status: 'paid_period',
      next_date_of_payment: '2031-02-28 12:00:00',
    });
    // The next period through the CLI: Feb 28 falls due, and the next date is Mar 31 (the anchor's day).
    const { stdout } = await cli(
      'billing',
      'run',
      '--now',
      '2031-02-28T12:00:00.000Z',
      '--account',
      String(account.developerId),
    );
    expect(JSON.parse(stdout).payment_links).toMatchObject({ pending_period: 1 });
    expect(await view(link.id)).toMatchObject({
      status: 'pending_period',
      next_date_of_payment: '2031-03-31 12:00:00',
    });
    expect((await submitCard(link.link)).status).toBe(200);
    const last = await view(link.id);
    expect(last.status).toBe('paid_period');
    expect(last.payment_logs.filter((log: { status: string }) => log.status === 'succeeded')).toHaveLength(3);
  });

  it('takes one payment per period when two browsers pay a pending_period link at once', async () => {
    const link = await createLink({ amount: '20.00' });
    expect(
      (await put(link.id, { recurring: true, next_date_of_payment: '2032-03-10 08:00:00' })).status,
    ).toBe(200);
    expect((await submitCard(link.link)).status).toBe(200);
    await runLinks('2032-03-10T08:00:00.000Z');
    expect((await view(link.id)).status).toBe('pending_period');
    const [one, two] = await Promise.all([openPage(link.link), openPage(link.link)]);
    const answers = await Promise.all([
      postForm(link.link, { csrf_token: csrfOf(one.html), ...cardFields() }),
      postForm(link.link, { csrf_token: csrfOf(two.html), ...cardFields() }),
    ]);
    expect(statusCounts(answers)).toEqual({ 200: 1, 409: 1 });
    const logs = (await view(link.id)).payment_logs.filter(
      (log: { status: string }) => log.status === 'succeeded',
    );
    expect(logs).toHaveLength(2);
  });

  it('records a payment whose link the billing step changed meanwhile (read again, paid once)', async () => {
    const link = await createLink({ amount: '11.00' });
    expect(
      (await put(link.id, { recurring: true, next_date_of_payment: '2034-01-10 00:00:00' })).status,
    ).toBe(200);
    expect((await submitCard(link.link)).status).toBe(200);
    await runLinks('2034-01-10T00:00:00.000Z');
    expect((await view(link.id)).status).toBe('pending_period');
    // While the payment is recorded, after the link was read, the billing step makes it a defaulter.
    const base = { ...makeDeps(), acquirer: simulatedAcquirer(), baseUrl: apiUrl };
    const owners = sessionOwners(base);
    let stepped: Awaited<ReturnType<typeof runLinks>> | undefined;
    const deps = {
      ...base,
      owners: {
        ...owners,
        link: {
          ...owners.link,
          async approved(...args: Parameters<typeof owners.link.approved>) {
            const items = await owners.link.approved(...args);
            stepped ??= await runLinks('2034-01-15T00:00:00.000Z');
            return items;
          },
        },
      },
    };
    const csrf = csrfOf((await openPage(link.link)).html);
    const token = new URL(link.link).pathname.split('/').pop() as string;
    const answer = await submitPayForm(deps, token, { csrf_token: csrf, ...cardFields() } as PostedPayForm);
    expect(answer.status).toBe(200);
    expect(stepped?.defaulter).toBe(1);
    const after = await view(link.id);
    expect(after.status).toBe('paid_period');
    const paid = after.payment_logs.filter((log: { status: string }) => log.status === 'succeeded');
    expect(paid).toHaveLength(2);
    const charges = await listCharges(auth, 'limit=1000');
    for (const log of paid) expect(charges.filter((one) => one.id === log.charge_id)).toHaveLength(1);
  });

  it('a paid non-recurring link is never stepped', async () => {
    const own = await newAccount('links-once');
    const link = await createLink({}, basic(own.testKey));
    expect((await submitCard(link.link)).status).toBe(200);
    const summary = await runLinks('2040-01-01T00:00:00.000Z', own.developerId);
    expect(summary).toMatchObject({ due: 0, pending_period: 0, defaulter: 0 });
    const after = await api('GET', `${path}${link.id}/`, { auth: basic(own.testKey) });
    expect(after.json.status).toBe('paid');
  });
});

describe('credentials', () => {
  it('takes Api-Key as well as Basic', async () => {
    const created = await api('POST', path, {
      auth: apiKey(account.testKey),
      body: { description: 'Api key', amount: '2.00' },
    });
    expect(created.status).toBe(201);
  });
});
