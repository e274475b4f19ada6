/**
 * Refunds through the local gateway, of charges made by paying the hosted checkout over HTTP: full
 * and partial refunds and the charge's refund state, every refusal of the error table (an absent
 * charge named in the body is 400, not 404; a payment id there says which id to send), reading and listing refunds (by id or `re_` id), the
 * charge's list view after a refund, racing refunds kept within the charge, a paid-out live charge
 * (409) and Idempotency-Key.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeDeps } from '../../shared/db/deps.ts';
import { runPayouts } from '../../shared/payouts/run.ts';
import { simulatedAcquirer } from '../support/acquirer.ts';
import { errorFields, expect400, expectEnvelope, expectMessage, expectReplayed } from '../support/answers.ts';
import { listCharges, payThroughCheckout } from '../support/checkout.ts';
import { clockMoved } from '../support/clock.ts';
import { concurrently, statusCounts } from '../support/race.ts';
import { isoTime, randomAlnum } from '../support/shapes.ts';
import {
  api,
  apiKey,
  basic,
  newAccount,
  newMerchant,
  suiteMerchant,
  useLocalEnvironment,
} from '../support/stack.ts';

const refundsPath = '/v1/refunds/';
const refundPath = (id: string) => `/v1/refunds/${id}/`;

const refundKeys = [
  'amount',
  'charge_id',
  'created_at',
  'currency',
  'id',
  'provider_refund_id',
  'reason',
  'status',
  'test',
].sort();

type Refund = Record<string, unknown> & { id: string; amount: string; charge_id: string };

const texts = {
  absent: 'The charge object does not exist.',
  aboveCharge: 'The refund amount is greater than the payment.',
  alreadyRefunded: 'The charge has already been refunded.',
};

/** A 10.00 USD (or `amount`) charge paid through the checkout; answers its `ch_` id. */
async function newCharge(auth: string, payment: Record<string, unknown> = {}): Promise<string> {
  return (await payThroughCheckout(auth, { payment })).chargeId;
}

function refund(auth: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return api('POST', refundsPath, { auth, body, headers });
}

/** POST /v1/refunds/; fails the test unless the answer is 201. */
async function refundOk(auth: string, body: Record<string, unknown>): Promise<Refund> {
  const response = await refund(auth, body);
  expect(response.status, response.text).toBe(201);
  return response.json as unknown as Refund;
}

async function refundsOf(auth: string, chargeId?: string): Promise<Refund[]> {
  const query = chargeId ? `?charge_id=${encodeURIComponent(chargeId)}` : '';
  const response = await api('GET', `${refundsPath}${query}`, { auth });
  expect(response.status, response.text).toBe(200);
  expect(Array.isArray(response.json), response.text).toBe(true);
  return response.json as unknown as Refund[];
}

/** The charge in the payments list (list view). */
async function chargeView(auth: string, chargeId: string): Promise<Record<string, unknown>> {
  const found = (await listCharges(auth, 'limit=1000')).find((charge) => charge.id === chargeId);
  expect(found, `charge ${chargeId} in the list`).toBeDefined();
  return found as Record<string, unknown>;
}

/** Sum of refund amounts (decimal strings at 2 decimals) in cents, exactly. */
const centsOf = (refunds: { amount: string }[]) =>
  refunds.reduce((sum, item) => sum + Number(item.amount.replace('.', '')), 0);

