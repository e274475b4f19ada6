/**
 * PATCH /v1/auth/api-keys/ {"type": "test" | "live"}: replaces that key and answers the new one in
 * full, the only time it is shown. The old key stops working when the authorizer cache expires.
 */
import * as v from 'valibot';
import { rotateApiKey } from '../../shared/accounts/repository.ts';
import { authMessages } from '../../shared/auth/messages.ts';
import { RotateApiKeySchema } from '../../shared/auth/schemas.ts';
import { envelope, Invalid, NotAllowed } from '../../shared/core/errors.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ body, account, lang }) => {
  const parsed = v.safeParse(RotateApiKeySchema, body);
  if (!parsed.success) throw new Invalid(authMessages.api_key_type_invalid);
  const { type } = parsed.output;
  // A test key may rotate only the test key; a live key or a bearer token either.
  if (account.keyMode === 'test' && type === 'live')
    throw new NotAllowed(authMessages.api_key_rotation_forbidden);
  const rotated = await rotateApiKey(deps, account.developerId, type);
  // `api_key.rotated` was stored in the rotation's transaction; the table's stream sends it.
  return {
    status: 200,
    body: envelope(200, authMessages.api_key_rotated, lang, {
      type: 'success',
      params: { type },
      data: { type, key: rotated.key, created_at: rotated.info.created_at },
    }),
  };
});
