/**
 * API keys and client credentials: how they are made, hashed, masked and read from an
 * Authorization header. Only hashes are ever stored.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Mode } from '../core/account.ts';
import { randomToken } from '../core/ids.ts';

const keyBodyLength = 32; // 32 × log2(62) ≈ 190 bits
export const apiKeyPattern = /^sk_(test|live)_[A-Za-z0-9]{32}$/;

export function generateApiKey(mode: Mode): string {
  return `sk_${mode}_${randomToken(keyBodyLength)}`;
}

export function generateClientId(): string {
  return `cl_${randomToken(24)}`;
}

/** Whether `value` has the shape generateClientId gives: anything else names no client. */
export const isClientId = (value: string): boolean => /^cl_[A-Za-z0-9]{24}$/.test(value);

export function generateClientSecret(): string {
  return `cs_${randomToken(48)}`;
}

/**
 * SHA-256, hex. Keys and secrets are long random strings, so a fast hash is enough (no dictionary
 * to attack) and keeps the authorizer's lookup a single GetItem.
 */
export function hashSecret(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Compares a presented secret with a stored hash in constant time. */
export function secretMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The prefix and the last 4 characters, the rest hidden: `sk_test_****…abcd`. */
export function maskKey(key: string): string {
  const prefix = key.startsWith('sk_test_') ? 'sk_test_' : key.startsWith('sk_live_') ? 'sk_live_' : '';
  return `${prefix}${'*'.repeat(Math.max(0, key.length - prefix.length - 4))}${key.slice(-4)}`;
}

export function modeOfKey(key: string): Mode {
  return key.startsWith('sk_live_') ? 'live' : 'test';
}

export type PresentedCredential =
  | { kind: 'key'; key: string }
  | { kind: 'token'; token: string }
  | { kind: 'missing' }
  | { kind: 'malformed' };

/**
 * Reads `Basic base64(key:)`, `Api-Key key` or `Bearer token` (scheme names are case-insensitive,
 * RFC 9110). A key that is not of cobro's format is `malformed`; whether it exists is not decided here.
 */
export function readAuthorization(header: string | undefined): PresentedCredential {
  const value = header?.trim();
  if (!value) return { kind: 'missing' };
  const space = value.indexOf(' ');
  if (space < 0) return { kind: 'malformed' };
  const scheme = value.slice(0, space).toLowerCase();
  const rest = value.slice(space + 1).trim();
  if (scheme === 'bearer') return rest ? { kind: 'token', token: rest } : { kind: 'malformed' };
  let key: string;
  if (scheme === 'api-key') key = rest;
  else if (scheme === 'basic') {
    const decoded = Buffer.from(rest, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    // RFC 7617: user-id ":" password; the key is the user, the password is empty (and ignored).
    key = colon < 0 ? decoded : decoded.slice(0, colon);
  } else return { kind: 'malformed' };
  return apiKeyPattern.test(key) ? { kind: 'key', key } : { kind: 'malformed' };
}
