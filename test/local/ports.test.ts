/** The local stack's port choice: a port taken between "seen free" and "bound" moves the part elsewhere. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startControl } from '../../infra/local/control.ts';
import { startDynamo } from '../../infra/local/dynamodb.ts';
import { startS3, startSes } from '../../infra/local/emulators.ts';
import { startEventBus } from '../../infra/local/event-bus.ts';
import { startGateway } from '../../infra/local/gateway.ts';
import { projectRoot } from '../../infra/local/info.ts';
import { onFreePort } from '../../infra/local/ports.ts';
import { newCredentials } from '../../infra/local/state.ts';

/** A plain listening socket on 127.0.0.1 (any free port): what another stack's part looks like. */
async function occupied(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

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

/** `start` tried first on `taken` (as if it had been seen free), then on the ports onFreePort offers. */
function takenFirst<T>(taken: number, start: (port: number) => Promise<T>) {
  let first = true;
  return (offered: number) => {
    const port = first ? taken : offered;
    first = false;
    return start(port);
  };
}

describe('each part of the stack on a port another process holds', () => {
  it('fails with EADDRINUSE, which onFreePort answers by moving it; nothing is left unhandled', {
    timeout: 120_000,
  }, async () => {
    const { port, server } = await occupied();
    const directory = mkdtempSync(join(tmpdir(), 'cobro-ports-'));
    const inUse = { code: 'EADDRINUSE' };
    try {
      await expect(startS3({ port, directory, bucket: 'probe' })).rejects.toMatchObject(inUse);
      await expect(startSes(port)).rejects.toMatchObject(inUse);
      await expect(startEventBus(port, projectRoot, { region: 'us-east-1' })).rejects.toMatchObject(inUse);
      await expect(startControl(port)).rejects.toMatchObject(inUse);
      await expect(startGateway({ root: projectRoot, port })).rejects.toMatchObject(inUse);

      // Seen free, then bound by a neighbour before the part listens: the part moves.
      const s3 = await onFreePort(
        0,
        takenFirst(port, (at) => startS3({ port: at, directory, bucket: 'probe' })),
      );
      expect(s3.port).not.toBe(port);
      await s3.close();
      const ses = await onFreePort(0, takenFirst(port, startSes));
      expect(ses.port).not.toBe(port);
      expect((await fetch(`http://127.0.0.1:${ses.port}/store`)).status).toBe(200);
      await ses.close();

      // DynamoDB Local too, and a taken port is not mistaken for a Java that cannot run the launcher.
      const dynamoOn = (at: number) =>
        startDynamo({ port: at, dataDir: null, credentials: newCredentials(), stateDir: directory });
      await expect(dynamoOn(port)).rejects.toThrow(/Address already in use/);
      const dynamo = await onFreePort(0, takenFirst(port, dynamoOn));
      try {
        expect(dynamo.endpoint).not.toBe(`http://127.0.0.1:${port}`);
        const argv = readFileSync(`/proc/${dynamo.process.pid}/cmdline`, 'utf8').split('\0');
        expect(argv.some((arg) => arg.endsWith('dynamodb-local.java'))).toBe(true);
      } finally {
        await dynamo.stop();
      }
    } finally {
      server.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
