/**
 * The hosted checkout's two posts as pages (docs/design.md#checkout): the pay form and the answer to
 * a 3-D Secure challenge. A card that fails its checks re-renders the form with 400, a decline with
 * 402, a card that needs 3-D Secure gets the challenge page, and an approval redirects (303) to the
 * merchant's return_url with `id_payment`. Card data lives only in this request's memory: it is never
 * stored, logged or echoed back into a page.
 */

import { AcquirerUnavailable, CardEntryRefused, type CardInput, NotConnected } from '../acquirer/acquirer.ts';
import { validateCard } from '../acquirer/cards.ts';
import { acquirerDeps } from '../acquirer/configured.ts';
import { type CardEntryView, cardEntryOf, getConnection } from '../acquirer/connection.ts';
import { isFinal, mayBeRunning } from '../attempts/attempt.ts';
import { getAttempt } from '../attempts/repository.ts';
import type { Lang } from '../core/messages.ts';
import { isEmail, textRuleOf } from '../core/validation.ts';
import { publicBaseUrl } from '../http/base-url.ts';
import type { ApiAnswer } from '../http/render.ts';
import { payOnAcquirerPage } from './acquirer-page.ts';
import { csrfMatches, isCheckoutToken, pageAnswer, redirectAnswer, sessionOf } from './http.ts';
import type { SessionOwners } from './owner.ts';
import { challengePage, unknownPage } from './pages.ts';
import { type CheckoutDeps, type CheckoutOutcome, recordedOutcome } from './record.ts';
import { finishCheckoutAttempt } from './recovery.ts';
import { SessionUnavailable } from './repository.ts';
import {
  csrfLooksRight,
  overLongFields,
  type PostedChallengeForm,
  type PostedPayForm,
  type TypedField,
} from './schemas.ts';
import { answerChallenge, payWithCard } from './service.ts';
import { type CheckoutSession, pageUrl } from './session.ts';
import {
  cardProblemsText,
  closedPageFor,
  confirmingPage,
  declinedPage,
  formTextsOf,
  noChallengePage,
  overLongText,
  type PageContext,
  pageFor,
  receiptFor,
  retryPage,
  summaryOf,
  voidedPage,
} from './views.ts';

export interface PageDeps extends CheckoutDeps {
  /** The stage's public base URL, where the pages post to. */
  baseUrl: string;
}

/**
 * What the checkout's page functions run with, in Lambda or the local stack; `owners(deps)` makes
 * every kind of session's owner (the functions, above every area, pass them in).
 */
export function pageDeps(owners: (deps: Omit<PageDeps, 'owners'>) => SessionOwners): PageDeps {
  const deps = { ...acquirerDeps(), baseUrl: publicBaseUrl() };
  return { ...deps, owners: owners(deps) };
}

type Context = PageContext;
type Kept = { holderName: string; email: string };

/** The page (or redirect) a submit's outcome answers. */
function answerOf(deps: PageDeps, outcome: CheckoutOutcome, context: Context, keep: Kept): ApiAnswer {
  switch (outcome.kind) {
    case 'paid':
      if (outcome.answer.kind === 'redirect') return redirectAnswer(outcome.answer.location);
      if (!outcome.charge) throw new Error('a receipt needs its charge');
      return pageAnswer(receiptFor(outcome.session, outcome.charge, context.lang));
    case 'challenge':
      return pageAnswer(
        challengePage(summaryOf(outcome.session, { lang: context.lang, now: deps.clock() }), {
          action: `${context.url}/challenge`,
          csrf: outcome.session.csrf,
          returnUrl: outcome.session.return_url,
        }),
      );
    case 'declined':
      return pageAnswer(declinedPage(outcome.session, deps.clock(), context, outcome.reason, keep));
    // 202: accepted, the outcome is being confirmed; the payer must not pay again.
    case 'unconfirmed':
      return pageAnswer(confirmingPage(outcome.session, 202, context.lang));
    case 'voided':
      return pageAnswer(voidedPage(outcome.session, 409, context.lang));
    // On to the acquirer's own page (Stripe): the payer comes back to the return page.
    case 'redirect':
      return redirectAnswer(outcome.url);
  }
}

/** Why a claim was refused: no such session, a closed one, or (while open) a wrong CSRF token. */
function refused(deps: PageDeps, session: CheckoutSession | undefined, context: Context, keep: Kept) {
  if (!session) return pageAnswer(unknownPage(context.lang));
  const closed = closedPageFor(session, deps.clock(), true, context.lang);
  if (closed) return pageAnswer(closed);
  return pageAnswer(retryPage(session, context, 403, formTextsOf(context.lang).formExpired, keep));
}

async function pay(
  deps: PageDeps,
  token: string,
  card: CardInput,
  csrf: string,
  context: Context,
  keep: Kept,
) {
  try {
    return answerOf(deps, await payWithCard(deps, token, { card, email: keep.email, csrf }), context, keep);
  } catch (error) {
    if (error instanceof SessionUnavailable) return refused(deps, error.session, context, keep);
    // The page was made before its mode's connection changed: the page as the mode takes cards now.
    if (error instanceof NotConnected || error instanceof CardEntryRefused) {
      const session = await sessionOf(deps, token);
      if (!session) return pageAnswer(unknownPage(context.lang));
      const page = pageFor(session, deps.clock(), { ...context, entry: await entryOf(deps, session) });
      return pageAnswer({ ...page, status: 400 });
    }
    throw error;
  }
}

