/** GET /portal/{token}: the customer portal page (docs/design.md#customer-portal). */
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';
import { showPortal } from '../../shared/portal/http.ts';
import { stagePortalKeys } from '../../shared/portal/service.ts';
import { stageReceiptKeys } from '../../shared/receipts/service.ts';

const receiptKeys = stageReceiptKeys();
const deps = {
  ...makeDeps(),
  keys: stagePortalKeys(),
  baseUrl: publicBaseUrl(),
  receiptKey: () => receiptKeys.sign(),
};

export const handler = publicEndpoint(({ params, lang }) => showPortal(deps, params.token ?? '', lang), {
  parseBody: false,
});
