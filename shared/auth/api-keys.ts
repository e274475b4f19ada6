/**
 * The account's API keys as GET and PATCH /v1/auth/api-keys/ handle them, in functions the API's
 * handlers and the dashboard both call, so the dashboard shows and rotates keys exactly as the API
 * does and may do nothing it forbids.
 */
import { accountMessages } from '../accounts/messages.ts';
import { getAccount, rotateApiKey } from '../accounts/repository.ts';
import type { Mode } from '../core/account.ts';
import { NotAllowed, NotFound } from '../core/errors.ts';
import type { Deps } from '../db/deps.ts';
import { authMessages } from './messages.ts';
import type { ApiKeysView } from './schemas.ts';

/** Both keys of the account, masked (only their hashes are stored: a full key is never read back); 404 without keys. */
export async function apiKeysOf(deps: Deps, developerId: number): Promise<ApiKeysView> {
  const record = await getAccount(deps, developerId);
  const { test, live } = record?.keys ?? {};
  if (!test || !live) throw new NotFound(accountMessages.api_keys_missing);
  return {
    test: { key: test.masked, created_at: test.created_at },
    live: { key: live.masked, created_at: live.created_at },
  };
}

/**
 * Replaces the account's `type` key, asked by a credential of mode `asking` (null: a bearer token,
 * which has no mode); answers the new key in full, the only time it is shown. A test key may
 * rotate only the test key (403): live keys are replaced only by the live key or a bearer token.
 */
export async function rotateKeyAs(
  deps: Deps,
  asking: { developerId: number; keyMode: Mode | null },
  type: Mode,
): Promise<{ type: Mode; key: string; created_at: string }> {
  if (asking.keyMode === 'test' && type === 'live')
    throw new NotAllowed(authMessages.api_key_rotation_forbidden);
  const rotated = await rotateApiKey(deps, asking.developerId, type);
  // `api_key.rotated` was stored in the rotation's transaction; the table's stream sends it.
  return { type, key: rotated.key, created_at: rotated.info.created_at };
}
