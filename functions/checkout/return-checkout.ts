/**
 * GET /checkout/{token}/return: the payer back from Stripe's Checkout page; the outcome is read back
 * from Stripe (see shared/checkout/submit-http.ts returnFromAcquirer).
 */
import { pageDeps, returnFromAcquirer } from '../../shared/checkout/submit-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';
import { sessionOwners } from '../../shared/ledger/owners.ts';

const deps = pageDeps(sessionOwners);

export const handler = publicEndpoint(({ params, lang }) => returnFromAcquirer(deps, params.token, lang), {
  parseBody: false,
});
