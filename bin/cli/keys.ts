/**
 * `cobro keys`: the demo account's keys of the running local stack, for scripts
 * (`KEY=$(npm run -s cli -- keys)`): the key alone on stdout, or every credential as JSON.
 */
import { parseArgs } from 'node:util';
import { readLocalInfo } from '../../infra/local/info.ts';
import { findApiKey } from '../../shared/accounts/repository.ts';
import { envNames } from '../../shared/core/config.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { UsageError } from './options.ts';
import { target } from './target.ts';

export async function keys(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      live: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      'state-dir': { type: 'string' },
    },
  });
  if (process.env[envNames.table])
    throw new UsageError('keys shows the demo account of the local stack only (a deployed stage has none)');
  if (values.live && values.json) throw new UsageError('--json already shows the live key: give one of them');
  // A stack that is not running (or whose local.json outlived it) is told apart here, with what to do.
  await target(values['state-dir']);
  const info = readLocalInfo(values['state-dir']);
  const demo = info.demo;
  if (!demo) throw new Error(`the stack at ${info.api_url} has no demo account yet: wait for its banner`);
  // cobro keeps only hashes: a key rotated since the stack recorded it is dead, and the new one unknown here.
  const shown = values.json
    ? (['test', 'live'] as const)
    : values.live
      ? (['live'] as const)
      : (['test'] as const);
  for (const mode of shown) {
    const key = mode === 'test' ? demo.test_key : demo.live_key;
    if (!(await findApiKey(makeDeps(), key)))
      throw new Error(
        `the demo account's ${mode} key was rotated since the stack recorded it, and cobro keeps only a hash of the new one: use the key PATCH /v1/auth/api-keys/ answered`,
      );
  }
  if (values.json) {
    const { developer_id, email, test_key, live_key, client_id, client_secret } = demo;
    const credentials = { developer_id, email, test_key, live_key, client_id, client_secret };
    console.log(JSON.stringify({ ...credentials, api_url: info.api_url }));
    return;
  }
  console.log(values.live ? demo.live_key : demo.test_key);
}
