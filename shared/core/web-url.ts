/**
 * A URL as cobro takes one wherever a client or an operator gives it (a plan's image, a return_url,
 * a webhook endpoint, an account's page and logo): absolute http or https, read by the WHATWG URL
 * parser, kept in the form the parser writes it (`href`). The text sent may not have what a URL
 * never has as typed (whitespace, control characters, quotes, `<`, `>`, `\`, a backtick): the
 * parser would quietly encode or drop them, and the text would then not be the address a person
 * reading it thinks it is. Callers add their own rules (https in live mode, public addresses).
 * A URL cobro has already taken, or that configuration gives, is read back with httpUrlOf.
 */
import { isHostName } from './host-name.ts';

/** The longest URL cobro keeps, as sent and as the parser writes it; browsers and CDNs take 2 KB. */
export const maxUrlLength = 2048;

/**
 * - `malformed`: not an absolute URL, or it has a character a URL never has as typed.
 * - `scheme`: neither http nor https.
 * - `credentials`: a user name or password (`https://user:pw@evil.com/` misleads whoever reads it).
 * - `host`: a host that is neither a DNS name nor an IP literal (`;`, `'`, `*` … in a host).
 * - `too_long`: longer than maxUrlLength, as sent or as written by the parser.
 */
export type WebUrlProblem = 'malformed' | 'scheme' | 'credentials' | 'host' | 'too_long';

const notInUrls = /[\s\p{Cc}"'<>\\`\u2028\u2029]/u;

/**
 * The URLs parseWebUrl takes, as the OpenAPI document shows them (a JSON Schema `pattern`): http or
 * https, a host of DNS labels whose last begins with a letter (a number there would be read as an
 * IPv4 address), an optional port, and a path and query of the characters a typed URL has. It is
 * narrower than the check (an IP literal or user-visible Unicode is taken too), never wider.
 */
export const webUrlPattern =
  '^https?://(?:[a-z0-9](?:[a-z0-9-]{0,20}[a-z0-9])?\\.){0,4}[a-z](?:[a-z0-9-]{0,20}[a-z0-9])?(?::[1-9][0-9]{0,3})?(?:/[A-Za-z0-9._~!$&()*+,;=:@%/-]*)?(?:\\?[A-Za-z0-9._~!$&()*+,;=:@%/?-]*)?$';

/** `value` (trimmed) as an http(s) URL, or why it is not one. */
export function parseWebUrl(value: string): { url: URL } | { problem: WebUrlProblem } {
  const text = value.trim();
  if (text.length > maxUrlLength) return { problem: 'too_long' };
  if (!text.isWellFormed() || notInUrls.test(text)) return { problem: 'malformed' };
  const url = URL.parse(text);
  if (!url) return { problem: 'malformed' };
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'scheme' };
  // An empty user info (`https://@host/`) leaves username and password empty: look at the authority.
  const authority = /^[a-z][a-z0-9+.-]*:[\\/]*([^\\/?#]*)/i.exec(text)?.[1] ?? '';
  if (url.username || url.password || authority.includes('@')) return { problem: 'credentials' };
  if (!isHostName(url.hostname)) return { problem: 'host' };
  if (url.href.length > maxUrlLength) return { problem: 'too_long' };
  return { url };
}

/** Whether `value` is an http(s) URL cobro takes (see parseWebUrl). */
export const isWebUrl = (value: string): boolean => 'url' in parseWebUrl(value);

/**
 * `value` as the URL parser reads it when it is an absolute http or https URL, else undefined: no
 * other rule. For a URL cobro took earlier (a stored logo, checked by parseWebUrl when it was set,
 * maybe before a rule was added) or one its configuration gives, which is used or left out, never
 * refused to a client.
 */
export function httpUrlOf(value: string | null | undefined): URL | undefined {
  if (!value) return undefined;
  const url = URL.parse(value);
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? url : undefined;
}
