/** PUT /v1/payment-links/{id}/: 200 (type success); a paid link is 406, a status not allowed 400. */
import { envelope } from '../../shared/core/errors.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { paymentLinkMessages } from '../../shared/payment-links/messages.ts';
import { linkIdParam, updateLink } from '../../shared/payment-links/service.ts';

const deps = { ...makeDeps(), baseUrl: publicBaseUrl() };

export const handler = endpoint(async ({ params, body, scope, lang }) => {
  const link = await updateLink(deps, scope, linkIdParam(params.id), body);
  return {
    status: 200,
    body: envelope(200, paymentLinkMessages.payment_link_updated, lang, { type: 'success', data: link }),
  };
});
