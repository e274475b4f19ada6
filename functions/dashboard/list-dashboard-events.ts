/** GET /dashboard/events: the events list as a page (shared/dashboard/events-http.ts). */

import { showEvents } from '../../shared/dashboard/events-http.ts';
import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';
import { eventTypesOfEnvironment } from '../../shared/webhooks/endpoint.ts';

const deps = { ...dashboardDeps(), eventTypes: eventTypesOfEnvironment() };

export const handler = publicEndpoint(
  signedInPage(
    deps,
    'events',
    () => 'events',
    (signed) => showEvents(deps, signed),
  ),
  { parseBody: false },
);
