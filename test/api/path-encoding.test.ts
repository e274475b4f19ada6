/**
 * A path parameter that is not well-formed percent-encoded UTF-8 (`%ED%A0%80` encodes a lone
 * surrogate, `%FF` no character at all) names nothing: every route with a path parameter answers
 * 400 or 404 in its own shapes (the HTML pages of the checkout, the customer portal, receipts and the
 * dashboard, signed in, JSON elsewhere),
 * never 500. The routes come from the route table, so a new one is checked the day it is added.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../shared/api/routes.ts';
import { DashboardClient, formToken } from '../support/dashboard.ts';
import { apiUrl, suiteMerchant } from '../support/stack.ts';

/** Escapes of bytes that decode to no character, or to a lone surrogate, or that are cut short. */
const malformed = ['%ED%A0%80', '%FF', '%E2%82', '%C0%AF', '%', '%zz'];

const withParameters = routes.filter((route) => /\{[^}]+\}/.test(route.path));

/** A route's path with every parameter replaced by `segment`. */
const pathOf = (pattern: string, segment: string) => pattern.replace(/\{[^}]+\}/g, segment);

describe('malformed percent-encoding in a path parameter', () => {
  const merchant = suiteMerchant('path-encoding');
  /** The merchant signed in to the dashboard: its pages' cookie, and the CSRF token its forms post. */
  const dashboard = { cookie: '', csrf: '' };
  beforeAll(async () => {
    const browser = await new DashboardClient().signedIn(merchant.account.testKey);
    dashboard.cookie = [...browser.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    dashboard.csrf = formToken((await browser.get('')).html);
  });

  it('the route table has path parameters on the API, on the checkout and receipt pages and on media', () => {
    const paths = withParameters.map((route) => route.path);
    expect(paths).toContain('/v1/plans/{id}/');
    expect(paths).toContain('/checkout/{token}');
    expect(paths).toContain('/receipts/{token}');
    expect(paths).toContain('/media/{name}');
    expect(withParameters.length).toBeGreaterThanOrEqual(30);
  });

  for (const route of withParameters) {
    it(`${route.method} ${route.path} answers 400 or 404 in its shapes`, async () => {
      const signedIn = route.path.startsWith('/dashboard/');
      const page = route.path.startsWith('/checkout/') || route.path.startsWith('/portal/') || signedIn;
      // The hosted pages answer HTML: the checkout's, the customer portal's and the receipt's "not found" pages.
      const notFound = route.path.startsWith('/checkout/')
        ? 'Checkout not found'
        : route.path.startsWith('/portal/')
          ? 'Page not found'
          : route.path.startsWith('/receipts/')
            ? 'Receipt not found'
            : signedIn
              ? // Every section's "not found" page of the dashboard carries the same title.
                '<title>Not found · cobro dashboard</title>'
              : '';
      for (const segment of malformed) {
        const headers: Record<string, string> = route.auth ? { Authorization: merchant.auth } : {};
        if (signedIn) headers.Cookie = dashboard.cookie;
        let body: string | undefined;
        if (route.method !== 'GET' && route.method !== 'DELETE') {
          headers['Content-Type'] = page ? 'application/x-www-form-urlencoded' : 'application/json';
          body = page ? `csrf_token=${signedIn ? dashboard.csrf : 'x'}&outcome=pass` : '{}';
        }
        const response = await fetch(`${apiUrl}${pathOf(route.path, segment)}`, {
          method: route.method,
          headers,
          ...(body ? { body } : {}),
        });
        const text = await response.text();
        const where = `${route.method} ${pathOf(route.path, segment)}: ${response.status} ${text.slice(0, 300)}`;
        expect([400, 404], where).toContain(response.status);
        if (notFound) {
          expect(response.headers.get('content-type'), where).toMatch(/^text\/html/);
          expect(response.status, where).toBe(404);
          expect(text, where).toContain(notFound);
        } else {
          const json = JSON.parse(text) as { code?: unknown; detail?: unknown };
          // The message envelope carries its status as `code`; the 404s of refunds and charges `detail`.
          expect(json.code === response.status || typeof json.detail === 'string', where).toBe(true);
        }
      }
    });
  }

  it('a malformed segment on a path no route takes is the 404 of unknown routes', async () => {
    const response = await fetch(`${apiUrl}/v1/plans/%ED%A0%80/nothing/`, {
      headers: { Authorization: merchant.auth },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 404, type: 'error' });
    // A known path with a method it does not take: 405 with Allow, the parameter read all the same.
    const wrongMethod = await fetch(`${apiUrl}/v1/events/%ED%A0%80/`, { method: 'DELETE' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
  });
});
