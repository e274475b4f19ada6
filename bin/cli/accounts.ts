/**
 * `cobro accounts create | update | rotate-client-secret | connect`: accounts, their profile and
 * OAuth client, and the connector each mode moves money through.
 */
import { parseArgs } from 'node:util';
import { readLocalInfo } from '../../infra/local/info.ts';
import { newStandInStripeAccount } from '../../infra/local/stripe-accounts.ts';
import {
  createAccount,
  credentialsOf,
  getAccount,
  rotateClientSecret,
  updateProfile,
} from '../../shared/accounts/repository.ts';
import { AccountIdSchema, CreateAccountSchema, UpdateAccountSchema } from '../../shared/accounts/schemas.ts';
import { type ConnectRequest, connectionsOf, connectMode } from '../../shared/acquirer/connect.ts';
import { stripeEventTypes } from '../../shared/acquirer/stripe-event-types.ts';
import { stripeEventsPath } from '../../shared/connectors/paths.ts';
import { envNames } from '../../shared/core/config.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { accountOption, parsedOptions, UsageError } from './options.ts';
import { target } from './target.ts';

/** Options both account commands take: the profile, --json and --state-dir. */
const profileOptions = {
  'company-name': { type: 'string' },
  page: { type: 'string' },
  logo: { type: 'string' },
  'statement-descriptor': { type: 'string' },
  language: { type: 'string' },
  json: { type: 'boolean', default: false },
  'state-dir': { type: 'string' },
} as const;

function profileOf(values: {
  'company-name'?: string;
  page?: string;
  logo?: string;
  'statement-descriptor'?: string;
  language?: string;
}) {
  return {
    company_name: values['company-name'],
    page: values.page,
    logo: values.logo,
    statement_descriptor: values['statement-descriptor'],
    language: values.language,
  };
}

export async function accountsCreate(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { name: { type: 'string' }, email: { type: 'string' }, ...profileOptions },
  });
  const parsed = parsedOptions(CreateAccountSchema, {
    name: values.name,
    email: values.email,
    ...profileOf(values),
  });
  await target(values['state-dir']);
  // An empty profile value means "not set" here, as it does for accounts update.
  const input = Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== ''));
  const result = credentialsOf(await createAccount(makeDeps(), input as typeof parsed));
  if (values.json) {
    console.log(JSON.stringify(result));
    return;
  }
  console.log(`account ${result.developer_id} created for ${result.name} <${result.email}>
  test key       ${result.test_key}
  live key       ${result.live_key}
  client_id      ${result.client_id}
  client_secret  ${result.client_secret}
Store these now: cobro keeps only their hashes.`);
}

export async function accountsUpdate(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { id: { type: 'string' }, ...profileOptions },
  });
  const { id, ...profile } = parsedOptions(UpdateAccountSchema, { id: values.id, ...profileOf(values) });
  if (Object.values(profile).every((value) => value === undefined)) {
    throw new UsageError(
      'nothing to update: give at least one of --company-name, --page, --logo, --statement-descriptor, --language',
    );
  }
  await target(values['state-dir']);
  const account = await updateProfile(makeDeps(), id, profile);
  const shown = {
    developer_id: account.developer_id,
    name: account.name,
    email: account.email,
    company_name: account.company_name ?? null,
    page: account.page ?? null,
    logo: account.logo ?? null,
    statement_descriptor: account.statement_descriptor ?? null,
    language: account.language ?? 'en',
  };
  if (values.json) {
    console.log(JSON.stringify(shown));
    return;
  }
  console.log(`account ${shown.developer_id} updated
  company name          ${shown.company_name ?? '(not set: plans show the account name)'}
  page                  ${shown.page ?? '(not set)'}
  logo                  ${shown.logo ?? '(not set)'}
  statement descriptor  ${shown.statement_descriptor ?? '(not set: plans show the company name)'}
  e-mail language       ${shown.language}`);
}

export async function accountsRotateClientSecret(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      id: { type: 'string' },
      json: { type: 'boolean', default: false },
      'state-dir': { type: 'string' },
    },
  });
  const id = parsedOptions(AccountIdSchema, values.id);
  await target(values['state-dir']);
  const rotated = await rotateClientSecret(makeDeps(), id);
  if (values.json) {
    console.log(JSON.stringify(rotated));
    return;
  }
  console.log(`account ${id}: new client secret
  client_id      ${rotated.client_id}
  client_secret  ${rotated.client_secret}
The old secret no longer works; access tokens already issued work until they expire.
Store this now: cobro keeps only its hash.`);
}

