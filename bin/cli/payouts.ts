/** `cobro payouts run`: the scheduled payout step, on demand (at --now). */
import { parseArgs } from 'node:util';
import { acquirerDeps } from '../../shared/acquirer/configured.ts';
import { runPayouts } from '../../shared/payouts/run.ts';
import { timeOption } from './options.ts';
import { target } from './target.ts';

export async function payoutsRun(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { now: { type: 'string' }, 'state-dir': { type: 'string' } },
  });
  const now = timeOption('now', values.now, new Date());
  await target(values['state-dir']);
  console.log(JSON.stringify(await runPayouts(acquirerDeps(), now)));
}
