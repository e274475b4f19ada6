/**
 * What a route row is: the data an area declares for each endpoint (shared/<area>/routes.ts), which
 * the CDK app, the local gateway and the OpenAPI document read from the assembled table
 * (shared/api/routes.ts). Types and path matching only: no area, no schema.
 */
import type * as v from 'valibot';
import type { ErrorSchemaName } from '../core/envelopes.ts';
import type { QuerySchema } from '../core/query.ts';
import { percentDecode } from './percent.ts';

/**
 * A DynamoDB API a function calls, as IAM names it. A transaction needs the action of each item
 * kind it holds (PutItem, UpdateItem, DeleteItem, ConditionCheckItem): IAM has no action of its own
 * for TransactWriteItems. Scan reads the whole table: no function on a request path may have it.
 */
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchWriteItem'
  | 'ConditionCheckItem'
  | 'Scan';

/** A global secondary index of the table (shared/db/table.ts). */
export type TableIndex = 'gsi1' | 'gsi2' | 'gsi3';

/** What a function does with the table: the APIs it calls, and the indexes it queries by name. */
export interface TableAccess {
  readonly actions: readonly TableAction[];
  /** Indexes it queries; Query on the table itself is in `actions`. @default none */
  readonly indexes?: readonly TableIndex[];
}

/** What a function may touch; the CDK app grants exactly this and nothing more. */
export interface Access {
  /** DynamoDB table access: exactly these APIs, on the table and the indexes named. @default none */
  table?: TableAccess;
  /** May publish to the event bus. @default false */
  events?: boolean;
  /** May send e-mail through SES. @default false */
  mail?: boolean;
  /** Media bucket access. @default none */
  media?: 'read' | 'write';
  /** Reads the token signing secret. @default false */
  tokenSecret?: boolean;
  /**
   * Reads the secret that keys idempotency fingerprints. The CDK app sets it for every
   * authenticated POST (they all honour Idempotency-Key); rows need not. @default false
   */
  fingerprintSecret?: boolean;
  /** Reads the key that encrypts webhook signing secrets. @default false */
  webhookKey?: boolean;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Request body content types a handler reads. */
export type BodyType = 'application/json' | 'application/x-www-form-urlencoded' | 'multipart/form-data';

/**
 * A response header worth naming: what it carries (always sent with that answer), or that and
 * `sometimes` for one only some answers of the status carry (the PDF's Content-Disposition, not the
 * page's).
 */
export type NamedHeader = string | { description: string; sometimes: true };

/** A success answer: a JSON body in `json`'s shape, another body (`media`), or none (a redirect). */
export interface Answer {
  description: string;
  /** The JSON body; the handler's view is typed from the same schema. @default no JSON body */
  json?: v.GenericSchema;
  /** Media types of a body that is not JSON (an HTML page, an image). @default none */
  media?: readonly string[];
  /** Response headers worth naming, with what they carry. @default none */
  headers?: Readonly<Record<string, NamedHeader>>;
}

/** An error answer: its body is one of the shared error shapes, or an HTML page. */
export interface ErrorAnswer {
  description: string;
  body: ErrorSchemaName | 'html';
  /** Response headers worth naming, with what they carry. @default none */
  headers?: Readonly<Record<string, NamedHeader>>;
}

export interface Route {
  method: HttpMethod;
  /** Path as the contract writes it; `{name}` marks a path parameter. */
  path: string;
  /** Handler module, relative to the project root; it exports `handler`. */
  handler: string;
  /** Unique across the table: the OpenAPI operationId. */
  operationId: string;
  /** Whether the Lambda authorizer guards this route. */
  auth: boolean;
  access: Access;
  /** One line for the OpenAPI document. */
  summary: string;
  /**
   * One or two sentences for the OpenAPI document: what the handler does and what a caller must
   * know beyond the summary (what it stores, what it sends, when it refuses).
   */
  description: string;
  /** Success answers by status, each as the handler sends it. */
  answers: Readonly<Record<number, Answer>>;
  /**
   * Error answers this route has beyond the ones every route of its kind has (shared/api/openapi.ts);
   * a status named here replaces the common one. @default none
   */
  errors?: Readonly<Record<number, ErrorAnswer>>;
  /** The request body the handler validates against, for the OpenAPI document. @default none */
  body?: v.GenericSchema;
  /** Content types the body may come as. @default ['application/json', 'application/x-www-form-urlencoded'] */
  bodyTypes?: readonly BodyType[];
  /**
   * The schema the handler parses its query with (besides `test`); the OpenAPI document lists its
   * parameters from it. @default none
   */
  query?: QuerySchema;
  /** Kept for old clients; the document marks it deprecated. @default false */
  deprecated?: boolean;
  /**
   * Variables its function gets besides those every function gets, known when the table is
   * assembled (the CDK app sets them on the function; the local stack, which runs every handler in
   * one process, sets them for all). @default none
   */
  environment?: Readonly<Record<string, string>>;
}

/** Path segments, without empty ones: `/v1/plans/` and `/v1/plans` are the same resource. */
export function segments(path: string): string[] {
  return path.split('/').filter((part) => part.length > 0);
}

/**
 * Matches a concrete path against a route path; returns its parameters, percent-decoded (a
 * malformed escape never throws: see percentDecode), or null.
 */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = segments(pattern);
  const got = segments(path);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const actual = got[i] as string;
    if (part.startsWith('{') && part.endsWith('}')) params[part.slice(1, -1)] = percentDecode(actual);
    else if (part !== actual) return null;
  }
  return params;
}

/** A route table as the fallback function reads it: methods and paths only, no schemas. */
export type RouteTable = readonly (readonly [HttpMethod, string])[];

export const routeTableOf = (table: readonly Route[]): RouteTable =>
  table.map((route) => [route.method, route.path] as const);

/**
 * A route table as the fallback's environment carries it: each path once, with its methods
 * (`{"/v1/plans/":"GET POST"}`). Lambda's environment holds 4 KB in all; a pair per route would
 * spell every path once per method.
 */
export function encodeRouteTable(table: RouteTable): string {
  const byPath = new Map<string, HttpMethod[]>();
  for (const [method, path] of table) byPath.set(path, [...(byPath.get(path) ?? []), method]);
  return JSON.stringify(Object.fromEntries([...byPath].map(([path, methods]) => [path, methods.join(' ')])));
}

/** The route table encodeRouteTable wrote. */
export function decodeRouteTable(encoded: string): RouteTable {
  const byPath = JSON.parse(encoded) as Record<string, string>;
  return Object.entries(byPath).flatMap(([path, methods]) =>
    methods.split(' ').map((method) => [method as HttpMethod, path] as const),
  );
}

/** The methods a table allows on a path; empty when no route has that path. */
export function allowedMethodsIn(table: RouteTable, path: string): HttpMethod[] {
  return table.filter(([, pattern]) => matchPath(pattern, path) !== null).map(([method]) => method);
}
