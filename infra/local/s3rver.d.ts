// The S3 emulator ships no types; this is the part of its API the local stack uses.
declare module '@20minutes/s3rver' {
  import type { Server } from 'node:http';

  interface S3rverOptions {
    port?: number;
    address?: string;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string; configs: unknown[] }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Makes the buckets of `configureBuckets` (run() does it before listening). */
    configureBuckets(): Promise<void>;
    /** Listens with the emulator as request handler; with a callback, returns the server at once. */
    listen(port: number, address: string, onListening: () => void): Server;
  }
}
