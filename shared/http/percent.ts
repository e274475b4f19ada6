/**
 * Percent-decoding of text a client sent (a path segment, a credential), done one way everywhere.
 * It never throws: a malformed escape (`%`, `%zz`) stays as it was, and bytes that are not UTF-8
 * (`%ED%A0%80`, `%FF`) become U+FFFD, as the WHATWG URL standard decodes a query. What comes out is
 * always well-formed text, so an id that cannot exist reads as an unknown id (404), not a 500.
 */
import querystring from 'node:querystring';

/** `text` with its percent escapes decoded; malformed ones kept, bytes that are not UTF-8 as U+FFFD. */
export function percentDecode(text: string): string {
  // querystring.unescape tries decodeURIComponent and, where it throws, decodes byte by byte.
  return querystring.unescape(text);
}
