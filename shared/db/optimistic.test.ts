/**
 * The optimistic-write retry: lost races are tried again up to the limit, then a 409; other errors
 * pass at once. Then through a real repository against DynamoDB Local, with a client wrapper that
 * injects lost races (its writes refused with ConditionalCheckFailedException).
 */
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { newAccount, useLocalEnvironment } from '../../test/support/stack.ts';
import { Conflict, NotFound } from '../core/errors.ts';
import { prefixedId } from '../core/ids.ts';
import { answerOf } from '../http/errors.ts';
import { changeEndpoint, createEndpoint, getEndpoint } from '../webhooks/repository.ts';
import { makeDeps } from './deps.ts';
import { dbMessages } from './messages.ts';
import { lostRace, retryOptimistic } from './optimistic.ts';

const conditionFailed = () => new ConditionalCheckFailedException({ message: 'refused', $metadata: {} });
const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
const noWait = async () => {};

describe('retryOptimistic', () => {
  it('answers the first try that did not lose, after as many tries as it took', () =>
    fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('lost-answer', 'lost-error', 'won'), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 10 }),
        async (outcomes, tries) => {
          let made = 0;
          const run = retryOptimistic(
            async (tryNumber) => {
              made += 1;
              expect(tryNumber).toBe(made);
              const outcome = outcomes[tryNumber - 1] ?? 'lost-answer';
              if (outcome === 'lost-error') throw conditionFailed();
              return outcome === 'won' ? tryNumber : lostRace;
            },
            { tries, sleep: noWait },
          );
          const firstWin = outcomes.indexOf('won') + 1;
          if (firstWin > 0 && firstWin <= tries) {
            expect(await run).toBe(firstWin);
            expect(made).toBe(firstWin);
          } else {
            const error = await run.catch((caught: unknown) => caught);
            expect(error).toBeInstanceOf(Conflict);
            expect((error as Conflict).msg).toBe(dbMessages.concurrent_update);
            expect(made).toBe(tries);
          }
        },
      ),
    ));

  it('never lets the raw exception out: every try refused is a 409 in the message envelope', async () => {
    const error = await retryOptimistic(
      async () => {
        throw conditionFailed();
      },
      { sleep: noWait },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Conflict);
    expect(answerOf(error, 'en')).toMatchObject({ status: 409, body: { code: 409, type: 'error' } });
  });

  it('passes other errors at once: a business condition, a missing record, a transaction item but the first', async () => {
    for (const thrown of [
      new NotFound(),
      new Error('network'),
      cancelled('None', 'ConditionalCheckFailed'),
    ]) {
      let made = 0;
      await expect(
        retryOptimistic(
          async () => {
            made += 1;
            throw thrown;
          },
          { sleep: noWait },
        ),
      ).rejects.toBe(thrown);
      expect(made).toBe(1);
    }
  });

  it("retries a transaction whose first item's condition failed", async () => {
    let made = 0;
    const answer = await retryOptimistic(
      async () => {
        made += 1;
        if (made < 3) throw cancelled('ConditionalCheckFailed', 'None');
        return 'stored';
      },
      { sleep: noWait },
    );
    expect([answer, made]).toEqual(['stored', 3]);
  });

  it('waits a random time below a ceiling that doubles and stops at maxWaitMs; none after the last try', async () => {
    const waits: number[] = [];
    await retryOptimistic(async () => lostRace, {
      tries: 8,
      maxWaitMs: 100,
      sleep: async (ms) => {
        waits.push(ms);
      },
    }).catch(() => undefined);
    expect(waits).toHaveLength(7);
    waits.forEach((ms, index) => {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThan(Math.min(100, 10 * 2 ** (index + 1)));
    });
    const none: number[] = [];
    await retryOptimistic(async () => lostRace, {
      maxWaitMs: 0,
      sleep: async (ms) => {
        none.push(ms);
      },
    }).catch(() => undefined);
    expect(none).toEqual([]);
  });
});

describe('an optimistic write through a client that loses races (DynamoDB Local)', () => {
  let developerId: number;
  beforeAll(async () => {
    useLocalEnvironment();
    developerId = (await newAccount('optimistic')).developerId;
  });

  /** The stack's client, but its first `refusals` puts are refused as if another writer won. */
  function losingClient(refusals: number) {
    const deps = makeDeps();
    let left = refusals;
    let puts = 0;
    const db = {
      send: (command: unknown) => {
        if (command instanceof PutCommand) {
          puts += 1;
          if (left > 0) {
            left -= 1;
            return Promise.reject(conditionFailed());
          }
        }
        return deps.db.send(command as PutCommand);
      },
    } as unknown as DynamoDBDocumentClient;
    return { deps: { ...deps, db }, puts: () => puts };
  }

  async function storedEndpoint() {
    const deps = makeDeps();
    const now = deps.clock().toISOString();
    const id = prefixedId('we');
    await createEndpoint(deps, {
      id,
      developer_id: developerId,
      mode: 'test',
      url: 'https://example.com/hook',
      events: ['*'],
      description: 'before',
      enabled: true,
      secret: 'sealed',
      previous_secret: null,
      previous_until: null,
      version: 1,
      created_at: now,
      updated_at: now,
    });
    return id;
  }

  const scope = () => ({ developerId, mode: 'test' as const });

  it('stores the change once the races stop being lost', async () => {
    const id = await storedEndpoint();
    const losing = losingClient(3);
    const changed = await changeEndpoint(losing.deps, scope(), id, () => ({ description: 'after' }));
    expect(losing.puts()).toBe(4);
    expect(changed).toMatchObject({ description: 'after', version: 2 });
    expect(await getEndpoint(makeDeps(), scope(), id)).toMatchObject({ description: 'after', version: 2 });
  });

  it('answers 409 when every try loses, and stores nothing', async () => {
    const id = await storedEndpoint();
    const losing = losingClient(Number.POSITIVE_INFINITY);
    const error = await changeEndpoint(losing.deps, scope(), id, () => ({ description: 'after' })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Conflict);
    expect(losing.puts()).toBe(8);
    expect(await getEndpoint(makeDeps(), scope(), id)).toMatchObject({ description: 'before', version: 1 });
  });
});