/** `accounts connect`: which connector each mode of an account moves money through (docs/design.md#connectors). */
export async function accountsConnect(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      account: { type: 'string' },
      mode: { type: 'string' },
      'stripe-key': { type: 'string' },
      'stripe-webhook-secret': { type: 'string' },
      'stripe-standin': { type: 'boolean', default: false },
      live: { type: 'string' },
      test: { type: 'string' },
      json: { type: 'boolean', default: false },
      'state-dir': { type: 'string' },
    },
  });
  const developerId = accountOption(values.account);
  if (developerId === undefined) throw new UsageError('--account: which account to connect');
  if (values['stripe-standin'] && (values['stripe-key'] || values['stripe-webhook-secret']))
    throw new UsageError('give either --stripe-standin or --stripe-key');
  const standIn = values['stripe-standin']
    ? await standInKeys(values.mode, developerId, values['state-dir'])
    : {};
  const request = connectRequestOf({ ...values, ...standIn });
  await target(values['state-dir']);
  // Stripe must send the account's events to the stage's public events URL: connect checks the
  // endpoint there (or makes it) when PUBLIC_BASE_URL says where the stage answers.
  if (request?.connector === 'stripe' && process.env[envNames.publicBaseUrl])
    request.eventsUrl = `${publicBaseUrl()}${stripeEventsPath(developerId)}`;
  const deps = makeDeps();
  if (!(await getAccount(deps, developerId))) throw new UsageError(`--account: no account ${developerId}`);
  const shown = request
    ? [await connectMode(deps, developerId, request)]
    : await connectionsOf(deps, developerId);
  if (values.json) {
    console.log(JSON.stringify(request ? shown[0] : shown));
    return;
  }
  const base = process.env[envNames.publicBaseUrl];
  for (const connection of shown) {
    const what =
      connection.connector === 'stripe'
        ? `Stripe account ${connection.stripe_account}${connection.stripe_account_name ? ` (${connection.stripe_account_name})` : ''}, key ${connection.key}`
        : connection.connector === 'simulated'
          ? connection.mode === 'live'
            ? 'the simulated acquirer: no real money moves (local stack only)'
            : 'the simulated acquirer (test cards)'
          : 'nothing: live payments are refused (400) until it is connected';
    console.log(`account ${developerId} ${connection.mode} mode: ${request ? 'connected to ' : ''}${what}`);
    for (const note of connection.notes ?? []) console.log(`  ${note}`);
    if (request && connection.connector === 'stripe' && values['stripe-standin'])
      console.log("  the stand-in's webhook endpoints already send its events to this stack.");
    else if (request && connection.connector === 'stripe') {
      const path = stripeEventsPath(developerId);
      console.log(`  Stripe sends its events to ${base ? `${base}${path}` : `<PublicBaseUrl>${path}`}: the webhook
  endpoint there sends ${stripeEventTypes.join(', ')}.`);
    }
  }
}

/** What the connect options ask for; undefined when they ask for nothing (then the connections are shown). */
function connectRequestOf(values: {
  mode?: string | undefined;
  'stripe-key'?: string | undefined;
  'stripe-webhook-secret'?: string | undefined;
  live?: string | undefined;
  test?: string | undefined;
}): ConnectRequest | undefined {
  // A secret is better kept out of shell history: the variables stand in for the flags.
  const stripeKey = values['stripe-key'] ?? process.env.COBRO_STRIPE_KEY;
  const webhookSecret = values['stripe-webhook-secret'] ?? process.env.COBRO_STRIPE_WEBHOOK_SECRET;
  const shorthand = values.live !== undefined ? 'live' : values.test !== undefined ? 'test' : undefined;
  if (shorthand && (values.mode || stripeKey || webhookSecret || (values.live && values.test)))
    throw new UsageError('give either --live / --test none|simulated, or --mode with --stripe-key');
  if (shorthand) {
    const connector = shorthand === 'live' ? values.live : values.test;
    if (connector !== 'none' && connector !== 'simulated')
      throw new UsageError(
        `--${shorthand}: none or simulated (Stripe is connected with --mode ${shorthand} --stripe-key …)`,
      );
    return { mode: shorthand, connector };
  }
  if (
    values.mode === undefined &&
    values['stripe-key'] === undefined &&
    values['stripe-webhook-secret'] === undefined
  )
    return undefined;
  if (values.mode !== 'test' && values.mode !== 'live') throw new UsageError('--mode: test or live');
  if (!stripeKey)
    throw new UsageError('--mode needs --stripe-key (or COBRO_STRIPE_KEY): the Stripe secret key');
  return {
    mode: values.mode,
    connector: 'stripe',
    secretKey: stripeKey,
    webhookSecret: webhookSecret || undefined,
  };
}

/**
 * `--stripe-standin` (local stack only): the keys of a Stripe account at the local stack's Stripe
 * stand-in whose webhook endpoints point at this account's events URL (the demo account's own, which
 * the banner shows, else a new one), so that connecting to the stand-in takes one command. The keys
 * are then checked and stored as any Stripe key is.
 */
async function standInKeys(
  mode: string | undefined,
  developerId: number,
  stateDir: string | undefined,
): Promise<{ 'stripe-key': string; 'stripe-webhook-secret': string }> {
  if (mode !== 'test' && mode !== 'live') throw new UsageError('--stripe-standin needs --mode test or live');
  if (process.env[envNames.table])
    throw new UsageError('--stripe-standin: the Stripe stand-in runs with the local stack only');
  const info = readLocalInfo(stateDir);
  const stripe =
    info.stripe_demo && info.demo?.developer_id === developerId
      ? info.stripe_demo
      : await newStandInStripeAccount(info, developerId);
  return mode === 'live'
    ? { 'stripe-key': stripe.live_key, 'stripe-webhook-secret': stripe.live_webhook_secret }
    : { 'stripe-key': stripe.test_key, 'stripe-webhook-secret': stripe.test_webhook_secret };
}
