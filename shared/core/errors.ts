/**
 * The errors rules, services and repositories throw: each says what went wrong (a kind of failure)
 * and carries the message that explains it, with the values the message names. They know nothing
 * of HTTP: the HTTP adapter (shared/http/errors.ts) answers each kind with its status and the
 * message as the contract's envelope.
 */
import { coreMessages, type EnvelopeType, type Lang, type Message, text } from './messages.ts';

/** The contract's message envelope; `code` always equals the HTTP status. */
export function envelope(
  code: number,
  message: Message,
  lang: Lang,
  options: { type: EnvelopeType; params?: Record<string, string>; data?: unknown },
): Record<string, unknown> {
  const { title, content } = text(message, lang, options.params);
  const body: Record<string, unknown> = { code, title, content, type: options.type };
  if (options.data !== undefined) body.data = options.data;
  return body;
}

/**
 * What went wrong, in the domain's words:
 * - `invalid`: the request cannot be done as it stands (a value the rules refuse, a reference to
 *   nothing of the account, an e-mail another customer of the account has, a count at its limit);
 * - `not_allowed`: the caller may not do this;
 * - `not_found`: what the request addresses does not exist;
 * - `declined`: the card was declined;
 * - `rule_broken`: a business rule forbids it in the record's present state;
 * - `conflict`: a record's state or another request stands in the way (taken, still running,
 *   already done, changed meanwhile);
 * - `too_often`: done more often than its limit allows, for now;
 * - `refused`: an outside service (the acquirer) refused it;
 * - `unconfirmed`: an outside service did not answer in time, so the outcome is not known yet.
 */
export type FailureKind =
  | 'invalid'
  | 'not_allowed'
  | 'not_found'
  | 'declined'
  | 'rule_broken'
  | 'conflict'
  | 'too_often'
  | 'refused'
  | 'unconfirmed';

/** Any failure the domain throws on purpose; anything else thrown is a fault. */
export abstract class DomainError extends Error {
  abstract readonly kind: FailureKind;
}

export interface FailureOptions {
  /** Values of the message's `{name}` placeholders. */
  params?: Record<string, string>;
  /** Values the answer shows beside the message (the `query` a search asked). */
  fields?: Record<string, string>;
}

/** A failure explained by one message. */
export abstract class Failure extends DomainError {
  readonly msg: Message;
  readonly params: Record<string, string>;
  readonly fields: Record<string, string>;

  constructor(message: Message, options: FailureOptions = {}) {
    super(message.id);
    this.name = new.target.name;
    this.msg = message;
    this.params = options.params ?? {};
    this.fields = options.fields ?? {};
  }

  /**
   * What the answer shows beside the message's code, title, content and type: a field given here
   * under one of those names replaces it. @default the failure's `fields`
   */
  details(_lang: Lang): Record<string, unknown> {
    return this.fields;
  }
}

export class Invalid extends Failure {
  readonly kind = 'invalid';
}

export class NotAllowed extends Failure {
  readonly kind = 'not_allowed';
}

export class NotFound extends Failure {
  readonly kind = 'not_found';

  constructor(message: Message = coreMessages.not_found, options: FailureOptions = {}) {
    super(message, options);
  }
}

/**
 * What the request addresses does not exist, on a route whose 404 the contract fixes as a bare
 * `{"detail": "Not found."}` rather than the message envelope: a charge's and a refund's own reads.
 * The HTTP adapter answers that body; anything else that reads it as a NotFound gets its message.
 */
export class NotFoundDetail extends NotFound {}

export class RuleBroken extends Failure {
  readonly kind = 'rule_broken';
}

export class Conflict extends Failure {
  readonly kind = 'conflict';
}

/** Done more often than its limit allows; it may be done again in `retryAfterSeconds`. */
export class TooOften extends Failure {
  readonly kind = 'too_often';
  readonly retryAfterSeconds: number;

  constructor(message: Message, retryAfterSeconds: number, options: FailureOptions = {}) {
    super(message, options);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class Refused extends Failure {
  readonly kind = 'refused';
}

export class Unconfirmed extends Failure {
  readonly kind = 'unconfirmed';
}

/**
 * A card declined where the contract answers not with a message but with a body of its own shape
 * (the legacy charge's `payment_failed` error object): `body` is that body, whole.
 */
export class Declined extends DomainError {
  readonly kind = 'declined';
  readonly body: unknown;

  constructor(body: unknown) {
    super('declined');
    this.name = 'Declined';
    this.body = body;
  }
}
