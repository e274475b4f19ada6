/**
 * POST /checkout/{token}: the pay form (D6). A card that fails its checks re-renders the form
 * with 400, a decline with 402, a card that needs 3-D Secure gets the challenge page, and an
 * approval redirects (303) to the merchant's return_url with `id_payment`. Card data lives only
 * in this request's memory: it is never stored, logged or echoed back into a page.
 */
import type { CardInput } from '../../shared/acquirer/acquirer.ts';
import { validateCard } from '../../shared/acquirer/cards.ts';
import { configuredAcquirer } from '../../shared/acquirer/configured.ts';
import {
  csrfMatches,
  formField,
  isCheckoutToken,
  pageAnswer,
  pageUrl,
  redirectAnswer,
  sessionOf,
} from '../../shared/checkout/http.ts';
import { challengePage, unknownPage } from '../../shared/checkout/pages.ts';
import { SessionUnavailable } from '../../shared/checkout/repository.ts';
import { payWithCard } from '../../shared/checkout/service.ts';
import type { CheckoutSession } from '../../shared/checkout/session.ts';
import {
  cardProblemsText,
  closedPageFor,
  declinedPage,
  retryPage,
  summaryOf,
} from '../../shared/checkout/views.ts';
import { makeDeps } from '../../shared/deps.ts';
import { eventPublisher } from '../../shared/events/publish.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = { ...makeDeps(), acquirer: configuredAcquirer(), events: eventPublisher() };
const baseUrl = publicBaseUrl();
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Context = { url: string };
type Kept = { holderName: string; email: string };

/** Why a claim was refused: no such session, a closed one, or (while open) a wrong CSRF token. */
function refused(session: CheckoutSession | undefined, context: Context, keep: Kept) {
  if (!session) return pageAnswer(unknownPage());
  const closed = closedPageFor(session, deps.clock(), true);
  if (closed) return pageAnswer(closed);
  return pageAnswer(retryPage(session, context, 403, 'This form has expired. Please try again.', keep));
}

async function pay(token: string, card: CardInput, csrf: string, context: Context, keep: Kept) {
  try {
    const outcome = await payWithCard(deps, token, { card, email: keep.email, csrf });
    if (outcome.kind === 'paid') return redirectAnswer(outcome.redirect);
    if (outcome.kind === 'challenge') {
      return pageAnswer(
        challengePage(summaryOf(outcome.session), {
          action: `${context.url}/challenge`,
          csrf: outcome.session.csrf,
          returnUrl: outcome.session.return_url,
        }),
      );
    }
    return pageAnswer(declinedPage(outcome.session, deps.clock(), context, outcome.reason, keep));
  } catch (error) {
    if (error instanceof SessionUnavailable) return refused(error.session, context, keep);
    throw error;
  }
}

export const handler = publicEndpoint(async ({ params, body }) => {
  const token = params.token ?? '';
  if (!isCheckoutToken(token)) return pageAnswer(unknownPage());
  const now = deps.clock();
  const context = { url: pageUrl(baseUrl, token) };
  const holderName = formField(body, 'cardholder_name').trim();
  const postedEmail = formField(body, 'email').trim();
  const csrf = formField(body, 'csrf_token');
  const card = validateCard(
    {
      number: formField(body, 'card_number'),
      expMonth: formField(body, 'exp_month'),
      expYear: formField(body, 'exp_year'),
      cvc: formField(body, 'cvc'),
      holderName,
    },
    now,
  );
  // Everything posted is valid: the claim itself checks the session (its state and the CSRF
  // token), so the common path reads nothing first.
  if (card.ok && holderName && emailPattern.test(postedEmail)) {
    return pay(token, card.card, csrf, context, { holderName, email: postedEmail });
  }
  // Otherwise the session decides what to answer: unknown, closed, a wrong token, or the problems.
  const session = await sessionOf(deps, token);
  const email = session?.customer_email ?? postedEmail;
  const keep = { holderName, email };
  if (!session || closedPageFor(session, now, true) || !csrfMatches(session, csrf)) {
    return refused(session, context, keep);
  }
  const problems: string[] = [];
  if (session.customer_email === null && !emailPattern.test(email))
    problems.push('Enter a valid email address.');
  if (!holderName) problems.push('Enter the cardholder name.');
  if (!card.ok) problems.push(cardProblemsText(card.problems));
  if (problems.length || !card.ok)
    return pageAnswer(retryPage(session, context, 400, problems.join(' '), keep));
  // A session that already knows its customer does not ask for the e-mail.
  return pay(token, card.card, csrf, context, keep);
});
