/**
 * Paying through the hosted checkout over plain HTTP, as a browser without JavaScript would (D6):
 * create a payment, GET its page for the CSRF token, POST the form. Shared by the payments and
 * refunds suites.
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
  const view = await api('GET', paymentPath(payment.id), { auth });
  expect(view.status, view.text).toBe(200);
  expect(view.json.status).toBe('completed');
  const chargeId = view.json.charge_id as string;
  expect(chargeId).toMatch(/^ch_/);
  return { ...payment, chargeId };
}
