/**
 * Authenticated routes. Apart from shared/http/handler.ts so that public functions (health, the
 * OpenAPI document, the fallback) do not load the idempotency middleware and, with it, the
 * DynamoDB client at cold start.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { accountFromAuthorizer, resolveMode } from '../auth/account-context.ts';
import { type AccountRequest, type ApiAnswer, build, parsedBodyOf, toRequest } from './handler.ts';
import { idempotency } from './idempotency.ts';
import { InvalidInput } from './validation.ts';

/**
 * Every query parameter of the API takes one value. API Gateway passes only the last of a repeated
 * one and a bracketed name (`test[]=true`) as another name, so either would be silently ignored (a
 * `?test[]=true` acting on live data): both are 400, before anything reads the query.
 */
const singleValuedQuery = (): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: ({ event }) => {
    const names = Object.entries(event.multiValueQueryStringParameters ?? {})
      .filter(([name, values]) => /[[\]]/.test(name) || (values?.length ?? 0) > 1)
      .map(([name]) => name);
    for (const name of Object.keys(event.queryStringParameters ?? {}))
      if (/[[\]]/.test(name) && !names.includes(name)) names.push(name);
    if (names.length) throw new InvalidInput(names.map((field) => ({ field, rule: 'single_value' })));
  },
});

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
    [singleValuedQuery(), idempotency(parsedBodyOf)],
  );
}
