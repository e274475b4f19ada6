/** Request bodies of the authentication endpoints; handlers validate with them, the OpenAPI document shows them. */
import * as v from 'valibot';
import { plainText } from '../core/validation.ts';

/** The only grant the token endpoint issues tokens for. */
export const supportedGrant = 'client_credentials';

/**
 * The token request. `grant_type` is optional here only so that its absence is answered the OAuth
 * way (invalid_request) by the handler, which then refuses any grant but supportedGrant: the
 * document shows it as required, with that one value.
 */
export const TokenRequestSchema = v.pipe(
  v.object({
    grant_type: v.optional(
      v.pipe(
        plainText(),
        v.description('Always `client_credentials`.'),
        v.metadata({ enum: [supportedGrant] }),
      ),
    ),
    client_id: v.optional(
      v.pipe(plainText(), v.description('Or send the client credentials as HTTP Basic.')),
    ),
    client_secret: v.optional(plainText()),
  }),
  v.metadata({ required: ['grant_type'] }),
);

export const RotateApiKeySchema = v.object({
  type: v.pipe(v.picklist(['test', 'live']), v.description('Which key to replace.')),
});

/** The token endpoint's 200 (RFC 6749 §5.1). */
export const AccessTokenSchema = v.strictObject({
  access_token: v.pipe(v.string(), v.description('An HS256 JWT for `Authorization: Bearer`.')),
  token_type: v.literal('Bearer'),
  expires_in: v.pipe(v.number(), v.integer(), v.description('Seconds.')),
  scope: v.pipe(v.string(), v.description('Space-separated: `read write groups`.')),
});
export type AccessToken = v.InferOutput<typeof AccessTokenSchema>;

const maskedKey = v.strictObject({
  key: v.pipe(v.string(), v.description('Masked: the prefix and the last characters.')),
  created_at: v.pipe(v.string(), v.description('ISO 8601 UTC.')),
});

/** GET /v1/auth/api-keys/: both keys, masked. */
export const ApiKeysViewSchema = v.strictObject({ test: maskedKey, live: maskedKey });
export type ApiKeysView = v.InferOutput<typeof ApiKeysViewSchema>;

/** The `data` of PATCH /v1/auth/api-keys/: the new key in full, the only time it is shown. */
export const RotatedApiKeySchema = v.strictObject({
  type: v.picklist(['test', 'live']),
  key: v.string(),
  created_at: v.pipe(v.string(), v.description('ISO 8601 UTC.')),
});
