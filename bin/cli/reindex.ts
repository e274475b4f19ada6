/**
 * `cobro reindex`: gives every stored record its place in every index the table keeps (search
 * entries; the customer index of charges and subscriptions) in one Scan: run it once after an
 * upgrade that adds an index.
 */
import { parseArgs } from 'node:util';
import { chargeEntity, chargeReindexer } from '../../shared/charges/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { reindex } from '../../shared/db/reindex.ts';
import { searchReindexers } from '../../shared/search/reindex.ts';
import { subscriptionEntity, subscriptionReindexer } from '../../shared/subscriptions/repository.ts';
import { target } from './target.ts';

export async function reindexAll(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { 'state-dir': { type: 'string' } } });
  await target(values['state-dir']);
  const deps = makeDeps();
  const summary = await reindex(deps, {
    ...searchReindexers(deps),
    [chargeEntity.tag]: chargeReindexer,
    [subscriptionEntity.tag]: subscriptionReindexer,
  });
  console.log(JSON.stringify(summary));
}
