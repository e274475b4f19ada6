/** POST /checkout/{token}: the hosted checkout's pay form; see shared/checkout/submit-http.ts. */
import { checkoutFormBytes, formOf, PayFormSchema } from '../../shared/checkout/schemas.ts';
import { pageDeps, submitPayForm } from '../../shared/checkout/submit-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';
import { sessionOwners } from '../../shared/ledger/owners.ts';

const deps = pageDeps(sessionOwners);

export const handler = publicEndpoint(
  ({ params, body, lang }) => submitPayForm(deps, params.token ?? '', formOf(PayFormSchema, body), lang),
  { maxBodyBytes: checkoutFormBytes },
);
