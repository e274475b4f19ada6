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
