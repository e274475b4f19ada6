import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { envNames } from '../core/config.ts';
import type { Resolver } from './address.ts';
import { deliver, maxResponseChars, userAgent } from './send.ts';

// These suites describe the local stack's policy, where test endpoints may be private (a laptop).
process.env[envNames.webhookPrivateTargets] = 'allow';

interface Seen {
  method: string | undefined;
  path: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
  /** The address the connection arrived on: which receiver, when several share a port. */
  localAddress: string | undefined;
}

const servers: http.Server[] = [];

afterEach(async () => {
  const closing = servers.splice(0).map(
    (server) =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  await Promise.all(closing);
});

/** A real loopback receiver that records each request, then lets `respond` answer (or not). */
async function receiver(
  respond: (request: IncomingMessage, response: ServerResponse) => void,
  host = '127.0.0.1',
  port = 0,
) {
  const seen: Seen[] = [];
  let socketClosed = () => {};
  const closed = new Promise<void>((resolve) => {
    socketClosed = resolve;
  });
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({
        method: request.method,
        path: request.url,
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
        localAddress: request.socket.localAddress,
      });
      respond(request, response);
    });
  });
  server.on('connection', (socket) => socket.on('close', () => socketClosed()));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  servers.push(server);
  const bound = (server.address() as AddressInfo).port;
  return { seen, closed, port: bound, url: `http://${host}:${bound}` };
}

const answer =
  (status: number, body = '') =>
  (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(status, { 'content-type': 'text/plain' }).end(body);
  };

/** A resolver that maps names to fixed addresses and counts its calls. */
function countingResolver(answers: Record<string, string[]>) {
  const calls: string[] = [];
  const resolve: Resolver = async (host) => {
    calls.push(host);
    const addresses = answers[host];
    if (!addresses) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
    return addresses;
  };
  return { calls, resolve };
}

