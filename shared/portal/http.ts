/**
 * The portal page's two requests as pages: what GET shows, and what a form's POST does (ask to
 * cancel a subscription, then end it at the period's end or at once; resume one set to end; go to
 * the page that replaces its card, or to a charge's receipt). Every POST carries a CSRF token,
 * compared in constant time: the page's, or for the confirmation's two choices its own, spent once;
 * a wrong one changes nothing (403, the page again).
 */
import { timingSafeEqual } from 'node:crypto';
import type { Lang } from '../core/messages.ts';
import type { Deps } from '../db/deps.ts';
import type { ApiAnswer } from '../http/render.ts';
import { cancelConfirmationPage, closedPortalPage, type PortalNotice, portalPage } from './page.ts';
import type { PostedPortalForm } from './schemas.ts';
import {
  askCancel,
  cancelFromPortal,
  endFromPortal,
  openPortal,
  type PortalKeys,
  portalContents,
  portalUrl,
  receiptFromPortal,
  resumeFromPortal,
  startCardReplacement,
} from './service.ts';

export interface PortalPageDeps extends Deps {
  keys: PortalKeys;
  baseUrl: string;
  /** The value receipt links are keyed with now (the receipt area's secret). */
  receiptKey: () => Promise<string>;
}

/**
 * What the forms need: what the page needs. No acquirer: a cancel at the period's end, or its
 * undoing, charges nothing (setEndAtPeriodEnd), and a card is replaced on the checkout's page.
 */
export type PortalFormDeps = PortalPageDeps;

/** The forms that post the cancel confirmation's own single-use token, not the page's. */
const confirmationForms: readonly string[] = ['confirm_cancel', 'cancel_at_period_end'];

const answer = (page: { status: number; html: string; headers: Record<string, string> }): ApiAnswer => ({
  status: page.status,
  html: page.html,
  headers: page.headers,
});

function csrfMatches(expected: string, posted: string): boolean {
  const a = Buffer.from(posted);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function shown(
  deps: PortalPageDeps,
  token: string,
  lang: Lang,
  notice?: PortalNotice,
  status = 200,
): Promise<ApiAnswer> {
  const opened = await openPortal(deps, deps.keys, token);
  if (opened.kind !== 'open') return answer(closedPortalPage(opened.kind, lang));
  const contents = await portalContents(deps, opened.link, opened.scope);
  return answer(portalPage(contents, { action: portalUrl(deps.baseUrl, token), lang }, notice, status));
}

/** GET /portal/{token}. */
export const showPortal = (deps: PortalPageDeps, token: string, lang: Lang) => shown(deps, token, lang);

/** POST /portal/{token}: one action of the page's forms. */
export async function submitPortal(
  deps: PortalFormDeps,
  token: string,
  form: PostedPortalForm,
  lang: Lang,
): Promise<ApiAnswer> {
  const opened = await openPortal(deps, deps.keys, token);
  if (opened.kind !== 'open') return answer(closedPortalPage(opened.kind, lang));
  const { link, scope } = opened;
  // A confirmation's choice posts its own single-use token; every other form the page's.
  if (!confirmationForms.includes(form.action) && !csrfMatches(link.csrf, form.csrf_token))
    return shown(deps, token, lang, 'form_expired', 403);
  const id = form.subscription_id;
  const done =
    form.action === 'cancel'
      ? await askCancel(deps, link, scope, id)
      : form.action === 'confirm_cancel'
        ? await cancelFromPortal(deps, link, scope, id, form.csrf_token)
        : form.action === 'cancel_at_period_end'
          ? await endFromPortal(deps, link, scope, id, form.csrf_token)
          : form.action === 'resume'
            ? await resumeFromPortal(deps, link, scope, id)
            : form.action === 'card'
              ? await startCardReplacement(deps, deps.baseUrl, link, scope, id, {
                  token,
                  key: deps.keys.sign,
                })
              : form.action === 'receipt'
                ? await receiptFromPortal(deps, deps.baseUrl, deps.receiptKey, link, scope, form.charge_id)
                : ({ kind: 'no_subscription' } as const);
  switch (done.kind) {
    case 'card_page':
    case 'receipt':
      return {
        status: 303,
        headers: { Location: done.url, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' },
      };
    case 'confirm_cancel':
      return answer(
        cancelConfirmationPage(
          done.subscription,
          { action: portalUrl(deps.baseUrl, token), lang, mode: scope.mode },
          done.csrf,
        ),
      );
    case 'canceled':
      return shown(deps, token, lang, 'canceled');
    case 'ending':
      return shown(deps, token, lang, { ending: done.at });
    case 'resumed':
      return shown(deps, token, lang, 'resumed');
    case 'ended':
      return shown(deps, token, lang, 'ended', 409);
    case 'not_endable':
      return shown(deps, token, lang, 'not_endable', 409);
    case 'form_expired':
      return shown(deps, token, lang, 'form_expired', 403);
    case 'already_canceled':
      return shown(deps, token, lang, 'already_canceled', 409);
    case 'not_replaceable':
      return shown(deps, token, lang, 'not_replaceable', 409);
    case 'no_subscription':
      return shown(deps, token, lang, 'no_such', 400);
    case 'no_charge':
      return shown(deps, token, lang, 'no_such_charge', 400);
  }
}
