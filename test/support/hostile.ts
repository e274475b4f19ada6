/**
 * Requests to the test stack that lie about where they were sent: a `Host`, `X-Forwarded-Proto`
 * and `X-Forwarded-Host` of the caller's choosing. Over node:http, because fetch replaces the Host
 * header with the URL's own.
 */
import { request } from 'node:http';
import { apiUrl } from './stack.ts';

/** Headers a client may send to steer URLs built from the request. */
export const hostileHeaders = {
  Host: 'evil.example',
  'X-Forwarded-Proto': 'javascript:alert(1)//',
  'X-Forwarded-Host': 'evil.example',
} as const;

export interface HostileAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary paths of the answered JSON
  json: Record<string, any>;
}

/**
 * `method path` on the test stack with `hostileHeaders` (and `headers`); `body` is sent as JSON,
 * `form` as application/x-www-form-urlencoded.
 */
export function hostileRequest(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; form?: Record<string, string> } = {},
): Promise<HostileAnswer> {
  const target = new URL(path, apiUrl);
  const headers: Record<string, string> = { ...hostileHeaders, ...options.headers };
  let payload: string | undefined;
  if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['Content-Type'] = 'application/json';
  } else if (options.form) {
    payload = new URLSearchParams(options.form).toString();
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  }
  if (payload !== undefined) headers['Content-Length'] = String(Buffer.byteLength(payload));
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: target.hostname,
        port: target.port,
        method,
        path: `${target.pathname}${target.search}`,
        headers,
        // The Host header above is the one that goes out; the socket still connects to the stack.
        setHost: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: Record<string, unknown> = {};
          try {
            json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
          } catch {
            json = {};
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json });
        });
      },
    );
    sent.on('error', reject);
    sent.end(payload);
  });
}
