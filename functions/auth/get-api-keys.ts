/** GET /v1/auth/api-keys/: both keys of the account, masked, whichever credential asks. */
import { apiKeysOf } from '../../shared/auth/api-keys.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ account }) => ({
  status: 200,
  body: await apiKeysOf(deps, account.developerId),
}));
