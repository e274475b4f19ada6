/** Port helpers for the local stack. */
import { createServer, type Server } from 'node:net';

/** Whether a TCP port on 127.0.0.1 can be bound right now. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** The preferred port when free, otherwise one the OS picks: emulators move aside, so stacks share a machine. */
export async function freePort(preferred: number): Promise<number> {
  if (preferred > 0 && (await portIsFree(preferred))) return preferred;
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Resolves once `server` listens; rejects with the error its listen met (EADDRINUSE, say). A library
 * that calls listen() itself and attaches no 'error' listener would otherwise crash the process.
 */
export function listening<T extends Server>(server: T): Promise<T> {
  if (server.listening) return Promise.resolve(server);
  return new Promise((resolve, reject) => {
    const onListening = () => {
      server.off('error', onError);
      resolve(server);
    };
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    server.once('listening', onListening);
    server.once('error', onError);
  });
}

/** The error a part reports when it could not listen on `port` because something else holds it. */
export function portTaken(port: number): NodeJS.ErrnoException {
  return Object.assign(new Error(`listen EADDRINUSE: address already in use 127.0.0.1:${port}`), {
    code: 'EADDRINUSE',
    port,
  });
}

const addressInUse = (error: unknown) =>
  (error as NodeJS.ErrnoException)?.code === 'EADDRINUSE' ||
  /EADDRINUSE|Address already in use/.test(String((error as Error)?.message));

/**
 * Starts a part on its preferred port when free, otherwise on one the OS offers. A port seen free
 * can be taken by another stack starting at the same moment before this part binds it; then the
 * part is started again on another port.
 */
export async function onFreePort<T>(preferred: number, start: (port: number) => Promise<T>): Promise<T> {
  let port = await freePort(preferred);
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(port);
    } catch (error) {
      if (!addressInUse(error) || attempt >= 5) throw error;
      port = await freePort(0);
    }
  }
}
