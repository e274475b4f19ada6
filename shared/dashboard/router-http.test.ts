/**
 * The dashboard's router, without a stack: every row's page is a page its module exports (a typo
 * would otherwise be found by the first merchant to open it), and the path a request names is the
 * prefix and what API Gateway's `{proxy+}` took.
 */
import { describe, expect, it } from 'vitest';
import { dashboardFunction, dashboardRows } from './area.ts';
import { pageLoader, routedPath } from './router-http.ts';

// The event types only fill the webhook pages' environment: any will do here.
const rows = dashboardRows(['charge.succeeded']);

describe("the dashboard's rows", () => {
  it('each name a page their module exports, and all lie under the prefix', async () => {
    expect(rows.length).toBeGreaterThan(30);
    const pageOf = pageLoader();
    for (const row of rows) {
      expect(row.handler, row.path).toBe(dashboardFunction.handler);
      expect(`${row.path}/`.startsWith(`${dashboardFunction.prefix}/`), row.path).toBe(true);
      expect(typeof (await pageOf(row.page)), `${row.method} ${row.path} ${row.page}`).toBe('function');
    }
  });

  it('fail loudly on a page no module exports, or a name that is no page reference', async () => {
    const pageOf = pageLoader();
    await expect(pageOf('charges#noSuchPage')).rejects.toThrow(
      'charges#noSuchPage: shared/dashboard/charges-http.ts exports no such page',
    );
    await expect(pageOf('../http#signedIn')).rejects.toThrow('a page is named {module}#{name}');
  });
});

describe('the path a request names', () => {
  it('is the prefix, then what {proxy+} took', () => {
    expect(routedPath('/dashboard', { pathParameters: null })).toBe('/dashboard/');
    expect(routedPath('/dashboard', { pathParameters: { proxy: 'charges/ch_1' } })).toBe(
      '/dashboard/charges/ch_1',
    );
  });
});
