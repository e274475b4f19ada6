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
