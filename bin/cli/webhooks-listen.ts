/**
 * `cobro webhooks listen`: a developer's webhook receiver for the local stack, in the manner of the
 * big providers' CLIs. It listens on loopback, points a test-mode endpoint there, prints each
 * delivery (time, type, event id, the status it answered), forwards it with its Standard Webhooks
 * headers to `forwardTo` when given (answering cobro with what that answered), and disables the
 * endpoint when stopped. The endpoint is kept for the account from one run to the next (its id
 * remembered beside the stack's state), so its signing secret stays the same and a receiver
 * configured with it once keeps verifying after a restart; the secret changes only when asked
 * (`newSecret`), or when the endpoint is gone (deleted, or a throwaway stack's data went with it).
 * A part of the operator CLI (bin/cli/webhooks.ts), not of the local stack: it is one more client
 * of the stack, as a developer's own receiver would be.
 */
import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import type { Scope } from '../../shared/core/account.ts';
import { NotFound } from '../../shared/core/errors.ts';
import type { Deps } from '../../shared/db/deps.ts';
import type { WebhookEndpoint } from '../../shared/webhooks/endpoint.ts';
import { getEndpoint } from '../../shared/webhooks/repository.ts';
import type { SecretBox } from '../../shared/webhooks/secrets.ts';
import { registerEndpoint, rotateSecret, updateEndpoint } from '../../shared/webhooks/service.ts';

export interface Listener {
  endpointId: string;
  secret: string;
  url: string;
  /** How the endpoint was had: made now, the kept one reused, or the kept one with a new secret. */
  endpoint: 'created' | 'reused' | 'new secret';
  /** Disables the endpoint (kept for the next run) and stops listening. */
  stop(): Promise<void>;
}

/** Where the id of the account's kept endpoint is remembered between runs. */
export interface KeptEndpoint {
  get(): string | undefined;
  set(endpointId: string): void;
}

const description = 'cobro webhooks listen (kept for its next run; disabled while it is stopped)';

const forwarded = ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type'] as const;

export async function listen(
  deps: Deps & { secrets: SecretBox },
  scope: Scope,
  options: {
    forwardTo?: string;
    events?: string[];
    print: (line: string) => void;
    /** Told of each delivery whose signature verified, once it is answered and printed. */
    delivered?: (type: string) => void;
    kept: KeptEndpoint;
    /** Give the kept endpoint a new signing secret (the old one signs beside it for a day). */
    newSecret?: boolean;
  },
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
      if (event.type !== undefined) options.delivered?.(event.type);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  const events = options.events ?? ['*'];
  const reused = await reuse(deps, scope, options.kept.get(), { url, events }, options.newSecret ?? false);
  const { endpoint, secret } = reused ?? (await registerEndpoint(deps, scope, { url, events, description }));
  if (!reused) options.kept.set(endpoint.id);
  verifier = new Webhook(secret);
  return {
    endpointId: endpoint.id,
    secret,
    url,
    endpoint: reused ? (options.newSecret ? 'new secret' : 'reused') : 'created',
    async stop() {
      // Disabled, not deleted: no task is made for it while nothing listens, and the next run
      // enables it again with the same secret.
      await updateEndpoint(deps, scope, endpoint.id, { enabled: false }).catch(() => undefined);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The kept endpoint pointed at this run's address and enabled, with its secret (a new one when
 * asked); undefined when there is none, or it is gone.
 */
async function reuse(
  deps: Deps & { secrets: SecretBox },
  scope: Scope,
  id: string | undefined,
  change: { url: string; events: string[] },
  newSecret: boolean,
): Promise<{ endpoint: WebhookEndpoint; secret: string } | undefined> {
  if (id === undefined) return undefined;
  try {
    await getEndpoint(deps, scope, id);
  } catch (error) {
    if (error instanceof NotFound) return undefined;
    throw error;
  }
  const endpoint = await updateEndpoint(deps, scope, id, { ...change, description, enabled: true });
  if (newSecret) return rotateSecret(deps, scope, id);
  return { endpoint, secret: await deps.secrets.open(endpoint.secret) };
}
