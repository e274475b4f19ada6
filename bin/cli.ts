#!/usr/bin/env node
/**
 * The operator CLI (docs/design.md#operator-cli): `npm run cli -- <command>`, or `cobro <command>` as
 * the package's bin. It works on the running local stack (found through .cobro/local.json) unless
 * TABLE_NAME is set, in which case it works on that deployed table with the usual AWS credentials and
 * AWS_REGION. This file reads the command line and hands it to the command's module in bin/cli/.
 */
import { Failure } from '../shared/core/errors.ts';
import { text } from '../shared/core/messages.ts';
import {
  accountsConnect,
  accountsCreate,
  accountsRotateClientSecret,
  accountsUpdate,
} from './cli/accounts.ts';
import { billingRun } from './cli/billing.ts';
import { keys } from './cli/keys.ts';
import { UsageError } from './cli/options.ts';
import { payoutsRun } from './cli/payouts.ts';
import { reconcileLedger } from './cli/reconcile.ts';
import { reindexAll } from './cli/reindex.ts';
import { searchReindex } from './cli/search.ts';
import { statsRebuild } from './cli/stats.ts';
import { didYouMean } from './cli/suggest.ts';
import { trigger } from './cli/trigger.ts';
import { usersAdd, usersList, usersRemove, usersResetPassword } from './cli/users.ts';
import { webhooksDeadLetters, webhooksListen } from './cli/webhooks.ts';

/** Where every command works, as each help ends. */
const targetNote = `target: the local stack of this checkout (npm start), or --state-dir DIR (or COBRO_STATE_DIR) for another one;
        with TABLE_NAME (and AWS_REGION) set, that deployed table instead.`;

/**
 * Each command: its words, its help (the synopsis first, then what it does), and what runs it. One
 * that answers a number exits with it (reconcile: 1 when the books disagree).
 */
interface Command {
  name: string;
  help: string;
  run: (args: string[]) => Promise<unknown>;
}

