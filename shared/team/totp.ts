/**
 * The TOTP second factor (RFC 6238) through otpauth (a maintained implementation of RFC 4226 and
 * 6238, the one authenticator apps are tested against): 30-second steps, 6 digits, HMAC-SHA1, the
 * parameters every authenticator app reads from an `otpauth://` URI. A code is accepted for its
 * step and the one on either side (a phone's clock a little off), and each step only once per user:
 * the user's record keeps the last step used, and a sign-in is written on the condition that its
 * step is later, so a code seen over a shoulder cannot be replayed.
 */
import { Secret, TOTP } from 'otpauth';
import { encode } from 'uqr';

const period = 30;
const digits = 6;

/** A new secret: 160 random bits, as base32 (what an authenticator app is given). */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

const totpOf = (secret: string, label = 'cobro', issuer = 'cobro') =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits, period, secret: Secret.fromBase32(secret) });

/** The URI an authenticator app takes (from the QR code, or typed in). */
export const totpUri = (secret: string, email: string, issuer: string): string =>
  totpOf(secret, email, issuer).toString();

/** The step a moment falls in. */
export const stepAt = (at: Date): number => Math.floor(at.getTime() / 1000 / period);

/**
 * The step `code` is valid for at `now` (its own or one either side), or undefined when it is none
 * of them or not 6 digits.
 */
export function totpStep(secret: string, code: string, now: Date): number | undefined {
  const trimmed = code.replace(/\s+/g, '');
  if (!/^[0-9]{6}$/.test(trimmed)) return undefined;
  const delta = totpOf(secret).validate({ token: trimmed, timestamp: now.getTime(), window: 1 });
  return delta === null ? undefined : stepAt(now) + delta;
}

/**
 * The QR code of a text as rows of dark (true) and light modules, quiet zone excluded: the page
 * draws it as an SVG on the server, with no script.
 */
export const qrModules = (text: string): boolean[][] => encode(text, { ecc: 'M', border: 0 }).data;
