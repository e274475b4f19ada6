import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, formActionSource, payPage } from './pages.ts';

/** Directive names of a policy, in order. */
const directiveNames = (csp: string) => csp.split(';').map((part) => part.trim().split(/\s+/)[0]);
const formActionOf = (csp: string) =>
  csp
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith('form-action '));

const expectedNames = ['default-src', 'style-src', 'img-src', 'form-action', 'frame-ancestors', 'base-uri'];

describe('the checkout CSP', () => {
  it("allows the page itself and each target's origin as form-action", () => {
    const csp = contentSecurityPolicy('bm9uY2U=', ['https://shop.example.com:8443/return?order=1#x']);
    expect(directiveNames(csp)).toEqual(expectedNames);
    expect(formActionOf(csp)).toBe("form-action 'self' https://shop.example.com:8443");
    expect(csp).toContain("style-src 'nonce-bm9uY2U='");
    expect(formActionOf(contentSecurityPolicy('n', []))).toBe("form-action 'self'");
  });

  it.each([
    ["a ';' in the host", "https://evil.com;script-src/'unsafe-inline'"],
    ['a quote in the host', "https://evil.com'/x"],
    ['a comma in the host', 'https://evil.com,x/'],
    ['a * in the host', 'https://*.evil.com/'],
    ['another scheme', 'javascript:alert(1)//'],
    ['a data URI', 'data:text/html,<form>'],
    ['text that is no URL', 'not a url; script-src *'],
  ])('names no source for a target with %s, so the policy keeps its directives', (_, target) => {
    expect(formActionSource(target)).toBeUndefined();
    const csp = contentSecurityPolicy('n', [target]);
    expect(directiveNames(csp)).toEqual(expectedNames);
    expect(formActionOf(csp)).toBe("form-action 'self'");
  });

  it('drops user info and path: only scheme, host and port reach the policy', () => {
    expect(formActionSource('https://user:pw@shop.example.com/a;b?c=d')).toBe('https://shop.example.com');
    expect(formActionSource('http://127.0.0.1:8080/back')).toBe('http://127.0.0.1:8080');
    expect(formActionSource('https://münchen.example/')).toBe('https://xn--mnchen-3ya.example');
  });

  it("is the policy a pay page sends, with the return URL's origin", () => {
    const page = payPage(
      { merchantName: 'M', description: 'd', items: [], amount: 1000, currency: 'USD', test: true },
      {
        action: 'https://pay.example.com/checkout/t',
        csrf: 'c',
        askEmail: false,
        returnUrl: 'https://evil.com;x/',
      },
    );
    const csp = page.headers['Content-Security-Policy'] ?? '';
    expect(directiveNames(csp)).toEqual(expectedNames);
    expect(formActionOf(csp)).toBe("form-action 'self'");
    // The icon is inline, so the browser asks for no /favicon.ico; img-src allows data:.
    expect(page.html).toMatch(/<link rel="icon" href="data:image\/svg\+xml,[^"]+">/);
    expect(csp).toContain("img-src 'self' data:");
  });
});
