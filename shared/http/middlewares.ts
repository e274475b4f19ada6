/**
 * The middy middlewares every cobro function runs: the error boundary, request parsing (language
 * and body), and the single-valued query rule. Each is small and does one thing.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { envelope } from '../core/errors.ts';
import { logger } from '../core/log.ts';
import { coreMessages, type Lang, negotiateLang } from '../core/messages.ts';
import * as rules from '../core/rules.ts';
import { InvalidInput } from '../core/validation.ts';
import { parseBody, parseMultipart } from './body.ts';
import { answerOf } from './errors.ts';
import { headerOf } from './headers.ts';
import { undocumentedQueryNames } from './query-names.ts';
import { respond } from './render.ts';

type Middleware = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>;

/** The event once the parsing middleware has run: what it read travels on the request's event. */
export interface ParsedEvent extends APIGatewayProxyEvent {
  parsed?: { lang: Lang; body: unknown };
}

/** Failures and HTTP errors become the contract's answers (./errors.ts); anything else a logged 500 with no detail. */
export const errorBoundary = (): Middleware => ({
  onError: (request) => {
    const { event, error } = request;
    const lang =
      (event as ParsedEvent).parsed?.lang ?? negotiateLang(headerOf(event.headers, 'accept-language'));
    const answer = answerOf(error, lang);
    if (answer) {
      request.response = respond(event, answer);
      return;
    }
    const requestId = event.requestContext.requestId;
    // Only the error itself is logged: never the body or headers, which may carry keys or card data.
    logger.error('unhandled error', { requestId, error: error as Error });
    request.response = respond(event, {
      status: 500,
      body: { ...envelope(500, coreMessages.internal_error, lang, { type: 'error' }), request_id: requestId },
    });
  },
});

/**
 * The caller's language (Accept-Language), then the body by its Content-Type, 413 above
 * `maxBodyBytes` (6 MB unless the route takes less).
 */
export const requestParsing = (options: { body: boolean; maxBodyBytes?: number }): Middleware => ({
  before: async (request) => {
    const event = request.event as ParsedEvent;
    const lang = negotiateLang(headerOf(event.headers, 'accept-language'));
    event.parsed = { lang, body: undefined };
    if (!options.body) return;
    const contentType = headerOf(event.headers, 'content-type') ?? '';
    event.parsed.body = /^multipart\/form-data/i.test(contentType)
      ? await parseMultipart(event.body, event.isBase64Encoded, contentType, options.maxBodyBytes)
      : parseBody(event.body, event.isBase64Encoded, contentType, options.maxBodyBytes);
  },
});

/**
 * A query parameter the route does not document is 400 naming it, before anything reads the query
 * (./query-names.ts). A function routed inside (the dashboard) runs without it and checks each
 * request against the row it finds instead.
 */
export const documentedQueryOnly = (): Middleware => ({
  before: ({ event }) => {
    const names = undocumentedQueryNames(event);
    if (names.length)
      throw new InvalidInput(names.map((field) => ({ field, rule: rules.undocumented_query })));
  },
});

/**
 * Every query parameter of the API takes one value. API Gateway passes only the last of a repeated
 * one and a bracketed name (`test[]=true`) as another name, so either would be silently ignored (a
 * `?test[]=true` acting on live data): both are 400, before anything reads the query.
 */
export const singleValuedQuery = (): Middleware => ({
  before: ({ event }) => {
    const names = Object.entries(event.multiValueQueryStringParameters ?? {})
      .filter(([name, values]) => /[[\]]/.test(name) || (values?.length ?? 0) > 1)
      .map(([name]) => name);
    for (const name of Object.keys(event.queryStringParameters ?? {}))
      if (/[[\]]/.test(name) && !names.includes(name)) names.push(name);
    if (names.length) throw new InvalidInput(names.map((field) => ({ field, rule: rules.single_value })));
  },
});
