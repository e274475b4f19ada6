#!/usr/bin/env node
/**
 * The operator CLI (D2): `npm run cli -- <command>`, or `cobro <command>` as the package's bin.
 * It works on the running local stack (found through .cobro/local.json) unless TABLE_NAME is set,
 * in which case it works on that deployed table with the usual AWS credentials and AWS_REGION.
 */
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { localEnvironment, processAlive, readLocalInfo } from '../infra/local/info.ts';
import {
  createAccount,
  credentialsOf,
  findApiKey,
  rotateClientSecret,
  updateProfile,
} from '../shared/accounts/repository.ts';
import { configuredAcquirer } from '../shared/acquirer/configured.ts';
import { reindexSearch } from '../shared/api/reindex.ts';
import { envNames } from '../shared/core/config.ts';
import { Failure } from '../shared/core/errors.ts';
import { text } from '../shared/core/messages.ts';
import { formatAmount } from '../shared/core/money/amount.ts';
import { findCurrency } from '../shared/core/money/currencies.ts';
import { textRuleOf } from '../shared/core/validation.ts';
import { isWebUrl } from '../shared/core/web-url.ts';
import { makeDeps } from '../shared/db/deps.ts';
import { publicBaseUrl } from '../shared/http/base-url.ts';
import { reconcile } from '../shared/ledger/reconcile.ts';
import { runLinkBilling } from '../shared/payment-links/billing.ts';
import { runPayouts } from '../shared/payouts/run.ts';
import { runBilling } from '../shared/subscriptions/billing.ts';
import { deadLetters } from '../shared/webhooks/repository.ts';
import { secretBox } from '../shared/webhooks/secrets.ts';
import { listen } from './webhooks-listen.ts';

const usage = `usage: cobro <command> [options]

commands:
  accounts create --name NAME --email EMAIL [--company-name NAME] [--page URL]
                  [--logo URL] [--statement-descriptor TEXT] [--language en|es] [--json]
      creates an account with its test and live keys and OAuth client credentials;
      the keys and the client secret are shown only here.

  accounts update --id ID [--company-name NAME] [--page URL] [--logo URL]
                  [--statement-descriptor TEXT] [--language en|es] [--json]
      sets the profile plans show (company_name, page, image_dev, credit_card_description)
      and the language of the account's e-mails (default en);
      an empty value ("") clears a field, an option left out keeps it.

  accounts rotate-client-secret --id ID [--json]
      gives the account's OAuth client a new secret, shown only here; the old secret stops
      at once, access tokens already issued work until they expire.

  billing run [--now ISO8601] [--account ID]
      runs every recurring-billing step due at --now (default: now): renewals, trial ends
      and retries of failed renewals (1, 3 and 5 days after; the third failed retry cancels),
      and recurring payment links (paid_period -> pending_period at next_date_of_payment,
      pending_period unpaid 5 days -> defaulter); --account limits it to one account.
      Prints a JSON summary. The deployed stack runs it every 15 minutes.

  payouts run [--now ISO8601]
      marks the live charges due at --now (default: now) as paid out (older than the
      2-day payout delay) and prints a JSON summary; the deployed stack runs it hourly.

  webhooks listen [--key sk_test_...] [--forward-to URL] [--events TYPE,TYPE]
      registers a temporary test-mode webhook endpoint on the local stack (for the account of
      --key, default the demo account), prints each delivery as it arrives (type, event id, the
      status answered, whether its signature verified), forwards it with its signature headers
      to --forward-to when given (answering cobro with that status), and removes the endpoint
      on Ctrl-C. Local stack only.

  webhooks dead-letters [--days N] [--now ISO8601]
      lists the webhook deliveries that ran out of retries in the N days (default 7) up to
      --now (default: now), newest first, as JSON lines; redeliver one with
      POST /v1/events/{id}/redeliver/ once its endpoint is mended.

  reconcile [--since ISO8601] [--account ID] [--json]
      runs recovery (finishing every money movement whose outcome is unknown, by asking the
      acquirer by key), then compares the acquirer's own books with cobro's since --since
      (default: 30 days ago): every charge, refund and payout, their amounts, currencies and
      owners (--account: one account's only). Prints each mismatch; exits 0 when the books
      agree, 1 otherwise. The deployed stack runs recovery every minute and reconciliation daily.

  search reindex
      writes the substring-search entries (plan names, product names and SKUs, customers'
      first names and e-mails) of every stored record, for records stored before search
      entries existed; prints a JSON summary. It reads the whole table (a Scan): run it
      once after upgrading, not on a schedule.

target: the local stack of this checkout (npm start), or --state-dir DIR for another one;
        with TABLE_NAME (and AWS_REGION) set, that deployed table instead.`;

