/**
 * GET /checkout/{token}: the hosted checkout page (docs/design.md#checkout), or why the session can
 * no longer be paid. Also GET /checkout/{token}/challenge, which a browser opens when the cardholder
 * re-enters the address a challenge answer posted to: the same page, so the challenge while one is
 * pending. A saved card's page (a card session from the customer portal) shows the new card and
 * links back to the portal page it came from.
 */
import { cardEntryOf, getConnection } from '../../shared/acquirer/connection.ts';
import { pageAnswer, sessionOf } from '../../shared/checkout/http.ts';
import { unknownPage } from '../../shared/checkout/pages.ts';
import { pageUrl } from '../../shared/checkout/session.ts';
import { pageFor } from '../../shared/checkout/views.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';
import { cardSavedOf } from '../../shared/portal/saved.ts';
import { stagePortalKeys } from '../../shared/portal/service.ts';

const deps = makeDeps();
const baseUrl = publicBaseUrl();
const portalKeys = stagePortalKeys();

export const handler = publicEndpoint(
  async ({ params, lang }) => {
    const session = await sessionOf(deps, params.token);
    if (!session) return pageAnswer(unknownPage(lang));
    // How the session's mode takes a card now (cobro's form, Stripe's page, or none), read with
    // what a saved card's page shows.
    const [connection, saved] = await Promise.all([
      getConnection(deps, session.developer_id, session.mode),
      session.kind === 'card' && session.status === 'paid'
        ? cardSavedOf(deps, portalKeys, baseUrl, session)
        : undefined,
    ]);
    // The pay form speaks the payer's language (their browser's Accept-Language), English by default.
    return pageAnswer(
      pageFor(session, deps.clock(), {
        url: pageUrl(baseUrl, session.token),
        lang,
        entry: cardEntryOf(connection, session.mode),
        ...(saved ? { cardSaved: saved } : {}),
      }),
    );
  },
  { parseBody: false },
);
