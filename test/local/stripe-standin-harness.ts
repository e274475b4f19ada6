/**
 * The Stripe stand-in (infra/local/stripe) as the stripe-standin-*.test.ts files drive it: a stand-in
 * per file, the real `stripe` package pointed at it, its control API, and the steps several tests
 * take (a merchant, a paid or declined session, a saved card).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, expect } from 'vitest';
import { type StripeStandIn, startStripeStandIn } from '../../infra/local/stripe/stand-in.ts';

export const controlToken = 'standin-test-control-token';

/** The stand-in the calling file's tests share (and the helpers below use unless given another). */
export let standIn: StripeStandIn;

/** Starts a stand-in on a port of its own before the calling file's tests, and stops it after them. */
export function useStandIn(): void {
  const stateDir = mkdtempSync(join(tmpdir(), 'stripe-standin-'));
  beforeAll(async () => {
    standIn = await startStripeStandIn({
      port: 0,
      controlToken,
      stateFile: join(stateDir, 'stripe.json'),
      webhookRetryDelaysMs: [50, 100, 200],
    });
  });
  afterAll(async () => {
    await standIn?.stop();
    rmSync(stateDir, { recursive: true, force: true });
  });
}

// biome-ignore lint/suspicious/noExplicitAny: control answers are read by field in assertions
export type Json = Record<string, any>;

export async function control(method: string, path: string, body?: unknown, at = standIn) {
  const response = await fetch(`${at.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${controlToken}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

export interface Merchant {
  id: string;
  keys: { test_key: string; live_key: string; restricted_test_key: string; restricted_live_key: string };
  test: Stripe;
  live: Stripe;
}

export function client(key: string, at = standIn): Stripe {
  return new Stripe(key, {
    host: '127.0.0.1',
    port: Number(new URL(at.url).port),
    protocol: 'http',
    maxNetworkRetries: 0,
  });
}

export async function merchant(displayName = 'Tienda Uno', at = standIn): Promise<Merchant> {
  const made = await control(
    'POST',
    '/_standin/accounts',
    { display_name: displayName, email: 'owner@tienda.example' },
    at,
  );
  expect(made.status).toBe(200);
  const keys = made.body as Merchant['keys'] & { id: string };
  return { id: keys.id, keys, test: client(keys.test_key, at), live: client(keys.live_key, at) };
}

/** The error a promise rejects with (failing the test if it resolves). */
export async function failure(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await promise;
  } catch (error) {
    return error as Stripe.errors.StripeError;
  }
  throw new Error('expected a rejection');
}

export const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

export function paymentSession(stripe: Stripe, extra: Partial<Stripe.Checkout.SessionCreateParams> = {}) {
  return stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [
      { price_data: { currency: 'usd', unit_amount: 1000, product_data: { name: 'Taza' } }, quantity: 1 },
    ],
    success_url: 'https://shop.example/done?session={CHECKOUT_SESSION_ID}',
    cancel_url: 'https://shop.example/cart',
    ...extra,
  });
}

export async function pay(sessionId: string, card: string, extra: Json = {}) {
  return control('POST', `/_standin/checkout/sessions/${sessionId}/pay`, { card, ...extra });
}

/** A card saved in a setup-mode session: its customer and payment method. */
export async function savedCard(stripe: Stripe, card: string) {
  const session = await stripe.checkout.sessions.create({
    mode: 'setup',
    currency: 'usd',
    success_url: 'https://shop.example/saved',
  });
  expect((await pay(session.id, card, { email: 'payer@example.com', name: 'Ana Pérez' })).body.status).toBe(
    'complete',
  );
  const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['setup_intent'] });
  const intent = done.setup_intent as Stripe.SetupIntent;
  return { customer: intent.customer as string, paymentMethod: intent.payment_method as string };
}

/** A PaymentIntent paid on Checkout with `card`. */
export async function paidIntent(stripe: Stripe, amount = 1000, card = '4242424242424242'): Promise<string> {
  const session = await paymentSession(stripe, {
    line_items: [
      { price_data: { currency: 'usd', unit_amount: amount, product_data: { name: 'Plan' } }, quantity: 1 },
    ],
  });
  expect((await pay(session.id, card)).body.status).toBe('complete');
  return (await stripe.checkout.sessions.retrieve(session.id)).payment_intent as string;
}

export async function eventsOf(stripe: Stripe, type: string): Promise<Stripe.Event[]> {
  return (await stripe.events.list({ type, limit: 100 })).data;
}
