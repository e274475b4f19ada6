/**
 * POST /checkout/{token}: the pay form (D6). A card that fails its checks re-renders the form
 * with 400, a decline with 402, a card that needs 3-D Secure gets the challenge page, and an
 * approval redirects (303) to the merchant's return_url with `id_payment`. Card data lives only
 * in this request's memory: it is never stored, logged or echoed back into a page.
 */
import { validateCard } from '../../shared/acquirer/cards.ts';
import { configuredAcquirer } from '../../shared/acquirer/configured.ts';
import {
  csrfMatches,
  formField,
  pageAnswer,
  pageUrl,
  redirectAnswer,
  sessionOf,
} from '../../shared/checkout/http.ts';
import { challengePage, unknownPage } from '../../shared/checkout/pages.ts';
import { SessionUnavailable } from '../../shared/checkout/repository.ts';
import { payWithCard } from '../../shared/checkout/service.ts';
import {
  cardProblemsText,
  closedPageFor,
  declinedPage,
  retryPage,
  summaryOf,
} from '../../shared/checkout/views.ts';
import { makeDeps } from '../../shared/deps.ts';
import { eventPublisher } from '../../shared/events/publish.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = { ...makeDeps(), acquirer: configuredAcquirer(), events: eventPublisher() };
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const handler = publicEndpoint(async ({ params, body, event }) => {
  const session = await sessionOf(deps, params.token);
  if (!session) return pageAnswer(unknownPage());
  const now = deps.clock();
  const closed = closedPageFor(session, now, true);
  if (closed) return pageAnswer(closed);
  const context = { url: pageUrl(event, session.token) };
  const holderName = formField(body, 'cardholder_name').trim();
  const email = session.customer_email ?? formField(body, 'email').trim();
  const keep = { holderName, email };
  if (!csrfMatches(session, formField(body, 'csrf_token'))) {
    return pageAnswer(retryPage(session, context, 403, 'This form has expired. Please try again.', keep));
  }
  const problems: string[] = [];
  if (session.customer_email === null && !emailPattern.test(email))
    problems.push('Enter a valid email address.');
  if (!holderName) problems.push('Enter the cardholder name.');
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
  if (!card.ok) problems.push(cardProblemsText(card.problems));
  if (problems.length || !card.ok)
    return pageAnswer(retryPage(session, context, 400, problems.join(' '), keep));

  try {
    const outcome = await payWithCard(deps, session, { card: card.card, email });
    if (outcome.kind === 'paid') return redirectAnswer(outcome.redirect);
    if (outcome.kind === 'challenge') {
      return pageAnswer(
        challengePage(summaryOf(outcome.session), {
          action: `${context.url}/challenge`,
          csrf: outcome.session.csrf,
          returnOrigin: new URL(outcome.session.return_url).origin,
        }),
      );
    }
    return pageAnswer(declinedPage(outcome.session, deps.clock(), context, outcome.reason, keep));
  } catch (error) {
    if (error instanceof SessionUnavailable && error.session) {
      const page = closedPageFor(error.session, deps.clock(), true);
      if (page) return pageAnswer(page);
    }
    throw error;
  }
});
