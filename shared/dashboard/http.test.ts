import { describe, expect, it } from 'vitest';
import { setCookie, tokenMatches } from './http.ts';
import { readCookieValue } from './session.ts';

describe('the session cookie', () => {
  it('is Secure when the configured public URL is https, and scoped to the dashboard under its path', () => {
    expect(setCookie('https://pay.example.com', 'c', 'v', 28_800)).toBe(
      'c=v; Path=/dashboard; Max-Age=28800; HttpOnly; SameSite=Strict; Secure',
    );
    expect(setCookie('https://abc.execute-api.eu-west-1.amazonaws.com/prod', 'c', 'v', 1)).toBe(
      'c=v; Path=/prod/dashboard; Max-Age=1; HttpOnly; SameSite=Strict; Secure',
    );
    expect(setCookie('http://127.0.0.1:3000', 'c', 'v', 1)).toBe(
      'c=v; Path=/dashboard; Max-Age=1; HttpOnly; SameSite=Strict',
    );
  });

  it('is read only in the shape cobro writes: an account id, a user id and a 43-character token', () => {
    const token = 'A'.repeat(43);
    const user = `usr_${'B'.repeat(24)}`;
    expect(readCookieValue(`12.${user}.${token}`)).toEqual({ developerId: 12, userId: user, token });
    for (const value of [
      undefined,
      '',
      token,
      `12.${token}`,
      `0.${user}.${token}`,
      `12.${user}.${token}x`,
      `12.usr_${'B'.repeat(23)}.${token}`,
      `12.${user}.${'A'.repeat(42)}-`,
      `1e3.${user}.${token}`,
    ])
      expect(readCookieValue(value)).toBeUndefined();
  });
});

describe('a CSRF token', () => {
  it('matches only itself, and nothing matches a missing one', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abc', 'abd')).toBe(false);
    expect(tokenMatches('abc', 'abcd')).toBe(false);
    expect(tokenMatches('abc', ['abc'])).toBe(false);
    expect(tokenMatches(undefined, '')).toBe(false);
    expect(tokenMatches('', '')).toBe(false);
  });
});
