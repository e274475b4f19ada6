/**
 * What the authorizer hands to handlers through the request context, and the mode rules
 * (docs/design.md#modes) that turn it, with the `test` query parameter, into the mode a request acts
 * in.
 */
import { Invalid, NotAllowed } from './errors.ts';
import { coreMessages } from './messages.ts';

export type Mode = 'test' | 'live';

/** The mode a `test` flag names (events, the acquirer and bodies carry the flag, records the mode). */
export const modeOf = (test: boolean): Mode => (test ? 'test' : 'live');

/** Whose records, in which mode: every repository call is scoped by it. */
export interface Scope {
  developerId: number;
  mode: Mode;
}

/** The scope a stored record belongs to: every item carries its account and mode. */
export const scopeOf = (record: { developer_id: number; mode: Mode }): Scope => ({
  developerId: record.developer_id,
  mode: record.mode,
});

/** The authenticated caller as handlers see it. */
export interface RequestAccount {
  developerId: number;
  /** `key` for Basic and Api-Key, `token` for Bearer. */
  credential: 'key' | 'token';
  /** The mode a key fixes; null for a bearer token, which carries the account but not a mode. */
  keyMode: Mode | null;
}

/** The authorizer's context (API Gateway passes only strings, numbers and booleans, as strings). */
export function toAuthorizerContext(account: RequestAccount): Record<string, string> {
  return {
    developer_id: String(account.developerId),
    credential: account.credential,
    mode: account.keyMode ?? 'any',
  };
}

/** Reads the authorizer's context; its absence is a wiring fault, not the caller's. */
export function accountFromAuthorizer(context: Record<string, unknown> | null | undefined): RequestAccount {
  const developerId = Number(context?.developer_id);
  const mode = context?.mode;
  const credential = context?.credential;
  if (!Number.isSafeInteger(developerId) || (credential !== 'key' && credential !== 'token')) {
    throw new Error('route reached a handler without the authorizer context');
  }
  return { developerId, credential, keyMode: mode === 'test' || mode === 'live' ? mode : null };
}

/**
 * Parses the `test` query parameter (`true`/`false`, also `1`/`0`); undefined when absent. A blank
 * `test=` is refused like any other value it cannot read: it picks the mode, and read as absent it
 * would quietly mean live to a bearer token.
 */
export function parseTestParam(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const normalized = value.toLowerCase();
  if (normalized === 'true' || normalized === '1') return true;
  if (normalized === 'false' || normalized === '0') return false;
  throw new Invalid(coreMessages.invalid_test_param);
}

/**
 * A key fixes the mode and a contradicting `test` is 403; a bearer token lets `test` choose,
 * live when absent.
 */
export function resolveMode(account: RequestAccount, testParam: string | undefined): Mode {
  const requested = parseTestParam(testParam);
  const requestedMode = requested === undefined ? undefined : modeOf(requested);
  if (account.keyMode) {
    if (requestedMode && requestedMode !== account.keyMode) {
      throw new NotAllowed(coreMessages.mode_conflict, { params: { mode: account.keyMode } });
    }
    return account.keyMode;
  }
  return requestedMode ?? 'live';
}

/** Records never change mode: a `test`/`is_test` in a body must agree with the mode the request acts in. */
export function assertModeFlags(flags: { test?: boolean; is_test?: boolean }, mode: Mode): void {
  for (const field of ['test', 'is_test'] as const) {
    const flag = flags[field];
    if (flag !== undefined && flag !== (mode === 'test')) {
      throw new Invalid(coreMessages.mode_mismatch, { params: { field, mode } });
    }
  }
}
