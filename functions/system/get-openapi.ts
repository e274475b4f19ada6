/** GET /openapi.json: the API described from its own route table and schemas. */

import { openApiDocument } from '../../shared/api/openapi.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

// The server is the stage's configured base URL, whatever Host the caller sent.
const document = openApiDocument(publicBaseUrl());

export const handler = publicEndpoint(async () => ({ status: 200, body: document }), { parseBody: false });
