import { describe, expect, it } from 'vitest';
import * as rules from '../core/rules.ts';
import { InvalidInput, type Problem } from '../core/validation.ts';
import { parsePaymentListQuery } from './list-query.ts';
import { paymentRules } from './messages.ts';

function problemsOf(query: Record<string, string | undefined>): readonly Problem[] {
  try {
    parsePaymentListQuery(query);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInput);
    return (error as InvalidInput).problems;
  }
  throw new Error(`accepted ${JSON.stringify(query)}`);
}

describe('parsePaymentListQuery', () => {
  it('defaults the limit to 100 and sets nothing else', () => {
    expect(parsePaymentListQuery({})).toEqual({ limit: 100 });
    expect(parsePaymentListQuery({ limit: '', created_before: ' ', status: '  ', test: 'true' })).toEqual({
      limit: 100,
    });
  });

  it('reads the limit, taking one above 1000 as 1000', () => {
    expect(parsePaymentListQuery({ limit: ' 7 ' })).toEqual({ limit: 7 });
    expect(parsePaymentListQuery({ limit: '1000' })).toEqual({ limit: 1000 });
    expect(parsePaymentListQuery({ limit: '5000' })).toEqual({ limit: 1000 });
    expect(parsePaymentListQuery({ limit: '99999999999999999999999' })).toEqual({ limit: 1000 });
  });

  it('reads created_before as an ISO time and status lower-cased', () => {
    expect(
      parsePaymentListQuery({ created_before: ' 2024-01-02T03:04:05+01:00 ', status: ' Succeeded ' }),
    ).toEqual({ limit: 100, createdBefore: '2024-01-02T02:04:05.000Z', status: 'succeeded' });
  });

  it.each([
    ['abc', { field: 'limit', rule: rules.integer }],
    ['-1', { field: 'limit', rule: rules.integer }],
    ['1.5', { field: 'limit', rule: rules.integer }],
    ['0', { field: 'limit', rule: rules.min_value, params: { limit: '1' } }],
    ['00', { field: 'limit', rule: rules.min_value, params: { limit: '1' } }],
  ])('refuses limit=%j', (limit, problem) => {
    expect(problemsOf({ limit })).toEqual([problem]);
  });

  it('refuses a created_before that is no time', () => {
    expect(problemsOf({ created_before: 'yesterday' })).toEqual([
      { field: 'created_before', rule: paymentRules.timestamp },
    ]);
  });

  it('reports every bad field at once', () => {
    expect(problemsOf({ limit: '0', created_before: 'x', status: 'whatever' })).toEqual([
      { field: 'limit', rule: rules.min_value, params: { limit: '1' } },
      { field: 'created_before', rule: paymentRules.timestamp },
    ]);
  });
});