const commands: readonly Command[] = [
  {
    name: 'keys',
    help: `keys [--live | --json]
    prints the demo account's test key of the local stack, alone, for scripts:
    KEY=$(npm run -s cli -- keys); --live its live key; --json every demo credential
    (developer_id, email, test_key, live_key, client_id, client_secret) and the api_url.
    Exits 1 when the key was rotated since the stack recorded it (cobro keeps only hashes:
    use the key the PATCH answered) or when no stack runs; --json then shows a rotated key
    as null and names it in "rotated". Local stack only.`,
    run: keys,
  },
  {
    name: 'accounts create',
    help: `accounts create --name NAME --email EMAIL [--company-name NAME] [--page URL]
                [--logo URL] [--statement-descriptor TEXT] [--language en|es] [--json]
    creates an account with its test and live keys and OAuth client credentials;
    the keys and the client secret are shown only here.`,
    run: accountsCreate,
  },
  {
    name: 'accounts update',
    help: `accounts update --id ID [--company-name NAME] [--page URL] [--logo URL]
                [--statement-descriptor TEXT] [--language en|es] [--json]
    sets the profile plans show (company_name, page, image_dev, credit_card_description)
    and the language of the account's e-mails (default en);
    an empty value ("") clears a field, an option left out keeps it.`,
    run: accountsUpdate,
  },
  {
    name: 'accounts rotate-client-secret',
    help: `accounts rotate-client-secret --id ID [--json]
    gives the account's OAuth client a new secret, shown only here; the old secret stops
    at once, access tokens already issued work until they expire.`,
    run: accountsRotateClientSecret,
  },
  {
    name: 'accounts connect',
    help: `accounts connect --account ID [--mode test|live --stripe-key KEY [--stripe-webhook-secret WHSEC]]
                [--mode test|live --stripe-standin] [--live none|simulated] [--test simulated] [--json]
    connects a mode of the account to the acquirer its money moves through. With --mode and a
    Stripe key (sk_live_… for live, sk_test_… for test, or a restricted rk_… key; or the
    COBRO_STRIPE_KEY variable, which keeps it out of shell history): that Stripe account, after
    one read of it with the key (a key Stripe refuses is not stored). Stripe sends the account's
    events to PUBLIC_BASE_URL/v1/connectors/stripe/ID/events/: without a signing secret, cobro
    makes that webhook endpoint in the Stripe account and keeps its secret; with one
    (--stripe-webhook-secret or COBRO_STRIPE_WEBHOOK_SECRET), the endpoint it belongs to must be
    there, enabled, sending the events cobro acts on. Secrets are kept encrypted, never shown
    again. --live none disconnects live mode (new live payments are refused with 400; what Stripe
    holds is still finished, and renewals wait, each billing pass counting them failed, until
    it is connected again); --live simulated connects the simulated acquirer, which moves no real
    money, on the local stack only. --stripe-standin (local stack only) connects the mode to a
    Stripe account at the local Stripe stand-in (the demo account's, which npm start shows).
    Without a change, shows both modes' connections.`,
    run: accountsConnect,
  },
  {
    name: 'users add',
    help: `users add --account ID --email EMAIL --role admin|developer|support|viewer
                [--password-stdin] [--json]
    adds a person who signs in to the account's dashboard (docs/design.md#team-sign-in): an
    admin may do everything, including users, the audit log, API keys and connectors; a
    developer reads, and keeps webhooks, the catalog and the (masked) API keys; support reads,
    refunds, cancels subscriptions and makes portal links; a viewer only reads. Prints a
    one-time link, valid 24 hours, that opens a form to set the user's password and then
    signs them in: send it to them (the user is "invited" until it is used). With
    --password-stdin the password (12 to 256 characters) is read from a pipe instead, one
    trailing newline dropped, and the user is active at once:
    printf '%s' "$PASSWORD" | npm run -s cli -- users add ... --password-stdin.
    An e-mail address is one user's, in one account. Add an account's first admin here;
    that admin invites the others from the dashboard's Users page. On a deployed table a link
    also needs FINGERPRINT_SECRET_ID and PUBLIC_BASE_URL (the stack's FingerprintSecretArn and
    PublicBaseUrl outputs) in the environment.`,
    run: usersAdd,
  },
  {
    name: 'users list',
    help: `users list --account ID [--json]
    lists the account's dashboard users by e-mail: role, status (invited until a password is
    set, then active), whether they have a two-factor app, and when they were added.`,
    run: usersList,
  },
  {
    name: 'users remove',
    help: `users remove --account ID --email EMAIL
    removes a dashboard user; its sessions end at once. The account's last admin is never
    removed (exit 1): add or promote another admin first.`,
    run: usersRemove,
  },
  {
    name: 'users reset-password',
    help: `users reset-password --account ID --email EMAIL [--clear-two-factor] [--json]
    prints a new one-time set-password link for the user, valid 24 hours: a forgotten
    password. The old password works until a new one is set through it, which ends the
    user's sessions. --clear-two-factor also removes the user's second factor (a lost phone):
    they can set one up again under Your profile. On a deployed table it needs
    FINGERPRINT_SECRET_ID and PUBLIC_BASE_URL, as users add does.`,
    run: usersResetPassword,
  },
  {
    name: 'billing run',
    help: `billing run [--now ISO8601] [--account ID]
    runs every recurring-billing step due at --now (default: now): renewals, trial ends
    and retries of failed renewals (1, 3 and 5 days after; the third failed retry cancels),
    and recurring payment links (paid_period -> pending_period at next_date_of_payment,
    pending_period unpaid 5 days -> defaulter); --account limits it to one account.
    Prints a JSON summary. The deployed stack runs it every 15 minutes.`,
    run: billingRun,
  },
  {
    name: 'payouts run',
    help: `payouts run [--now ISO8601] [--account ID]
    marks the live charges due at --now (default: now) as paid out (older than the
    2-day payout delay) and prints a JSON summary; --account limits it to one account.
    The deployed stack runs it hourly, for every account.`,
    run: payoutsRun,
  },
  {
    name: 'webhooks listen',
    help: `webhooks listen [--key sk_test_...] [--forward-to URL] [--events TYPE,TYPE] [--until TYPE,TYPE]
                [--new-secret]
    receives the test-mode webhooks of the account of --key (default: the demo account) on
    the local stack: prints each delivery as it arrives (type, event id, the status answered,
    whether its signature verified) and forwards it with its signature headers to
    --forward-to when given (answering cobro with that status); --until stops it once a
    delivery of one of those types has come (for scripts). Its endpoint and signing
    secret are kept for the account between runs (disabled while it is stopped), so a
    receiver configured once keeps verifying; --new-secret rotates the secret on purpose.
    Local stack only.`,
    run: webhooksListen,
  },
  {
    name: 'trigger',
    help: `trigger <event type> [--key sk_test_... | --account ID] [--json]
    sends a made-up test-mode event of any type of the catalogue (payment.succeeded,
    subscription.canceled, ...) to the account's webhook endpoints that take it (default: the
    demo account), through the usual pipeline: stored (GET /v1/events lists it), fanned out,
    signed, delivered and retried. Only webhooks receive it: no e-mail, no other effect.
    With webhooks listen running, it shows there.`,
    run: trigger,
  },
  {
    name: 'webhooks dead-letters',
    help: `webhooks dead-letters [--days N] [--now ISO8601]
    lists the webhook deliveries that ran out of retries in the N days (default 7) up to
    --now (default: now), newest first, as JSON lines; redeliver one with
    POST /v1/events/{id}/redeliver/ once its endpoint is mended.`,
    run: webhooksDeadLetters,
  },
  {
    name: 'reconcile',
    help: `reconcile [--since ISO8601] [--account ID] [--json]
    runs recovery (finishing every money movement whose outcome is unknown, by asking the
    acquirer by key), then compares the acquirer's own books with cobro's since --since
    (default: 30 days ago): every charge, refund and payout, their amounts, currencies and
    owners (--account: one account's only). Prints each mismatch; exits 0 when the books
    agree, 1 otherwise. The deployed stack runs recovery every minute and reconciliation daily.`,
    run: reconcileLedger,
  },
  {
    name: 'search reindex',
    help: `search reindex
    writes the substring-search entries (plan names, product names and SKUs, customers'
    first names and e-mails) of every stored record, for records stored before search
    entries existed; prints a JSON summary. It reads the whole table (a Scan): run it
    once after upgrading, not on a schedule.`,
    run: searchReindex,
  },
  {
    name: 'reindex',
    help: `reindex
    gives every stored record its place in every index the table keeps: the search entries
    (as search reindex does), and the customer index of charges and subscriptions (what the
    customer portal reads); prints a JSON summary (records seen per kind, entries written,
    records given keys). It reads the whole table (a Scan): run it once after an upgrade
    that adds an index, not on a schedule. Running it again changes nothing.`,
    run: reindexAll,
  },
  {
    name: 'stats rebuild',
    help: `stats rebuild --account ID
    recomputes the account's dashboard counters (per-day charges, volume, refunds, declines and
    failed renewals; active subscriptions and monthly recurring revenue), in both modes, from its
    charges, refunds, subscriptions and last 30 days of events (internal ones, the declines at
    subscription and payment-link checkouts, are in no list), reading them page by page; prints
    a JSON summary. For accounts with records from before the counters existed: it replaces the
    counters, so run it at a quiet hour (an event counted meanwhile may be lost or doubled).`,
    run: statsRebuild,
  },
];

