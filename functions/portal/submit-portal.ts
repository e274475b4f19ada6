/** POST /portal/{token}: a form of the customer portal (cancel, resume, or replace a card); see shared/portal/http.ts. */
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';
import { submitPortal } from '../../shared/portal/http.ts';
import { portalFormBytes, portalFormOf } from '../../shared/portal/schemas.ts';
import { stagePortalKeys } from '../../shared/portal/service.ts';
import { stageReceiptKeys } from '../../shared/receipts/service.ts';

const receiptKeys = stageReceiptKeys();
const deps = {
  ...makeDeps(),
  keys: stagePortalKeys(),
  baseUrl: publicBaseUrl(),
  receiptKey: () => receiptKeys.sign(),
};

export const handler = publicEndpoint(
  ({ params, body, lang }) => submitPortal(deps, params.token ?? '', portalFormOf(body), lang),
  { maxBodyBytes: portalFormBytes },
);
