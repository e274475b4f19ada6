/** Identifiers (docs/design.md#identifiers) and random tokens, from the system CSPRNG. */
import { createHash, randomInt } from 'node:crypto';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A uniformly random string over [A-Za-z0-9]. */
export function randomToken(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** A prefixed identifier such as `evt_…`, `pay_…`, `ch_…`. */
type IdPrefix = 'evt' | 'pay' | 'ch' | 'sub' | 'we' | 're' | 'del' | 'plog' | 'att' | 'usr';

export function prefixedId(prefix: IdPrefix): string {
  return `${prefix}_${randomToken(24)}`;
}

/**
 * A prefixed identifier that `parts` alone decide (the same parts, the same id), with the shape of
 * prefixedId's: for records that a retry must find again rather than make anew.
 */
export function derivedId(prefix: IdPrefix, parts: readonly (string | number)[]): string {
  const digest = createHash('sha256').update(parts.join('\u0000')).digest();
  return `${prefix}_${Array.from(digest.subarray(0, 24), (byte) => alphabet[byte % alphabet.length]).join('')}`;
}

/** Whether `value` is an id that prefixedId could have made: `pay_` and 24 characters, say. */
export function isPrefixedId(value: string, prefix: IdPrefix): boolean {
  return value.startsWith(`${prefix}_`) && isBareId(value.slice(prefix.length + 1));
}

/** Whether `value` is 24 characters of the id alphabet (a refund's stored id has no prefix). */
export const isBareId = (value: string): boolean => isToken(value, 24);

/** Whether `value` is a token randomToken(length) could have made. */
export const isToken = (value: string, length: number): boolean =>
  value.length === length && /^[A-Za-z0-9]+$/.test(value);

/**
 * The `{id}` of a path for records with UUID keys (plans, products, customers, addresses),
 * lower-cased; anything else names no record, so it throws `notFound()`.
 */
export function uuidParam(value: string | undefined, notFound: () => Error): string {
  if (!value || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value))
    throw notFound();
  return value.toLowerCase();
}
