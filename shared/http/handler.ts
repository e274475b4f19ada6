/**
 * The one way a cobro HTTP handler is built: middy middleware first (error boundary, language, body
 * parsing, the account from the authorizer), then a thin function that makes one domain call and
 * returns a typed answer. No handler parses credentials, bodies or errors itself.
 */
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Mode, RequestAccount, Scope } from '../core/account.ts';
import { asInvocation } from '../core/invocation.ts';
import { type Lang, negotiateLang } from '../core/messages.ts';
import { paramsOf, queryOf } from './event-maps.ts';
import { headerOf } from './headers.ts';
import { documentedQueryOnly, errorBoundary, type ParsedEvent, requestParsing } from './middlewares.ts';
import { type ApiAnswer, respond } from './render.ts';

/** What a handler function receives: the request, already parsed. */
export interface ApiRequest {
  event: APIGatewayProxyEvent;
  /** Parsed JSON or form body; the raw string for other content types; undefined when empty. */
  body: unknown;
  query: Record<string, string | undefined>;
  params: Record<string, string | undefined>;
  lang: Lang;
  requestId: string;
}

/** A request to an authenticated route: the account and the mode it acts in are resolved. */
export interface AccountRequest extends ApiRequest {
  account: RequestAccount;
  mode: Mode;
  /** The account and mode together: whose records, in which mode, every repository call reads. */
  scope: Scope;
  /**
   * A POST's `Idempotency-Key`, already claimed by the idempotency middleware. A money
   * movement binds its attempt to it, so a retry of an unconfirmed request finds that attempt.
   */
  idempotencyKey: string | undefined;
}

/** The body the parsing middleware read from this event. */
export const parsedBodyOf = (event: APIGatewayProxyEvent): unknown => (event as ParsedEvent).parsed?.body;

/** A request header by case-insensitive name. */
export function header(event: APIGatewayProxyEvent, name: string): string | undefined {
  return headerOf(event.headers, name);
}

/** The request a handler function sees, from the event and what the middleware parsed. */
export function toRequest(event: APIGatewayProxyEvent): ApiRequest {
  const parsed = (event as ParsedEvent).parsed;
  return {
    event,
    body: parsed?.body,
    query: queryOf(event),
    params: paramsOf(event),
    lang: parsed?.lang ?? negotiateLang(header(event, 'accept-language')),
    requestId: event.requestContext.requestId,
  };
}

export interface EndpointOptions {
  /** Parse the body before the handler runs. @default true */
  parseBody?: boolean;
  /** The largest body the route takes, in bytes; 413 above it. @default maxBodyBytes (6 MB) */
  maxBodyBytes?: number;
  /**
   * Refuse a query parameter the route does not document (./query-names.ts). Only a function routed
   * inside turns it off, to check against the row it routes to. @default true
   */
  documentedQueryOnly?: boolean;
}

/**
 * A middy handler: error boundary, request parsing, the documented query, then `extra` middleware,
 * then `fn`; run as one observed invocation whose correlation id is API Gateway's request id.
 */
export function build(
  fn: (event: APIGatewayProxyEvent) => Promise<ApiAnswer>,
  options: EndpointOptions = {},
  extra: MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>[] = [],
) {
  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>()
    .use(errorBoundary())
    .use(
      requestParsing({
        body: options.parseBody !== false,
        ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
      }),
    );
  if (options.documentedQueryOnly !== false) handler.use(documentedQueryOnly());
  for (const middleware of extra) handler.use(middleware);
  const run = handler.handler(async (event) => respond(event, await fn(event)));
  return (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> =>
    asInvocation(context, event.requestContext?.requestId, () => run(event, context));
}

/** A route without credentials (health, the token endpoint, the fallback). */
export function publicEndpoint(
  fn: (request: ApiRequest) => Promise<ApiAnswer>,
  options: EndpointOptions = {},
) {
  return build((event) => fn(toRequest(event)), options);
}
