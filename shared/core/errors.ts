/**
 * The typed errors a handler or domain function throws. Each knows its status and how its body
 * reads; one middleware (shared/http/handler.ts) turns them into responses.
 */
import { maxBodyBytes, sizeText } from './limits.ts';
import { type Lang, type MessageId, text } from './messages.ts';

export type EnvelopeType = 'success' | 'info' | 'warning' | 'danger' | 'error';

/** The interface's message envelope; `code` always equals the HTTP status (D12). */
export function envelope(
  code: number,
  id: MessageId,
  lang: Lang,
  options: { type: EnvelopeType; params?: Record<string, string>; data?: unknown },
): Record<string, unknown> {
  const { title, content } = text(id, lang, options.params);
  const body: Record<string, unknown> = { code, title, content, type: options.type };
  if (options.data !== undefined) body.data = options.data;
  return body;
}

export interface ErrorOptions {
  type?: EnvelopeType;
  params?: Record<string, string>;
  /** Wrap the envelope in a top-level `message` field, as some contract errors do. */
  wrapped?: boolean;
  /** Fields added to the envelope beside code, title, content and type (a search's `query`). */
  fields?: Record<string, string>;
  headers?: Record<string, string>;
}

/** An error answered with the contract's message envelope. */
export class HttpError extends Error {
  readonly status: number;
  readonly messageId: MessageId;
  readonly options: ErrorOptions;

  constructor(status: number, messageId: MessageId, options: ErrorOptions = {}) {
    super(messageId);
    this.name = new.target.name;
    this.status = status;
    this.messageId = messageId;
    this.options = options;
  }

  /** The response body in the given language. */
  body(lang: Lang): unknown {
    const message = envelope(this.status, this.messageId, lang, {
      type: this.options.type ?? 'error',
      ...(this.options.params ? { params: this.options.params } : {}),
    });
    Object.assign(message, this.options.fields);
    return this.options.wrapped ? { message } : message;
  }
}

export class BadRequest extends HttpError {
  constructor(messageId: MessageId, options: ErrorOptions = {}) {
    super(400, messageId, options);
  }
}

export class Forbidden extends HttpError {
  constructor(messageId: MessageId, options: ErrorOptions = {}) {
    super(403, messageId, options);
  }
}

export class NotFound extends HttpError {
  constructor(messageId: MessageId = 'not_found', options: ErrorOptions = {}) {
    super(404, messageId, options);
  }
}

export class MethodNotAllowed extends HttpError {
  constructor(method: string, allow: readonly string[]) {
    super(405, 'method_not_allowed', {
      params: { method, allow: allow.join(', ') },
      headers: { Allow: allow.join(', ') },
    });
  }
}

/** 406: a business rule the request would break (the interface's "Not Acceptable" rows). */
export class NotAcceptable extends HttpError {
  constructor(messageId: MessageId, options: ErrorOptions = {}) {
    super(406, messageId, options);
  }
}

export class Conflict extends HttpError {
  constructor(messageId: MessageId, options: ErrorOptions = {}) {
    super(409, messageId, options);
  }
}

/** 429: something done more often than its limit allows; `Retry-After` says in how many seconds it may be again. */
export class TooManyRequests extends HttpError {
  constructor(messageId: MessageId, retryAfterSeconds: number, options: ErrorOptions = {}) {
    super(429, messageId, {
      ...options,
      headers: { ...options.headers, 'Retry-After': String(retryAfterSeconds) },
    });
  }
}

/** A 413 for a body over `limit` bytes (6 MB, the Lambda request limit, unless a route takes less). */
export class PayloadTooLarge extends HttpError {
  constructor(limit = maxBodyBytes) {
    super(413, 'body_too_large', { params: { limit: sizeText(limit) } });
  }
}

/** A 400 for a body or query that failed validation; `detail` names the field and the problem. */
export class ValidationError extends BadRequest {
  constructor(detail: string, options: ErrorOptions = {}) {
    super('validation', { ...options, params: { detail } });
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
