/** GET /checkout/{token}: the hosted checkout page (D6), or why the session can no longer be paid. */
import { pageAnswer, pageUrl, sessionOf } from '../../shared/checkout/http.ts';
import { unknownPage } from '../../shared/checkout/pages.ts';
import { pageFor } from '../../shared/checkout/views.ts';
import { makeDeps } from '../../shared/deps.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = makeDeps();

export const handler = publicEndpoint(
  async ({ params, event }) => {
    const session = await sessionOf(deps, params.token);
    if (!session) return pageAnswer(unknownPage());
    return pageAnswer(pageFor(session, deps.clock(), { url: pageUrl(event, session.token) }));
  },
  { parseBody: false },
);