/** One line of clean text (shared/core/validation.ts), as every text an account shows is. */
const oneLine = (name: string) =>
  v.check(
    (text: string) => textRuleOf(text, 'one') === undefined,
    `${name}: one line of text, no control characters`,
  );

/** An http(s) URL as the API takes one (shared/core/web-url.ts); empty unsets it. */
const webUrl = (name: string) =>
  v.optional(
    v.union(
      [v.literal(''), v.pipe(v.string(), v.check(isWebUrl, `${name}: not an http(s) URL`))],
      `${name}: not an http(s) URL`,
    ),
  );

const profileFields = {
  company_name: v.optional(
    v.pipe(v.string(), oneLine('company-name'), v.maxLength(100, 'company-name: at most 100 characters')),
  ),
  page: webUrl('page'),
  logo: webUrl('logo'),
  statement_descriptor: v.optional(
    v.pipe(
      v.string(),
      oneLine('statement-descriptor'),
      v.maxLength(22, 'statement-descriptor: at most 22 characters (card networks limit)'),
    ),
  ),
  language: v.optional(v.picklist(['en', 'es'], 'language: en or es')),
};

const accountId = v.pipe(
  v.string('id is required'),
  v.regex(/^[1-9]\d*$/, 'id: an account id is a positive integer'),
  v.transform(Number),
);

export const CreateAccountSchema = v.object({
  name: v.pipe(
    v.string('name is required'),
    v.trim(),
    oneLine('name'),
    v.minLength(1, 'name is required'),
    v.maxLength(100, 'name: at most 100 characters'),
  ),
  email: v.pipe(
    v.string('email is required'),
    v.trim(),
    v.minLength(1, 'email is required'),
    v.toLowerCase(),
    v.email('email: not a valid e-mail address'),
  ),
  ...profileFields,
});

export const UpdateAccountSchema = v.object({ id: accountId, ...profileFields });

class UsageError extends Error {}

/** Points the SDK at the local stack recorded in local.json, once it is seen to be running. */
async function target(stateDir: string | undefined): Promise<void> {
  if (process.env[envNames.table]) return; // a deployed stage: the SDK's own configuration applies
  const info = readLocalInfo(stateDir);
  // local.json may outlive its stack (a kill -9): never write into whatever now listens on its ports.
  const probe = () =>
    fetch(info.health_url, { signal: AbortSignal.timeout(10_000) }).then(
      (response) => response.status,
      () => 0,
    );
  let status = await probe();
  // /health gives DynamoDB 1 s: on a busy machine ask again before calling the store dead.
  for (let retry = 0; status === 503 && retry < 2; retry++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    status = await probe();
  }
  if (status === 503)
    throw new Error(
      `the local stack at ${info.api_url} answers but its DynamoDB Local does not (/health 503): see the npm start output`,
    );
  if (status !== 200) throw new Error(`no local stack answers at ${info.api_url}: start it with npm start`);
  // The process local.json names must be alive (another stack may have taken the old port since).
  if (info.pid !== undefined && !processAlive(info.pid))
    throw new Error(
      `no local stack answers at ${info.api_url} (its process ${info.pid} is gone): start it with npm start`,
    );
  Object.assign(process.env, localEnvironment(info));
}

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

async function accountsCreate(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { name: { type: 'string' }, email: { type: 'string' }, ...profileOptions },
  });
  const parsed = v.safeParse(CreateAccountSchema, {
    name: values.name,
    email: values.email,
    ...profileOf(values),
  });
  if (!parsed.success) throw new UsageError(parsed.issues.map((issue) => issue.message).join('; '));
  await target(values['state-dir']);
  // An empty profile value means "not set" here, as it does for accounts update.
  const input = Object.fromEntries(Object.entries(parsed.output).filter(([, value]) => value !== ''));
  const result = credentialsOf(await createAccount(makeDeps(), input as typeof parsed.output));
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

async function accountsUpdate(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { id: { type: 'string' }, ...profileOptions },
  });
  const parsed = v.safeParse(UpdateAccountSchema, { id: values.id, ...profileOf(values) });
  if (!parsed.success) throw new UsageError(parsed.issues.map((issue) => issue.message).join('; '));
  const { id, ...profile } = parsed.output;
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

