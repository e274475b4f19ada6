/** GET /dashboard/events/{id}: one event's JSON (shared/dashboard/events-http.ts). */

import { eventPath, showEvent } from '../../shared/dashboard/events-http.ts';
import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(deps, 'events', eventPath, (signed) => showEvent(deps, signed)),
  { parseBody: false },
);
