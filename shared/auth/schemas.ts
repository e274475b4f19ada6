/** Request bodies of the authentication endpoints; handlers validate with them, the OpenAPI document shows them. */
import * as v from 'valibot';

export const TokenRequestSchema = v.object({
  grant_type: v.optional(v.pipe(v.string(), v.description('Always `client_credentials`.'))),
  client_id: v.optional(v.pipe(v.string(), v.description('Or send the client credentials as HTTP Basic.'))),
  client_secret: v.optional(v.string()),
});

export const RotateApiKeySchema = v.object({
  type: v.pipe(v.picklist(['test', 'live']), v.description('Which key to replace.')),
});
