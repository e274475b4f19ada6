/**
 * One webhook delivery attempt: check the URL again, then POST to exactly the addresses that check
 * passed. Resolving once and pinning the connection defeats DNS rebinding (a name that answers a
 * public address to the check and a private one to the connection). Network trouble is a result,
 * never an exception, so the caller records it and schedules a retry.
 */
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIPv6, type LookupFunction } from 'node:net';
import type { Mode } from '../core/account.ts';
import { type CheckedUrl, checkWebhookUrl, type Resolver } from './address.ts';

export interface DeliveryRequest {
  url: string;
  mode: Mode;
  headers: Record<string, string>;
  body: string;
  /** Bounds the whole attempt: resolution, connection and response. @default 10_000 */
  timeoutMs?: number;
  /** @default the system resolver */
  resolve?: Resolver;
}

export interface DeliveryResult {
  /** The receiver's status, or null when no response arrived. */
  statusCode: number | null;
  durationMs: number;
  /** A short reason when the attempt failed short of a full response; null otherwise. */
  error: string | null;
  /** The start of the response body, at most `maxResponseChars` characters. */
  responseBody: string;
}

export const userAgent = 'cobro-webhooks/1';
/** Kept of the response body for the delivery log. */
export const maxResponseChars = 1024;
/** Read of the response body at most; a receiver cannot make us swallow an endless stream. */
export const maxResponseBytes = 64 * 1024;
// 1,024 UTF-16 units take at most 3 bytes each in UTF-8; only this many bytes need keeping.
const keptBytes = maxResponseChars * 3;

/** A `lookup` that answers only the checked addresses, whatever DNS would say now. */
function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const entries: LookupAddress[] = addresses.map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }));
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const wanted =
      family === 4 || family === 6 ? entries.filter((entry) => entry.family === family) : entries;
    const first = wanted[0];
    if (first === undefined) {
      const error: NodeJS.ErrnoException = new Error(`no checked address for ${hostname}`);
      error.code = 'ENOTFOUND';
      callback(error, []);
    } else if (options.all) {
      callback(null, wanted);
    } else {
      callback(null, first.address, first.family);
    }
  };
}

const networkReasons: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed',
};

/** A short, log-safe reason for a failed connection or exchange. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return 'request failed';
  // Happy eyeballs over several addresses fails with an AggregateError; the first cause says enough.
  const cause = error instanceof AggregateError && error.errors[0] instanceof Error ? error.errors[0] : error;
  const code = (cause as NodeJS.ErrnoException).code;
  if (code !== undefined && networkReasons[code]) return networkReasons[code];
  if (
    code !== undefined &&
    (code === 'EPROTO' || /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|HOSTNAME/.test(code))
  ) {
    return `tls error (${code}): ${cause.message}`.slice(0, 200);
  }
  return (code ? `${code}: ${cause.message}` : cause.message).slice(0, 200);
}

/** The caller's headers in lower case, then ours, which the caller cannot override. */
function requestHeaders(given: Record<string, string>, body: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) headers[name.toLowerCase()] = value;
  // Host comes from the URL so TLS and virtual hosting see the registered name.
  delete headers.host;
  headers['content-type'] = 'application/json';
  headers['user-agent'] = userAgent;
  headers['content-length'] = String(Buffer.byteLength(body));
  return headers;
}

/** The first `maxResponseChars` characters of what was read, never half a surrogate pair. */
function bodyText(chunks: Buffer[]): string {
  const text = new TextDecoder().decode(Buffer.concat(chunks)).slice(0, maxResponseChars);
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
}

/** POSTs one signed webhook to its endpoint; every failure comes back as a result, never thrown. */
export async function deliver(request: DeliveryRequest): Promise<DeliveryResult> {
  const timeoutMs = request.timeoutMs ?? 10_000;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeoutReason = `timeout after ${timeoutMs} ms`;

  const failed = (error: string): DeliveryResult => ({
    statusCode: null,
    durationMs: elapsed(),
    error,
    responseBody: '',
  });

  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    let checked: CheckedUrl | 'timeout';
    try {
      // Resolution counts against the deadline: a stalling DNS server must not hold a worker.
      checked = await Promise.race([checkWebhookUrl(request.url, request.mode, request.resolve), deadline]);
    } catch (error) {
      return failed(describeError(error));
    }
    if (checked === 'timeout') return failed(timeoutReason);
    return await exchange(checked, request, deadline, timeoutReason, elapsed);
  } finally {
    clearTimeout(timer);
  }
}

/** The HTTP exchange itself, pinned to the checked addresses and cut off when `deadline` settles. */
function exchange(
  { url, addresses }: CheckedUrl,
  request: DeliveryRequest,
  deadline: Promise<'timeout'>,
  timeoutReason: string,
  elapsed: () => number,
): Promise<DeliveryResult> {
  return new Promise((settle) => {
    let statusCode: number | null = null;
    const chunks: Buffer[] = [];
    let kept = 0;
    let read = 0;
    let done = false;
    const finish = (error: string | null) => {
      if (done) return;
      done = true;
      settle({ statusCode, durationMs: elapsed(), error, responseBody: bodyText(chunks) });
      // Whatever is left (an unread body, a half-open socket) is of no further use.
      outgoing.destroy();
    };

    const send = url.protocol === 'https:' ? https.request : http.request;
    const outgoing = send(url, {
      method: 'POST',
      headers: requestHeaders(request.headers, request.body),
      lookup: pinnedLookup(addresses),
      // No pooled socket: a kept-alive connection was opened for an earlier check (maybe a test-mode
      // one to a private address under the same host name) and must not carry this delivery.
      agent: false,
    });
    outgoing.on('error', (error) => finish(describeError(error)));
    outgoing.on('response', (response) => {
      statusCode = response.statusCode ?? null;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (kept < keptBytes) {
          const part = chunk.subarray(0, keptBytes - kept);
          chunks.push(part);
          kept += part.length;
        }
        if (read >= maxResponseBytes) finish(null);
      });
      response.on('end', () => finish(null));
      response.on('error', (error) => finish(describeError(error)));
      // The receiver closed before the body ended; the status still stands.
      response.on('close', () => finish(response.complete ? null : 'response aborted'));
    });
    void deadline.then(() => finish(timeoutReason));
    outgoing.end(request.body);
  });
}
