import type { APIGatewayProxyEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as rules from '../core/rules.ts';
import { InvalidInput } from '../core/validation.ts';
import { parseBody } from './body.ts';
import { paramsOf, plainMap, queryOf } from './event-maps.ts';
import { toRequest } from './handler.ts';
import { headerOf } from './headers.ts';
import { singleValuedQuery } from './middlewares.ts';

/** Read through a variable: written out, `map.__proto__` reads as the accessor it usually is. */
const proto = '__proto__';
const objectNames = [proto, 'constructor', 'toString', 'valueOf', 'hasOwnProperty'];

/** An event as Lambda delivers one: parsed from JSON, so `__proto__` is an own property. */
function deliveredEvent(fields: Record<string, unknown>): APIGatewayProxyEvent {
  const base = {
    resource: '/x',
    path: '/x',
    httpMethod: 'GET',
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: 'r-1' },
  };
  return JSON.parse(JSON.stringify({ ...base, ...fields })) as APIGatewayProxyEvent;
}

const pairs = (value: (name: string) => unknown) =>
  Object.fromEntries(objectNames.map((name) => [name, value(name)]));

describe('the query and path parameters of an event', () => {
  it('keep a name such as __proto__ as plain data and read unsent names as undefined', () => {
    const sent = JSON.parse('{"__proto__":"a","constructor":"b"}') as Record<string, string>;
    const map = plainMap(sent);
    expect(map[proto]).toBe('a');
    expect(map.constructor).toBe('b');
    expect(Object.keys(map)).toEqual(['__proto__', 'constructor']);
    // Nothing inherited: an unsent name is absent by every test a handler might use.
    expect(map.toString).toBeUndefined();
    expect('toString' in map).toBe(false);
    expect('hasOwnProperty' in map).toBe(false);
    expect(Object.hasOwn(map, '__proto__')).toBe(true);
    // Nothing leaked onto Object.prototype.
    expect(({} as Record<string, unknown>).a).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(plainMap(null)).toEqual({});
  });

  it('are what toRequest gives a handler, whatever names the client chose', () => {
    const event = deliveredEvent({
      queryStringParameters: pairs((name) => `q-${name}`),
      pathParameters: { id: 'p-1' },
    });
    const request = toRequest(event);
    for (const name of objectNames) expect(request.query[name]).toBe(`q-${name}`);
    expect(request.params.id).toBe('p-1');
    expect(request.params.toString).toBeUndefined();
    expect(request.params.constructor).toBeUndefined();
    expect(toRequest(deliveredEvent({})).query.valueOf).toBeUndefined();
    expect(queryOf(event)[proto]).toBe('q-__proto__');
    expect(paramsOf(deliveredEvent({})).hasOwnProperty).toBeUndefined();
  });

  it('headers named like object properties are found by name, and unsent ones are not', () => {
    const headers = JSON.parse('{"__proto__":"p","Constructor":"c"}') as Record<string, string>;
    expect(headerOf(headers, '__proto__')).toBe('p');
    expect(headerOf(headers, 'constructor')).toBe('c');
    expect(headerOf(headers, 'toString')).toBeUndefined();
    expect(headerOf({}, 'hasOwnProperty')).toBeUndefined();
  });

  it('a repeated or bracketed query name is 400 naming it, whatever the name', () => {
    const middleware = singleValuedQuery();
    for (const name of objectNames) {
      const repeated = deliveredEvent({
        queryStringParameters: { [name]: 'b' },
        multiValueQueryStringParameters: { [name]: ['a', 'b'] },
      });
      let thrown: unknown;
      try {
        middleware.before?.({ event: repeated } as never);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(InvalidInput);
      expect((thrown as InvalidInput).problems).toEqual([{ field: name, rule: rules.single_value }]);
      const once = deliveredEvent({
        queryStringParameters: { [name]: 'a' },
        multiValueQueryStringParameters: { [name]: ['a'] },
      });
      expect(() => middleware.before?.({ event: once } as never)).not.toThrow();
    }
  });

  it('bodies keep such names as fields and touch no prototype', () => {
    for (const name of objectNames) {
      const json = parseBody(`{"${name}":{"polluted":true}}`, false, 'application/json') as object;
      expect(Object.keys(json)).toEqual([name]);
      const form = parseBody(`${name}=a&${name}[polluted]=1`, false, '') as object;
      expect(Object.keys(form)).toContain(name);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