describe('POST /v1/refunds/', () => {
  const shop = suiteMerchant('refunds');

  it('a full refund (no amount): 201 with exactly the refund fields', async () => {
    const chargeId = await newCharge(shop.auth);
    const before = Date.now();
    const response = await refund(shop.auth, { charge_id: chargeId, reason: 'requested_by_customer' });
    expect(response.status, response.text).toBe(201);
    const body = response.json as Refund;
    expect(Object.keys(body).sort()).toEqual(refundKeys);
    expect(body).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]+$/),
      provider_refund_id: `re_${body.id}`,
      charge_id: chargeId,
      amount: '10.00',
      currency: 'usd',
      reason: 'requested_by_customer',
      status: 'succeeded',
      test: true,
      created_at: expect.stringMatching(isoTime),
    });
    expect(body.id.startsWith('re_')).toBe(false);
    expect(Date.parse(body.created_at as string)).toBeGreaterThanOrEqual(before - 1000);
    // Nothing is left to refund.
    const again = await refund(shop.auth, { charge_id: chargeId, reason: 'requested_by_customer' });
    expect400(again, texts.alreadyRefunded);
    const partial = await refund(shop.auth, { charge_id: chargeId, amount: '1.00', reason: 'duplicate' });
    expect400(partial, texts.alreadyRefunded);
    expect((await refundsOf(shop.auth, chargeId)).map((item) => item.id)).toEqual([body.id]);
  });

  it('partial refunds up to the total, each reason; then "already refunded"', async () => {
    const chargeId = await newCharge(shop.auth);
    const first = await refundOk(shop.auth, { charge_id: chargeId, amount: '2.50', reason: 'duplicate' });
    expect(first).toMatchObject({ amount: '2.50', reason: 'duplicate', charge_id: chargeId });
    const second = await refundOk(shop.auth, { charge_id: chargeId, amount: 3, reason: 'fraudulent' });
    expect(second).toMatchObject({ amount: '3.00', reason: 'fraudulent' });
    // What remains (4.50) is refunded in full when the amount is omitted.
    const rest = await refundOk(shop.auth, { charge_id: chargeId, reason: 'requested_by_customer' });
    expect(rest.amount).toBe('4.50');
    expect(new Set([first.id, second.id, rest.id]).size).toBe(3);
    expect400(
      await refund(shop.auth, { charge_id: chargeId, amount: '0.01', reason: 'duplicate' }),
      texts.alreadyRefunded,
    );
    expect(centsOf(await refundsOf(shop.auth, chargeId))).toBe(1000);
  });

  it('an amount above the charge is 400 "greater than the payment"; above what remains is 400', async () => {
    const chargeId = await newCharge(shop.auth);
    expect400(
      await refund(shop.auth, { charge_id: chargeId, amount: '10.01', reason: 'duplicate' }),
      texts.aboveCharge,
    );
    expect400(
      await refund(shop.auth, { charge_id: chargeId, amount: '500', reason: 'duplicate' }),
      texts.aboveCharge,
    );
    await refundOk(shop.auth, { charge_id: chargeId, amount: '6.00', reason: 'duplicate' });
    const aboveRemaining = await refund(shop.auth, {
      charge_id: chargeId,
      amount: '4.01',
      reason: 'duplicate',
    });
    expect400(aboveRemaining);
    expect(aboveRemaining.json.content).toContain('4.00');
    expect400(
      await refund(shop.auth, { charge_id: chargeId, amount: '10.01', reason: 'duplicate' }),
      texts.aboveCharge,
    );
    // Exactly what remains is fine.
    expect(
      (await refundOk(shop.auth, { charge_id: chargeId, amount: '4.00', reason: 'duplicate' })).amount,
    ).toBe('4.00');
    expect(centsOf(await refundsOf(shop.auth, chargeId))).toBe(1000);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no reason', { amount: '1.00' }, 'reason'],
    ['an empty reason', { amount: '1.00', reason: '' }, 'reason'],
    ['a reason outside the list', { amount: '1.00', reason: 'changed_mind' }, 'reason'],
    ['an amount that is not a number', { amount: 'one', reason: 'duplicate' }, 'amount'],
    ['a zero amount', { amount: '0', reason: 'duplicate' }, 'amount'],
    ['a negative amount', { amount: '-1.00', reason: 'duplicate' }, 'amount'],
    ['an unknown field', { amount: '1.00', reason: 'duplicate', note: 'x' }, 'note'],
  ])('%s is 400 and refunds nothing', async (_, fields, field) => {
    const chargeId = await newCharge(shop.auth);
    const response = await refund(shop.auth, { charge_id: chargeId, ...fields });
    expect400(response);
    expect(errorFields(response)).toContain(field);
    expect(await refundsOf(shop.auth, chargeId)).toEqual([]);
    expect((await chargeView(shop.auth, chargeId)).refund).toBeNull();
  });

  it('no charge_id is 400; an amount with too many decimals is 400 type danger', async () => {
    const response = await refund(shop.auth, { reason: 'duplicate' });
    expect400(response);
    expect(response.json.data.errors[0].field).toBe('charge_id');
    const chargeId = await newCharge(shop.auth);
    const precise = await refund(shop.auth, { charge_id: chargeId, amount: '1.005', reason: 'duplicate' });
    expect400(precise);
    expect(precise.json.type).toBe('danger');
    expect(await refundsOf(shop.auth, chargeId)).toEqual([]);
  });

  it("an absent charge, another account's or the other mode's, is 400 'does not exist' (a body naming an absent record), never 404", async () => {
    const other = await newAccount('refunds-other');
    const othersCharge = await newCharge(apiKey(other.testKey));
    const liveCharge = await newCharge(apiKey(shop.account.liveKey), {
      return_url: 'https://shop.example.com/return',
    });
    for (const chargeId of [`ch_${randomAlnum(24)}`, 'not-a-charge', othersCharge]) {
      expect400(await refund(shop.auth, { charge_id: chargeId, reason: 'duplicate' }), texts.absent);
    }
    // A test key naming a live charge.
    expect400(await refund(shop.auth, { charge_id: liveCharge, reason: 'duplicate' }), texts.absent);
    expect(await refundsOf(apiKey(other.testKey), othersCharge)).toEqual([]);
    expect(await refundsOf(apiKey(shop.account.liveKey), liveCharge)).toEqual([]);
    expect((await chargeView(apiKey(other.testKey), othersCharge)).refund).toBeNull();
  });

  it('a payment id (pay_…) as charge_id is 400 saying refunds take the ch_ id, in English and Spanish; nothing is refunded', async () => {
    const paid = await payThroughCheckout(shop.auth);
    expect(paid.id).toMatch(/^pay_/);
    const response = await refund(shop.auth, { charge_id: paid.id, reason: 'duplicate' });
    expectMessage(response, 400, {
      title: 'Charge not found',
      type: 'error',
      content: `${paid.id} is a payment id; refunds take the charge id (ch_…) shown in the payment's charge_id and in the payments list.`,
    });
    const spanish = await api('POST', refundsPath, {
      auth: shop.auth,
      body: { charge_id: paid.id, reason: 'duplicate' },
      headers: { 'Accept-Language': 'es' },
    });
    expectMessage(spanish, 400, {
      title: 'Cargo no encontrado',
      content: `${paid.id} es un id de pago; los reembolsos usan el id del cargo (ch_…) que muestran el charge_id del pago y la lista de pagos.`,
    });
    // An id that is neither keeps the plain "does not exist".
    expect400(
      await refund(shop.auth, { charge_id: `py_${randomAlnum(24)}`, reason: 'duplicate' }),
      texts.absent,
    );
    expect(await refundsOf(shop.auth, paid.chargeId)).toEqual([]);
    // The charge id the message points to refunds it.
    expect((await refundOk(shop.auth, { charge_id: paid.chargeId, reason: 'duplicate' })).charge_id).toBe(
      paid.chargeId,
    );
  });

  it('a live charge is refunded with the live key, test false, and Basic credentials work', async () => {
    const live = apiKey(shop.account.liveKey);
    const chargeId = await newCharge(live, { return_url: 'https://shop.example.com/return' });
    const response = await refund(basic(shop.account.liveKey), {
      charge_id: chargeId,
      amount: '1.00',
      reason: 'requested_by_customer',
    });
    expect(response.status, response.text).toBe(201);
    expect(response.json).toMatchObject({ charge_id: chargeId, amount: '1.00', test: false });
    expect((await refundsOf(live)).map((item) => item.id)).toContain(response.json.id);
    expect((await refundsOf(shop.auth)).map((item) => item.id)).not.toContain(response.json.id);
  });
});

