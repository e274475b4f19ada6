/**
 * The S3 and SES emulators of the local stack, each on 127.0.0.1 at a port it is given. A port
 * another process holds fails with EADDRINUSE (never an unhandled 'error' event, never a server
 * that does not listen), so onFreePort can move the emulator elsewhere.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import S3rver from '@20minutes/s3rver';
import sesEmulator from 'aws-ses-v2-local';
import { listening, portIsFree, portTaken } from './ports.ts';

// The package is CommonJS with a default export: Node's ESM loader puts it behind `.default`,
// a bundler-style loader (vitest) hands it over directly.
type StartSes = typeof sesEmulator.default;
const sesModule = sesEmulator as unknown as StartSes | { default: StartSes };
const startSesEmulator: StartSes = typeof sesModule === 'function' ? sesModule : sesModule.default;

export interface RunningEmulator {
  port: number;
  close(): Promise<void>;
}

const closeServer = (server: Server) =>
  new Promise<void>((done) => {
    server.close(() => done());
    server.closeAllConnections();
  });

/** The S3 emulator, keeping objects under `directory`, with `bucket` made. */
export async function startS3(options: {
  port: number;
  directory: string;
  bucket: string;
}): Promise<RunningEmulator> {
  const s3 = new S3rver({
    port: options.port,
    address: '127.0.0.1',
    silent: true,
    directory: options.directory,
    configureBuckets: [{ name: options.bucket, configs: [] }],
  });
  await s3.configureBuckets();
  // Not s3.run(): it listens with no 'error' listener, so a taken port crashed the process. Its
  // listen() given a callback hands the server back at once, before any error can be emitted.
  const server = s3.listen(options.port, '127.0.0.1', () => undefined);
  try {
    await listening(server);
  } catch (error) {
    server.close(); // lets the emulator release its logger
    throw error;
  }
  return { port: (server.address() as AddressInfo).port, close: () => closeServer(server) };
}

/** The SES emulator: every mail sent is kept, listed at `/` and as JSON at `/store`. */
export async function startSes(port: number): Promise<RunningEmulator> {
  // Express hands a listen error to the emulator's callback, which ignores it and resolves with a
  // server that does not listen: that is told apart here.
  const server: Server = await startSesEmulator({ host: '127.0.0.1', port });
  if (!server.listening) {
    server.close();
    if (!(await portIsFree(port))) throw portTaken(port);
    throw new Error(`the SES emulator could not listen on 127.0.0.1:${port}`);
  }
  return { port: (server.address() as AddressInfo).port, close: () => closeServer(server) };
}
