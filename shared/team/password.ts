/**
 * Dashboard passwords (docs/design.md#team-sign-in): at least 12 characters, stored only as an
 * Argon2id hash made by hash-wasm (a maintained WebAssembly build of the reference implementation:
 * it runs the same in Node on any machine and in an arm64 Lambda, with no native add-on to build).
 * The cost is OWASP's recommended minimum for Argon2id: 19 MiB of memory, 2 passes, 1 lane, about
 * 50 ms per hash on one core, so an offline guesser pays the same per guess. The encoded form
 * (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`) carries its parameters, so raising them later leaves
 * every stored hash verifiable.
 */
import { randomBytes } from 'node:crypto';
import { argon2id, argon2Verify } from 'hash-wasm';

export const passwordMinLength = 12;
/** Longer is refused: a password field is no place for a megabyte, and the hash reads all of it. */
export const passwordMaxLength = 256;

const cost = { parallelism: 1, iterations: 2, memorySize: 19_456, hashLength: 32 } as const;

/** Why a new password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): 'too_short' | 'too_long' | undefined {
  const length = [...password].length;
  if (length < passwordMinLength) return 'too_short';
  if (length > passwordMaxLength) return 'too_long';
  return undefined;
}

/** The stored form of a password: an encoded Argon2id hash with its own random salt. */
export const hashPassword = (password: string): Promise<string> =>
  argon2id({ password, salt: randomBytes(16), ...cost, outputType: 'encoded' });

/** Made once per process: what an unknown e-mail's password is checked against, so it takes as long. */
let decoy: Promise<string> | undefined;

/**
 * Whether `password` is the one `hash` was made from. Without a hash (no such user, or one who never
 * set a password) a decoy hash is checked all the same and false answered, so the time taken tells
 * nobody whether the e-mail is a user's.
 */
export async function passwordMatches(password: string, hash: string | undefined): Promise<boolean> {
  if ([...password].length > passwordMaxLength) return false;
  // An empty password is no user's (hash-wasm refuses to hash one): the decoy is checked instead.
  if (!hash || password === '') {
    decoy ??= hashPassword(randomBytes(16).toString('hex'));
    await argon2Verify({ password: password || '\u0000', hash: await decoy });
    return false;
  }
  return argon2Verify({ password, hash });
}
