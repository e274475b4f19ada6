/**
 * Every page of the merchant dashboard, one function routed inside (shared/dashboard/router-http.ts):
 * API Gateway sends it everything under /dashboard; the dashboard's rows (shared/dashboard/area.ts)
 * say which page answers each method and path. Its dependencies are made once, here: what any page
 * needs (the acquirer for a refund, the media store for a plan's or a product's form, the portal's
 * keys, the webhook secrets' box, the event catalogue's types, the mailer of an invitation).
 */
import { acquirerDeps } from '../../shared/acquirer/configured.ts';
import { dashboardFunction, dashboardRows } from '../../shared/dashboard/area.ts';
import { dashboardDeps } from '../../shared/dashboard/http.ts';
import { dashboardRouter } from '../../shared/dashboard/router-http.ts';
import { sesMailer } from '../../shared/mail/send.ts';
import { s3MediaStore } from '../../shared/media/store.ts';
import { stagePortalKeys } from '../../shared/portal/service.ts';
import { eventTypesOfEnvironment } from '../../shared/webhooks/endpoint.ts';
import { secretBox } from '../../shared/webhooks/secrets.ts';

const deps = {
  ...dashboardDeps(acquirerDeps()),
  media: s3MediaStore(),
  mailer: sesMailer(),
  portalKeys: stagePortalKeys(),
  secrets: secretBox(),
  eventTypes: eventTypesOfEnvironment(),
};

export const handler = dashboardRouter(deps, dashboardRows(deps.eventTypes), dashboardFunction.prefix);
