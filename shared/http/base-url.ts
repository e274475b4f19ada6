/**
 * The stage's public base URL: the origin (plus an optional path prefix such as the execute-api
 * stage) that starts every URL cobro answers, from checkout pages to stored images and the OpenAPI
 * server. It is configuration (PUBLIC_BASE_URL, set by the CDK app and the local stack), never
 * read off a request: `Host` and `X-Forwarded-Proto` are whatever the caller chose to send.
 */
import { envNames, requireEnv } from '../core/config.ts';
import { httpUrlOf } from '../core/web-url.ts';

/** PUBLIC_BASE_URL, checked and without a trailing slash; throws when it is missing or not http(s). */
export function publicBaseUrl(): string {
  const value = requireEnv(envNames.publicBaseUrl);
  const url = httpUrlOf(value);
  if (!url || url.username || url.password || url.search || url.hash) {
    throw new Error(`${envNames.publicBaseUrl} must be an absolute http(s) URL without query: ${value}`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
