/**
 * How an answer leaves a handler: JSON in the contract's envelopes, an HTML page (the hosted
 * checkout) or bytes (an image), each with the request id.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';

/** What a handler function returns. */
export interface ApiAnswer {
  status: number;
  /** Answered as JSON. */
  body?: unknown;
  /** Answered as these bytes instead (an image); set its Content-Type in `headers`. */
  bytes?: Uint8Array;
  /** Answered as an HTML page instead (the hosted checkout). */
  html?: string;
  headers?: Record<string, string>;
}

const jsonHeaders = { 'Content-Type': 'application/json; charset=utf-8' };

export function respond(event: APIGatewayProxyEvent, answer: ApiAnswer): APIGatewayProxyResult {
  if (answer.html !== undefined) {
    return {
      statusCode: answer.status,
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'X-Request-Id': event.requestContext.requestId,
        ...answer.headers,
      },
      body: answer.html,
    };
  }
  if (answer.bytes) {
    return {
      statusCode: answer.status,
      headers: { 'X-Request-Id': event.requestContext.requestId, ...answer.headers },
      body: Buffer.from(answer.bytes).toString('base64'),
      isBase64Encoded: true,
    };
  }
  // No body (a redirect): no Content-Type claims one.
  const typed = answer.body === undefined ? {} : jsonHeaders;
  return {
    statusCode: answer.status,
    headers: { ...typed, 'X-Request-Id': event.requestContext.requestId, ...answer.headers },
    body: answer.body === undefined ? '' : JSON.stringify(answer.body),
  };
}
