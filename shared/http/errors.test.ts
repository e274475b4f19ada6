import {
  ProvisionedThroughputExceededException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { NotFound, NotFoundDetail } from '../core/errors.ts';
import { answerOf, isThrottled, statusOf } from './errors.ts';
import { errorBoundary } from './middlewares.ts';

const throttled = () =>
  new ProvisionedThroughputExceededException({
    message: 'The level of configured provisioned throughput for the table was exceeded.',
    $metadata: { httpStatusCode: 400 },
  });

describe('a request the database throttled', () => {
  it('answers 503 with Retry-After in the contract envelope, in the caller language', () => {
    const english = answerOf(throttled(), 'en');
    expect(english?.status).toBe(503);
    expect(english?.headers).toEqual({ 'Retry-After': '1' });
    expect(english?.body).toMatchObject({ code: 503, title: 'Service busy', type: 'error' });
    expect(answerOf(throttled(), 'es')?.body).toMatchObject({ code: 503, title: 'Servicio ocupado' });
    expect(statusOf(throttled())).toBe(503);
  });

  it('includes a transaction cancelled for throughput, and nothing else', () => {
    const cancelled = (code: string) =>
      new TransactionCanceledException({
        message: 'Transaction cancelled',
        $metadata: {},
        CancellationReasons: [{ Code: 'None' }, { Code: code }],
      });
    expect(isThrottled(cancelled('ThrottlingError'))).toBe(true);
    expect(isThrottled(cancelled('ConditionalCheckFailed'))).toBe(false);
    expect(isThrottled(new Error('boom'))).toBe(false);
    expect(isThrottled('ThrottlingException')).toBe(false);
    expect(answerOf(new Error('boom'), 'en')).toBeUndefined();
    expect(statusOf(new Error('boom'))).toBe(500);
  });

  it('reaches the client through the error boundary as 503, not as a 500 with no hint', () => {
    const request = {
      event: {
        headers: {},
        requestContext: { requestId: 'req-1' },
      } as unknown as APIGatewayProxyEvent,
      error: throttled() as Error,
      response: undefined as APIGatewayProxyResult | undefined,
    };
    (errorBoundary().onError as (r: typeof request) => void)(request);
    expect(request.response?.statusCode).toBe(503);
    expect(request.response?.headers?.['Retry-After']).toBe('1');
    expect(JSON.parse(request.response?.body ?? '{}')).toMatchObject({ code: 503, title: 'Service busy' });
  });
});

describe('an absent charge or refund (NotFoundDetail)', () => {
  it('answers 404 with the bare body the contract fixes, the same in every language', () => {
    for (const lang of ['en', 'es'] as const) {
      expect(answerOf(new NotFoundDetail(), lang)).toEqual({ status: 404, body: { detail: 'Not found.' } });
    }
    expect(statusOf(new NotFoundDetail())).toBe(404);
  });

  it('is a NotFound to whatever reads it as one, and leaves the other not-founds in the envelope', () => {
    expect(new NotFoundDetail()).toBeInstanceOf(NotFound);
    expect(answerOf(new NotFound(), 'en')).toMatchObject({ status: 404, body: { code: 404, type: 'error' } });
  });

  it('reaches the client through the error boundary as JSON with the request id', () => {
    const request = {
      event: { headers: {}, requestContext: { requestId: 'req-2' } } as unknown as APIGatewayProxyEvent,
      error: new NotFoundDetail() as Error,
      response: undefined as APIGatewayProxyResult | undefined,
    };
    (errorBoundary().onError as (r: typeof request) => void)(request);
    expect(request.response).toEqual({
      statusCode: 404,
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': 'req-2' },
      body: '{"detail":"Not found."}',
    });
  });
});
