/**
 * A merchant's browser for the dashboard over plain HTTP: a cookie jar (what Set-Cookie answered,
 * sent back as a browser does for the dashboard's path), redirects not followed, forms posted with
 * the CSRF token of the page they are on.
 */
import { request as httpRequest } from 'node:http';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Role } from '../../shared/team/roles.ts';
import { apiUrl } from './stack.ts';
import { newUser, ownerOfKey, type TestUser } from './team.ts';
import { totpCode } from './totp.ts';

export interface DashboardAnswer {
  status: number;
  headers: Headers;
  html: string;
  location: string | null;
  /** Every Set-Cookie of the answer, whole. */
  cookies: string[];
}

export const dashboardUrl = (path = '') => `${apiUrl}/dashboard/${path}`;

/**
 * In Chromium, on the sign-in form: signs in as a new user of the key's account (an admin unless
 * `role` says otherwise), then switches to live for a live key, and waits for the dashboard's first
 * page. Answers the user.
 */
export async function signInOnPage(page: Page, key: string, role: Role = 'admin'): Promise<TestUser> {
  const owner = await ownerOfKey(key);
  const user = await newUser(owner.developerId, { role, twoFactor: owner.mode === 'live' });
  await signInAsOnPage(page, user);
  if (owner.mode === 'live')
    await Promise.all([
      page.waitForURL(/\/dashboard\/$/),
      page.getByRole('button', { name: 'Switch to live', exact: true }).click(),
    ]);
  return user;
}

/** In Chromium, on the sign-in form: signs in as `user` (with a code of the test's own making when needed). */
export async function signInAsOnPage(page: Page, user: TestUser): Promise<void> {
  await page.getByLabel('E-mail address').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  if (user.totpSecret) {
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByLabel('Code').fill(totpCode(user.totpSecret));
    await Promise.all([
      page.waitForURL(dashboardUrl()),
      page.getByRole('button', { name: 'Verify' }).click(),
    ]);
    return;
  }
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

  /** Opens the sign-in form and posts an e-mail and password: the sign-in's answer. */
  async signIn(email: string, password: string): Promise<DashboardAnswer> {
    const form = await this.get('sign-in');
    expect(form.status, form.html).toBe(200);
    return this.post('sign-in', { csrf_token: formToken(form.html), email, password });
  }

  /**
   * Signs in as `user`, the code step included for one with a second factor (a code of the test's
   * own making, `stepsAhead` steps on: each step's code works once per user), failing the test
   * unless it lands on the dashboard.
   */
  async signedInAs(user: TestUser, stepsAhead = 0): Promise<this> {
    this.user = user;
    let answer = await this.signIn(user.email, user.password);
    if (user.totpSecret) {
      expect(answer.status, answer.html).toBe(200);
      answer = await this.post('sign-in/code', {
        csrf_token: formToken(answer.html),
        challenge: hiddenField(answer.html, 'challenge'),
        code: totpCode(user.totpSecret, new Date(), stepsAhead),
      });
    }
    expect(answer.status, answer.html).toBe(303);
    expect(answer.location).toBe(dashboardUrl());
    return this;
  }

  /** Switches the session's mode with the bar's switch (from the dashboard's first page). */
  async switchMode(mode: 'test' | 'live'): Promise<DashboardAnswer> {
    const page = await this.get('');
    expect(page.status, page.html).toBe(200);
    return this.post('mode', { csrf_token: formToken(page.html), mode, back: '' });
  }

  /**
   * Signs in as a new user of the key's account (an admin unless `role` says otherwise) and, for a
   * live key, switches to live mode (the user then has a second factor), failing the test unless
   * it lands on the dashboard in the key's mode. `user` is who signed in.
   */
  async signedIn(key: string, role: Role = 'admin'): Promise<this> {
    const owner = await ownerOfKey(key);
    this.user = await newUser(owner.developerId, { role, twoFactor: owner.mode === 'live' });
    await this.signedInAs(this.user);
    if (owner.mode === 'live') {
      const switched = await this.switchMode('live');
      expect(switched.status, switched.html).toBe(303);
    }
    return this;
  }

  /** The user the last signedIn made, or signedInAs signed in as. */
  user: TestUser | undefined;
}