describe('GET /v1/refunds/{id}/ and GET /v1/refunds/', () => {
  const shop = suiteMerchant('refunds-read');
  let chargeA: string;
  let chargeB: string;
  /** Oldest first: two of charge A around one of charge B. */
  const made: Refund[] = [];
  beforeAll(async () => {
    chargeA = await newCharge(shop.auth);
    chargeB = await newCharge(shop.auth);
    for (const [chargeId, amount] of [
      [chargeA, '1.00'],
      [chargeB, '2.00'],
      [chargeA, '3.00'],
    ] as const) {
      made.push(await refundOk(shop.auth, { charge_id: chargeId, amount, reason: 'duplicate' }));
      await clockMoved();
    }
  });

  it('one refund by its id and by its re_ provider id', async () => {
    const created = made[0] as Refund;
    for (const id of [created.id, `re_${created.id}`]) {
      const response = await api('GET', refundPath(id), { auth: shop.auth });
      expect(response.status, response.text).toBe(200);
      expect(response.json).toEqual(created);
    }
  });

  it.each([
    ['an unknown id', () => randomAlnum(24)],
    ['an unknown re_ id', () => `re_${randomAlnum(24)}`],
    ['a malformed id', () => 'nope'],
  ])('%s is 404 with a body of {"detail": …}', async (_, id) => {
    const response = await api('GET', refundPath(id()), { auth: shop.auth });
    expect(response.status).toBe(404);
    expect(Object.keys(response.json)).toEqual(['detail']);
    expect(response.json.detail).toEqual(expect.any(String));
  });

  it("another account's refund and the other mode's are 404", async () => {
    const other = await newAccount('refunds-read-other');
    const id = (made[0] as Refund).id;
    for (const credential of [apiKey(other.testKey), apiKey(shop.account.liveKey)]) {
      const response = await api('GET', refundPath(id), { auth: credential });
      expect(response.status).toBe(404);
      expect(response.json).toEqual({ detail: expect.any(String) });
    }
    expect(await refundsOf(apiKey(other.testKey))).toEqual([]);
    expect(await refundsOf(apiKey(shop.account.liveKey))).toEqual([]);
  });

  it('the list is a bare array, newest first; charge_id narrows it to one charge', async () => {
    const ids = (refunds: Refund[]) => refunds.map((item) => item.id);
    const [a1, b1, a2] = made as [Refund, Refund, Refund];
    const all = await refundsOf(shop.auth);
    expect(ids(all)).toEqual([a2.id, b1.id, a1.id]);
    expect(all[0]).toEqual(a2);
    expect(ids(await refundsOf(shop.auth, chargeA))).toEqual([a2.id, a1.id]);
    expect(ids(await refundsOf(shop.auth, chargeB))).toEqual([b1.id]);
    expect(await refundsOf(shop.auth, `ch_${randomAlnum(24)}`)).toEqual([]);
  });
});