const see = (words: string) => `see: npm run -s cli -- ${words ? `${words} ` : ''}--help`;

/** The options a command's help names (and --state-dir, which every command takes). */
const optionsOf = (command: Command) => [
  ...new Set([...command.help.matchAll(/--[a-z][a-z-]*/g)].map(([option]) => option)),
  '--state-dir',
];

/** Node's parseArgs messages, made one short line; an unknown option gets the nearest known one. */
function parseArgsProblem(error: TypeError & { code: unknown }, command: Command): string {
  const unknown = /^Unknown option '([^']+)'/.exec(error.message);
  if (unknown?.[1]) return `unknown option ${unknown[1]}${didYouMean(unknown[1], optionsOf(command))}`;
  return error.message.split('. ')[0] ?? error.message;
}

/** A command's usage: its help's first line and the option lines that continue it (`[--logo URL] …`). */
function usageLines(help: string): string {
  const [first = '', ...rest] = help.split('\n');
  const end = rest.findIndex((line) => !line.trimStart().startsWith('['));
  const options = end === -1 ? rest : rest.slice(0, end);
  return [first, ...options].join('\n');
}

const globalHelp = () => `usage: npm run -s cli -- <command> [options]   (or: cobro <command> [options])

commands:
${commands.map((command) => `  ${usageLines(command.help)}`).join('\n')}

For what a command does and its options: npm run -s cli -- <command> --help

${targetNote}`;

