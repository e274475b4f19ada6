/** Limits every function shares, whatever its route. */

/** The largest request body, as API Gateway and Lambda take it (the local gateway enforces it too). */
export const maxBodyBytes = 6 * 1024 * 1024;
