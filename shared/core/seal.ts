/**
 * Values kept at rest that must be read back (webhook signing secrets, stored idempotent answers
 * that may show one): AES-256-GCM under a key derived from a configured secret and a purpose, so
 * one configured secret never keys two uses alike.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export interface Sealer {
  seal(plain: string): string;
  open(sealed: string): string;
}

/** A sealer keyed by `secret` for `purpose` (the two are hashed into the 32-byte AES key). */
export function sealer(secret: string, purpose: string): Sealer {
  const key = createHash('sha256').update(`cobro ${purpose}\u0000${secret}`).digest();
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [
        'v1',
        iv.toString('base64'),
        cipher.getAuthTag().toString('base64'),
        body.toString('base64'),
      ].join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}
