/** The S3 and SES emulators of the local stack, each on 127.0.0.1 at a port it is given. */
import type { Server } from 'node:http';
import S3rver from '@20minutes/s3rver';
import sesEmulator from 'aws-ses-v2-local';

// The package is CommonJS with a default export: Node's ESM loader puts it behind `.default`,
// a bundler-style loader (vitest) hands it over directly.
type StartSes = typeof sesEmulator.default;
const sesModule = sesEmulator as unknown as StartSes | { default: StartSes };
const startSesEmulator: StartSes = typeof sesModule === 'function' ? sesModule : sesModule.default;

export interface RunningEmulator {
  port: number;
  close(): Promise<void>;
}

/** The S3 emulator, keeping objects under `directory`, with `bucket` made. */
export async function startS3(options: {
  port: number;
  directory: string;
  bucket: string;
}): Promise<RunningEmulator> {
  const server = new S3rver({
    port: options.port,
    address: '127.0.0.1',
    silent: true,
    directory: options.directory,
    configureBuckets: [{ name: options.bucket, configs: [] }],
  });
  await server.run();
  return { port: options.port, close: () => server.close() };
}

/** The SES emulator: every mail sent is kept, listed at `/` and as JSON at `/store`. */
export async function startSes(port: number): Promise<RunningEmulator> {
  const server: Server = await startSesEmulator({ host: '127.0.0.1', port });
  return { port, close: () => new Promise((done) => server.close(() => done())) };
}
