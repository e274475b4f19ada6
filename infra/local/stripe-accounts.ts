/**
 * Accounts of the local Stripe stand-in (infra/local/stripe) made ready to connect to a cobro
 * account, as a merchant readies a real one: a Stripe account with its keys, and in each mode a
 * Stripe webhook endpoint pointed at cobro's events URL for that cobro account, whose signing secret
 * `accounts connect` is then given. The start banner offers the demo account one; tests make their own.
 * Local only: it talks to the stand-in's control API and to its copy of Stripe's API.
 */
import type { LocalInfo, StandInStripeAccount } from './info.ts';

export type { StandInStripeAccount };

/** Where Stripe posts a cobro account's events (shared/connectors/paths.ts writes the same path). */
const eventsUrl = (info: LocalInfo, developerId: number) =>
  `${info.api_url}/v1/connectors/stripe/${developerId}/events/`;

async function control(info: LocalInfo, method: string, path: string, body?: unknown) {
  if (!info.stripe_url || !info.stripe_control_token)
    throw new Error('this local stack runs no Stripe stand-in');
  const answer = await fetch(`${info.stripe_url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${info.stripe_control_token}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!answer.ok)
    throw new Error(
      `the Stripe stand-in answered ${method} ${path} with ${answer.status}: ${await answer.text()}`,
    );
  return answer.json() as Promise<Record<string, unknown>>;
}

/** A webhook endpoint of the stand-in account `key` opens, for every event; its signing secret. */
async function endpointSecret(info: LocalInfo, key: string, url: string): Promise<string> {
  const answer = await fetch(`${info.stripe_url}/v1/webhook_endpoints`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ url, 'enabled_events[0]': '*' }).toString(),
  });
  const endpoint = (await answer.json()) as { secret?: string };
  if (!answer.ok || !endpoint.secret)
    throw new Error(`the Stripe stand-in made no webhook endpoint: ${answer.status}`);
  return endpoint.secret;
}

/**
 * A new stand-in Stripe account whose events go to cobro account `developerId`'s events URL; with
 * `endpoints: false`, one with no webhook endpoint yet (`accounts connect` then makes it, and the
 * signing secrets answered are empty).
 */
export async function newStandInStripeAccount(
  info: LocalInfo,
  developerId: number,
  name = `cobro account ${developerId}`,
  { endpoints = true } = {},
): Promise<StandInStripeAccount> {
  const made = (await control(info, 'POST', '/_standin/accounts', { display_name: name })) as {
    id: string;
    test_key: string;
    live_key: string;
  };
  const url = eventsUrl(info, developerId);
  const [test, live] = await Promise.all(
    endpoints
      ? [endpointSecret(info, made.test_key, url), endpointSecret(info, made.live_key, url)]
      : ['', ''],
  );
  return {
    account_id: made.id,
    test_key: made.test_key,
    live_key: made.live_key,
    test_webhook_secret: test,
    live_webhook_secret: live,
  };
}

/**
 * The stand-in Stripe account kept for the demo account, when the stand-in still has it (a
 * persistent stack keeps both), else a new one.
 */
export async function ensureStandInStripeAccount(
  info: LocalInfo,
  developerId: number,
  kept: StandInStripeAccount | undefined,
): Promise<StandInStripeAccount> {
  if (kept) {
    const listed = (await control(info, 'GET', '/_standin/accounts')) as { data: { id: string }[] };
    if (listed.data.some((account) => account.id === kept.account_id)) return kept;
  }
  return newStandInStripeAccount(info, developerId, 'Demo Merchant');
}