/** How the session's mode takes a card now: its connection, read. */
async function entryOf(deps: PageDeps, session: CheckoutSession): Promise<CardEntryView> {
  return cardEntryOf(await getConnection(deps, session.developer_id, session.mode), session.mode);
}

/**
 * A submit with no card at all: the pay form of a mode that takes cards on the acquirer's own page
 * (Stripe), which sends the payer there; or a card form posted empty, which says what is missing.
 */
async function payWithoutCard(
  deps: PageDeps,
  token: string,
  form: PostedPayForm,
  context: Context,
): Promise<ApiAnswer | undefined> {
  const session = await sessionOf(deps, token);
  if (!session) return pageAnswer(unknownPage(context.lang));
  const closed = closedPageFor(session, deps.clock(), true, context.lang);
  if (closed) return pageAnswer(closed);
  const entry = await entryOf(deps, session);
  if (entry.entry === 'form') return undefined;
  const withEntry = { ...context, entry };
  if (entry.entry === 'none') return pageAnswer(pageFor(session, deps.clock(), withEntry));
  if (!csrfMatches(session, form.csrf_token))
    return pageAnswer({ ...pageFor(session, deps.clock(), withEntry), status: 403 });
  // Waiting on the acquirer's page already: the payer goes back to that page, never to a second one
  // (two open pages could both be paid). Once its window has passed it is closed first.
  if (session.challenge?.url && session.attempt_id) {
    const attempt = await getAttempt<'checkout'>(deps, session.attempt_id);
    if (attempt && !isFinal(attempt) && mayBeRunning(attempt, deps.clock()))
      return redirectAnswer(session.challenge.url);
    if (attempt && !isFinal(attempt))
      await finishCheckoutAttempt(deps, attempt, deps.clock(), { abandon: true });
    const now = await sessionOf(deps, token);
    if (!now || now.challenge?.url)
      return pageAnswer(now ? pageFor(now, deps.clock(), withEntry) : unknownPage(context.lang));
  }
  try {
    const outcome = await payOnAcquirerPage(deps, token, {
      csrf: form.csrf_token,
      urls: { returnUrl: `${context.url}/return`, cancelUrl: context.url },
      lang: context.lang ?? 'en',
    });
    return answerOf(deps, outcome, withEntry, { holderName: '', email: '' });
  } catch (error) {
    if (error instanceof SessionUnavailable)
      return refused(deps, error.session, withEntry, { holderName: '', email: '' });
    if (error instanceof NotConnected || error instanceof CardEntryRefused) {
      const page = pageFor(session, deps.clock(), { ...context, entry: await entryOf(deps, session) });
      return pageAnswer({ ...page, status: 400 });
    }
    throw error;
  }
}

/**
 * A field over its limit is answered before anything else is done with the form: nothing is
 * claimed, stored, sent to the acquirer or shown again of it (the page keeps only the other values).
 */
async function overLongAnswer(
  deps: PageDeps,
  token: string,
  form: PostedPayForm,
  context: Context,
  fields: TypedField[],
): Promise<ApiAnswer> {
  const session = await sessionOf(deps, token);
  if (!session) return pageAnswer(unknownPage(context.lang));
  const closed = closedPageFor(session, deps.clock(), true, context.lang);
  if (closed) return pageAnswer(closed);
  const keep = {
    holderName: fields.includes('cardholder_name') ? '' : keptName(form.cardholder_name),
    email: fields.includes('email') ? '' : keptName(form.email),
  };
  return pageAnswer(retryPage(session, context, 400, overLongText(fields, context.lang), keep));
}

/** A posted text the page may show again: clean one-line text, else nothing. */
const keptName = (value: string) => (textRuleOf(value, 'one') === undefined ? value : '');

