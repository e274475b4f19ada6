/**
 * The token endpoint (RFC 6749 §4.4): its request read whatever way the client sent it, the client
 * checked, a token issued; every failure in OAuth's own error shape rather than the API's envelopes.
 */
import * as v from 'valibot';
import { secretMatches } from '../accounts/credentials.ts';
import { findClient } from '../accounts/repository.ts';
import type { Secret } from '../core/secrets.ts';
import type { Deps } from '../db/deps.ts';
import { bodyText, looksLikeJson, parseForm } from '../http/body.ts';
import { RawError } from '../http/errors.ts';
import { percentDecode } from '../http/percent.ts';
import type { AccessToken } from './schemas.ts';
import { supportedGrant, TokenRequestSchema } from './schemas.ts';
import { issueAccessToken } from './tokens.ts';

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
  const formDecode = (part: string) => percentDecode(part.replace(/\+/g, ' '));
  return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
}

/**
 * RFC 6749 §4.4.2 asks for a form; clients also send JSON, and some label one as the other:
 * the body decides, whatever the Content-Type says. Every failure is an OAuth `invalid_request`.
 */
export function readTokenRequest(raw: string | null, isBase64Encoded: boolean): unknown {
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

/** The client credentials of a token request, from HTTP Basic or the body (never both). */
export function clientCredentials(
  body: unknown,
  authorization: string | undefined,
): { clientId: string; clientSecret: string } {
  const parsed = v.safeParse(TokenRequestSchema, body);
  if (!parsed.success) throw invalidRequest('The body must be an object of string fields.');
  const { grant_type: grantType } = parsed.output;
  if (!grantType) throw invalidRequest('grant_type is required.');
  if (grantType !== supportedGrant) {
    throw new RawError(400, {
      error: {
        code: 'unsupported_grant_type',
        type: 'invalid_request_error',
        message: 'Only the client_credentials grant is supported.',
      },
    });
  }
  const fromHeader = basicClient(authorization);
  // RFC 6749 §2.3.1: a client must not use more than one authentication method in a request.
  if (fromHeader && (parsed.output.client_id || parsed.output.client_secret)) {
    throw invalidRequest('Send the client credentials either as HTTP Basic or in the body, not both.');
  }
  const clientId = fromHeader?.id ?? parsed.output.client_id;
  const clientSecret = fromHeader?.secret ?? parsed.output.client_secret;
  if (!clientId || !clientSecret) throw invalidClient();
  return { clientId, clientSecret };
}

/** An access token for a client's id and secret (the client credentials grant); 401 when they do not match. */
export async function tokenForClient(
  deps: Deps,
  client: { clientId: string; clientSecret: string },
  tokenSecret: Secret,
): Promise<AccessToken> {
  const found = await findClient(deps, client.clientId);
  if (!found || !secretMatches(client.clientSecret, found.secretHash)) throw invalidClient();
  const { sign } = await tokenSecret.use();
  return issueAccessToken(found.developerId, sign, deps.clock());
}
