/**
 * `cobro webhooks listen`: a developer's webhook receiver for the local stack, in the manner of the
 * big providers' CLIs. It listens on loopback, registers a temporary test-mode endpoint there,
 * prints each delivery (time, type, event id, the status it answered), forwards it with its
 * Standard Webhooks headers to `forwardTo` when given (answering cobro with what that answered), and
 * removes the endpoint when stopped. A part of the operator CLI (bin/cli/webhooks.ts), not of the
 * local stack: it is one more client of the stack, as a developer's own receiver would be.
 */
import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import type { Scope } from '../../shared/core/account.ts';
import type { Deps } from '../../shared/db/deps.ts';
import { deleteEndpoint } from '../../shared/webhooks/repository.ts';
import type { SecretBox } from '../../shared/webhooks/secrets.ts';
import { registerEndpoint } from '../../shared/webhooks/service.ts';

export interface Listener {
  endpointId: string;
  secret: string;
  url: string;
  /** Removes the endpoint and stops listening. */
  stop(): Promise<void>;
}

const forwarded = ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type'] as const;

export async function listen(
  deps: Deps & { secrets: SecretBox },
  scope: Scope,
  options: { forwardTo?: string; events?: string[]; print: (line: string) => void },
): Promise<Listener> {
  let verifier: Webhook | undefined;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const name of forwarded) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      let event: { id?: string; type?: string } = {};
      let verified = 'signature ok';
      try {
        event = (verifier?.verify(body, headers) ?? {}) as typeof event;
      } catch (error) {
        verified = `signature NOT verified (${(error as Error).message})`;
      }
      let status = 200;
      let note = '';
      if (options.forwardTo) {
        try {
          const answer = await fetch(options.forwardTo, {
            method: 'POST',
            headers,
            body,
            signal: AbortSignal.timeout(9_000),
          });
          status = answer.status;
          note = ` -> ${options.forwardTo} ${answer.status}`;
        } catch (error) {
          status = 502;
          note = ` -> ${options.forwardTo} failed: ${(error as Error).message}`;
        }
      }
      response.writeHead(status, { 'Content-Type': 'text/plain' });
      response.end(String(status));
      options.print(
        `${new Date().toISOString()}  ${event.type ?? '?'}  ${event.id ?? headers['webhook-id'] ?? '?'}  [${status}]${note}  ${verified}`,
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  const { endpoint, secret } = await registerEndpoint(deps, scope, {
    url,
    events: options.events ?? ['*'],
    description: 'cobro webhooks listen (removed when it stops)',
  });
  verifier = new Webhook(secret);
  return {
    endpointId: endpoint.id,
    secret,
    url,
    async stop() {
      await deleteEndpoint(deps, scope, endpoint.id).catch(() => undefined);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
