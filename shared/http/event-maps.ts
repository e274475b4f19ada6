/**
 * A proxy event's query and path parameters as handlers read them. Their names come from the
 * client, so they are copied into records with no prototype: `__proto__`, `constructor` or
 * `toString` is then a key like any other, and a name nobody sent reads as undefined, never as
 * something Object.prototype has. Deployed, Lambda hands these maps over as parsed JSON (a
 * `__proto__` is an own property there); the local gateway hands them over the same way.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';

/** The own entries of `source` in a record without a prototype; an absent map is an empty one. */
export function plainMap(
  source: Readonly<Record<string, string | undefined>> | null | undefined,
): Record<string, string | undefined> {
  const map: Record<string, string | undefined> = Object.create(null);
  // On an object without a prototype, assigning `__proto__` defines an ordinary own property.
  for (const [name, value] of Object.entries(source ?? {})) map[name] = value;
  return map;
}

/** The query (one value per name, as API Gateway passes it). */
export const queryOf = (event: Pick<APIGatewayProxyEvent, 'queryStringParameters'>) =>
  plainMap(event.queryStringParameters);

/** The path parameters the route names. */
export const paramsOf = (event: Pick<APIGatewayProxyEvent, 'pathParameters'>) =>
  plainMap(event.pathParameters);
