/**
 * The way back from a card page to the portal page it was opened from. The portal token is a
 * bearer credential that the table never holds in clear, so the card page keeps it sealed
 * (AES-256-GCM, shared/core/seal.ts) under the stage's fingerprint secret with a purpose label of
 * its own, and opens it only to render its "Back to your account" link.
 */
import { sealer } from '../core/seal.ts';

/** The seal's purpose: a key derived for it opens nothing sealed for another use. */
const purpose = 'portal return links';

/** `token` sealed under `key` (the secret's value new links are keyed with). */
export const sealPortalToken = (key: string, token: string) => sealer(key, purpose).seal(token);

/**
 * The token a sealed value holds, opened with the first of `keys` (the secret's current value, then
 * its previous one) that opens it; undefined when none does (sealed under a value since dropped).
 */
export function openPortalToken(keys: readonly string[], sealed: string): string | undefined {
  for (const key of keys) {
    try {
      return sealer(key, purpose).open(sealed);
    } catch {
      // Authenticated encryption: a wrong key fails here, it never opens to another token.
    }
  }
  return undefined;
}
