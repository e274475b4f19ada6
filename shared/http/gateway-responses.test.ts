import { describe, expect, it } from 'vitest';
import { gatewayAnswers, renderGatewayAnswer } from './gateway-responses.ts';

describe('gateway answers', () => {
  it('render to JSON in the contract shapes, with code equal to the status', () => {
    for (const answer of gatewayAnswers) {
      if (answer.type === 'ACCESS_DENIED') continue; // its body is the authorizer's, checked below
      const { statusCode, body } = renderGatewayAnswer(answer.type, { requestId: 'r-1' });
      const parsed = JSON.parse(body);
      if (answer.type === 'UNAUTHORIZED') expect(parsed).toEqual({ detail: expect.any(String) });
      else expect(parsed.code).toBe(statusCode);
    }
  });

  it('ACCESS_DENIED answers the body the authorizer put in its context, as a 401', () => {
    const body = JSON.stringify({ detail: 'Invalid API key.' });
    expect(renderGatewayAnswer('ACCESS_DENIED', { 'authorizer.body': body })).toEqual({
      statusCode: 401,
      body,
      headers: { 'WWW-Authenticate': expect.stringContaining('Basic') },
    });
  });
});
