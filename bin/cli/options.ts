/** What every command of the operator CLI shares in reading its options. */
import * as v from 'valibot';

/** A mistake in the command line: cobro prints it on one line, pointing to the command's help, and exits 2. */
export class UsageError extends Error {}

/** `input` as `schema` reads it, or a UsageError naming every problem. */
export function parsedOptions<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, input);
  if (!parsed.success) {
    // Each problem named by the option that carries the field (`--email: email is required`).
    const described = parsed.issues.map((issue) => {
      const key = issue.path?.[0]?.key;
      return typeof key === 'string' ? `--${key.replaceAll('_', '-')}: ${issue.message}` : issue.message;
    });
    throw new UsageError(described.join('; '));
  }
  return parsed.output;
}

/** The time an option names (ISO 8601), `fallback` when it is left out. */
export function timeOption(name: string, value: string | undefined, fallback: Date): Date {
  const time = value === undefined ? fallback : new Date(value);
  if (Number.isNaN(time.getTime())) throw new UsageError(`--${name}: not an ISO 8601 time: ${value}`);
  return time;
}

/** The account `--account` names, undefined when it is left out. */
export function accountOption(value: string | undefined): number | undefined {
  const account = value === undefined ? undefined : Number(value);
  if (account !== undefined && !(Number.isSafeInteger(account) && account > 0))
    throw new UsageError('--account: an account id is a positive integer');
  return account;
}
