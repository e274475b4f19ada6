/** GET /v1/payment-links/: Envelope B, newest first (page_size default 10, max 100). */
import { validate } from '../../shared/core/validation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { LinkListQuerySchema } from '../../shared/payment-links/schemas.ts';
import { linkList } from '../../shared/payment-links/service.ts';

const deps = { ...makeDeps(), baseUrl: publicBaseUrl() };

export const handler = endpoint(async ({ query, scope }) => ({
  status: 200,
  body: await linkList(deps, scope, validate(LinkListQuerySchema, query).page),
}));
