/**
 * POST /authentication/token/: OAuth 2.0 client credentials (RFC 6749 §4.4). The client may
 * authenticate in the body or with HTTP Basic (§2.3.1); JSON and form bodies are both read.
 */
import * as v from 'valibot';
import { findClient } from '../../shared/accounts/repository.ts';
import { secretMatches } from '../../shared/auth/credentials.ts';
import { TokenRequestSchema } from '../../shared/auth/schemas.ts';
import { issueAccessToken } from '../../shared/auth/tokens.ts';
import { envNames, requireEnv } from '../../shared/config.ts';
import { makeDeps } from '../../shared/deps.ts';
import { RawError } from '../../shared/http/errors.ts';
import { bodyText, header, looksLikeJson, parseForm, publicEndpoint } from '../../shared/http/handler.ts';

const deps = makeDeps();
const tokenSecret = requireEnv(envNames.tokenSecret);

const invalidRequest = (message: string) =>
  new RawError(400, { error: { code: 'invalid_request', type: 'invalid_request_error', message } });

const invalidClient = () =>
  new RawError(
    401,
    {
      error: {
        code: 'invalid_client',
        type: 'authentication_error',
        message: 'Client authentication failed.',
      },
    },
    { 'WWW-Authenticate': 'Basic realm="cobro"' },
  );

/** Client id and secret from `Authorization: Basic` (form-urlencoded each, RFC 6749 §2.3.1). */
function basicClient(value: string | undefined): { id: string; secret: string } | undefined {
  const match = value?.match(/^basic\s+(.+)$/i);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const formDecode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
  try {
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

/**
 * RFC 6749 §4.4.2 asks for a form; clients also send JSON, and some label one as the other (D12):
 * the body decides, whatever the Content-Type says. Every failure is an OAuth `invalid_request`.
 */
function readTokenRequest(raw: string | null, isBase64Encoded: boolean): unknown {
  const text = bodyText(raw, isBase64Encoded);
  if (text.trim() === '') return {};
  if (looksLikeJson(text)) {
    try {
      return JSON.parse(text);
    } catch {
      throw invalidRequest('The body is not valid JSON.');
    }
  }
  try {
    return parseForm(text);
  } catch {
    throw invalidRequest('The form body could not be read.');
  }
}

export const handler = publicEndpoint(
  async ({ event }) => {
    const body = readTokenRequest(event.body, event.isBase64Encoded);
    const parsed = v.safeParse(TokenRequestSchema, body);
    if (!parsed.success) throw invalidRequest('The body must be an object of string fields.');
    const { grant_type: grantType } = parsed.output;
    if (!grantType) throw invalidRequest('grant_type is required.');
    if (grantType !== 'client_credentials') {
      throw new RawError(400, {
        error: {
          code: 'unsupported_grant_type',
          type: 'invalid_request_error',
          message: 'Only the client_credentials grant is supported.',
        },
      });
    }
    const fromHeader = basicClient(header(event, 'authorization'));
    // RFC 6749 §2.3.1: a client must not use more than one authentication method in a request.
    if (fromHeader && (parsed.output.client_id || parsed.output.client_secret)) {
      throw invalidRequest('Send the client credentials either as HTTP Basic or in the body, not both.');
    }
    const clientId = fromHeader?.id ?? parsed.output.client_id;
    const clientSecret = fromHeader?.secret ?? parsed.output.client_secret;
    if (!clientId || !clientSecret) throw invalidClient();
    const client = await findClient(deps, clientId);
    if (!client || !secretMatches(clientSecret, client.secretHash)) throw invalidClient();
    const token = await issueAccessToken(client.developerId, tokenSecret, deps.clock());
    return { status: 200, body: token, headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' } };
  },
  { parseBody: false },
);
