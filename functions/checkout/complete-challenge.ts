/**
 * POST /checkout/{token}/challenge: the cardholder's answer to the simulated 3-D Secure challenge
 * ("Complete authentication" or "Fail authentication"). Passing pays and redirects like an
 * approval; failing re-renders the pay form with 402.
 */
import { ChallengeFormSchema, checkoutFormBytes, formOf } from '../../shared/checkout/schemas.ts';
import { pageDeps, submitChallenge } from '../../shared/checkout/submit-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';
import { sessionOwners } from '../../shared/ledger/owners.ts';

const deps = pageDeps(sessionOwners);

export const handler = publicEndpoint(
  ({ params, body, lang }) => submitChallenge(deps, params.token, formOf(ChallengeFormSchema, body), lang),
  { maxBodyBytes: checkoutFormBytes },
);
