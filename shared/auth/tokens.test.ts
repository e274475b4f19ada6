import { describe, expect, it } from 'vitest';
import { issueAccessToken, tokenLifetimeSeconds, verifyAccessToken } from './tokens.ts';

const secret = 'a-test-secret-that-is-long-enough-for-hs256!!';

describe('access tokens', () => {
  it('verify for their account until they expire, and not after', async () => {
    const issuedAt = new Date('2026-01-01T00:00:00Z');
    const { access_token: token, expires_in } = await issueAccessToken(42, secret, issuedAt);
    expect(expires_in).toBe(tokenLifetimeSeconds);
    const justBefore = new Date(issuedAt.getTime() + (tokenLifetimeSeconds - 1) * 1000);
    expect(await verifyAccessToken(token, secret, justBefore)).toEqual({ ok: true, developerId: 42 });
    const after = new Date(issuedAt.getTime() + (tokenLifetimeSeconds + 1) * 1000);
    expect(await verifyAccessToken(token, secret, after)).toEqual({ ok: false, reason: 'expired' });
  });

  it('reject another secret, a changed payload and the none algorithm', async () => {
    const now = new Date();
    const { access_token: token } = await issueAccessToken(7, secret, now);
    expect(await verifyAccessToken(token, `${secret}x`, now)).toEqual({ ok: false, reason: 'invalid' });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const changed = Buffer.from(JSON.stringify({ ...claims, sub: '8' })).toString('base64url');
    expect(await verifyAccessToken(`${header}.${changed}.${signature}`, secret, now)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(await verifyAccessToken(`${none}.${payload}.`, secret, now)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(await verifyAccessToken('garbage', secret, now)).toEqual({ ok: false, reason: 'invalid' });
  });
});
