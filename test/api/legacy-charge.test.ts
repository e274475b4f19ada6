/** POST /v1/charges/simple/create/ (deprecated): multipart or form fields, 201 list view, 402 payment_failed. */
import { describe, expect, it } from 'vitest';
import { chargeListViewKeys } from '../support/shapes.ts';
import { api, apiUrl, basic, bearer, newAccount, tokenFor } from '../support/stack.ts';

const card = {
  amount: '10.00',
  currency: 'usd',
  description: 'Legacy order',
  entity_description: 'Shop',
  credit_card_number: '4242424242424242',
  credit_card_security_code_number: '123',
  exp_month: '12',
  exp_year: String(new Date().getUTCFullYear() + 3),
};

async function multipart(auth: string, fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = await fetch(`${apiUrl}/v1/charges/simple/create/`, {
    method: 'POST',
    headers: { Authorization: auth },
    body: form,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('legacy charge', () => {
  it('charges from multipart fields with a bearer token: 201 in the list view, listed with the payments', async () => {
    const account = await newAccount('legacy');
    const token = await tokenFor(account);
    const charged = await multipart(bearer(token), card);
    expect(charged.status).toBe(201);
    expect(Object.keys(charged.json).sort()).toEqual(chargeListViewKeys);
    expect(charged.json).toMatchObject({
      amount: 10,
      fee: 0.59,
      net: 9.41,
      currency: 'usd',
      status: 'succeeded',
      card_last4: '4242',
      card_brand: 'visa',
      payment_id: null,
      test: false,
    });
    expect(String(charged.json.id)).toMatch(/^ch_/);
    const listed = await api('GET', '/v1/payments/', { auth: bearer(token) });
    expect(listed.json.map((charge: { id: string }) => charge.id)).toEqual([charged.json.id]);
  });

  it('takes urlencoded fields too, in the mode of the key', async () => {
    const account = await newAccount('legacy-form');
    const charged = await api('POST', '/v1/charges/simple/create/', {
      auth: basic(account.testKey),
      rawBody: form({ ...card, amount: '1500', currency: 'jpy' }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(charged.status).toBe(201);
    expect(charged.json).toMatchObject({ amount: 1500, currency: 'jpy', test: true });
  });

  it.each([
    ['4000000000000002', 'generic_decline'],
    ['4000000000009995', 'insufficient_funds'],
    ['4000000000000069', 'expired_card'],
    ['4000000000000127', 'incorrect_cvc'],
    ['4000000000003220', 'authentication_required'],
  ])('declines %s with 402 payment_failed (%s) and charges nothing', async (number, reason) => {
    const account = await newAccount('legacy-decline');
    const auth = basic(account.testKey);
    const declined = await multipart(auth, { ...card, credit_card_number: number });
    expect(declined.status).toBe(402);
    expect(declined.json).toEqual({
      error: {
        code: 'card_declined',
        type: 'payment_failed',
        message: expect.any(String),
        decline_reason: reason,
      },
    });
    expect((await api('GET', '/v1/payments/', { auth })).json).toEqual([]);
  });

  it('answers 400 for a card that fails its checks, a bad amount or currency, and charges nothing', async () => {
    const account = await newAccount('legacy-invalid');
    const auth = basic(account.testKey);
    for (const fields of [
      { credit_card_number: '4242424242424241' },
      { credit_card_security_code_number: '12' },
      { exp_year: '2001' },
      { amount: '10.005' },
      { amount: '0.10' },
      { currency: 'xyz' },
    ]) {
      const answer = await multipart(auth, { ...card, ...fields });
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      expect(answer.json.code).toBe(400);
    }
    expect((await api('GET', '/v1/payments/', { auth })).json).toEqual([]);
  });
});
