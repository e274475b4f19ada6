/** `cobro webhooks listen | dead-letters`: a receiver of the local stack's deliveries; the deliveries that gave up. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultStateDir, readLocalInfo } from '../../infra/local/info.ts';
import { findApiKey } from '../../shared/accounts/repository.ts';
import { envNames } from '../../shared/core/config.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { deadLetters } from '../../shared/webhooks/repository.ts';
import { secretBox } from '../../shared/webhooks/secrets.ts';
import { timeOption, UsageError } from './options.ts';
import { target } from './target.ts';
import { type KeptEndpoint, listen } from './webhooks-listen.ts';

/**
 * The id of each account's `webhooks listen` endpoint, in the stack's state folder beside its data,
 * so every run for an account reuses one endpoint and its secret. Only ids: the secret itself stays
 * sealed in the endpoint's record.
 */
function keptEndpoint(stateDir: string | undefined, developerId: number): KeptEndpoint {
  const path = join(stateDir ?? defaultStateDir(), 'webhooks-listen.json');
  const read = (): Record<string, string> =>
    existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>) : {};
  return {
    get: () => read()[String(developerId)],
    set: (endpointId) =>
      writeFileSync(path, `${JSON.stringify({ ...read(), [String(developerId)]: endpointId }, null, 2)}\n`, {
        mode: 0o600,
      }),
  };
}

export async function webhooksListen(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      key: { type: 'string' },
      'forward-to': { type: 'string' },
      events: { type: 'string' },
      until: { type: 'string' },
      'new-secret': { type: 'boolean', default: false },
      'state-dir': { type: 'string' },
    },
  });
  if (process.env[envNames.table]) throw new UsageError('webhooks listen works on the local stack only');
  const forwardTo = values['forward-to'];
  if (forwardTo !== undefined && !URL.canParse(forwardTo))
    throw new UsageError(`--forward-to: not a URL: ${forwardTo}`);
  const until = values.until?.split(',').map((type) => type.trim());
  if (until?.some((type) => type === '')) throw new UsageError('--until: event types, comma-separated');
  await target(values['state-dir']);
  const key = values.key ?? readLocalInfo(values['state-dir']).demo?.test_key;
  if (!key) throw new UsageError('--key is required (this stack has no demo account)');
  const deps = makeDeps();
  const found = await findApiKey(deps, key);
  if (!found && values.key === undefined) {
    throw new UsageError(
      "the demo account's test key was rotated since the stack recorded it: pass --key with the key its rotation showed (PATCH /v1/auth/api-keys/ answers it; the dashboard's API keys page shows it once)",
    );
  }
  if (!found) throw new UsageError('--key: not a key of this stack');
  if (found.mode !== 'test') throw new UsageError('--key: listen takes a test key (sk_test_…)');
  // Stopped by Ctrl-C (or a TERM), or by the first verified delivery of an --until type.
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  // Taken before anything is printed: a Ctrl-C as soon as the secret shows still disables the
  // endpoint (once listening, it stops at once) rather than killing the process with it enabled.
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const listener = await listen(
    { ...deps, secrets: secretBox() },
    { developerId: found.developerId, mode: 'test' },
    {
      ...(forwardTo ? { forwardTo } : {}),
      ...(values.events ? { events: values.events.split(',').map((type) => type.trim()) } : {}),
      print: (line) => console.log(line),
      ...(until ? { delivered: (type: string) => until.includes(type) && stop() } : {}),
      kept: keptEndpoint(values['state-dir'], found.developerId),
      newSecret: values['new-secret'],
    },
  );
  console.log(
    `Ready. Test events of account ${found.developerId} come to ${listener.url} (endpoint ${listener.endpointId}).`,
  );
  const origin = {
    created: 'a new endpoint: configure your receiver with it; later runs keep it',
    reused: 'the same as the last run; --new-secret changes it',
    'new secret': 'new (--new-secret): the previous one also signs for the next 24 hours',
  }[listener.endpoint];
  console.log(`Webhook signing secret: ${listener.secret}  (${origin})`);
  const stops = until ? `Ctrl-C, or a delivery of ${until.join(' or ')}, stops.` : 'Ctrl-C stops.';
  console.log(forwardTo ? `Forwarding to ${forwardTo}. ${stops}` : stops);
  await stopped;
  await listener.stop();
  console.log(`Disabled endpoint ${listener.endpointId} (kept, with its secret, for the next run).`);
}

export async function webhooksDeadLetters(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      days: { type: 'string', default: '7' },
      now: { type: 'string' },
      'state-dir': { type: 'string' },
    },
  });
  const days = Number(values.days);
  if (!Number.isInteger(days) || days < 1 || days > 30) throw new UsageError('--days: 1 to 30');
  const now = timeOption('now', values.now, new Date());
  await target(values['state-dir']);
  for (const letter of await deadLetters(makeDeps(), now, days)) console.log(JSON.stringify(letter));
}
