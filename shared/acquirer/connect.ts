/**
 * Connecting an account's mode to a connector (`accounts connect`, docs/design.md#connectors):
 * - Stripe: the account's own secret (or restricted) key and the signing secret of a Stripe webhook
 *   endpoint pointed at cobro. The key is checked with one read of the Stripe account it opens
 *   before anything is stored, and must be of the mode it connects (`sk_live_…` for live); both
 *   secrets are sealed under the stage's webhook key and never shown again;
 * - the simulated acquirer: always in test mode; in live mode only where the stage allows it (the
 *   local stack), never in a deployed stage;
 * - none (live mode only): disconnected on purpose; live money requests then answer 400.
 * Two operators connecting the same mode at once: one wins, the other is told (ConnectionChanged).
 */
import type { Mode } from '../core/account.ts';
import { envNames } from '../core/config.ts';
import type { Deps } from '../db/deps.ts';
import {
  type ConnectionRecord,
  connectorSecrets,
  getConnectionRecord,
  keyHint,
  newConnection,
  putConnection,
  simulatedLiveAllowed,
} from './connection.ts';

/** What an operator asked for: one mode connected to Stripe, to the simulated acquirer, or to nothing. */
export type ConnectRequest =
  | {
      mode: Mode;
      connector: 'stripe';
      secretKey: string;
      /** The endpoint's signing secret the operator copied; absent: cobro makes the endpoint. */
      webhookSecret?: string | undefined;
      /** Where Stripe must send the account's events (cobro's public events URL); absent: not checked. */
      eventsUrl?: string | undefined;
    }
  | { mode: Mode; connector: 'simulated' | 'none' };

/** The request cannot be done as asked: what the operator reads (the CLI exits 1). */
export class ConnectRefused extends Error {
  override readonly name = 'ConnectRefused';
}

/** A mode's connection as the operator sees it: never a secret, only its hint. */
export interface ConnectionShown {
  developer_id: number;
  mode: Mode;
  connector: ConnectionRecord['connector'];
  stripe_account: string | null;
  stripe_account_name: string | null;
  key: string | null;
  connected_at: string | null;
  /** What connecting did or could not check (the webhook endpoint made, or left unchecked). */
  notes?: string[];
}

export function connectionShown(
  developerId: number,
  mode: Mode,
  record: ConnectionRecord | undefined,
): ConnectionShown {
  const connector = record?.connector ?? (mode === 'test' ? 'simulated' : 'none');
  return {
    developer_id: developerId,
    mode,
    // A live connection to the simulated acquirer in a stage that does not allow it is none.
    connector: connector === 'simulated' && mode === 'live' && !simulatedLiveAllowed() ? 'none' : connector,
    stripe_account: record?.stripe?.account_id ?? null,
    stripe_account_name: record?.stripe?.account_name ?? null,
    key: record?.stripe?.key_hint ?? null,
    connected_at: record?.connected_at ?? null,
  };
}

/** Checks a Stripe key: the Stripe account it opens, or why it cannot be used. */
async function checkedKey(secretKey: string, mode: Mode) {
  const keyMode = /^(?:sk|rk)_(test|live)_[A-Za-z0-9]+$/.exec(secretKey)?.[1];
  if (!keyMode)
    throw new ConnectRefused(
      '--stripe-key: a Stripe secret key (sk_test_… / sk_live_…) or restricted key (rk_…)',
    );
  if (keyMode !== mode)
    throw new ConnectRefused(
      `--stripe-key: a ${keyMode} key cannot connect ${mode} mode (use an sk_${mode}_… key)`,
    );
  const { checkStripeKey } = await import('./stripe.ts');
  const apiUrl = process.env[envNames.stripeApiUrl];
  try {
    return await checkStripeKey(secretKey, apiUrl);
  } catch (error) {
    throw new ConnectRefused(
      `Stripe did not accept the key (${keyHint(secretKey)}): ${(error as Error).message}`,
    );
  }
}

/**
 * The signing secret cobro verifies the account's Stripe events with: the one given, once the
 * endpoint it belongs to is seen pointing at cobro (a mistyped secret would drop every event
 * without a trace, a missing endpoint the same); or, none given, that of an endpoint cobro makes.
 */
async function endpointSecret(
  request: Extract<ConnectRequest, { connector: 'stripe' }>,
  notes: string[],
): Promise<string> {
  if (!request.eventsUrl) {
    if (!request.webhookSecret)
      throw new ConnectRefused(
        `set ${envNames.publicBaseUrl} (the stage's PublicBaseUrl output), so cobro makes the Stripe webhook endpoint, or give --stripe-webhook-secret`,
      );
    notes.push(`the webhook endpoint was not checked (${envNames.publicBaseUrl} is not set)`);
    return request.webhookSecret;
  }
  const { stripeEndpointFor } = await import('./stripe.ts');
  const found = await stripeEndpointFor(
    request.secretKey,
    request.eventsUrl,
    request.webhookSecret,
    process.env[envNames.stripeApiUrl],
  );
  if (found.problem) throw new ConnectRefused(found.problem);
  if (found.unchecked)
    notes.push(
      'the key may not read webhook endpoints, so the endpoint was not checked: send a test event from Stripe',
    );
  if (found.secret) notes.push(`made the Stripe webhook endpoint at ${request.eventsUrl}`);
  const secret = found.secret ?? request.webhookSecret;
  if (!secret) throw new Error('no signing secret');
  return secret;
}

/** Connects (or disconnects) one mode of an account; the connection as stored. */
export async function connectMode(
  deps: Deps,
  developerId: number,
  request: ConnectRequest,
): Promise<ConnectionShown> {
  const { mode } = request;
  if (request.connector === 'none' && mode === 'test')
    throw new ConnectRefused('test mode always has the simulated acquirer: connect it with --test simulated');
  if (request.connector === 'simulated' && mode === 'live' && !simulatedLiveAllowed())
    throw new ConnectRefused(
      'the simulated acquirer moves no real money: it can be connected to live mode only on the local stack',
    );
  let stripe: ConnectionRecord['stripe'] = null;
  const notes: string[] = [];
  if (request.connector === 'stripe') {
    if (request.webhookSecret !== undefined && !/^whsec_[A-Za-z0-9+/=_-]+$/.test(request.webhookSecret))
      throw new ConnectRefused(
        '--stripe-webhook-secret: the signing secret of a Stripe webhook endpoint (whsec_…)',
      );
    const account = await checkedKey(request.secretKey, mode);
    const webhookSecret = await endpointSecret(request, notes);
    const box = connectorSecrets();
    stripe = {
      account_id: account.accountId,
      account_name: account.accountName,
      key_hint: keyHint(request.secretKey),
      secret_key: await box.seal(request.secretKey),
      webhook_secret: await box.seal(webhookSecret),
    };
  }
  const previous = await getConnectionRecord(deps, developerId, mode);
  const record = newConnection({
    developerId,
    mode,
    connector: request.connector,
    stripe,
    now: deps.clock(),
    ...(previous ? { previous } : {}),
  });
  await putConnection(deps, record, previous);
  return { ...connectionShown(developerId, mode, record), ...(notes.length ? { notes } : {}) };
}

/** Both modes' connections of an account, as the operator sees them. */
export async function connectionsOf(deps: Deps, developerId: number): Promise<ConnectionShown[]> {
  const [test, live] = await Promise.all([
    getConnectionRecord(deps, developerId, 'test'),
    getConnectionRecord(deps, developerId, 'live'),
  ]);
  return [connectionShown(developerId, 'test', test), connectionShown(developerId, 'live', live)];
}
