import { describe, expect, it } from 'vitest';
import { httpUrlOf, isWebUrl, maxUrlLength, parseWebUrl } from './web-url.ts';

const problemOf = (value: string) => {
  const parsed = parseWebUrl(value);
  return 'problem' in parsed ? parsed.problem : undefined;
};

describe('parseWebUrl', () => {
  it.each([
    ['https://images.example.com/plans/gold.png?v=2', 'https://images.example.com/plans/gold.png?v=2'],
    ['  http://127.0.0.1:8080/x  ', 'http://127.0.0.1:8080/x'],
    ['https://EXAMPLE.com', 'https://example.com/'],
    ['https://münchen.example/café', 'https://xn--mnchen-3ya.example/caf%C3%A9'],
    ['https://[::1]:8443/hook', 'https://[::1]:8443/hook'],
  ])('takes %s as the parser writes it', (value, href) => {
    const parsed = parseWebUrl(value);
    expect('url' in parsed && parsed.url.href).toBe(href);
  });

  it.each([
    'https://img.example/"onerror="alert(1)',
    "https://img.example/it's.png",
    'https://img.example/a b.png',
    'https://img.example/a\tb.png',
    'https://img.example/a\u0000b.png',
    'https://img.example/a\u0085b.png',
    'https://img.example/<script>',
    'https://img.example/a\\b',
    'https://img.example/`x`',
    'https://img.example/\ud800',
    'not a url',
    '/relative/path',
    '',
  ])('refuses %j as malformed', (value) => {
    expect(problemOf(value)).toBe('malformed');
  });

  it.each([
    'javascript:alert(1)',
    'data:image/png;base64,AAAA',
    'ftp://files.example/',
    'file:///etc/passwd',
  ])('refuses %s: neither http nor https', (value) => {
    expect(problemOf(value)).toBe('scheme');
  });

  it('refuses user info and hosts that are no DNS name or IP literal', () => {
    expect(problemOf('https://user:pw@evil.example/')).toBe('credentials');
    expect(problemOf('https://@evil.example/')).toBe('credentials');
    expect(problemOf('https://evil.com;script-src/')).toBe('host');
    expect(problemOf('https://*.example.com/')).toBe('host');
  });

  it('refuses a URL longer than 2048 characters, as sent or as the parser writes it', () => {
    const base = 'https://img.example/';
    expect(isWebUrl(`${base}${'a'.repeat(maxUrlLength - base.length)}`)).toBe(true);
    expect(problemOf(`${base}${'a'.repeat(maxUrlLength)}`)).toBe('too_long');
    // Each é becomes %C3%A9: short as sent, too long as kept.
    expect(problemOf(`${base}${'é'.repeat(1000)}`)).toBe('too_long');
  });
});

describe('httpUrlOf', () => {
  /** What the receipt's and the mail layout's own copies answered before this one check replaced them. */
  const asTheCopiesDid = (url: string | null | undefined): string | undefined => {
    if (!url) return undefined;
    try {
      const parsed = new URL(url);
      return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
    } catch {
      return undefined;
    }
  };

  it.each([
    'https://acme.example/a.png',
    'http://acme.example/a.png',
    ' https://ACME.example/logo.png ',
    'https://user:pw@acme.example/',
    'javascript:alert(1)',
    'data:image/png;base64,AAAA',
    'ftp://acme.example/a.png',
    'not a url',
    '/relative/logo.png',
    '',
    null,
    undefined,
  ])('reads %j as the URL parser does, http and https only', (value) => {
    expect(httpUrlOf(value)?.href).toBe(asTheCopiesDid(value));
  });

  it('takes what parseWebUrl would refuse to a client: it reads, it does not judge', () => {
    expect(problemOf('https://user:pw@acme.example/')).toBe('credentials');
    expect(httpUrlOf('https://user:pw@acme.example/')?.username).toBe('user');
  });
});
