/**
 * Paying through the hosted checkout over plain HTTP, as a browser without JavaScript would: create
 * a payment, GET its page for the CSRF token, POST the form; then the payment's view and the
 * charges list. Shared by the payments, refunds and browser suites.
 */
import { expect } from 'vitest';
import { testCards } from '../../shared/acquirer/simulated.ts';
import { api } from './stack.ts';

export { testCards };

export const paymentsPath = '/v1/payments/';
export const paymentPath = (id: string) => `/v1/payments/${id}`;

/** A card year that is in the future for a while yet. */
export const goodYear = String(new Date().getUTCFullYear() + 3);

type Body = Record<string, unknown>;

/** A valid create body for POST /v1/payments/, changed by `overrides`. */
export const paymentBody = (overrides: Body = {}): Body => ({
  amount: '10.00',
  description: 'Order 1001',
  currency: 'USD',
  items: ['Blue mug', 'Shipping'],
  return_url: 'https://shop.example.com/return?order=1001',
  ...overrides,
});

export interface CreatedPayment {
  id: string;
  /** The checkout page URL (`data.redirect`). */
  url: string;
  token: string;
}

/** POST /v1/payments/; fails the test unless the answer is 202. */
export async function createPayment(auth: string, overrides: Body = {}): Promise<CreatedPayment> {
  const response = await api('POST', paymentsPath, { auth, body: paymentBody(overrides) });
  expect(response.status, response.text).toBe(202);
  const url = response.json.data.redirect as string;
  const token = url.split('/').pop() as string;
  return { id: response.json.data.id_payment as string, url, token };
}

/** GET /v1/payments/{id}: the payment's single view; fails the test unless the answer is 200. */
export async function paymentView(auth: string, id: string) {
  const response = await api('GET', paymentPath(id), { auth });
  expect(response.status, response.text).toBe(200);
  return response.json;
}

/** A charge in the list view. */
export type Charge = Record<string, unknown> & { id: string; amount: number };

/** GET /v1/payments/ (or `path`) with `query`: the bare array of charges; fails the test unless 200. */
export async function listCharges(auth: string, query = '', path = paymentsPath): Promise<Charge[]> {
  const response = await api('GET', `${path}${query ? `?${query}` : ''}`, { auth });
  expect(response.status, response.text).toBe(200);
  expect(Array.isArray(response.json), response.text).toBe(true);
  return response.json as unknown as Charge[];
}

/** Asserts the payment is still pending with no charge, in its view and in the charges list. */
export async function expectUnpaid(auth: string, paymentId: string): Promise<void> {
  const view = await paymentView(auth, paymentId);
  expect(view.status).toBe('pending');
  expect(view.charge_id).toBeNull();
  const charges = await listCharges(auth, 'limit=1000');
  expect(charges.filter((charge) => charge.payment_id === paymentId)).toEqual([]);
}

export interface PageAnswer {
  status: number;
  headers: Headers;
  html: string;
  /** The Location header of a redirect, or null. */
  location: string | null;
}

async function pageAnswer(response: Response): Promise<PageAnswer> {
  return {
    status: response.status,
    headers: response.headers,
    html: await response.text(),
    location: response.headers.get('location'),
  };
}

/** GET a checkout page. */
export async function openPage(url: string): Promise<PageAnswer> {
  return pageAnswer(await fetch(url, { redirect: 'manual', headers: { Accept: 'text/html' } }));
}

/** The hidden CSRF token of a page's form; fails the test when the page has none. */
export function csrfOf(html: string): string {
  const match = /<input type="hidden" name="csrf_token" value="([^"]*)">/.exec(html);
  expect(match, html).not.toBeNull();
  return match?.[1] as string;
}

/** POST form fields to a checkout URL (the pay form or its /challenge), redirects not followed. */
export async function postForm(url: string, fields: Record<string, string>): Promise<PageAnswer> {
  return pageAnswer(
    await fetch(url, {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
      redirect: 'manual',
    }),
  );
}

/** The pay form's fields for a card, changed by `overrides`. */
export const cardFields = (overrides: Record<string, string> = {}): Record<string, string> => ({
  email: 'buyer@example.com',
  cardholder_name: 'Ada Lovelace',
  card_number: testCards.approved,
  exp_month: '12',
  exp_year: goodYear,
  cvc: '123',
  ...overrides,
});

/** Opens the page for its CSRF token, then submits the pay form with `fields` (csrf_token added). */
export async function submitCard(url: string, fields: Record<string, string> = {}): Promise<PageAnswer> {
  const page = await openPage(url);
  expect(page.status, page.html).toBe(200);
  return postForm(url, { csrf_token: csrfOf(page.html), ...cardFields(fields) });
}

export interface PaidPayment extends CreatedPayment {
  chargeId: string;
}

/**
 * Creates a payment and pays it with an approved card; answers the payment and its charge id.
 * Fails the test unless the submit redirects (303) to the return URL.
 */
export async function payThroughCheckout(
  auth: string,
  options: { payment?: Body; card?: Record<string, string> } = {},
): Promise<PaidPayment> {
  const payment = await createPayment(auth, options.payment);
  const paid = await submitCard(payment.url, options.card);
  expect(paid.status, paid.html).toBe(303);
  expect(new URL(paid.location as string).searchParams.get('id_payment')).toBe(payment.id);
  const view = await paymentView(auth, payment.id);
  expect(view.status).toBe('completed');
  const chargeId = view.charge_id as string;
  expect(chargeId).toMatch(/^ch_/);
  return { ...payment, chargeId };
}
