/** POST /v1/payment-links/: 201 with `data` {id, link}, or one {id, customer, customer_name, link} per customer. */
import { envelope } from '../../shared/core/errors.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { paymentLinkMessages } from '../../shared/payment-links/messages.ts';
import { createLinks } from '../../shared/payment-links/service.ts';

const deps = { ...makeDeps(), baseUrl: publicBaseUrl() };

export const handler = endpoint(async ({ body, scope, lang }) => ({
  status: 201,
  body: envelope(201, paymentLinkMessages.payment_link_created, lang, {
    type: 'success',
    data: await createLinks(deps, scope, body),
  }),
}));
