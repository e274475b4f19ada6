/** `cobro stats rebuild --account N`: recomputes an account's dashboard counters from its records. */
import { parseArgs } from 'node:util';
import { makeDeps } from '../../shared/db/deps.ts';
import { rebuildStats } from '../../shared/stats/rebuild.ts';
import { accountOption, UsageError } from './options.ts';
import { target } from './target.ts';

export async function statsRebuild(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { account: { type: 'string' }, 'state-dir': { type: 'string' } },
  });
  const account = accountOption(values.account);
  if (account === undefined) throw new UsageError('--account is required');
  await target(values['state-dir']);
  console.log(JSON.stringify({ account, modes: await rebuildStats(makeDeps(), account) }));
}
