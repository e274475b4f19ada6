/**
 * POST /checkout/{token}/challenge: the cardholder's answer to the simulated 3-D Secure challenge
 * ("Complete authentication" or "Fail authentication"). Passing pays and redirects like an
 * approval; failing re-renders the pay form with 402.
 */
import { configuredAcquirer } from '../../shared/acquirer/configured.ts';
import {
  csrfMatches,
  formField,
  pageAnswer,
  pageUrl,
  redirectAnswer,
  sessionOf,
} from '../../shared/checkout/http.ts';
import { closedPage, unknownPage } from '../../shared/checkout/pages.ts';
import { SessionUnavailable } from '../../shared/checkout/repository.ts';
import { answerChallenge } from '../../shared/checkout/service.ts';
import { closedPageFor, declinedPage, pageFor, summaryOf } from '../../shared/checkout/views.ts';
import { makeDeps } from '../../shared/deps.ts';
import { eventPublisher } from '../../shared/events/publish.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = { ...makeDeps(), acquirer: configuredAcquirer(), events: eventPublisher() };
const baseUrl = publicBaseUrl();

export const handler = publicEndpoint(async ({ params, body }) => {
  const session = await sessionOf(deps, params.token);
  if (!session) return pageAnswer(unknownPage());
  const closed = closedPageFor(session, deps.clock(), true);
  if (closed) return pageAnswer(closed);
  const context = { url: pageUrl(baseUrl, session.token) };
  if (!csrfMatches(session, formField(body, 'csrf_token'))) {
    return pageAnswer({ ...pageFor(session, deps.clock(), context), status: 403 });
  }
  if (!session.challenge) {
    return pageAnswer(
      closedPage(
        summaryOf(session),
        409,
        'No authentication pending',
        'Go back to the payment page and pay again.',
      ),
    );
  }
  const outcome = formField(body, 'outcome');
  if (outcome !== 'pass' && outcome !== 'fail')
    return pageAnswer({ ...pageFor(session, deps.clock(), context), status: 400 });
  const keep = { holderName: session.challenge.holder_name, email: session.challenge.email };
  try {
    const result = await answerChallenge(deps, session, outcome);
    if (result.kind === 'paid') return redirectAnswer(result.redirect);
    if (result.kind === 'challenge') return pageAnswer(pageFor(result.session, deps.clock(), context));
    return pageAnswer(declinedPage(result.session, deps.clock(), context, result.reason, keep));
  } catch (error) {
    if (error instanceof SessionUnavailable && error.session) {
      const page = closedPageFor(error.session, deps.clock(), true);
      if (page) return pageAnswer(page);
    }
    throw error;
  }
});