describe('the charge after a refund (list view)', () => {
  it('refund is null before, and non-null after a partial and after a full refund', async () => {
    const { auth } = await newMerchant('refunds-view');
    const chargeId = await newCharge(auth);
    expect((await chargeView(auth, chargeId)).refund).toBeNull();
    await refundOk(auth, { charge_id: chargeId, amount: '4.00', reason: 'duplicate' });
    const partly = await chargeView(auth, chargeId);
    expect(partly.refund).not.toBeNull();
    expect(partly.refund).toMatchObject({ amount: 4, refunded: false });
    // The charge itself is unchanged.
    expect(partly).toMatchObject({ amount: 10, fee: 0.59, net: 9.41, status: 'succeeded' });
    await refundOk(auth, { charge_id: chargeId, reason: 'duplicate' });
    expect((await chargeView(auth, chargeId)).refund).toMatchObject({ amount: 10, refunded: true });
  });
});

describe('racing refunds', () => {
  let auth: string;
  beforeAll(async () => {
    ({ auth } = await newMerchant('refunds-race'));
  });

  it('20 concurrent partial refunds of 1.00 on 10.00: exactly 10 succeed, the total is exactly 10.00', async () => {
    const chargeId = await newCharge(auth);
    const answers = await concurrently(20, () =>
      refund(auth, { charge_id: chargeId, amount: '1.00', reason: 'duplicate' }),
    );
    expect(statusCounts(answers)).toEqual({ 201: 10, 400: 10 });
    for (const answer of answers.filter((a) => a.status === 400)) {
      expect(answer.json).toMatchObject({ code: 400, content: texts.alreadyRefunded });
    }
    const listed = await refundsOf(auth, chargeId);
    expect(listed).toHaveLength(10);
    expect(centsOf(listed)).toBe(1000);
    expect(new Set(listed.map((item) => item.id))).toEqual(
      new Set(answers.filter((a) => a.status === 201).map((a) => a.json.id)),
    );
    expect((await chargeView(auth, chargeId)).refund).toMatchObject({ amount: 10, refunded: true });
  });

  it('20 concurrent full refunds: exactly one succeeds', async () => {
    const chargeId = await newCharge(auth);
    const answers = await concurrently(20, () =>
      refund(auth, { charge_id: chargeId, reason: 'requested_by_customer' }),
    );
    expect(statusCounts(answers)).toEqual({ 201: 1, 400: 19 });
    const listed = await refundsOf(auth, chargeId);
    expect(listed).toHaveLength(1);
    expect(listed[0]?.amount).toBe('10.00');
  });
});

