/**
 * The local API Gateway: turns HTTP requests into REST API (v1 proxy) events, runs the real
 * authorizer with API Gateway's cache semantics (one result per Authorization value for 60 s, Allow
 * and Deny alike) and invokes the real handler modules. Routes, the fallback and the gateway's own
 * answers all come from the same tables the CDK app reads.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import {
  authorizer,
  binaryMediaTypes,
  fallback,
  findRoute,
  routedFunctionOf,
  routes,
} from '../../shared/api/routes.ts';
import { maxBodyBytes } from '../../shared/core/limits.ts';
import { type GatewayAnswer, renderGatewayAnswer } from '../../shared/http/gateway-responses.ts';
import { headerOf } from '../../shared/http/headers.ts';
import { matchPath } from '../../shared/http/route.ts';
import { type Invoker, inProcess } from './lambda.ts';
import { BodyTooLarge, listenOnLoopback, readBody } from './server.ts';

export interface GatewayOptions {
  /** Project root the handler paths are relative to. */
  root: string;
  /** 0 picks a free port. */
  port: number;
  /** Milliseconds clock for the authorizer cache. @default Date.now */
  now?: () => number;
  /** Runs the functions. @default the handler modules under `root`, in this process */
  invoke?: Invoker;
  /**
   * Called after each request, for an access log. `resource` is the template of the route the
   * request reached (`/checkout/{token}`), never the path itself (see `loggedResource`).
   */
  onRequest?: (line: { method: string; resource: string; status: number; ms: number }) => void;
  /**
   * Local pages at fixed paths of the API's origin, each redirecting (GET) to wherever its part
   * listens now (the SES emulator's inbox moves to a free port when its own is taken), the rest of
   * the path and the query kept. No such path exists deployed. @default none
   */
  localPages?: Readonly<Record<string, () => string | undefined>>;
}

export interface LocalGateway {
  url: string;
  server: Server;
  close(): Promise<void>;
}

interface CachedDecision {
  expiresAt: number;
  result: APIGatewayAuthorizerResult;
}

const stage = 'local';
const maxCachedDecisions = 10_000;
const apiId = 'local';

/**
 * Name → values of a request's headers or query, in arrival order. A Map, not an object: a client
 * names these, and `__proto__`, `constructor` or `toString` must be names like any other.
 */
function collect(pairs: Iterable<readonly [string, string]>) {
  const values = new Map<string, string[]>();
  for (const [name, value] of pairs) {
    const list = values.get(name);
    if (list) list.push(value);
    else values.set(name, [value]);
  }
  // Object.fromEntries defines each name as an own property, `__proto__` included.
  return {
    single: Object.fromEntries([...values].map(([name, list]) => [name, list.at(-1) as string])),
    multi: Object.fromEntries(values),
  };
}

/** Headers as API Gateway passes them: original casing, last value wins, plus the multi-value form. */
function collectHeaders(request: IncomingMessage) {
  const pairs: [string, string][] = [];
  for (let i = 0; i < request.rawHeaders.length; i += 2)
    pairs.push([request.rawHeaders[i] as string, request.rawHeaders[i + 1] as string]);
  const { single, multi } = collect(pairs);
  return { headers: single, multiValueHeaders: multi };
}

function collectQuery(url: URL) {
  if (!url.search) return { queryStringParameters: null, multiValueQueryStringParameters: null };
  const { single, multi } = collect(url.searchParams);
  return { queryStringParameters: single, multiValueQueryStringParameters: multi };
}

/** Whether API Gateway would pass a body of this type base64-encoded (wildcards as it reads them). */
function isBinary(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const [major] = type.split('/');
  return (binaryMediaTypes as readonly string[]).some(
    (pattern) => pattern === '*/*' || pattern === type || pattern === `${major}/*`,
  );
}

/**
 * An event as Lambda hands it to a function: JSON, parsed. Handlers then see exactly the shape a
 * deployed stage gives them (plain objects, a `__proto__` header an own property), not this
 * process's objects.
 */
const asDelivered = <T>(event: T): T => JSON.parse(JSON.stringify(event)) as T;

/** A placeholder for any path no route has, as the deployed API's fallback resource is named. */
const anyPath = '/{proxy+}';

/**
 * What the access log names for a request: the template of the route it reached, as the deployed
 * access log names `$context.resourcePath` (infra/api.ts logs the standard JSON fields), never the
 * request's path or query. Paths carry capability tokens (a checkout, the portal, a receipt), and a
 * log line holding one would hand the page to whoever reads the log. A path with a route of another
 * method is named by that route (the deployed fallback method sits on the same resource); a local
 * page by its prefix; any other path by the placeholder, since even its first segment may be a token.
 */
