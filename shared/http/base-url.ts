/**
 * The origin (and stage prefix) a client used to reach the API, so URLs cobro answers (stored
 * images, later checkout pages) point back at whatever address the client called: the
 * execute-api domain with its stage, a custom domain, or the local gateway.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { headerOf } from './headers.ts';

export function baseUrl(event: APIGatewayProxyEvent): string {
  const proto = headerOf(event.headers, 'x-forwarded-proto') ?? 'http';
  const host = headerOf(event.headers, 'host') ?? event.requestContext.domainName ?? 'localhost';
  // On the execute-api domain the stage comes before the resource path: "/prod" + "/v1/plans".
  const fullPath = event.requestContext.path ?? event.path;
  const prefix = fullPath.endsWith(event.path) ? fullPath.slice(0, fullPath.length - event.path.length) : '';
  return `${proto}://${host}${prefix}`.replace(/\/$/, '');
}