const payload = JSON.stringify({ type: 'charge.succeeded', data: { id: 'ch_1' } });
const signed = { 'webhook-id': 'msg_1', 'webhook-timestamp': '1700000000', 'webhook-signature': 'v1,abc=' };

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('deliver in test mode', () => {
  it('POSTs the body and headers to a loopback receiver and reports its answer', async () => {
    const target = await receiver(answer(200, 'thanks'));
    const result = await deliver({
      url: `${target.url}/hooks?src=cobro`,
      mode: 'test',
      headers: signed,
      body: payload,
    });

    expect(result).toMatchObject({ statusCode: 200, error: null, responseBody: 'thanks' });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(target.seen).toHaveLength(1);
    const [request] = target.seen;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/hooks?src=cobro');
    expect(request?.body).toBe(payload);
    expect(request?.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': userAgent,
      'content-length': String(Buffer.byteLength(payload)),
      ...signed,
    });
  });

  it('sends to the resolved address under the registered name, which callers cannot override', async () => {
    const target = await receiver(answer(204));
    const dns = countingResolver({ 'receiver.example': ['127.0.0.1'] });
    const result = await deliver({
      url: `http://receiver.example:${target.port}/`,
      mode: 'test',
      headers: { Host: 'internal.example', 'Content-Type': 'text/plain', 'User-Agent': 'spoof' },
      body: payload,
      resolve: dns.resolve,
    });

    expect(result).toMatchObject({ statusCode: 204, error: null });
    expect(target.seen[0]?.headers).toMatchObject({
      host: `receiver.example:${target.port}`,
      'content-type': 'application/json',
      'user-agent': userAgent,
    });
    expect(dns.calls).toEqual(['receiver.example']);
  });

  it('connects to the address its own check resolved, not to what DNS answers next (rebinding)', async () => {
    const checked = await receiver(answer(200, 'checked'), '127.0.0.1');
    const rebound = await receiver(answer(200, 'rebound'), '127.0.0.2', checked.port);
    let calls = 0;
    const rebinding: Resolver = async () => (++calls === 1 ? ['127.0.0.1'] : ['127.0.0.2']);
    const url = `http://rebind.example:${checked.port}/`;

    const first = await deliver({ url, mode: 'test', headers: {}, body: payload, resolve: rebinding });
    // One resolution per delivery: the connection reused the check's answer instead of asking again.
    expect(calls).toBe(1);
    expect(first).toMatchObject({ statusCode: 200, responseBody: 'checked' });
    expect(checked.seen.map((seen) => seen.localAddress)).toEqual(['127.0.0.1']);
    expect(rebound.seen).toHaveLength(0);

    // The next delivery checks afresh and goes where that check pointed.
    const second = await deliver({ url, mode: 'test', headers: {}, body: payload, resolve: rebinding });
    expect(calls).toBe(2);
    expect(second).toMatchObject({ statusCode: 200, responseBody: 'rebound' });
    expect(rebound.seen.map((seen) => seen.localAddress)).toEqual(['127.0.0.2']);
    expect(checked.seen).toHaveLength(1);
  });

  it('refuses the metadata address without connecting', async () => {
    const dns = countingResolver({ 'metadata.example': ['169.254.169.254'] });
    const result = await deliver({
      url: 'http://metadata.example/latest/meta-data/',
      mode: 'test',
      headers: {},
      body: payload,
      resolve: dns.resolve,
    });
    expect(result).toMatchObject({
      statusCode: null,
      error: 'url resolves to a link-local address (169.254.169.254)',
      responseBody: '',
    });
  });

  it("refuses, at delivery, a port that became one of the local stack's own since the endpoint was made", async () => {
    // A stack service now answers where a receiver was registered (ports move between runs).
    const service = await receiver(answer(200, 'cleared'));
    const saved = process.env[envNames.webhookRefusedPorts];
    process.env[envNames.webhookRefusedPorts] = `4569,${service.port}`;
    try {
      for (const url of [`${service.url}/clear-store`, `http://localhost:${service.port}/clear-store`]) {
        const result = await deliver({
          url,
          mode: 'test',
          headers: signed,
          body: payload,
          resolve: async () => ['127.0.0.1'],
        });
        expect(result).toMatchObject({
          statusCode: null,
          error: `url is one of the local stack's own services (port ${service.port} of this machine)`,
        });
      }
      expect(service.seen).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env[envNames.webhookRefusedPorts];
      else process.env[envNames.webhookRefusedPorts] = saved;
    }
  });

  it('reports a 500 as a status, not an error', async () => {
    const target = await receiver(answer(500, 'boom'));
    const result = await deliver({ url: target.url, mode: 'test', headers: {}, body: payload });
    expect(result).toMatchObject({ statusCode: 500, error: null, responseBody: 'boom' });
  });

  it('does not follow redirects', async () => {
    const target = await receiver((request, response) => {
      if (request.url === '/') response.writeHead(307, { location: '/elsewhere' }).end();
      else response.writeHead(200).end();
    });
    const result = await deliver({ url: `${target.url}/`, mode: 'test', headers: {}, body: payload });
    expect(result).toMatchObject({ statusCode: 307, error: null });
    expect(target.seen.map((seen) => seen.path)).toEqual(['/']);
  });

  it('keeps the first 1,024 characters of an endless response and stops reading', async () => {
    const target = await receiver((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = 'é'.repeat(8 * 1024);
      // Writes for ever; only deliver's cut-off ends the exchange.
      const pump = () => {
        while (response.write(chunk)) {}
      };
      response.on('drain', pump);
      pump();
    });
    const result = await deliver({
      url: target.url,
      mode: 'test',
      headers: {},
      body: payload,
      timeoutMs: 5_000,
    });
    expect(result).toMatchObject({
      statusCode: 200,
      error: null,
      responseBody: 'é'.repeat(maxResponseChars),
    });
    expect(result.durationMs).toBeLessThan(5_000);
    await target.closed;
  });

  it('gives up on a receiver that never answers and closes the socket', async () => {
    const target = await receiver(() => {});
    const result = await deliver({
      url: target.url,
      mode: 'test',
      headers: {},
      body: payload,
      timeoutMs: 300,
    });
    expect(result).toMatchObject({ statusCode: null, error: 'timeout after 300 ms' });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(2_000);
    expect(target.seen).toHaveLength(1);
    // The receiver sees the connection end: nothing lingers after the deadline.
    await target.closed;
  });

  it('counts a resolver that never answers against the same deadline', async () => {
    const stalled: Resolver = () => new Promise<string[]>(() => {});
    const result = await deliver({
      url: 'http://slow-dns.example/',
      mode: 'test',
      headers: {},
      body: payload,
      timeoutMs: 300,
      resolve: stalled,
    });
    expect(result).toMatchObject({ statusCode: null, error: 'timeout after 300 ms' });
  });

  it('reports a refused connection as an error', async () => {
    const port = await closedPort();
    const result = await deliver({
      url: `http://127.0.0.1:${port}/`,
      mode: 'test',
      headers: {},
      body: payload,
    });
    expect(result).toMatchObject({ statusCode: null, error: 'connection refused', responseBody: '' });
  });

  it('reports a TLS failure as an error', async () => {
    // An http receiver answering a TLS handshake with plain HTTP.
    const target = await receiver(answer(200));
    const result = await deliver({
      url: `https://127.0.0.1:${target.port}/`,
      mode: 'test',
      headers: {},
      body: payload,
    });
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/^tls error/);
  });

  it('reports an unresolvable host as an error', async () => {
    const dns = countingResolver({});
    const result = await deliver({
      url: 'http://gone.example/',
      mode: 'test',
      headers: {},
      body: payload,
      resolve: dns.resolve,
    });
    expect(result).toMatchObject({ statusCode: null, error: 'url host could not be resolved' });
  });
});

describe('deliver in live mode', () => {
  it('refuses http without connecting', async () => {
    const target = await receiver(answer(200));
    const result = await deliver({ url: target.url, mode: 'live', headers: {}, body: payload });
    expect(result).toMatchObject({ statusCode: null, error: 'url must use https in live mode' });
    expect(target.seen).toHaveLength(0);
  });

  it.each(['127.0.0.1', '10.0.0.5', '169.254.169.254', '::1', '::ffff:127.0.0.1', 'fd00:ec2::254'])(
    'refuses a name resolving to %s without connecting',
    async (address) => {
      const dns = countingResolver({ 'evil.example': [address] });
      const result = await deliver({
        url: 'https://evil.example/hook',
        mode: 'live',
        headers: signed,
        body: payload,
        resolve: dns.resolve,
      });
      expect(result.statusCode).toBeNull();
      expect(result.error).toMatch(
        new RegExp(`^url resolves to an? [a-z -]+ address \\(${address.replaceAll('.', '\\.')}\\)$`),
      );
    },
  );

  it('refuses a loopback name even when a receiver is listening there', async () => {
    const target = await receiver(answer(200));
    const dns = countingResolver({ 'evil.example': ['127.0.0.1'] });
    const result = await deliver({
      url: `https://evil.example:${target.port}/`,
      mode: 'live',
      headers: {},
      body: payload,
      resolve: dns.resolve,
    });
    expect(result).toMatchObject({
      statusCode: null,
      error: 'url resolves to a loopback address (127.0.0.1)',
    });
    expect(target.seen).toHaveLength(0);
  });
});
