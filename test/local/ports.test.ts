/** The local stack's port choice: a port taken between "seen free" and "bound" moves the part elsewhere. */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { onFreePort } from '../../infra/local/ports.ts';

describe('onFreePort', () => {
  it('starts again on another port when the chosen one is taken before the part binds it', async () => {
    const tried: number[] = [];
    const port = await onFreePort(0, async (candidate) => {
      tried.push(candidate);
      if (tried.length === 1)
        throw Object.assign(new Error(`listen EADDRINUSE: 127.0.0.1:${candidate}`), { code: 'EADDRINUSE' });
      return candidate;
    });
    expect(tried).toHaveLength(2);
    expect(port).toBe(tried[1]);
  });

  it('takes the preferred port when it is free, and another when it is not', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const busy = (blocker.address() as { port: number }).port;
    try {
      expect(await onFreePort(busy, async (candidate) => candidate)).not.toBe(busy);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    expect(await onFreePort(busy, async (candidate) => candidate)).toBe(busy);
  });

  it('passes on failures that are not a taken port', async () => {
    await expect(onFreePort(0, async () => Promise.reject(new Error('Java missing')))).rejects.toThrow(
      'Java missing',
    );
  });
});
