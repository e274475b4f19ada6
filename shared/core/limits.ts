/** Limits every function shares, whatever its route. */

/** The largest request body, as API Gateway and Lambda take it (the local gateway enforces it too). */
export const maxBodyBytes = 6 * 1024 * 1024;

/** A byte count as people read it in a message: `6 MB`, `16 KB`, `512 bytes`. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}
