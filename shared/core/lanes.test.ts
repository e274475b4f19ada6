import { describe, expect, it } from 'vitest';
import { eachInLanes } from './lanes.ts';

describe('eachInLanes', () => {
  it('does every item once, never more than `lanes` at a time, starting them in order', async () => {
    const started: number[] = [];
    let running = 0;
    let most = 0;
    await eachInLanes([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      started.push(item);
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
    });
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('takes a lazy iterable, and rejects with the error an item threw', async () => {
    function* numbers() {
      yield* [1, 2, 3];
    }
    const seen: number[] = [];
    await eachInLanes(numbers(), 2, async (item) => {
      seen.push(item);
    });
    expect(seen.sort()).toEqual([1, 2, 3]);
    await expect(
      eachInLanes([1, 2], 2, async (item) => {
        if (item === 2) throw new Error('two');
      }),
    ).rejects.toThrow('two');
  });
});
