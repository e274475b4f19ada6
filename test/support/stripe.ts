/**
 * Accounts connected to the test stack's Stripe stand-in (infra/local/stripe), and payers going
 * through cobro's page, Stripe's (stood-in) page and back, as a browser does, without one.
 */
import { expect } from 'vitest';
import { newStandInStripeAccount, type StandInStripeAccount } from '../../infra/local/stripe-accounts.ts';
import { csrfOf, openPage, type PageAnswer, postForm } from './checkout.ts';
import { cli } from './cli.ts';
import { api, apiKey, localInfo, type Merchant, newAccount, type TestAccount } from './stack.ts';

/** A merchant whose `mode` is connected to a Stripe account of its own at the stand-in. */
export interface StripeMerchant extends Merchant {
  stripe: StandInStripeAccount;
  /** The key of the connected mode, as an Authorization header. */
  modeAuth: string;
}

/** Connects `mode` of an account to a new stand-in Stripe account, through `accounts connect`. */
export async function connectStripe(
  account: TestAccount,
  mode: 'live' | 'test' = 'live',
  existing?: StandInStripeAccount,
): Promise<StandInStripeAccount> {
  const stripe = existing ?? (await newStandInStripeAccount(localInfo, account.developerId));
  await cli(
    'accounts',
    'connect',
    '--account',
    String(account.developerId),
    '--mode',
    mode,
    '--stripe-key',
    mode === 'live' ? stripe.live_key : stripe.test_key,
    '--stripe-webhook-secret',
    mode === 'live' ? stripe.live_webhook_secret : stripe.test_webhook_secret,
  );
  return stripe;
}

/** A new account with `mode` connected to a new stand-in Stripe account, through `accounts connect`. */
export async function newStripeMerchant(
  label: string,
  mode: 'live' | 'test' = 'live',
): Promise<StripeMerchant> {
  const account = await newAccount(label);
  const stripe = await connectStripe(account, mode);
  return {
    account,
    auth: apiKey(account.testKey),
    stripe,
    modeAuth: apiKey(mode === 'live' ? account.liveKey : account.testKey),
  };
}

/** The stand-in's control API (Bearer its token). */
export async function standIn(
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const answer = await fetch(`${localInfo.stripe_url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${localInfo.stripe_control_token}`,
      'Content-Type': 'application/json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`stand-in ${method} ${path}: ${answer.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Stripe's API at the stand-in with a key, as the connector calls it (form bodies). */
export async function stripeApi(key: string, method: string, path: string, form?: Record<string, string>) {
  const answer = await fetch(`${localInfo.stripe_url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary paths of Stripe's objects
  return { status: answer.status, json: (await answer.json()) as Record<string, any> };
}

/** The Stripe Checkout Session a 303 to the stand-in's page names. */
export const sessionIdOf = (location: string) => new URL(location).pathname.split('/').pop() as string;

/**
 * Opens cobro's page of a mode connected to Stripe and submits its form: the 303 to Stripe's page
 * (its Location). Fails the test unless the page has no card field and the submit is a 303 there.
 */
export async function toStripePage(checkoutUrl: string): Promise<string> {
  const page = await openPage(checkoutUrl);
  expect(page.status, page.html).toBe(200);
  expect(page.html).not.toContain('name="card_number"');
  const submitted = await postForm(checkoutUrl, { csrf_token: csrfOf(page.html) });
  expect(submitted.status, submitted.html).toBe(303);
  const location = submitted.location as string;
  expect(location.startsWith(`${localInfo.stripe_url}/pay/`), location).toBe(true);
  return location;
}

/**
 * Pays (or saves a card on) a Stripe Checkout Session at the stand-in, as its page would: what the
 * page did (`complete`, or `open` with the decline).
 */
export async function payStripeSession(
  sessionId: string,
  card = '4242424242424242',
  payer: { email?: string; name?: string } = {},
) {
  const answer = await fetch(`${localInfo.stripe_url}/_standin/checkout/sessions/${sessionId}/pay`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${localInfo.stripe_control_token}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({
      card,
      email: payer.email ?? 'buyer@example.com',
      name: payer.name ?? 'Ada Lovelace',
    }),
  });
  return (await answer.json()) as {
    status: string;
    redirect?: string | null;
    error?: { code: string; decline_code?: string };
  };
}

/** GETs cobro's return page (where Stripe sends the payer back), redirects not followed. */
export async function backFromStripe(checkoutUrl: string): Promise<PageAnswer> {
  return openPage(`${checkoutUrl}/return?session_id=anything`);
}

/**
 * The whole way of a payer: cobro's page, Stripe's page paid with `card`, back to cobro's return
 * page; the return page's answer.
 */
export async function payThroughStripe(
  checkoutUrl: string,
  card = '4242424242424242',
  payer: { email?: string; name?: string } = {},
): Promise<{ back: PageAnswer; sessionId: string }> {
  const sessionId = sessionIdOf(await toStripePage(checkoutUrl));
  const paid = await payStripeSession(sessionId, card, payer);
  expect(paid.status, JSON.stringify(paid)).toBe('complete');
  expect(paid.redirect).toBe(`${checkoutUrl}/return?session_id=${sessionId}`);
  return { back: await backFromStripe(checkoutUrl), sessionId };
}

/** A monthly plan of 12.00 USD in the merchant's connected mode (with a trial of `trialDays`). */
export async function stripePlan(merchant: StripeMerchant, trialDays = 0): Promise<string> {
  const created = await api('POST', '/v1/plans/', {
    auth: merchant.modeAuth,
    body: {
      name: 'Gold',
      amount: '12.00',
      currency: 'USD',
      interval: 'month',
      interval_count: 1,
      ...(trialDays ? { trial_period_days: trialDays } : {}),
    },
  });
  expect(created.status, created.text).toBe(201);
  return created.json.data.id as string;
}

/** A subscription to `planId` in the merchant's connected mode: its id and checkout page. */
export async function stripeSubscription(merchant: StripeMerchant, planId: string) {
  const created = await api('POST', '/v1/subscriptions', {
    auth: merchant.modeAuth,
    body: { plan_id: planId, return_url: 'https://shop.example/welcome' },
  });
  expect(created.status, created.text).toBe(201);
  return created.json.data as { subscription_id: string; checkout_url: string };
}

/** A subscription's single view in the merchant's connected mode. */
export async function subscriptionOf(merchant: StripeMerchant, id: string) {
  const view = await api('GET', `/v1/subscriptions/${id}`, { auth: merchant.modeAuth });
  expect(view.status, view.text).toBe(200);
  return view.json as Record<string, unknown> & { status: string };
}

/** `billing run` at `now` for the merchant alone: its JSON summary. */
export const billingRunFor = async (merchant: StripeMerchant, now: Date) =>
  JSON.parse(
    (
      await cli(
        'billing',
        'run',
        '--now',
        now.toISOString(),
        '--account',
        String(merchant.account.developerId),
      )
    ).stdout,
  ) as Record<string, number>;
