/**
 * Header lookup by case-insensitive name (RFC 9110 §5.1). API Gateway passes names as the client
 * spelled them, and HTTP/2 clients send them in lower case. A module of its own so the authorizer
 * can use it without the handler middleware.
 */
export function headerOf(
  headers: Record<string, string | undefined> | null | undefined,
  name: string,
): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

/** How long an Idempotency-Key may be, in characters. */
export const idempotencyKeyLength = { min: 1, max: 255 } as const;

/**
 * An Idempotency-Key: printable ASCII without spaces, of idempotencyKeyLength (another is 400). The
 * OpenAPI document shows this pattern as the header's.
 */
export const idempotencyKeyPattern = new RegExp(
  `^[\\x21-\\x7e]{${idempotencyKeyLength.min},${idempotencyKeyLength.max}}$`,
);
