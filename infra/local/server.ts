/** What the local stack's own HTTP servers (the gateway, the event bus, the control server) share. */
import type { IncomingMessage, Server } from 'node:http';

/** A request body longer than its server takes. */
export class BodyTooLarge extends Error {
  constructor() {
    super('body too large');
  }
}

/**
 * A request's body. Past `maxBytes` it rejects with BodyTooLarge and drains the rest, so the server
 * can still answer.
 */
export function readBody(request: IncomingMessage, maxBytes = Number.POSITIVE_INFINITY): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    request.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > maxBytes) {
        refused = true;
        reject(new BodyTooLarge());
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** Starts `server` on 127.0.0.1:`port` (0: a port the OS picks) and answers the port it took. */
export async function listenOnLoopback(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : port;
}
