/** Window counters against DynamoDB Local, on a clock the test moves. */
import { randomInt } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { useLocalEnvironment } from '../../test/support/stack.ts';
import { webhookKeys } from '../webhooks/keys.ts';
import { makeDeps } from './deps.ts';
import { getRecord } from './items.ts';
import { giveBackToWindow, secondsUntil, takeFromWindow, type WindowCounter } from './window.ts';

beforeAll(() => useLocalEnvironment());

const hour = 3_600_000;
const start = new Date('2031-03-01T10:00:00.000Z');
const later = (ms: number) => new Date(start.getTime() + ms);

/** A counter of its own (a random account's), limit 3 an hour. */
const counter = (limit = 3): WindowCounter => {
  const developerId = randomInt(1_000_000, 2_000_000_000);
  return {
    key: webhookKeys.redeliveryCounter(developerId, 'test', `evt_${randomInt(1e9)}`),
    entity: 'redelivery_counter',
    owner: { developer_id: developerId, mode: 'test' },
    limit,
    windowMs: hour,
  };
};

describe('secondsUntil', () => {
  it('rounds up to whole seconds and is never below 1', () => {
    expect(secondsUntil(start.getTime() + 1500, start)).toBe(2);
    expect(secondsUntil(start.getTime() + 1000, start)).toBe(1);
    expect(secondsUntil(start.getTime(), start)).toBe(1);
    expect(secondsUntil(start.getTime() - 5000, start)).toBe(1);
  });
});

describe('takeFromWindow', () => {
  it('counts up to the limit in a window that starts at the first use, then refuses until it ends', async () => {
    const deps = makeDeps();
    const one = counter();
    for (const at of [0, 10_000, 20_000]) {
      expect(await takeFromWindow(deps, one, later(at))).toEqual({
        taken: true,
        windowEndMs: later(hour).getTime(),
      });
    }
    expect(await takeFromWindow(deps, one, later(30 * 60_000))).toEqual({
      taken: false,
      retryAfterSeconds: 1800,
    });
    expect(await takeFromWindow(deps, one, later(hour - 1))).toEqual({ taken: false, retryAfterSeconds: 1 });
    // The window has ended: a new one starts with this use.
    expect(await takeFromWindow(deps, one, later(hour))).toEqual({
      taken: true,
      windowEndMs: later(2 * hour).getTime(),
    });
    const stored = await deps.db.send(new GetCommand({ TableName: deps.table, Key: one.key }));
    expect(stored.Item).toMatchObject({
      entity: 'redelivery_counter',
      ...one.owner,
      count: 1,
      window_end_ms: later(2 * hour).getTime(),
      expires_at: later(2 * hour).getTime() / 1000,
    });
  });

  it('takes exactly the limit of uses racing for one counter', async () => {
    const deps = makeDeps();
    const one = counter(5);
    const taken = await Promise.all(
      Array.from({ length: 25 }, (_, i) => takeFromWindow(deps, one, later(i))),
    );
    expect(taken.filter((result) => result.taken)).toHaveLength(5);
    expect((await getRecord<{ count: number }>(deps, one.key))?.count).toBe(5);
  });

  it('gives a use back in its own window only', async () => {
    const deps = makeDeps();
    const one = counter(1);
    const first = await takeFromWindow(deps, one, start);
    if (!first.taken) throw new Error('the first use was refused');
    expect((await takeFromWindow(deps, one, later(1))).taken).toBe(false);
    await giveBackToWindow(deps, one.key, first.windowEndMs);
    const again = await takeFromWindow(deps, one, later(2));
    expect(again.taken).toBe(true);
    // In a later window, giving back the old window's use changes nothing.
    await takeFromWindow(deps, one, later(hour));
    await giveBackToWindow(deps, one.key, first.windowEndMs);
    expect(await takeFromWindow(deps, one, later(hour + 1))).toMatchObject({ taken: false });
  });
});
