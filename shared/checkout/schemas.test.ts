import { describe, expect, it } from 'vitest';
import { sizeText } from '../core/limits.ts';
import { parseBody } from '../http/body.ts';
import { answerOf, PayloadTooLarge } from '../http/errors.ts';
import {
  checkoutFormBytes,
  csrfLooksRight,
  formOf,
  overLongFields,
  PayFormSchema,
  payFormLimits,
} from './schemas.ts';

const form = (fields: Record<string, unknown>) => formOf(PayFormSchema, fields);

describe('overLongFields', () => {
  it('names every typed field over its limit, in the form order', () => {
    expect(overLongFields(form({}))).toEqual([]);
    expect(
      overLongFields(
        form({ cvc: '12345', cardholder_name: 'x'.repeat(201), email: `${'e'.repeat(250)}@x.co` }),
      ),
    ).toEqual(['cardholder_name', 'email', 'cvc']);
  });

  it('takes a CSRF token only of the length every session token has', () => {
    expect(csrfLooksRight('c'.repeat(32))).toBe(true);
    expect(csrfLooksRight('c'.repeat(33))).toBe(false);
    expect(csrfLooksRight('')).toBe(false);
  });

  it('counts characters, not UTF-16 units, and ignores the spaces around a value', () => {
    expect(overLongFields(form({ cardholder_name: '😀'.repeat(200) }))).toEqual([]);
    expect(overLongFields(form({ cardholder_name: '😀'.repeat(201) }))).toEqual(['cardholder_name']);
    expect(overLongFields(form({ card_number: `  ${'4'.repeat(23)}  ` }))).toEqual([]);
  });

  it('fits the pay form at its limits, fully percent-encoded, in the body limit', () => {
    const widest = {
      ...Object.fromEntries(Object.entries(payFormLimits).map(([name, limit]) => [name, '😀'.repeat(limit)])),
      csrf_token: 'c'.repeat(32),
    };
    const body = new URLSearchParams(widest).toString();
    expect(Buffer.byteLength(body)).toBeLessThan(checkoutFormBytes);
    expect(() =>
      parseBody(body, false, 'application/x-www-form-urlencoded', checkoutFormBytes),
    ).not.toThrow();
  });
});

describe('the checkout body limit', () => {
  it('refuses a form body over 16 KB before parsing it, saying the limit', () => {
    const body = `cardholder_name=${'x'.repeat(checkoutFormBytes)}`;
    let thrown: unknown;
    try {
      parseBody(body, false, 'application/x-www-form-urlencoded', checkoutFormBytes);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PayloadTooLarge);
    expect(answerOf(thrown, 'en')?.body).toMatchObject({
      code: 413,
      content: 'The request body is larger than 16 KB.',
    });
    // base64, as API Gateway passes bodies here, is measured the same way.
    const encoded = Buffer.from(body).toString('base64');
    expect(() => parseBody(encoded, true, 'application/x-www-form-urlencoded', checkoutFormBytes)).toThrow(
      PayloadTooLarge,
    );
    expect(sizeText(6 * 1024 * 1024)).toBe('6 MB');
    expect(sizeText(1000)).toBe('1000 bytes');
  });
});