const groupHelp = (group: string) => `usage: npm run -s cli -- ${group} <subcommand> [options]

${commands
  .filter((command) => command.name.startsWith(`${group} `))
  .map((command) => command.help)
  .join('\n\n')}

${targetNote}`;

const commandHelp = (command: Command) => `usage: npm run -s cli -- ${command.help}

${targetNote}`;

/** A mistake in the command line: one line on stderr, exit 2. */
function usageError(problem: string, helpWords: string): number {
  console.error(`cobro: ${problem}${problem.endsWith('?') ? ' ' : '; '}${see(helpWords)}`);
  return 2;
}

async function main(argv: string[]): Promise<number> {
  const help = argv.includes('--help') || argv.includes('-h');
  // The command is the words before the first option: `accounts create --name …`.
  const firstOption = argv.findIndex((word) => word.startsWith('-'));
  const words = argv.slice(0, firstOption < 0 ? argv.length : firstOption);
  const [first, second] = words;
  if (first === undefined) {
    if (help) {
      console.log(globalHelp());
      return 0;
    }
    return usageError('no command given', '');
  }
  const groups = [...new Set(commands.map((command) => command.name.split(' ')[0] ?? ''))];
  if (!groups.includes(first))
    return usageError(`unknown command "${first}"${didYouMean(first, groups)}`, '');
  // One-word commands (reconcile) take what follows the word; the others are two words.
  let command = commands.find((entry) => entry.name === first);
  if (!command) {
    const subcommands = commands.filter((entry) => entry.name.startsWith(`${first} `));
    if (second === undefined) {
      if (help) {
        console.log(groupHelp(first));
        return 0;
      }
      const names = subcommands.map((entry) => entry.name.slice(first.length + 1)).join(', ');
      return usageError(`"${first}" needs a subcommand: ${names}`, first);
    }
    command = subcommands.find((entry) => entry.name === `${first} ${second}`);
    if (!command) {
      const typed = `${first} ${second}`;
      const names = subcommands.map((entry) => entry.name);
      return usageError(`unknown command "${typed}"${didYouMean(typed, names)}`, first);
    }
  }
  if (help) {
    console.log(commandHelp(command));
    return 0;
  }
  try {
    const code = await command.run(argv.slice(command.name.split(' ').length));
    return typeof code === 'number' ? code : 0;
  } catch (error) {
    if (error instanceof UsageError) return usageError(error.message, command.name);
    if (error instanceof TypeError && 'code' in error)
      return usageError(parseArgsProblem(error, command), command.name);
    if (error instanceof Failure) {
      console.error(`cobro: ${text(error.msg, 'en', error.params).content}`);
      return 1;
    }
    console.error(`cobro: ${(error as Error).message}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
