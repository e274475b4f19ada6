import { describe, expect, it } from 'vitest';
import { html } from './html.ts';
import { contentSecurityPolicy, formActionSource, hostedPage, hostedPageHeaders } from './page.ts';

/** Directive names of a policy, in order. */
const directiveNames = (csp: string) => csp.split(';').map((part) => part.trim().split(/\s+/)[0]);
const formActionOf = (csp: string) =>
  csp
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith('form-action '));

const expectedNames = ['default-src', 'style-src', 'img-src', 'form-action', 'frame-ancestors', 'base-uri'];

describe("the hosted pages' CSP", () => {
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
});

describe('the hosted page shell', () => {
  const shell = {
    status: 201,
    title: `Blue <Mug> & "Co"`,
    body: html`<p>${'<b>'}</p>`,
    lang: 'es' as const,
    styles: 'main>p{color:red}',
    policy: (nonce: string) => `style-src 'nonce-${nonce}'`,
  };

  it('writes the document around the body: the title escaped, the style sheet under the nonce of the policy', () => {
    const page = hostedPage({ ...shell, head: html`\n<meta name="robots" content="noindex">` });
    const nonce = /style-src 'nonce-([^']+)'/.exec(page.headers['Content-Security-Policy'] ?? '')?.[1] ?? '';
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(page.status).toBe(201);
    expect(page.html).toBe(`<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>Blue &lt;Mug&gt; &amp; &quot;Co&quot;</title>
<style nonce="${nonce}">main>p{color:red}</style>
</head>
<body>
<main>
<p>&lt;b&gt;</p>
</main>
</body>
</html>
`);
  });

  it('answers with its headers, the policy first, what the page adds last; a new nonce each time', () => {
    const page = hostedPage({ ...shell, headers: { 'X-Robots-Tag': 'noindex', 'Cache-Control': 'private' } });
    expect(Object.keys(page.headers)).toEqual([
      'Content-Security-Policy',
      'X-Frame-Options',
      'X-Content-Type-Options',
      'Referrer-Policy',
      'Cache-Control',
      'X-Robots-Tag',
    ]);
    expect(page.headers).toMatchObject({ ...hostedPageHeaders, 'Cache-Control': 'private' });
    expect(hostedPage(shell).headers['Content-Security-Policy']).not.toBe(
      hostedPage(shell).headers['Content-Security-Policy'],
    );
  });

  it('refuses a style sheet that could end its element', () => {
    expect(() => hostedPage({ ...shell, styles: 'p{}</STYLE><script>x()</script>' })).toThrow(/<\/style/);
  });
});
