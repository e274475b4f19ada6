/** `cobro reconcile`: recovery, then the acquirer's books against cobro's; exits 1 when they disagree. */
import { parseArgs } from 'node:util';
import { acquirerDeps } from '../../shared/acquirer/configured.ts';
import { envNames } from '../../shared/core/config.ts';
import { formatAmount } from '../../shared/core/money/amount.ts';
import { findCurrency } from '../../shared/core/money/currencies.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { reconcile } from '../../shared/ledger/reconcile.ts';
import { accountOption, timeOption, UsageError } from './options.ts';
import { target } from './target.ts';

/** Money in minor units as the currency writes it. */
function money(minor: number, code: string): string {
  const currency = findCurrency(code);
  return currency ? formatAmount(minor, currency) : String(minor);
}

export async function reconcileLedger(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      since: { type: 'string' },
      account: { type: 'string' },
      json: { type: 'boolean', default: false },
      'state-dir': { type: 'string' },
    },
  });
  const account = accountOption(values.account);
  const until = new Date();
  const since = timeOption('since', values.since, new Date(until.getTime() - 30 * 86_400_000));
  await target(values['state-dir']);
  if (!process.env[envNames.publicBaseUrl])
    throw new UsageError(`set ${envNames.publicBaseUrl} to the stage's PublicBaseUrl output`);
  const deps = { ...acquirerDeps(), baseUrl: publicBaseUrl() };
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
  console.log(`${report.mismatches.length} ${report.mismatches.length === 1 ? 'mismatch' : 'mismatches'}:`);
  for (const mismatch of report.mismatches)
    console.log(`  ${mismatch.kind} ${mismatch.key}: ${mismatch.problem}: ${mismatch.detail}`);
  return 1;
}
