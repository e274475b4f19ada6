/** `cobro search reindex`: writes the search entries of every stored record (a Scan: run it once). */
import { parseArgs } from 'node:util';
import { makeDeps } from '../../shared/db/deps.ts';
import { reindexSearch } from '../../shared/search/reindex.ts';
import { target } from './target.ts';

export async function searchReindex(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { 'state-dir': { type: 'string' } } });
  await target(values['state-dir']);
  console.log(JSON.stringify(await reindexSearch(makeDeps())));
}
