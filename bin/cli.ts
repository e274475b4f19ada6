#!/usr/bin/env node
/**
 * The operator CLI (docs/design.md#operator-cli): `npm run cli -- <command>`, or `cobro <command>` as
 * the package's bin. It works on the running local stack (found through .cobro/local.json) unless
 * TABLE_NAME is set, in which case it works on that deployed table with the usual AWS credentials and
 * AWS_REGION. This file reads the command line and hands it to the command's module in bin/cli/.
 */
import { Failure } from '../shared/core/errors.ts';
import { text } from '../shared/core/messages.ts';
import { accountsCreate, accountsRotateClientSecret, accountsUpdate } from './cli/accounts.ts';
import { billingRun } from './cli/billing.ts';
import { UsageError } from './cli/options.ts';
import { payoutsRun } from './cli/payouts.ts';
import { reconcileLedger } from './cli/reconcile.ts';
import { searchReindex } from './cli/search.ts';
import { webhooksDeadLetters, webhooksListen } from './cli/webhooks.ts';

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
