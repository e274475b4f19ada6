/** Identifiers (D4) and random tokens, from the system CSPRNG. */
import { randomInt } from 'node:crypto';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A uniformly random string over [A-Za-z0-9]. */
export function randomToken(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** A prefixed identifier such as `evt_…`, `pay_…`, `ch_…`. */
export function prefixedId(prefix: 'evt' | 'pay' | 'ch' | 'sub' | 'we' | 're'): string {
  return `${prefix}_${randomToken(24)}`;
}
