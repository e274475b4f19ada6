/**
 * A merchant's browser for the dashboard over plain HTTP: a cookie jar (what Set-Cookie answered,
 * sent back as a browser does for the dashboard's path), redirects not followed, forms posted with
 * the CSRF token of the page they are on.
 */
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

export class DashboardClient {
  readonly jar = new Map<string, string>();
  readonly headers: Record<string, string>;
  constructor(headers: Record<string, string> = {}) {
    this.headers = headers;
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
      await fetch(path.startsWith('http') ? path : dashboardUrl(path), {
        redirect: 'manual',
        headers: { Accept: 'text/html', ...this.headers, ...this.cookieHeader() },
      }),
    );
  }

  /** Posts a form; URLSearchParams for a field given more than once (checkboxes). */
  async post(path: string, fields: Record<string, string> | URLSearchParams): Promise<DashboardAnswer> {
    return this.answer(
      await fetch(path.startsWith('http') ? path : dashboardUrl(path), {
        method: 'POST',
        redirect: 'manual',
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
