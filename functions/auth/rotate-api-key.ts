/**
 * PATCH /v1/auth/api-keys/ {"type": "test" | "live"}: replaces that key and answers the new one in
 * full, the only time it is shown. The old key stops working when the authorizer cache expires.
 */
import * as v from 'valibot';
import { rotateKeyAs } from '../../shared/auth/api-keys.ts';
import { authMessages } from '../../shared/auth/messages.ts';
import { RotateApiKeySchema } from '../../shared/auth/schemas.ts';
import { envelope, Invalid } from '../../shared/core/errors.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ body, account, lang }) => {
  const parsed = v.safeParse(RotateApiKeySchema, body);
  if (!parsed.success) throw new Invalid(authMessages.api_key_type_invalid);
  const rotated = await rotateKeyAs(deps, account, parsed.output.type);
  return {
    status: 200,
    body: envelope(200, authMessages.api_key_rotated, lang, {
      type: 'success',
      params: { type: rotated.type },
      data: rotated,
    }),
  };
});
