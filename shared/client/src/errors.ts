/**
 * A non-2xx answer as a thrown error: its status and the body cobro answered, typed by the error
 * bodies the OpenAPI document declares.
 */
import type { components } from './generated/openapi.ts';

type Schemas = components['schemas'];

/** cobro's message envelope `{code, title, content, type, data?, request_id?}`: most errors answer it. */
export type MessageEnvelope = Schemas['MessageEnvelope'];

/**
 * Every error body the document declares: the message envelope, the envelope nested in `message`
 * (with the `query` of a customer search that matched nothing), `{detail}` (an absent charge or
 * refund, and the 401s), the `error` object (the token endpoint, the legacy charge's 402).
 */
export type CobroErrorBody =
  | Schemas['MessageEnvelope']
  | Schemas['WrappedMessageEnvelope']
  | Schemas['SearchNoMatch']
  | Schemas['DetailError']
  | Schemas['ErrorObject']
  | Schemas['AuthenticationError'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isEnvelope = (value: unknown): value is MessageEnvelope =>
  isObject(value) &&
  typeof value.code === 'number' &&
  typeof value.title === 'string' &&
  typeof value.content === 'string' &&
  typeof value.type === 'string';

/** A non-2xx answer of the API. */
export class CobroError<TBody extends CobroErrorBody = CobroErrorBody> extends Error {
  override readonly name = 'CobroError';
  /** The HTTP status. */
  readonly status: number;
  /** The answer's JSON body, or undefined when it was not JSON (an HTML page, nothing). */
  readonly body: TBody | undefined;
  /** The answer's headers (`Retry-After` on 429 and 503, `Allow` on 405). */
  readonly headers: Headers;
  readonly method: string;
  readonly url: string;

  constructor(response: Response, body: unknown, method: string) {
    const parsed = isObject(body) ? (body as TBody) : undefined;
    super(`${method} ${response.url} answered ${response.status}: ${describe(parsed)}`);
    this.status = response.status;
    this.body = parsed;
    this.headers = response.headers;
    this.method = method;
    this.url = response.url;
  }

  /** The message envelope of the answer, flat or nested in `message`; undefined for other bodies. */
  get envelope(): MessageEnvelope | undefined {
    const body: unknown = this.body;
    if (isEnvelope(body)) return body;
    if (isObject(body) && isEnvelope(body.message)) return body.message;
    return undefined;
  }

  /** The request id of a 500, to quote when reporting it. */
  get requestId(): string | undefined {
    return this.envelope?.request_id;
  }
}

function describe(body: CobroErrorBody | undefined): string {
  if (!body) return 'no JSON body';
  if ('title' in body) return `${body.title}: ${body.content}`;
  if ('message' in body) return `${body.message.title}: ${body.message.content}`;
  if ('error' in body) return body.error.message;
  return body.detail;
}

/** Whether `error` is a CobroError, of `status` when given. */
export function isCobroError(error: unknown, status?: number): error is CobroError {
  return error instanceof CobroError && (status === undefined || error.status === status);
}
