/** POST /checkout/{token}: the hosted checkout's pay form (D6); see shared/checkout/submit-http.ts. */
import { formOf, PayFormSchema } from '../../shared/checkout/schemas.ts';
import { pageDeps, submitPayForm } from '../../shared/checkout/submit-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';
import { linkPages } from '../../shared/payment-links/page.ts';

const deps = pageDeps(linkPages);

export const handler = publicEndpoint(({ params, body }) =>
  submitPayForm(deps, params.token ?? '', formOf(PayFormSchema, body)),
);
