import { accountFromAuthorizer, resolveMode } from '../core/account.ts';
import { type AccountRequest, build, header, parsedBodyOf, toRequest } from './handler.ts';
import { idempotency, idempotencyHeader } from './idempotency.ts';
import { singleValuedQuery } from './middlewares.ts';
import type { ApiAnswer } from './render.ts';

/**
 * A route behind the authorizer: the handler gets the account, the mode it acts in and the two as its
 * scope. A POST or PUT honours Idempotency-Key (docs/design.md#idempotency) before the handler runs.
 */
export function endpoint(fn: (request: AccountRequest) => Promise<ApiAnswer>) {
  return build(
    (event) => {
      const request = toRequest(event);
      const account = accountFromAuthorizer(event.requestContext.authorizer);
      const mode = resolveMode(account, request.query.test);
      const idempotencyKey =
        event.httpMethod === 'POST' || event.httpMethod === 'PUT'
          ? header(event, idempotencyHeader)
          : undefined;
      return fn({
        ...request,
        account,
        mode,
        scope: { developerId: account.developerId, mode },
        idempotencyKey,
      });
    },
    {},
    [singleValuedQuery(), idempotency(parsedBodyOf)],
  );
}
