/** `cobro payouts run`: the scheduled payout step, on demand (at --now, for one account when given). */
import { parseArgs } from 'node:util';
import { acquirerDeps } from '../../shared/acquirer/configured.ts';
import { runPayouts } from '../../shared/payouts/run.ts';
import { accountOption, timeOption } from './options.ts';
import { target } from './target.ts';

export async function payoutsRun(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { now: { type: 'string' }, account: { type: 'string' }, 'state-dir': { type: 'string' } },
  });
  const now = timeOption('now', values.now, new Date());
  const account = accountOption(values.account);
  await target(values['state-dir']);
  const scope = account === undefined ? undefined : { developerId: account };
  console.log(JSON.stringify(await runPayouts(acquirerDeps(), now, scope)));
}
