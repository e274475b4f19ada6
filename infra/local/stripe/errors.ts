/** Stripe's error envelope, as the stand-in answers it: `{"error": {type, code, message, …}}`. */

export interface StripeErrorBody {
  type: 'invalid_request_error' | 'card_error' | 'api_error' | 'idempotency_error';
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  charge?: string;
  payment_intent?: unknown;
  payment_method?: unknown;
}

/** A request Stripe would refuse, with the status and envelope it would answer. */
export class StripeFailure extends Error {
  readonly status: number;
  readonly body: StripeErrorBody;

  constructor(status: number, body: StripeErrorBody) {
    super(body.message);
    this.status = status;
    this.body = body;
  }
}

/** 400 invalid_request_error. */
export function invalidRequest(message: string, fields: Omit<StripeErrorBody, 'type' | 'message'> = {}) {
  return new StripeFailure(400, { type: 'invalid_request_error', message, ...fields });
}

/**
 * An id that names nothing this key may see: 404 for the id in the URL, 400 with `param` for an id
 * given as a parameter, as Stripe answers.
 */
export function noSuch(objectName: string, id: string, param?: string) {
  return new StripeFailure(param === undefined ? 404 : 400, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${objectName}: '${id}'`,
    ...(param === undefined ? {} : { param }),
    doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
  });
}

/** What an unknown path or method answers. */
export function unrecognizedUrl(method: string, path: string) {
  return new StripeFailure(404, {
    type: 'invalid_request_error',
    message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
  });
}

/** Stripe's server-side failure: what the `down` and `error500` faults answer. */
export function apiError(status: 500 | 503) {
  return new StripeFailure(status, {
    type: 'api_error',
    message:
      status === 503
        ? 'Stripe is temporarily unavailable (stand-in fault: down). Nothing was done; retry later.'
        : 'An unknown error occurred (stand-in fault: error500). Nothing was done.',
  });
}
