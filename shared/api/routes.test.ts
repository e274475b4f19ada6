import { describe, expect, it } from 'vitest';
import { allowedMethodsIn, matchPath, routeTableOf } from '../http/route.ts';
import { findRoute, routes } from './routes.ts';

describe('routes', () => {
  it('match with or without the trailing slash and capture parameters', () => {
    expect(matchPath('/v1/plans/{id}/', '/v1/plans/abc')).toEqual({ id: 'abc' });
    expect(matchPath('/v1/plans/{id}/', '/v1/plans/a%20b/')).toEqual({ id: 'a b' });
    expect(matchPath('/v1/plans/{id}/', '/v1/plans/')).toBeNull();
    expect(matchPath('/health', '/health/')).toEqual({});
  });

  it('find a route by method and list the methods of a path', () => {
    expect(findRoute('PATCH', '/v1/auth/api-keys')?.route.handler).toBe('functions/auth/rotate-api-key.ts');
    expect(findRoute('DELETE', '/v1/auth/api-keys/')).toBeUndefined();
    expect(allowedMethodsIn(routeTableOf(routes), '/v1/auth/api-keys/')).toEqual(['GET', 'PATCH']);
    expect(allowedMethodsIn(routeTableOf(routes), '/nowhere')).toEqual([]);
  });

  it('are unique by method and path, and every handler lives under functions/', () => {
    const seen = new Set(routes.map((route) => `${route.method} ${route.path.replace(/\/$/, '')}`));
    expect(seen.size).toBe(routes.length);
    for (const route of routes) expect(route.handler).toMatch(/^functions\/[a-z-]+\/[a-z-]+\.ts$/);
  });
});
