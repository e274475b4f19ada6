/** GET /v1/auth/api-keys/: both keys of the account, masked, whichever credential asks. */

import { accountMessages } from '../../shared/accounts/messages.ts';
import { getAccount } from '../../shared/accounts/repository.ts';
import type { ApiKeysView } from '../../shared/auth/schemas.ts';
import { NotFound } from '../../shared/core/errors.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ account }) => {
  const record = await getAccount(deps, account.developerId);
  const { test, live } = record?.keys ?? {};
  if (!test || !live) throw new NotFound(accountMessages.api_keys_missing);
  return {
    status: 200,
    body: {
      test: { key: test.masked, created_at: test.created_at },
      live: { key: live.masked, created_at: live.created_at },
    } satisfies ApiKeysView,
  };
});
