/** GET /openapi.json: the API described from its own route table and schemas. */
import { header, publicEndpoint } from '../../shared/http/handler.ts';
import { openApiDocument } from '../../shared/http/openapi.ts';

export const handler = publicEndpoint(
  async ({ event }) => {
    // The base URL as the caller reached it: host, plus the stage prefix of an execute-api URL.
    const proto = header(event, 'x-forwarded-proto') ?? 'http';
    const host = header(event, 'host') ?? 'localhost';
    const fullPath = event.requestContext.path ?? event.path;
    const prefix = fullPath.endsWith(event.path)
      ? fullPath.slice(0, fullPath.length - event.path.length)
      : '';
    return { status: 200, body: openApiDocument(`${proto}://${host}${prefix}`) };
  },
  { parseBody: false },
);
