/** Helpers the checkout handlers share: the session a path names, page answers, the CSRF check. */

import { timingSafeEqual } from 'node:crypto';
import { isToken } from '../core/ids.ts';
import type { Deps } from '../db/deps.ts';
import type { ApiAnswer } from '../http/render.ts';
import { checkoutTokenLength } from '../payments/payment.ts';
import type { Page } from '../web/page.ts';
import { getSession } from './repository.ts';
import type { CheckoutSession } from './session.ts';

/** Whether a path segment can be a checkout token at all (anything else is 404 without a read). */
export const isCheckoutToken = (token: string | undefined): token is string =>
  token !== undefined && isToken(token, checkoutTokenLength);

/** The session of a checkout path, or undefined for an unknown or malformed token. */
export async function sessionOf(deps: Deps, token: string | undefined): Promise<CheckoutSession | undefined> {
  return isCheckoutToken(token) ? getSession(deps, token) : undefined;
}

export const pageAnswer = (page: Page): ApiAnswer => ({
  status: page.status,
  html: page.html,
  headers: page.headers,
});

/** The success redirect: 303 so the browser GETs the merchant's page. */
export const redirectAnswer = (location: string): ApiAnswer => ({
  status: 303,
  headers: { Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' },
});

/** Whether the posted CSRF token is the session's, compared in constant time. */
export function csrfMatches(session: CheckoutSession, posted: unknown): boolean {
  if (typeof posted !== 'string') return false;
  const a = Buffer.from(posted);
  const b = Buffer.from(session.csrf);
  return a.length === b.length && timingSafeEqual(a, b);
}
