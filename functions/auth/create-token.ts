/**
 * POST /authentication/token/: OAuth 2.0 client credentials (RFC 6749 §4.4). The client may
 * authenticate in the body or with HTTP Basic (§2.3.1); JSON and form bodies are both read.
 */
import { clientCredentials, readTokenRequest, tokenForClient } from '../../shared/auth/token-http.ts';
import { envNames } from '../../shared/core/config.ts';
import { stageSecret } from '../../shared/core/secrets.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { header, publicEndpoint } from '../../shared/http/handler.ts';

const deps = makeDeps();
const tokenSecret = stageSecret(envNames.tokenSecret);

export const handler = publicEndpoint(
  async ({ event }) => {
    const body = readTokenRequest(event.body, event.isBase64Encoded);
    const client = clientCredentials(body, header(event, 'authorization'));
    const token = await tokenForClient(deps, client, tokenSecret);
    return { status: 200, body: token, headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' } };
  },
  { parseBody: false },
);
