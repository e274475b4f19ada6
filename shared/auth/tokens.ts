/**
 * OAuth 2.0 client-credentials access tokens: HS256 JWTs valid one hour that carry the account, not a
 * mode: the request's `test` parameter chooses the mode, live by default.
 */
import { errors, jwtVerify, SignJWT } from 'jose';

export const tokenLifetimeSeconds = 3600;
export const tokenScope = 'read write groups';
const issuer = 'cobro';
const audience = 'cobro-api';

const keyOf = (secret: string) => new TextEncoder().encode(secret);

/**
 * A signed token with its OAuth fields. The token endpoint answers it as AccessTokenSchema
 * (./schemas.ts, checked where it is answered); this module stays free of schemas, since the
 * authorizer bundles it.
 */
export interface IssuedToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

/** Signs an access token for an account, valid for one hour from `now`. */
export async function issueAccessToken(developerId: number, secret: string, now: Date): Promise<IssuedToken> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const token = await new SignJWT({ token_type: 'access', scope: tokenScope })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(developerId))
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + tokenLifetimeSeconds)
    .setJti(crypto.randomUUID())
    .sign(keyOf(secret));
  return { access_token: token, token_type: 'Bearer', expires_in: tokenLifetimeSeconds, scope: tokenScope };
}

export type TokenCheck = { ok: true; developerId: number } | { ok: false; reason: 'expired' | 'invalid' };

/**
 * Verifies signature, algorithm, issuer, audience and expiry at `now`, with the secret or, while it
 * is being replaced, with any of the secrets given (the first that signed it decides).
 */
export async function verifyAccessToken(
  token: string,
  secrets: string | readonly string[],
  now: Date,
): Promise<TokenCheck> {
  let check: TokenCheck = { ok: false, reason: 'invalid' };
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    check = await verifyWith(token, secret, now);
    // Expired means the signature held: another secret cannot make it valid.
    if (check.ok || check.reason === 'expired') return check;
  }
  return check;
}

async function verifyWith(token: string, secret: string, now: Date): Promise<TokenCheck> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: ['HS256'],
      issuer,
      audience,
      currentDate: now,
      requiredClaims: ['exp', 'sub'],
    });
    const developerId = Number(payload.sub);
    if (payload.token_type !== 'access' || !Number.isSafeInteger(developerId))
      return { ok: false, reason: 'invalid' };
    return { ok: true, developerId };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, reason: 'expired' };
    return { ok: false, reason: 'invalid' };
  }
}
