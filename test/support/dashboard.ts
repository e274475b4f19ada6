/**
 * A merchant's browser for the dashboard over plain HTTP: a cookie jar (what Set-Cookie answered,
 * sent back as a browser does for the dashboard's path), redirects not followed, forms posted with
 * the CSRF token of the page they are on.
 */
import { request as httpRequest } from 'node:http';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { apiUrl } from './stack.ts';

export interface DashboardAnswer {
  status: number;
  headers: Headers;
  html: string;
  location: string | null;
  /** Every Set-Cookie of the answer, whole. */
  cookies: string[];
}

export const dashboardUrl = (path = '') => `${apiUrl}/dashboard/${path}`;

/** In Chromium, on the sign-in form: signs in with `key` and waits for the dashboard's first page. */
export async function signInOnPage(page: Page, key: string): Promise<void> {
  await page.getByLabel('Secret API key').fill(key);
  await Promise.all([
    page.waitForURL(dashboardUrl()),
    page.getByRole('button', { name: 'Sign in', exact: true }).click(),
  ]);
}

/** The hidden CSRF token of the first form of a page. */
export function formToken(html: string): string {
  const match = /<input type="hidden" name="csrf_token" value="([^"]*)">/.exec(html);
  expect(match, html.slice(0, 2000)).not.toBeNull();
  return match?.[1] as string;
}

/** A hidden field of a page's form. */
export function hiddenField(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html);
  expect(match, html.slice(0, 2000)).not.toBeNull();
  return match?.[1] as string;
}

/**
 * `fetch`, but over a connection from the loopback address `from` (any of 127.0.0.0/8 on this
 * machine): the local gateway then sees that address as the client's, as API Gateway sees the
 * connection's source. Redirects are never followed.
 */
function fetchFrom(
  from: string,
  url: string,
  init: { method?: string; headers: Record<string, string>; body?: string },
) {
  return new Promise<Response>((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: init.method ?? 'GET', headers: init.headers, localAddress: from },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers))
            for (const one of [value ?? []].flat()) headers.append(name, one);
          resolve(new Response(Buffer.concat(chunks), { status: response.statusCode ?? 0, headers }));
        });
      },
    );
    request.on('error', reject);
    request.end(init.body);
  });
}

export class DashboardClient {
  readonly jar = new Map<string, string>();
  readonly headers: Record<string, string>;
  /** The loopback address its connections come from; the system's choice (127.0.0.1) when unset. */
  readonly from: string | undefined;
  constructor(headers: Record<string, string> = {}, options: { from?: string } = {}) {
    this.headers = headers;
    this.from = options.from;
  }

  private send(url: string, init: { method?: string; headers: Record<string, string>; body?: string }) {
    return this.from ? fetchFrom(this.from, url, init) : fetch(url, { ...init, redirect: 'manual' });
  }

  private async answer(response: Response): Promise<DashboardAnswer> {
    const cookies = response.headers.getSetCookie();
    for (const cookie of cookies) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (/Max-Age=0\b/i.test(cookie) || value === '') this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return {
      status: response.status,
      headers: response.headers,
      html: await response.text(),
      location: response.headers.get('location'),
      cookies,
    };
  }

  private cookieHeader(): Record<string, string> {
    const value = [...this.jar].map(([name, v]) => `${name}=${v}`).join('; ');
    return value ? { Cookie: value } : {};
  }

  async get(path: string): Promise<DashboardAnswer> {
    return this.answer(
      await this.send(path.startsWith('http') ? path : dashboardUrl(path), {
        headers: { Accept: 'text/html', ...this.headers, ...this.cookieHeader() },
      }),
    );
  }

  /** Posts a form; URLSearchParams for a field given more than once (checkboxes). */
  async post(path: string, fields: Record<string, string> | URLSearchParams): Promise<DashboardAnswer> {
    return this.answer(
      await this.send(path.startsWith('http') ? path : dashboardUrl(path), {
        method: 'POST',
        body: new URLSearchParams(fields).toString(),
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'text/html',
          ...this.headers,
          ...this.cookieHeader(),
        },
      }),
    );
  }

  /** Opens the sign-in form and signs in with `key`: the sign-in's answer. */
  async signIn(key: string): Promise<DashboardAnswer> {
    const form = await this.get('sign-in');
    expect(form.status, form.html).toBe(200);
    return this.post('sign-in', { csrf_token: formToken(form.html), api_key: key });
  }

  /** Signs in with `key`, failing the test unless it lands on the dashboard. */
  async signedIn(key: string): Promise<this> {
    const answer = await this.signIn(key);
    expect(answer.status, answer.html).toBe(303);
    expect(answer.location).toBe(dashboardUrl());
    return this;
  }
}