async function accountsRotateClientSecret(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      id: { type: 'string' },
      json: { type: 'boolean', default: false },
      'state-dir': { type: 'string' },
    },
  });
  const parsed = v.safeParse(accountId, values.id);
  if (!parsed.success) throw new UsageError(parsed.issues.map((issue) => issue.message).join('; '));
  await target(values['state-dir']);
  const rotated = await rotateClientSecret(makeDeps(), parsed.output);
  if (values.json) {
    console.log(JSON.stringify(rotated));
    return;
  }
  console.log(`account ${parsed.output}: new client secret
  client_id      ${rotated.client_id}
  client_secret  ${rotated.client_secret}
The old secret no longer works; access tokens already issued work until they expire.
Store this now: cobro keeps only its hash.`);
}

async function payoutsRun(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { now: { type: 'string' }, 'state-dir': { type: 'string' } },
  });
  const now = values.now === undefined ? new Date() : new Date(values.now);
  if (Number.isNaN(now.getTime())) throw new UsageError(`--now: not an ISO 8601 time: ${values.now}`);
  await target(values['state-dir']);
  console.log(JSON.stringify(await runPayouts({ ...makeDeps(), acquirer: configuredAcquirer() }, now)));
}

async function billingRun(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { now: { type: 'string' }, account: { type: 'string' }, 'state-dir': { type: 'string' } },
  });
  const now = values.now === undefined ? new Date() : new Date(values.now);
  if (Number.isNaN(now.getTime())) throw new UsageError(`--now: not an ISO 8601 time: ${values.now}`);
  const account = values.account === undefined ? undefined : Number(values.account);
  if (account !== undefined && !(Number.isSafeInteger(account) && account > 0))
    throw new UsageError('--account: an account id is a positive integer');
  await target(values['state-dir']);
  const deps = { ...makeDeps(), acquirer: configuredAcquirer() };
  const scope = account === undefined ? undefined : { developerId: account };
  const [subscriptions, paymentLinks] = await Promise.all([
    runBilling(deps, now, scope),
    runLinkBilling(deps, now, scope),
  ]);
  console.log(JSON.stringify({ ...subscriptions, payment_links: paymentLinks }));
}

/** Money in minor units as the currency writes it. */
function money(minor: number, code: string): string {
  const currency = findCurrency(code);
  return currency ? formatAmount(minor, currency) : String(minor);
}

async function reconcileLedger(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      since: { type: 'string' },
      account: { type: 'string' },
      json: { type: 'boolean', default: false },
      'state-dir': { type: 'string' },
    },
  });
  const account = values.account === undefined ? undefined : Number(values.account);
  if (account !== undefined && !(Number.isSafeInteger(account) && account > 0))
    throw new UsageError('--account: an account id is a positive integer');
  const until = new Date();
  const since =
    values.since === undefined ? new Date(until.getTime() - 30 * 86_400_000) : new Date(values.since);
  if (Number.isNaN(since.getTime())) throw new UsageError(`--since: not an ISO 8601 time: ${values.since}`);
  await target(values['state-dir']);
  if (!process.env[envNames.publicBaseUrl])
    throw new UsageError(`set ${envNames.publicBaseUrl} to the stage's PublicBaseUrl output`);
  const deps = { ...makeDeps(), acquirer: configuredAcquirer(), baseUrl: publicBaseUrl() };
  const report = await reconcile(deps, { since, until, ...(account ? { developerId: account } : {}) });
  if (values.json) {
    console.log(JSON.stringify(report));
    return report.mismatches.length ? 1 : 0;
  }
  const { recovery, acquirer, cobro } = report;
  const side = (name: string, books: typeof acquirer) =>
    `  ${name.padEnd(10)} ${books.charges} charges, ${books.refunds} refunds, ${books.payouts} payouts`;
  console.log(`reconciled ${report.since} .. ${report.until}`);
  console.log(
    `  recovery   ${recovery.due} due: ${recovery.succeeded} succeeded, ${recovery.declined} declined, ${recovery.failed} failed (closed), ${recovery.waiting} waiting, ${recovery.raced} raced, ${recovery.errors} errors`,
  );
  console.log(side('acquirer', acquirer));
  console.log(side('cobro', cobro));
  for (const code of new Set([...Object.keys(acquirer.totals), ...Object.keys(cobro.totals)])) {
    const a = acquirer.totals[code] ?? { charged: 0, refunded: 0, paid_out: 0 };
    const c = cobro.totals[code] ?? { charged: 0, refunded: 0, paid_out: 0 };
    console.log(
      `  ${code.padEnd(10)} charged ${money(a.charged, code)} / ${money(c.charged, code)}, refunded ${money(a.refunded, code)} / ${money(c.refunded, code)}, paid out ${money(a.paid_out, code)} / ${money(c.paid_out, code)}  (acquirer / cobro)`,
    );
  }
  if (report.mismatches.length === 0) {
    console.log('the books agree');
    return 0;
  }
  console.log(`${report.mismatches.length} mismatches:`);
  for (const mismatch of report.mismatches)
    console.log(`  ${mismatch.kind} ${mismatch.key}: ${mismatch.problem}: ${mismatch.detail}`);
  return 1;
}

