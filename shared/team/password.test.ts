import { describe, expect, it } from 'vitest';
import { hashPassword, passwordMatches, passwordProblem } from './password.ts';

describe('dashboard passwords', () => {
  it('are stored as Argon2id with OWASP’s minimum cost and a salt of their own, and match only themselves', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await hashPassword('correct horse battery')).not.toBe(hash);
    expect(await passwordMatches('correct horse battery', hash)).toBe(true);
    expect(await passwordMatches('correct horse batterY', hash)).toBe(false);
  });

  it('an empty password, a huge one, or no hash never matches (and never throws)', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(await passwordMatches('', hash)).toBe(false);
    expect(await passwordMatches('x'.repeat(100_000), hash)).toBe(false);
    expect(await passwordMatches('correct horse battery', undefined)).toBe(false);
    expect(await passwordMatches('', undefined)).toBe(false);
  });

  it('need 12 to 256 characters, counted as characters, not bytes', () => {
    expect(passwordProblem('a'.repeat(11))).toBe('too_short');
    expect(passwordProblem('ñ'.repeat(12))).toBeUndefined();
    expect(passwordProblem('🙂'.repeat(12))).toBeUndefined();
    expect(passwordProblem('a'.repeat(256))).toBeUndefined();
    expect(passwordProblem('a'.repeat(257))).toBe('too_long');
  });
});
