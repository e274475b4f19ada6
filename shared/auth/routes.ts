import { messageEnvelope } from '../core/envelopes.ts';
import type { Route } from '../http/route.ts';
import {
  AccessTokenSchema,
  ApiKeysViewSchema,
  RotateApiKeySchema,
  RotatedApiKeySchema,
  TokenRequestSchema,
} from './schemas.ts';

export const authRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/authentication/token/',
    handler: 'functions/auth/create-token.ts',
    operationId: 'createToken',
    auth: false,
    access: { table: { actions: ['GetItem', 'Query'] }, tokenSecret: true },
    summary: 'OAuth 2.0 client credentials: an access token for Bearer',
    description:
      "Exchanges the account's OAuth client id and secret (in the body, JSON or form, or as Basic credentials) for an HS256 JWT valid for one hour, sent afterwards as `Authorization: Bearer`. Wrong client credentials or a grant other than `client_credentials` answer the OAuth `error` object.",
    body: TokenRequestSchema,
    answers: { 200: { description: 'An access token, valid one hour', json: AccessTokenSchema } },
    errors: {
      400: { description: 'invalid_request or unsupported_grant_type (OAuth)', body: 'ErrorObject' },
      401: { description: 'invalid_client: unknown client or wrong secret (OAuth)', body: 'ErrorObject' },
    },
  },
  {
    method: 'GET',
    path: '/v1/auth/api-keys/',
    handler: 'functions/auth/get-api-keys.ts',
    operationId: 'getApiKeys',
    auth: true,
    access: { table: { actions: ['GetItem', 'Query'] } },
    summary: 'Both API keys of the account, masked',
    description:
      'Shows the test and the live key of the account as their prefix and last four characters: keys are stored only as hashes, so a full key can never be read back.',
    answers: { 200: { description: 'Both keys, masked', json: ApiKeysViewSchema } },
    errors: { 404: { description: 'The account has no keys (type warning)', body: 'MessageEnvelope' } },
  },
  {
    method: 'PATCH',
    path: '/v1/auth/api-keys/',
    handler: 'functions/auth/rotate-api-key.ts',
    operationId: 'rotateApiKey',
    auth: true,
    access: { table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] } },
    summary: 'Rotate the test or live key; the answer shows the new key once',
    description:
      'Replaces the test or the live key with a new one, shown in full in this answer and never again; the old key stops working within 60 seconds and the account is e-mailed. A test key may rotate only the test key.',
    body: RotateApiKeySchema,
    answers: {
      200: { description: 'The new key, in full this once', json: messageEnvelope(RotatedApiKeySchema) },
    },
    errors: {
      400: {
        description:
          '`type` is not test or live (the envelope nested in `message`); a malformed body or a repeated query parameter (the flat envelope)',
        body: 'WrappedOrMessageEnvelope',
      },
      403: {
        description: 'A test key may rotate only the test key; or the test parameter contradicts the key',
        body: 'MessageEnvelope',
      },
    },
  },
];
