/**
 * The smoke check's webhook receiver: an HTTP server that takes cobro's deliveries and verifies each
 * with the endpoint's secret through the `standardwebhooks` package, as a merchant's receiver does.
 * Locally it is the endpoint itself (on loopback); for a deployed stage the operator's public URL
 * forwards to it.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A delivery whose signature verified: the Standard Webhooks body cobro sends. */
export interface Delivery {
  id: string;
  type: string;
  data?: { object?: { id?: string } };
}

export interface Receiver {
  /** The port it listens on (the one asked for, or a free one for port 0). */
  port: number;
  /** Verifies what arrives from now on with this secret (the endpoint's, shown once at creation). */
  useSecret(secret: string): void;
  /**
   * Waits until a verified delivery matches `wanted`; rejects after `timeoutMs`, or when `signal`
   * aborts, saying what did arrive (deliveries that did not verify, others).
   */
  waitFor(wanted: (delivery: Delivery) => boolean, timeoutMs: number, signal: AbortSignal): Promise<Delivery>;
  close(): Promise<void>;
}

const signatureHeaders = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

function headersOf(incoming: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of signatureHeaders) {
    const value = incoming[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

/** Starts listening on `host`:`port` (0: any free port). */
export async function startReceiver(host: string, port: number): Promise<Receiver> {
  let verifier: Webhook | undefined;
  const verified: Delivery[] = [];
  const refused: string[] = [];
  let arrived: (() => void) | undefined;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        if (!verifier) throw new Error('arrived before the endpoint was registered');
        verified.push(verifier.verify(body, headersOf(request.headers)) as Delivery);
        response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      } catch (error) {
        refused.push(`${request.method} ${request.url}: ${(error as Error).message}`);
        // Not 2xx, so cobro keeps the delivery and tries again on its schedule.
        response.writeHead(400, { 'Content-Type': 'text/plain' }).end('signature not verified');
      }
      arrived?.();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    useSecret(secret) {
      verifier = new Webhook(secret);
    },
    async waitFor(wanted, timeoutMs, signal) {
      const deadline = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
      for (;;) {
        const found = verified.find(wanted);
        if (found) return found;
        if (deadline.aborted) {
          const seen = [
            refused.length > 0 ? `${refused.length} not verified (${refused.at(-1)})` : '',
            verified.length > 0 ? `${verified.length} verified but of other events` : '',
          ].filter(Boolean);
          const what = signal.aborted ? 'interrupted' : `no verified delivery within ${timeoutMs / 1000} s`;
          throw new Error(`${what}${seen.length > 0 ? `; received: ${seen.join(', ')}` : ''}`);
        }
        // Woken by the next request or the deadline, whichever comes first.
        await new Promise<void>((resolve) => {
          arrived = resolve;
          deadline.addEventListener('abort', () => resolve(), { once: true });
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
