/**
 * GET /checkout/{token}: the hosted checkout page (docs/design.md#checkout), or why the session can
 * no longer be paid. Also GET /checkout/{token}/challenge, which a browser opens when the cardholder
 * re-enters the address a challenge answer posted to: the same page, so the challenge while one is
 * pending.
 */
import { pageAnswer, sessionOf } from '../../shared/checkout/http.ts';
import { unknownPage } from '../../shared/checkout/pages.ts';
import { pageUrl } from '../../shared/checkout/session.ts';
import { pageFor } from '../../shared/checkout/views.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = makeDeps();
const baseUrl = publicBaseUrl();

export const handler = publicEndpoint(
  async ({ params, lang }) => {
    const session = await sessionOf(deps, params.token);
    if (!session) return pageAnswer(unknownPage(lang));
    // The pay form speaks the payer's language (their browser's Accept-Language), English by default.
    return pageAnswer(pageFor(session, deps.clock(), { url: pageUrl(baseUrl, session.token), lang }));
  },
  { parseBody: false },
);