async function searchReindex(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { 'state-dir': { type: 'string' } } });
  await target(values['state-dir']);
  console.log(JSON.stringify(await reindexSearch(makeDeps())));
}

async function webhooksListen(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      key: { type: 'string' },
      'forward-to': { type: 'string' },
      events: { type: 'string' },
      'state-dir': { type: 'string' },
    },
  });
  if (process.env[envNames.table]) throw new UsageError('webhooks listen works on the local stack only');
  const forwardTo = values['forward-to'];
  if (forwardTo !== undefined && !URL.canParse(forwardTo))
    throw new UsageError(`--forward-to: not a URL: ${forwardTo}`);
  await target(values['state-dir']);
  const key = values.key ?? readLocalInfo(values['state-dir']).demo?.test_key;
  if (!key) throw new UsageError('--key is required (this stack has no demo account)');
  const deps = makeDeps();
  const found = await findApiKey(deps, key);
  if (!found && values.key === undefined) {
    throw new UsageError(
      "the demo account's test key was rotated since the stack recorded it: pass --key with the key PATCH /v1/auth/api-keys/ answered",
    );
  }
  if (!found) throw new UsageError('--key: not a key of this stack');
  if (found.mode !== 'test') throw new UsageError('--key: listen takes a test key (sk_test_…)');
  const listener = await listen(
    { ...deps, secrets: secretBox() },
    { developerId: found.developerId, mode: 'test' },
    {
      ...(forwardTo ? { forwardTo } : {}),
      ...(values.events ? { events: values.events.split(',').map((type) => type.trim()) } : {}),
      print: (line) => console.log(line),
    },
  );
  console.log(
    `Ready. Test events of account ${found.developerId} come to ${listener.url} (endpoint ${listener.endpointId}).`,
  );
  console.log(`Webhook signing secret: ${listener.secret}`);
  console.log(forwardTo ? `Forwarding to ${forwardTo}. Ctrl-C stops.` : 'Ctrl-C stops.');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await listener.stop();
  console.log(`Removed endpoint ${listener.endpointId}.`);
}

async function webhooksDeadLetters(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      days: { type: 'string', default: '7' },
      now: { type: 'string' },
      'state-dir': { type: 'string' },
    },
  });
  const days = Number(values.days);
  if (!Number.isInteger(days) || days < 1 || days > 30) throw new UsageError('--days: 1 to 30');
  const now = values.now === undefined ? new Date() : new Date(values.now);
  if (Number.isNaN(now.getTime())) throw new UsageError(`--now: not an ISO 8601 time: ${values.now}`);
  await target(values['state-dir']);
  for (const letter of await deadLetters(makeDeps(), now, days)) console.log(JSON.stringify(letter));
}

/** Each command; one that answers a number exits with it (reconcile: 1 when the books disagree). */
const commands: Record<string, (args: string[]) => Promise<unknown>> = {
  reconcile: reconcileLedger,
  'webhooks listen': webhooksListen,
  'webhooks dead-letters': webhooksDeadLetters,
  'search reindex': searchReindex,
  'payouts run': payoutsRun,
  'billing run': billingRun,
  'accounts create': accountsCreate,
  'accounts update': accountsUpdate,
  'accounts rotate-client-secret': accountsRotateClientSecret,
};

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(usage);
    return 0;
  }
  // The command is the words before the first option: `accounts create --name …`.
  const firstOption = argv.findIndex((word) => word.startsWith('-'));
  const words = argv.slice(0, firstOption < 0 ? argv.length : firstOption).slice(0, 2);
  // One-word commands (reconcile) take their options right after the word.
  const single = words[0] !== undefined && commands[words[0]] ? [words[0]] : undefined;
  const command = commands[(single ?? words).join(' ')];
  if (!command) {
    const problem = words.length === 0 ? 'no command given' : `unknown command "${words.join(' ')}"`;
    console.error(`cobro: ${problem}\n\n${usage}`);
    return 2;
  }
  try {
    const code = await command(argv.slice(single ? 1 : 2));
    return typeof code === 'number' ? code : 0;
  } catch (error) {
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error)) {
      console.error(`cobro: ${error.message}\n\n${usage}`);
      return 2;
    }
    if (error instanceof Failure) {
      console.error(`cobro: ${text(error.msg, 'en', error.params).content}`);
      return 1;
    }
    console.error(`cobro: ${(error as Error).message}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
