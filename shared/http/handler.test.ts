import { describe, expect, it } from 'vitest';
import { negotiateLang, text } from '../core/messages.ts';
import { parseBody } from './body.ts';
import { InvalidBody, PayloadTooLarge, UnreadableBody } from './errors.ts';
import { httpMessages } from './messages.ts';

describe('parseBody', () => {
  it('reads JSON, forms with bracketed keys, and JSON labelled as a form', () => {
    expect(parseBody('{"a":1}', false, 'application/json; charset=utf-8')).toEqual({ a: 1 });
    expect(
      parseBody('customers[0][email]=a%40b.co&type=test', false, 'application/x-www-form-urlencoded'),
    ).toEqual({
      customers: [{ email: 'a@b.co' }],
      type: 'test',
    });
    expect(parseBody('x[]=1&x[]=2&a+b=c%20d', false, 'application/x-www-form-urlencoded')).toEqual({
      x: ['1', '2'],
      'a b': 'c d',
    });
    expect(parseBody('{"type":"live"}', false, 'application/x-www-form-urlencoded')).toEqual({
      type: 'live',
    });
    expect(parseBody(Buffer.from('{"b":2}').toString('base64'), true, 'application/json')).toEqual({ b: 2 });
    expect(parseBody(null, false, 'application/json')).toBeUndefined();
  });

  it('nests percent-encoded brackets as URLSearchParams sends them, and keeps them literal in values', () => {
    const body = new URLSearchParams({
      'customers[0][email]': 'a@b.co',
      'items[0]': 'Mug',
      note: '[x]',
    }).toString();
    expect(body).toContain('%5B');
    expect(parseBody(body, false, 'application/x-www-form-urlencoded')).toEqual({
      customers: [{ email: 'a@b.co' }],
      items: ['Mug'],
      note: '[x]',
    });
  });

  it('refuses malformed JSON, prototype pollution and oversize bodies', () => {
    expect(() => parseBody('{"a":', false, 'application/json')).toThrow(UnreadableBody);
    parseBody(
      '__proto__[admin]=1&constructor[prototype][root]=1',
      false,
      'application/x-www-form-urlencoded',
    );
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect(({} as Record<string, unknown>).root).toBeUndefined();
    expect(() => parseBody('x'.repeat(6 * 1024 * 1024 + 1), false, 'text/plain')).toThrow(PayloadTooLarge);
    // 28 bytes must not become an array of a hundred million slots.
    expect(() => parseBody('customers[99999999][email]=a', false, '')).toThrow(InvalidBody);
    expect(parseBody('a[1]=x&a[0]=y', false, '')).toEqual({ a: ['y', 'x'] });
  });
});

describe('messages', () => {
  it('negotiate the language by q-value and fill placeholders', () => {
    expect(negotiateLang(undefined)).toBe('en');
    expect(negotiateLang('es')).toBe('es');
    expect(negotiateLang('en;q=0.8, es-MX;q=0.9')).toBe('es');
    expect(negotiateLang('de, fr')).toBe('en');
    expect(text(httpMessages.method_not_allowed, 'en', { method: 'PUT', allow: 'GET' }).content).toBe(
      'Method PUT is not allowed here. Allowed: GET.',
    );
  });
});

describe('an API invocation in the logs', () => {
  it("carries API Gateway's request id as its correlation id, and the Lambda context, on every line", async () => {
    const { publicEndpoint } = await import('./handler.ts');
    const { logger } = await import('../core/log.ts');
    const written: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: unknown) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'WARN';
    try {
      const handler = publicEndpoint(
        async () => {
          logger.warn('inside', { probe: 1 });
          throw new Error('boom');
        },
        { parseBody: false },
      );
      const event = {
        headers: {},
        multiValueHeaders: {},
        requestContext: { requestId: 'req-correlated-1' },
      } as never;
      const context = { functionName: 'cobro-fn', awsRequestId: 'lambda-req-1' } as never;
      const answer = await handler(event, context);
      expect(answer.statusCode).toBe(500);
    } finally {
      process.stderr.write = original;
      process.env.LOG_LEVEL = level;
    }
    const lines = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.message)).toEqual(['inside', 'unhandled error']);
    for (const line of lines) {
      expect(line).toMatchObject({
        service: 'cobro',
        correlation_id: 'req-correlated-1',
        function_name: 'cobro-fn',
        function_request_id: 'lambda-req-1',
      });
    }
    expect(lines[1]?.error).toMatchObject({ name: 'Error', message: 'boom' });
  });
});
