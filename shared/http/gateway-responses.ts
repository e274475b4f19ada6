/**
 * Answers API Gateway gives by itself, before or instead of a handler. The CDK app configures them
 * as gateway responses; the local gateway renders the same templates, substituting the same
 * `$context` variables.
 */

export interface GatewayAnswer {
  /** API Gateway's response type. */
  type:
    | 'UNAUTHORIZED'
    | 'ACCESS_DENIED'
    | 'MISSING_AUTHENTICATION_TOKEN'
    | 'REQUEST_TOO_LARGE'
    | 'AUTHORIZER_FAILURE'
    | 'AUTHORIZER_CONFIGURATION_ERROR'
    | 'THROTTLED'
    | 'INTEGRATION_TIMEOUT'
    | 'WAF_FILTERED'
    | 'UNSUPPORTED_MEDIA_TYPE'
    | 'RESOURCE_NOT_FOUND'
    | 'QUOTA_EXCEEDED'
    | 'DEFAULT_4XX'
    | 'DEFAULT_5XX';
  statusCode: number;
  /** application/json template; `$context.x.y` variables are substituted. */
  template: string;
  /** Static response headers. @default none */
  headers?: Record<string, string>;
}

// RFC 9110 §11.6.1: a 401 names the schemes that would be accepted.
const challenge = { 'WWW-Authenticate': 'Basic realm=cobro, Bearer realm=cobro' };

const envelope = (code: number, title: string, content: string, extra = '') =>
  `{"code":${code},"title":"${title}","content":"${content}","type":"error"${extra}}`;

const requestId = ',"request_id":"$context.requestId"';

export const gatewayAnswers: readonly GatewayAnswer[] = [
  // No Authorization header: API Gateway does not call the authorizer at all.
  {
    type: 'UNAUTHORIZED',
    statusCode: 401,
    template: '{"detail":"Authentication credentials were not provided."}',
    headers: challenge,
  },
  // The authorizer denies with the exact 401 body of its failure in its context; every denial is a 401.
  { type: 'ACCESS_DENIED', statusCode: 401, template: '$context.authorizer.body', headers: challenge },
  // A path with no resource: API Gateway's own "missing token" answer is really a 404.
  {
    type: 'MISSING_AUTHENTICATION_TOKEN',
    statusCode: 404,
    template: envelope(404, 'Not found', 'The requested resource does not exist.'),
  },
  {
    type: 'REQUEST_TOO_LARGE',
    statusCode: 413,
    template: envelope(413, 'Request too large', 'The request body is larger than 6 MB.'),
  },
  {
    type: 'AUTHORIZER_FAILURE',
    statusCode: 500,
    template: envelope(500, 'Internal server error', 'An unexpected error occurred.', requestId),
  },
  {
    type: 'AUTHORIZER_CONFIGURATION_ERROR',
    statusCode: 500,
    template: envelope(500, 'Internal server error', 'An unexpected error occurred.', requestId),
  },
  {
    type: 'THROTTLED',
    statusCode: 429,
    template: envelope(429, 'Too many requests', 'The request rate is above the limit; retry later.'),
  },
  {
    type: 'INTEGRATION_TIMEOUT',
    statusCode: 504,
    template: envelope(504, 'Gateway timeout', 'The request took too long; retry later.', requestId),
  },
  // Answers that keep their own status, listed so the DEFAULT_4XX catch-all does not turn them into 400.
  {
    type: 'WAF_FILTERED',
    statusCode: 403,
    template: envelope(403, 'Forbidden', 'The request was blocked by the firewall.', requestId),
  },
  {
    type: 'UNSUPPORTED_MEDIA_TYPE',
    statusCode: 415,
    template: envelope(415, 'Unsupported media type', 'This content type is not accepted here.'),
  },
  {
    type: 'RESOURCE_NOT_FOUND',
    statusCode: 404,
    template: envelope(404, 'Not found', 'The requested resource does not exist.'),
  },
  {
    type: 'QUOTA_EXCEEDED',
    statusCode: 429,
    template: envelope(429, 'Too many requests', 'The request quota is used up; retry later.'),
  },
  // Every other 4xx/5xx API Gateway could produce still answers in the contract's envelope.
  {
    type: 'DEFAULT_4XX',
    statusCode: 400,
    template: envelope(400, 'Bad request', 'The request could not be processed.', requestId),
  },
  {
    type: 'DEFAULT_5XX',
    statusCode: 500,
    template: envelope(500, 'Internal server error', 'An unexpected error occurred.', requestId),
  },
];

/** Renders a template with the given context variables, as API Gateway does. */
export function renderGatewayAnswer(
  type: GatewayAnswer['type'],
  context: Record<string, string>,
): { statusCode: number; body: string; headers: Record<string, string> } {
  const answer = gatewayAnswers.find((candidate) => candidate.type === type);
  if (!answer) throw new Error(`no gateway answer for ${type}`);
  const body = answer.template.replace(
    /\$context\.([A-Za-z0-9_.]+)/g,
    (_, name: string) => context[name] ?? '',
  );
  return { statusCode: answer.statusCode, body, headers: answer.headers ?? {} };
}
