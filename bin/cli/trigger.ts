/**
 * `cobro trigger <event type>`: a test event of any catalogue type, made up and sent to the
 * account's webhook endpoints through the usual pipeline (stored, relayed, fanned out, signed,
 * delivered and retried), for a developer to see what their receiver gets. Test mode only; it is
 * put on the bus under its own source, so only webhooks receive it (shared/events/event.ts).
 */

import { parseArgs } from 'node:util';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { readLocalInfo } from '../../infra/local/info.ts';
import { findApiKey, getAccount } from '../../shared/accounts/repository.ts';
import { eventCatalogue } from '../../shared/api/events.ts';
import type { Scope } from '../../shared/core/account.ts';
import { envNames } from '../../shared/core/config.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { triggeredEventWrite } from '../../shared/events/event.ts';
import { subscribes } from '../../shared/webhooks/endpoint.ts';
import { endpointsOf } from '../../shared/webhooks/repository.ts';
import { accountOption, UsageError } from './options.ts';
import { sample } from './sample.ts';
import { didYouMean } from './suggest.ts';
import { target } from './target.ts';

const types = () => eventCatalogue.map((event) => event.type);

/** The catalogue's type `typed` names; a UsageError with the nearest and the list otherwise. */
function eventTypeOf(typed: string | undefined) {
  if (typed === undefined) throw new UsageError(`give an event type, one of: ${types().join(', ')}`);
  const found = eventCatalogue.find((event) => event.type === typed);
  if (!found)
    throw new UsageError(
      `unknown event type "${typed}"${didYouMean(typed, types()) || ';'} types: ${types().join(', ')}`,
    );
  return found;
}

export async function trigger(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      key: { type: 'string' },
      account: { type: 'string' },
      json: { type: 'boolean', default: false },
      'state-dir': { type: 'string' },
    },
  });
  if (positionals.length > 1) throw new UsageError(`one event type at a time, not ${positionals.join(' ')}`);
  const eventType = eventTypeOf(positionals[0]);
  if (values.key !== undefined && values.account !== undefined)
    throw new UsageError('give --key or --account, not both');
  const account = accountOption(values.account);
  // Whether a deployed table was named, read before target() names the local stack's own table.
  const deployed = Boolean(process.env[envNames.table]);
  await target(values['state-dir']);
  const deps = makeDeps();
  const scope: Scope = {
    developerId: await developerOf(deps, values.key, account, deployed ? null : values['state-dir']),
    mode: 'test',
  };
  const now = deps.clock();
  const detail = eventType.of(
    scope,
    v.parse(eventType.data, sample(eventType.data, eventType.type, now)),
    now,
  );
  await deps.db.send(new PutCommand(triggeredEventWrite(deps.table, detail).Put));
  const endpoints = (await endpointsOf(deps, scope))
    .filter((endpoint) => endpoint.enabled && subscribes(endpoint, eventType.type))
    .map((endpoint) => endpoint.id);
  if (values.json) {
    console.log(
      JSON.stringify({ id: detail.id, type: detail.type, developer_id: scope.developerId, endpoints }),
    );
    return;
  }
  console.log(
    `Triggered ${detail.type} ${detail.id} (test mode) for account ${scope.developerId}: ${
      endpoints.length === 0
        ? 'no enabled endpoint takes it (run webhooks listen, or register one)'
        : `on its way to ${endpoints.join(', ')}`
    }. GET /v1/events/${detail.id}/ shows it.`,
  );
}

/**
 * The account the event is for: --key's, --account, or (the local stack, whose `stateDir` is
 * given: undefined for a deployed table) the demo account.
 */
async function developerOf(
  deps: ReturnType<typeof makeDeps>,
  key: string | undefined,
  account: number | undefined,
  stateDir: string | undefined | null,
): Promise<number> {
  if (account !== undefined) {
    if (!(await getAccount(deps, account))) throw new UsageError(`--account: there is no account ${account}`);
    return account;
  }
  const local = stateDir === null ? undefined : readLocalInfo(stateDir).demo?.test_key;
  const wanted = key ?? local;
  if (wanted === undefined)
    throw new UsageError(
      stateDir === null
        ? 'give --key sk_test_… or --account ID (a deployed table has no demo account)'
        : 'give --key sk_test_… or --account ID (this stack has recorded no demo account)',
    );
  const found = await findApiKey(deps, wanted);
  if (!found)
    throw new UsageError(
      key === undefined
        ? "the demo account's test key was rotated since the stack recorded it: pass --key"
        : '--key: not a key of this stack',
    );
  if (found.mode !== 'test') throw new UsageError('--key: trigger takes a test key (sk_test_…)');
  return found.developerId;
}