/** POST /checkout/{token}: the pay form. */
export async function submitPayForm(
  deps: PageDeps,
  token: string,
  form: PostedPayForm,
  lang: Lang = 'en',
): Promise<ApiAnswer> {
  if (!isCheckoutToken(token)) return pageAnswer(unknownPage(lang));
  const now = deps.clock();
  const context = { url: pageUrl(deps.baseUrl, token), lang, now };
  const overLong = overLongFields(form);
  if (overLong.length) return overLongAnswer(deps, token, form, context, overLong);
  const { cardholder_name: holderName, email: postedEmail, csrf_token: csrf } = form;
  // Nothing of a card posted: the form of a page whose card is entered on the acquirer's own page.
  if (!form.card_number && !form.exp_month && !form.exp_year && !form.cvc && !holderName) {
    const answer = await payWithoutCard(deps, token, form, context);
    if (answer) return answer;
  }
  // The name becomes the customer's and goes to the acquirer: one line of clean text.
  const nameOk = holderName !== '' && textRuleOf(holderName, 'one') === undefined;
  const card = validateCard(
    {
      number: form.card_number,
      expMonth: form.exp_month,
      expYear: form.exp_year,
      cvc: form.cvc,
      holderName,
    },
    now,
  );
  // Everything posted is valid: the claim itself checks the session (its state and the CSRF
  // token), so the common path reads nothing first.
  if (card.ok && nameOk && isEmail(postedEmail) && csrfLooksRight(csrf)) {
    return pay(deps, token, card.card, csrf, context, { holderName, email: postedEmail });
  }
  // Otherwise the session decides what to answer: unknown, closed, a wrong token, or the problems.
  const session = await sessionOf(deps, token);
  const email = session?.customer_email ?? postedEmail;
  const keep = { holderName: keptName(holderName), email: keptName(email) };
  if (!session || closedPageFor(session, now, true, lang) || !csrfMatches(session, csrf)) {
    return refused(deps, session, context, keep);
  }
  const problems: string[] = [];
  const texts = formTextsOf(lang);
  if (session.customer_email === null && !isEmail(email)) problems.push(texts.enterEmail);
  if (!holderName) problems.push(texts.enterName);
  else if (!nameOk) problems.push(texts.nameOneLine);
  if (!card.ok) problems.push(cardProblemsText(card.problems, lang));
  if (problems.length || !card.ok)
    return pageAnswer(retryPage(session, context, 400, problems.join(' '), keep));
  // A session that already knows its customer does not ask for the e-mail.
  return pay(deps, token, card.card, csrf, context, keep);
}

/** POST /checkout/{token}/challenge: the cardholder's answer to the challenge the session holds. */
export async function submitChallenge(
  deps: PageDeps,
  token: string | undefined,
  form: PostedChallengeForm,
  lang: Lang = 'en',
): Promise<ApiAnswer> {
  const session = await sessionOf(deps, token);
  if (!session) return pageAnswer(unknownPage(lang));
  const closed = closedPageFor(session, deps.clock(), true, lang);
  if (closed) return pageAnswer(closed);
  const context = { url: pageUrl(deps.baseUrl, session.token), lang, now: deps.clock() };
  // Both fields are bounded by what they must equal: the token by its length (403 otherwise), the
  // outcome by `pass` and `fail` (400 otherwise); neither is stored or shown again.
  if (!csrfMatches(session, form.csrf_token)) {
    return pageAnswer({ ...pageFor(session, deps.clock(), context), status: 403 });
  }
  // No challenge, or one whose attempt recovery gave up (its window passed): nothing to answer.
  if (!session.challenge || !session.attempt_id) return pageAnswer(noChallengePage(session, lang));
  const outcome = form.outcome;
  if (outcome !== 'pass' && outcome !== 'fail')
    return pageAnswer({ ...pageFor(session, deps.clock(), context), status: 400 });
  const keep = { holderName: session.challenge.holder_name, email: session.challenge.email };
  try {
    return answerOf(deps, await answerChallenge(deps, session, outcome), context, keep);
  } catch (error) {
    // The session changed since it was read: deleted with its link, closed, paid, or its challenge
    // answered or given up by someone else. Its state then decides the page, never a 500.
    if (error instanceof SessionUnavailable) {
      if (!error.session) return pageAnswer(unknownPage(lang));
      return pageAnswer(
        closedPageFor(error.session, deps.clock(), true, lang) ?? noChallengePage(error.session, lang),
      );
    }
    throw error;
  }
}

/**
 * GET /checkout/{token}/return: the payer back from the acquirer's own page (Stripe's). What they
 * did there is read back from the acquirer under the attempt's key, never taken from this request
 * (its query is ignored): paid, the page answers as an approved submit does (to the merchant's
 * return_url, or the receipt); still waiting, the page to continue there; closed unpaid, the pay
 * form again. The acquirer not answering leaves the page saying the payment is waiting.
 */
export async function returnFromAcquirer(
  deps: PageDeps,
  token: string | undefined,
  lang: Lang = 'en',
): Promise<ApiAnswer> {
  const session = await sessionOf(deps, token);
  if (!session) return pageAnswer(unknownPage(lang));
  if (session.challenge?.url && session.attempt_id) {
    const attempt = await getAttempt<'checkout'>(deps, session.attempt_id);
    if (attempt && !isFinal(attempt)) {
      try {
        await finishCheckoutAttempt(deps, attempt, deps.clock(), { abandon: false });
      } catch (error) {
        if (!(error instanceof AcquirerUnavailable)) throw error;
      }
    }
  }
  const now = await sessionOf(deps, session.token);
  if (!now) return pageAnswer(unknownPage(lang));
  const context = { url: pageUrl(deps.baseUrl, now.token), lang, now: deps.clock() };
  if (now.status === 'paid' || now.status === 'voided') {
    try {
      return answerOf(deps, await recordedOutcome(deps, now.token), context, { holderName: '', email: '' });
    } catch (error) {
      if (!(error instanceof SessionUnavailable)) throw error;
    }
  }
  return pageAnswer(pageFor(now, deps.clock(), { ...context, entry: await entryOf(deps, now) }));
}
