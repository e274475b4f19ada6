import { describe, expect, it } from 'vitest';
import { accountFromAuthorizer, type RequestAccount, resolveMode, toAuthorizerContext } from './account.ts';
import { Invalid, NotAllowed } from './errors.ts';

const testKey: RequestAccount = { developerId: 3, credential: 'key', keyMode: 'test' };
const liveKey: RequestAccount = { developerId: 3, credential: 'key', keyMode: 'live' };
const token: RequestAccount = { developerId: 3, credential: 'token', keyMode: null };

describe('resolveMode', () => {
  it.each([
    [testKey, undefined, 'test'],
    [testKey, 'true', 'test'],
    [liveKey, undefined, 'live'],
    [liveKey, 'false', 'live'],
    [liveKey, '0', 'live'],
    [token, undefined, 'live'],
    [token, 'true', 'test'],
    [token, 'FALSE', 'live'],
  ] as const)('%o with test=%s acts in %s', (account, test, mode) => {
    expect(resolveMode(account, test)).toBe(mode);
  });

  it('a contradicting test parameter is 403; a non-boolean one is 400', () => {
    expect(() => resolveMode(testKey, 'false')).toThrow(NotAllowed);
    expect(() => resolveMode(liveKey, 'true')).toThrow(NotAllowed);
    expect(() => resolveMode(token, 'yes')).toThrow(Invalid);
  });
});

describe('authorizer context', () => {
  it('round-trips through the string-only context API Gateway passes', () => {
    for (const account of [testKey, liveKey, token]) {
      expect(accountFromAuthorizer(toAuthorizerContext(account))).toEqual(account);
    }
  });

  it('refuses to run a handler without it', () => {
    expect(() => accountFromAuthorizer(null)).toThrow(/authorizer context/);
    expect(() => accountFromAuthorizer({ developer_id: 'x', credential: 'key' })).toThrow();
  });
});