function loggedResource(method: string, pathname: string, localPage: string | undefined): string {
  if (localPage !== undefined) return pathname === localPage ? localPage : `${localPage}${anyPath}`;
  const routed = routedTarget(pathname);
  if (routed) return routed.resource;
  const found = findRoute(method, pathname)?.route ?? routes.find((route) => matchPath(route.path, pathname));
  return found?.path ?? anyPath;
}

/**
 * A path a routed function serves (the dashboard), as API Gateway hands it over: the prefix's own
 * resource, or `<prefix>/{proxy+}` with the rest of the path, as it came, in `proxy`.
 */
function routedTarget(pathname: string) {
  const routed = routedFunctionOf(pathname);
  if (!routed) return undefined;
  const rest = pathname.slice(routed.prefix.length + 1);
  return rest
    ? { handler: routed.handler, resource: `${routed.prefix}${anyPath}`, pathParameters: { proxy: rest } }
    : { handler: routed.handler, resource: routed.prefix, pathParameters: null };
}

/** Does an IAM-style resource pattern (with `*`) cover this method ARN? */
function covers(pattern: string, arn: string): boolean {
  const regex = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return regex.test(arn);
}

function allows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  const statements = result.policyDocument?.Statement ?? [];
  const matching = statements.filter((statement) => {
    const resources = 'Resource' in statement ? [statement.Resource].flat() : [];
    return resources.some((resource) => typeof resource === 'string' && covers(resource, methodArn));
  });
  return matching.some((s) => s.Effect === 'Allow') && !matching.some((s) => s.Effect === 'Deny');
}

