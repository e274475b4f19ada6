/**
 * Errors as HTTP answers. The domain's failures (shared/core/errors.ts) get their status here, by
 * kind (an absent charge or refund, NotFoundDetail, with the bare `detail` body the contract fixes
 * for it); the errors about HTTP itself (a method a path does not take, a body too large or that
 * cannot be read) and the other bodies the contract fixes whole (OAuth errors, 401 `detail` bodies)
 * are thrown by the adapters as the classes below. The error boundary and the idempotency middleware
 * both read an error's status from `statusOf`.
 */
import {
  Declined,
  DomainError,
  envelope,
  Failure,
  type FailureKind,
  NotFoundDetail,
  TooOften,
} from '../core/errors.ts';
import { maxBodyBytes, sizeText } from '../core/limits.ts';
import { coreMessages, type Lang, type Message } from '../core/messages.ts';
import { httpMessages } from './messages.ts';
import type { ApiAnswer } from './render.ts';

/** The status that answers each kind of failure. */
const statusOfKind: Record<FailureKind, number> = {
  invalid: 400,
  declined: 402,
  not_allowed: 403,
  not_found: 404,
  // The contract's "Not Acceptable" rows: a business rule the request would break.
  rule_broken: 406,
  conflict: 409,
  too_often: 429,
  refused: 502,
  unconfirmed: 504,
};

/** An error about HTTP itself, answered with a message envelope. */
export class HttpError extends Error {
  readonly status: number;
  readonly msg: Message;
  readonly params: Record<string, string>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    message: Message,
    options: { params?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    super(message.id);
    this.name = new.target.name;
    this.status = status;
    this.msg = message;
    this.params = options.params ?? {};
    this.headers = options.headers ?? {};
  }
}

/** A 400 for a body that cannot be read: not JSON, not a form, nested too deeply. */
export class UnreadableBody extends HttpError {
  constructor(message: Message, params: Record<string, string> = {}) {
    super(400, message, { params });
  }
}

/** A 400 for a body that reads but cannot be taken as it is (`detail` says why), in the validation envelope. */
export class InvalidBody extends HttpError {
  constructor(detail: string) {
    super(400, coreMessages.validation, { params: { detail } });
  }
}

export class MethodNotAllowed extends HttpError {
  constructor(method: string, allow: readonly string[]) {
    super(405, httpMessages.method_not_allowed, {
      params: { method, allow: allow.join(', ') },
      headers: { Allow: allow.join(', ') },
    });
  }
}

/** A 413 for a body over `limit` bytes (6 MB, the Lambda request limit, unless a route takes less). */
export class PayloadTooLarge extends HttpError {
  constructor(limit = maxBodyBytes) {
    super(413, httpMessages.body_too_large, { params: { limit: sizeText(limit) } });
  }
}

/**
 * An error whose body is not a message envelope (OAuth errors, 401 `detail` bodies): the body is
 * given whole, in the shape the contract fixes for that case.
 */
export class RawError extends Error {
  readonly status: number;
  readonly payload: unknown;
  readonly headers: Record<string, string>;

  constructor(status: number, payload: unknown, headers: Record<string, string> = {}) {
    super(`HTTP ${status}`);
    this.name = 'RawError';
    this.status = status;
    this.payload = payload;
    this.headers = headers;
  }
}

/** AWS error names that mean "too many requests right now", whichever service answered them. */
const throttlingNames = new Set([
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'ThrottlingException',
  'TooManyRequestsException',
]);

/**
 * Whether an AWS service still refused for throughput after the SDK's own retries: DynamoDB over a
 * partition's or the account's limit, a transaction cancelled for it, a throttled publish. Such a
 * request is not broken and the service is not down: it answers 503 with `Retry-After`, never a
 * 500. As every 5xx, it leaves an `Idempotency-Key` bound to its request, so a retry under the same
 * key runs the same request again and moves no money twice.
 */
export function isThrottled(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if ((error as { $retryable?: { throttling?: boolean } }).$retryable?.throttling === true) return true;
  if (throttlingNames.has(error.name)) return true;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  return (
    error.name === 'TransactionCanceledException' && !!reasons?.some((r) => r.Code === 'ThrottlingError')
  );
}

/** Seconds a throttled request is told to wait: the SDK has already backed off for about that long. */
export const busyRetryAfterSeconds = 1;

/** The status an error answers; 500 for anything that is no failure the code meant to throw. */
export function statusOf(error: unknown): number {
  if (error instanceof DomainError) return statusOfKind[error.kind];
  if (error instanceof HttpError || error instanceof RawError) return error.status;
  if (isThrottled(error)) return 503;
  return 500;
}

/** A failure's message as the contract's envelope, with its details, wrapped when its message says so. */
function failureBody(error: Failure, lang: Lang): unknown {
  const message = envelope(statusOfKind[error.kind], error.msg, lang, {
    type: error.msg.type ?? 'error',
    params: error.params,
  });
  Object.assign(message, error.details(lang));
  return error.msg.wrapped ? { message } : message;
}

/** The body the contract fixes for an absent charge or refund (NotFoundDetail), in every language. */
const notFoundDetail = { detail: 'Not found.' };

/** The answer to an error, or undefined for anything that is no failure the code meant to throw. */
export function answerOf(error: unknown, lang: Lang): ApiAnswer | undefined {
  if (error instanceof NotFoundDetail) return { status: statusOfKind.not_found, body: notFoundDetail };
  if (error instanceof Failure) {
    // A limit reached says when the request may be made again.
    const headers: Record<string, string> =
      error instanceof TooOften ? { 'Retry-After': String(error.retryAfterSeconds) } : {};
    return { status: statusOfKind[error.kind], body: failureBody(error, lang), headers };
  }
  if (error instanceof Declined) return { status: statusOfKind.declined, body: error.body };
  if (error instanceof HttpError) {
    const body = envelope(error.status, error.msg, lang, { type: 'error', params: error.params });
    return { status: error.status, body, headers: error.headers };
  }
  if (error instanceof RawError) return { status: error.status, body: error.payload, headers: error.headers };
  if (isThrottled(error)) {
    return {
      status: 503,
      body: envelope(503, httpMessages.busy, lang, { type: 'error' }),
      headers: { 'Retry-After': String(busyRetryAfterSeconds) },
    };
  }
  return undefined;
}
