/**
 * Authenticated routes. Apart from shared/http/handler.ts so that public functions (health, the
 * OpenAPI document, the fallback) do not load the idempotency middleware and, with it, the
 * DynamoDB client at cold start.
 */
import { accountFromAuthorizer, resolveMode } from '../auth/account-context.ts';
import { type AccountRequest, type ApiAnswer, build, parsedBodyOf, toRequest } from './handler.ts';
import { idempotency } from './idempotency.ts';

/**
 * A route behind the authorizer: the handler gets the account and its mode (D3). A POST honours
 * Idempotency-Key (D12) before the handler runs.
 */
export function endpoint(fn: (request: AccountRequest) => Promise<ApiAnswer>) {
  return build(
    (event) => {
      const request = toRequest(event);
      const account = accountFromAuthorizer(event.requestContext.authorizer);
      const mode = resolveMode(account, request.query.test);
      return fn({ ...request, account, mode });
    },
    {},
    [idempotency(parsedBodyOf)],
  );
}