/** Starts the gateway on 127.0.0.1. */
export async function startGateway(options: GatewayOptions): Promise<LocalGateway> {
  const now = options.now ?? Date.now;
  const invoke = options.invoke ?? inProcess(options.root);
  const cache = new Map<string, CachedDecision>();

  function send(response: ServerResponse, result: APIGatewayProxyResult, requestId: string) {
    const headers: Record<string, string | string[]> = { 'x-amzn-RequestId': requestId };
    for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
    for (const [name, values] of Object.entries(result.multiValueHeaders ?? {}))
      headers[name] = values.map(String);
    const body = result.isBase64Encoded
      ? Buffer.from(result.body ?? '', 'base64')
      : Buffer.from(result.body ?? '');
    response.writeHead(result.statusCode, headers);
    response.end(body);
  }

  function gatewayAnswer(
    type: GatewayAnswer['type'],
    requestId: string,
    context: Record<string, string> = {},
  ) {
    const { statusCode, body, headers } = renderGatewayAnswer(type, { requestId, ...context });
    return { statusCode, headers: { 'Content-Type': 'application/json', ...headers }, body };
  }

  async function authorize(
    event: APIGatewayProxyEvent,
    authorization: string,
    methodArn: string,
  ): Promise<APIGatewayAuthorizerResult> {
    const cached = cache.get(authorization);
    if (cached && cached.expiresAt > now()) return cached.result;
    const result = (await invoke(
      authorizer.handler,
      asDelivered({
        type: 'REQUEST',
        methodArn,
        resource: event.resource,
        path: event.path,
        httpMethod: event.httpMethod,
        headers: event.headers,
        multiValueHeaders: event.multiValueHeaders,
        queryStringParameters: event.queryStringParameters,
        multiValueQueryStringParameters: event.multiValueQueryStringParameters,
        pathParameters: event.pathParameters,
        stageVariables: null,
        requestContext: event.requestContext,
      }),
    )) as APIGatewayAuthorizerResult;
    // Bounded, unlike a Map left to grow with every distinct header a client sends: oldest out first.
    if (cache.size >= maxCachedDecisions) cache.delete(cache.keys().next().value as string);
    cache.set(authorization, { expiresAt: now() + authorizer.cacheTtlSeconds * 1000, result });
    return result;
  }

  /** The local page whose path (or a path below it) a GET names, if any. */
  function localPagePrefix(method: string, url: URL): string | undefined {
    if (method !== 'GET' && method !== 'HEAD') return undefined;
    return Object.keys(options.localPages ?? {}).find(
      (prefix) => url.pathname === prefix || url.pathname.startsWith(`${prefix}/`),
    );
  }

  /** Where a GET of a local page's path (or below it) is sent, if it is one. */
  function localPageOf(method: string, url: URL): string | undefined {
    const prefix = localPagePrefix(method, url);
    const base = prefix === undefined ? undefined : options.localPages?.[prefix]?.();
    if (prefix === undefined || !base) return undefined;
    return `${base.replace(/\/$/, '')}${url.pathname.slice(prefix.length) || '/'}${url.search}`;
  }

  async function handle(
    request: IncomingMessage,
  ): Promise<{ result: APIGatewayProxyResult; requestId: string; resource: string }> {
    const requestId = randomUUID();
    const method = (request.method ?? 'GET').toUpperCase();
    const url = new URL(request.url ?? '/', 'http://localhost');
    const resource = loggedResource(method, url.pathname, localPagePrefix(method, url));
    return { result: await answer(request, requestId, method, url), requestId, resource };
  }

  /** What API Gateway would answer: a gateway response, a local page's redirect or the function's. */
  async function answer(
    request: IncomingMessage,
    requestId: string,
    method: string,
    url: URL,
  ): Promise<APIGatewayProxyResult> {
    let raw: Buffer;
    try {
      raw = await readBody(request, maxBodyBytes);
    } catch (error) {
      if (error instanceof BodyTooLarge) return gatewayAnswer('REQUEST_TOO_LARGE', requestId);
      throw error;
    }
    const page = localPageOf(method, url);
    if (page) return { statusCode: 302, headers: { Location: page }, body: '' };
    const { headers, multiValueHeaders } = collectHeaders(request);
    const binary = isBinary(headerOf(headers, 'content-type'));
    // A routed function takes every method under its prefix (its ANY methods), before any route.
    const routed = routedTarget(url.pathname);
    const found = routed ? undefined : findRoute(method, url.pathname);
    const resource = routed?.resource ?? (found ? found.route.path.replace(/(.)\/$/, '$1') : '/{proxy+}');
    const event: APIGatewayProxyEvent = {
      resource,
      path: url.pathname,
      httpMethod: method,
      headers,
      multiValueHeaders,
      ...collectQuery(url),
      pathParameters: routed
        ? routed.pathParameters
        : found
          ? found.params
          : { proxy: url.pathname.slice(1) },
      stageVariables: null,
      body: raw.length === 0 ? null : binary ? raw.toString('base64') : raw.toString('utf8'),
      isBase64Encoded: raw.length > 0 && binary,
      requestContext: {
        accountId: '000000000000',
        apiId,
        authorizer: null,
        protocol: 'HTTP/1.1',
        httpMethod: method,
        identity: {
          sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
          userAgent: headerOf(headers, 'user-agent') ?? null,
        } as APIGatewayProxyEvent['requestContext']['identity'],
        // As behind a custom domain: no stage prefix in front of the path.
        path: url.pathname,
        stage,
        requestId,
        requestTimeEpoch: Date.now(),
        resourceId: 'local',
        resourcePath: resource,
      },
    };
    const handlerEntry = routed?.handler ?? (found ? found.route.handler : fallback.handler);
    if (found?.route.auth) {
      const authorization = headerOf(headers, authorizer.identityHeader);
      // As in API Gateway: without the identity source the authorizer is not even called.
      if (!authorization) return gatewayAnswer('UNAUTHORIZED', requestId);
      const methodArn = `arn:aws:execute-api:us-east-1:000000000000:${apiId}/${stage}/${method}${resource}`;
      let decision: APIGatewayAuthorizerResult;
      try {
        decision = await authorize(event, authorization, methodArn);
      } catch {
        return gatewayAnswer('AUTHORIZER_FAILURE', requestId);
      }
      const context = Object.fromEntries(
        Object.entries(decision.context ?? {}).map(([key, value]) => [key, String(value)]),
      );
      if (!allows(decision, methodArn)) {
        const variables = Object.fromEntries(
          Object.entries(context).map(([key, value]) => [`authorizer.${key}`, value]),
        );
        return gatewayAnswer('ACCESS_DENIED', requestId, variables);
      }
      event.requestContext.authorizer = { ...context, principalId: decision.principalId };
    }
    try {
      const result = (await invoke(handlerEntry, asDelivered(event))) as APIGatewayProxyResult;
      if (!result || typeof result.statusCode !== 'number') throw new Error('malformed proxy result');
      return result;
    } catch (error) {
      console.error(`[gateway] ${handlerEntry} failed: ${(error as Error).message}`);
      return gatewayAnswer('DEFAULT_5XX', requestId);
    }
  }

  const server = createServer((request, response) => {
    const started = performance.now();
    handle(request)
      .then(({ result, requestId, resource }) => {
        send(response, result, requestId);
        options.onRequest?.({
          method: request.method ?? '',
          resource,
          status: result.statusCode,
          ms: performance.now() - started,
        });
      })
      .catch((error: Error) => {
        console.error(`[gateway] ${error.message}`);
        const requestId = randomUUID();
        send(response, gatewayAnswer('DEFAULT_5XX', requestId), requestId);
      });
  });
  server.keepAliveTimeout = 65_000;
  const port = await listenOnLoopback(server, options.port);
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