describe('a paid-out charge', () => {
  it('a live charge paid out by the payout step cannot be refunded (409); a test charge is never paid out', async () => {
    const account = await newAccount('refunds-payout');
    const live = apiKey(account.liveKey);
    const liveCharge = await newCharge(live, { return_url: 'https://shop.example.com/return' });
    const testCharge = await newCharge(apiKey(account.testKey));
    // Before its payout a live charge may be refunded.
    await refundOk(live, { charge_id: liveCharge, amount: '1.00', reason: 'duplicate' });

    useLocalEnvironment();
    // This account's charges only: a run for every account would pay other files' fresh live
    // charges before their own tests refund them.
    const summary = await runPayouts(
      { ...makeDeps(), acquirer: simulatedAcquirer() },
      new Date(Date.now() + 3 * 86_400_000),
      { developerId: account.developerId },
    );
    expect(summary.charge_ids).toEqual([liveCharge]);
    expect(summary.paid_out).toBe(1);

    for (const body of [
      { charge_id: liveCharge, reason: 'requested_by_customer' },
      { charge_id: liveCharge, amount: '1.00', reason: 'duplicate' },
    ]) {
      expectEnvelope(await refund(live, body), 409, { title: 'Charge status error' });
    }
    expect(centsOf(await refundsOf(live, liveCharge))).toBe(100);
    // The test charge is still refundable.
    expect(
      (await refundOk(apiKey(account.testKey), { charge_id: testCharge, reason: 'duplicate' })).amount,
    ).toBe('10.00');
  });
});

describe('Idempotency-Key on POST /v1/refunds/', () => {
  it('a replay answers the first refund and does not refund twice; another body is 409', async () => {
    const { auth } = await newMerchant('refunds-idem');
    const chargeId = await newCharge(auth);
    const key = `refund-${randomUUID()}`;
    const body = { charge_id: chargeId, amount: '2.00', reason: 'requested_by_customer' };
    const first = await refund(auth, body, { 'Idempotency-Key': key });
    const replay = await refund(auth, body, { 'Idempotency-Key': key });
    expectReplayed(first, replay, 201);
    const other = await refund(auth, { ...body, amount: '3.00' }, { 'Idempotency-Key': key });
    expectMessage(other, 409);
    const listed = await refundsOf(auth, chargeId);
    expect(listed.map((item) => item.id)).toEqual([first.json.id]);
    expect((await chargeView(auth, chargeId)).refund).toMatchObject({ amount: 2, refunded: false });
  });
});
