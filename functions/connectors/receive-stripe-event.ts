/**
 * POST /v1/connectors/stripe/{account_id}/events/: Stripe's signed events for an account connected to
 * Stripe (see shared/connectors/stripe-events.ts). The raw body is what the signature covers.
 */
import { acquirerDeps } from '../../shared/acquirer/configured.ts';
import { receiveStripeEvent } from '../../shared/connectors/stripe-events.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';
import { headerOf } from '../../shared/http/headers.ts';

const deps = { ...acquirerDeps(), baseUrl: publicBaseUrl() };

export const handler = publicEndpoint(
  async ({ event, params }) => {
    const raw = event.isBase64Encoded
      ? Buffer.from(event.body ?? '', 'base64').toString('utf8')
      : (event.body ?? '');
    const received = await receiveStripeEvent(
      deps,
      params.account_id ?? '',
      raw,
      headerOf(event.headers, 'stripe-signature'),
    );
    return { status: 200, body: received };
  },
  { parseBody: false, maxBodyBytes: 512 * 1024 },
);
