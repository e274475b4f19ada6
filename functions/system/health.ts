/** GET /health: liveness without credentials (D1). */
import { publicEndpoint } from '../../shared/http/handler.ts';

export const handler = publicEndpoint(async () => ({ status: 200, body: { status: 'ok' } }), {
  parseBody: false,
});
