/**
 * The authorizer's decision: which account a credential belongs to, or the exact 401 body (one per
 * failure) that the gateway answers with.
 */

import { readAuthorization } from '../accounts/credentials.ts';
import { findApiKey } from '../accounts/repository.ts';
import type { RequestAccount } from '../core/account.ts';
import type { Secret } from '../core/secrets.ts';
import type { Deps } from '../db/deps.ts';
import { verifyAccessToken } from './tokens.ts';

export type Authentication = { ok: true; account: RequestAccount } | { ok: false; body: unknown };

export const notProvided = { detail: 'Authentication credentials were not provided.' };
export const invalidFormat = { detail: 'Invalid key format.' };
export const invalidKey = { detail: 'Invalid API key.' };

function tokenNotValid(message: string) {
  return {
    detail: 'Given token not valid for any token type',
    code: 'token_not_valid',
    messages: [{ token_class: 'AccessToken', token_type: 'access', message }],
  };
}

/**
 * Decides who is calling from the Authorization header. One GetItem for a key; none for a token,
 * whose secret is read (from the function's cache) only when a token is presented.
 */
export async function authenticate(
  deps: Deps,
  header: string | undefined,
  tokenSecret: Secret,
): Promise<Authentication> {
  const presented = readAuthorization(header);
  switch (presented.kind) {
    case 'missing':
      return { ok: false, body: notProvided };
    case 'malformed':
      return { ok: false, body: invalidFormat };
    case 'token': {
      const { verify } = await tokenSecret.use();
      const check = await verifyAccessToken(presented.token, verify, deps.clock());
      if (!check.ok)
        return {
          ok: false,
          body: tokenNotValid(check.reason === 'expired' ? 'Token is expired' : 'Token is invalid'),
        };
      return { ok: true, account: { developerId: check.developerId, credential: 'token', keyMode: null } };
    }
    case 'key': {
      const found = await findApiKey(deps, presented.key);
      if (!found) return { ok: false, body: invalidKey };
      return {
        ok: true,
        account: { developerId: found.developerId, credential: 'key', keyMode: found.mode },
      };
    }
  }
}
