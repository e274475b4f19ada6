/** Every request no route takes: 405 with Allow on a known path, 404 otherwise (D12). */
import { MethodNotAllowed, NotFound } from '../../shared/http/errors.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';
import { allowedMethods } from '../../shared/http/routes.ts';

export const handler = publicEndpoint(
  async ({ event }) => {
    const allowed = allowedMethods(event.path);
    if (allowed.length > 0) throw new MethodNotAllowed(event.httpMethod, allowed);
    throw new NotFound();
  },
  { parseBody: false },
);
