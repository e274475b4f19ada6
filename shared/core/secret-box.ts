/**
 * Values kept sealed at rest under one of the stage's secrets (webhook endpoints' signing secrets,
 * connectors' API keys): AES-256-GCM through ./seal.ts, under a key derived from the secret and a
 * purpose, so one secret never keys two uses alike. Sealed with the value in use; opened with the
 * current value or, after the secret was replaced, the previous one, so what was sealed before a
 * rotation still opens (docs/operations.md).
 */
import { sealer } from './seal.ts';
import type { Secret } from './secrets.ts';

/** Seals and opens values of one purpose; made once per process. */
export interface SecretBox {
  seal(plain: string): Promise<string>;
  open(sealed: string): Promise<string>;
}

export const secretBox = (key: Secret, purpose: string): SecretBox => ({
  async seal(plain) {
    return sealer((await key.use()).sign, purpose).seal(plain);
  },
  async open(sealed) {
    const keys = (await key.use()).open;
    for (const [index, value] of keys.entries()) {
      try {
        return sealer(value, purpose).open(sealed);
      } catch (error) {
        // Authenticated encryption: a wrong key fails here, never opens to something else.
        if (index === keys.length - 1) throw error;
      }
    }
    throw new Error(`no key to open ${purpose} with`);
  },
});
