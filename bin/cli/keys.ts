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
  const known = async (key: string) => (await findApiKey(makeDeps(), key)) !== undefined;
  if (values.json) {
    // Everything else stays useful after a rotation: a rotated key is null, and `rotated` says which.
    const [testLive, liveLive] = await Promise.all([known(demo.test_key), known(demo.live_key)]);
    const { developer_id, email, client_id, client_secret } = demo;
    console.log(
      JSON.stringify({
        developer_id,
        email,
        test_key: testLive ? demo.test_key : null,
        live_key: liveLive ? demo.live_key : null,
        client_id,
        client_secret,
        api_url: info.api_url,
        rotated: [...(testLive ? [] : ['test']), ...(liveLive ? [] : ['live'])],
      }),
    );
    return;
  }
  const mode = values.live ? 'live' : 'test';
  const key = values.live ? demo.live_key : demo.test_key;
  if (!(await known(key)))
    throw new Error(
      `the demo account's ${mode} key was rotated since the stack recorded it, and cobro keeps only a hash of the new one: use the key its rotation showed (PATCH /v1/auth/api-keys/ answers it; the dashboard's API keys page shows it once)`,
    );
  console.log(key);
}
