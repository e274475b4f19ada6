/**
 * The request bodies of the OpenAPI document bound each field as the server checks it: each bound
 * read from the document is checked here against the schema or check the handler uses, on both
 * sides of it, so a bound the server does not keep (or one it keeps and the document omits) fails.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { TokenRequestSchema } from '../auth/schemas.ts';
import { clientCredentials } from '../auth/token-http.ts';
import { currencyCodes, findCurrency } from '../core/money/currencies.ts';
import { amountField, assertMinimum } from '../core/money/fields.ts';
import { plainText } from '../core/validation.ts';
import { CreateCustomerSchema, UpdateCustomerSchema } from '../customers/schemas.ts';
import { idempotencyKeyPattern } from '../http/headers.ts';
import { newPlan } from '../plans/plan.ts';
import { CreatePlanSchema } from '../plans/schemas.ts';
import { CreateSubscriptionSchema } from '../subscriptions/schemas.ts';
import { CreateTaxSchema } from '../taxes/tax.ts';
import { openApiDocument } from './openapi.ts';

// biome-ignore lint/suspicious/noExplicitAny: the document is read at arbitrary paths
const doc = openApiDocument('https://api.example.test') as Record<string, any>;
const bodyOf = (path: string, method: string) =>
  doc.paths[path][method].requestBody.content['application/json'].schema;

const plan = {
  name: 'Gold',
  currency: 'USD',
  amount: '10.00',
  interval: 'month',
  interval_count: 1,
};
const accepts = (schema: v.GenericSchema, body: unknown) => v.safeParse(schema, body).success;

describe('OpenAPI request bodies', () => {
  it("bound interval_count and trial_period_days as a plan's checks do", () => {
    const { interval_count: count, trial_period_days: trial } = bodyOf('/v1/plans/', 'post').properties;
    expect([count.minimum, count.maximum]).toEqual([1, 36]);
    expect([trial.minimum, trial.maximum]).toEqual([0, 730]);
    expect(accepts(CreatePlanSchema, { ...plan, interval_count: count.minimum })).toBe(true);
    expect(accepts(CreatePlanSchema, { ...plan, interval_count: count.maximum })).toBe(true);
    expect(accepts(CreatePlanSchema, { ...plan, interval_count: count.minimum - 1 })).toBe(false);
    expect(accepts(CreatePlanSchema, { ...plan, interval_count: String(count.maximum + 1) })).toBe(false);
    expect(accepts(CreatePlanSchema, { ...plan, trial_period_days: trial.maximum + 1 })).toBe(false);
  });

  it("bound a yearly plan's interval_count as newPlan does", () => {
    const yearly = bodyOf('/v1/plans/', 'post').allOf.find(
      (condition: { if: { properties?: Record<string, unknown> } }) => condition.if.properties?.interval,
    );
    expect(yearly.if.properties.interval.const).toBe('year');
    const most = yearly.then.properties.interval_count.maximum;
    expect(most).toBe(3);
    const create = (interval_count: number) =>
      newPlan(v.parse(CreatePlanSchema, { ...plan, interval: 'year', interval_count }), {
        developerId: 1,
        mode: 'test',
        now: new Date(),
        image: null,
      });
    expect(create(most).interval_count).toBe(most);
    expect(() => create(most + 1)).toThrow();
  });

  it('list the currencies the checks take, and the plan interval, as enums', () => {
    for (const [path, field] of [
      ['/v1/plans/', 'currency'],
      ['/v1/payment-links/', 'currency'],
      ['/v1/products/', 'currency'],
      ['/v1/payments/', 'currency'],
    ] as const) {
      const codes = bodyOf(path, 'post').properties[field].enum;
      expect(codes, path).toEqual([...currencyCodes]);
      for (const code of codes) expect(findCurrency(code), code).toBeDefined();
    }
    expect(accepts(CreatePlanSchema, { ...plan, currency: 'XXX' })).toBe(false);
    expect(bodyOf('/v1/plans/', 'post').properties.interval.enum).toEqual(['month', 'year']);
    expect(bodyOf('/v1/payment-links/{id}/', 'put').properties.status.enum).toContain('pending_period');
  });

  it("bound a tax's value as its check does: 0 to 100, text of at most 4 decimals", () => {
    const [number, text] = bodyOf('/v1/taxes/', 'post').properties.value.anyOf;
    // A JSON number with more decimals reaches the check as its text, and is refused: a step of 0.0001.
    expect(number).toEqual({ type: 'number', minimum: 0, maximum: 100, multipleOf: 0.0001 });
    const pattern = new RegExp(text.pattern);
    for (const value of [number.minimum, number.maximum, 13.5]) {
      expect(accepts(CreateTaxSchema, { name: 'VAT', value }), String(value)).toBe(true);
    }
    for (const value of [number.maximum + 0.0001, -1]) {
      expect(accepts(CreateTaxSchema, { name: 'VAT', value }), String(value)).toBe(false);
    }
    for (const value of ['0', '13.5', '100', '100.0000', '099.9999', ' 7 ']) {
      expect(pattern.test(value), value).toBe(true);
      expect(accepts(CreateTaxSchema, { name: 'VAT', value }), value).toBe(true);
    }
    for (const value of ['100.0001', '101', '1000', '13.12345', '-1', '1e2', '', '\n4.5', '4.5\t']) {
      expect(pattern.test(value), value).toBe(false);
      expect(accepts(CreateTaxSchema, { name: 'VAT', value }), value).toBe(false);
    }
  });

  it.each([
    ['/v1/payment-links/', 'amount', true],
    ['/v1/payments/', 'amount', true],
    ['/v1/plans/', 'amount', false],
    ['/v1/products/', 'price', false],
  ])(
    'bound the amount of POST %s per currency as the service checks it (USD when absent)',
    (path, field, least) => {
      const body = bodyOf(path, 'post');
      const conditions = (body.allOf as { if: { properties?: Record<string, unknown> } }[]).filter(
        (condition) => !condition.if.properties?.interval,
      ) as unknown as {
        if: { properties?: { currency: { const: string } } };
        then: {
          properties: Record<
            string,
            { anyOf: [{ minimum: number; maximum: number; multipleOf: number }, { pattern: string }] }
          >;
        };
      }[];
      expect(conditions).toHaveLength(currencyCodes.length + 1);
      for (const condition of conditions) {
        const code = condition.if.properties?.currency.const ?? 'USD';
        const currency = findCurrency(code);
        if (!currency) throw new Error(`no currency ${code}`);
        const [number, text] = (
          condition.then.properties[field] as (typeof condition.then.properties)[string]
        ).anyOf;
        const takes = (amount: unknown) => {
          try {
            const minor = amountField(amount, currency);
            if (least) assertMinimum(minor, currency);
            return true;
          } catch {
            return false;
          }
        };
        const step = 10 ** -currency.precision;
        // A JSON number in steps of the currency's smallest unit: more decimals are refused.
        expect(number.multipleOf, code).toBe(step);
        expect(takes(String(number.minimum)), code).toBe(true);
        expect(takes((number.minimum - step).toFixed(currency.precision)), code).toBe(false);
        expect(takes(number.maximum.toFixed(currency.precision)), code).toBe(true);
        expect(takes((number.maximum + step).toFixed(currency.precision)), code).toBe(false);
        const pattern = new RegExp(text.pattern);
        const tooPrecise = `5.${'1'.repeat(currency.precision + 1)}`;
        expect(pattern.test(tooPrecise), code).toBe(false);
        expect(takes(tooPrecise), code).toBe(false);
        expect(
          pattern.test(`2000${currency.precision ? `.${'5'.repeat(currency.precision)}` : ''}`),
          code,
        ).toBe(true);
        // Text is what parseAmount takes: not zero, no tab or line break, no more digits than the largest.
        for (const amount of ['0', '00', '-5', '1'.repeat(13)]) {
          expect(pattern.test(amount), `${code} ${JSON.stringify(amount)}`).toBe(false);
          expect(() => amountField(amount, currency), `${code} ${JSON.stringify(amount)}`).toThrow();
        }
        // A tab or line break is not one line of text (plainText refuses it before the amount is read).
        for (const amount of ['\t5', '5\n']) {
          expect(pattern.test(amount), `${code} ${JSON.stringify(amount)}`).toBe(false);
          expect(v.safeParse(plainText(), amount).success).toBe(false);
        }
        for (const amount of [
          ' 7 ',
          '0007',
          currency.precision ? `0.${'0'.repeat(currency.precision - 1)}1` : '1',
        ]) {
          expect(pattern.test(amount), `${code} ${JSON.stringify(amount)}`).toBe(true);
          expect(amountField(amount, currency), `${code} ${JSON.stringify(amount)}`).toBeGreaterThan(0);
        }
      }
    },
  );

  it('mark the e-mail fields the server checks as addresses with format email', () => {
    expect(bodyOf('/v1/customers/', 'post').properties.email.format).toBe('email');
    expect(bodyOf('/v1/customers/{id}/', 'put').properties.email.format).toBe('email');
    const reference = bodyOf('/v1/payment-links/', 'post').properties.customers.items.anyOf[1];
    expect(reference.properties.email.anyOf[0].format).toBe('email');
    const customer = { first_name: 'Ana', last_name: 'Mora', email: 'not-an-address' };
    expect(accepts(CreateCustomerSchema, customer)).toBe(false);
    expect(accepts(CreateCustomerSchema, { ...customer, email: 'ana@example.com' })).toBe(true);
  });

  it('show the photo as a file, metadata as an object or null, and grant_type as required', () => {
    const photo =
      doc.paths['/v1/customers/{id}/photo/'].put.requestBody.content['multipart/form-data'].schema;
    expect(photo.properties.photo).toMatchObject({ type: 'string', format: 'binary' });
    for (const [path, method] of [
      ['/v1/customers/', 'post'],
      ['/v1/customers/{id}/', 'put'],
    ] as const) {
      expect(bodyOf(path, method).properties.metadata.anyOf, path).toEqual([
        { type: 'object', propertyNames: { minLength: 1 } },
        { type: 'null' },
      ]);
    }
    // The table stores no map with an empty key, at any depth.
    for (const metadata of [[1], 'text', 3, { '': 'x' }, { a: [{ '': 1 }] }]) {
      expect(accepts(UpdateCustomerSchema, { metadata }), JSON.stringify(metadata)).toBe(false);
    }
    expect(accepts(UpdateCustomerSchema, { metadata: { plan: 'gold' } })).toBe(true);
    expect(accepts(UpdateCustomerSchema, { metadata: null })).toBe(true);
    const token = bodyOf('/authentication/token/', 'post');
    expect(token.required).toEqual(['grant_type']);
    expect(token.properties.grant_type.enum).toEqual(['client_credentials']);
    // The schema lets it be absent so the handler answers the OAuth error; the handler refuses it.
    expect(accepts(TokenRequestSchema, {})).toBe(true);
    expect(() => clientCredentials({ client_id: 'a', client_secret: 'b' }, undefined)).toThrow();
    expect(() =>
      clientCredentials({ grant_type: 'password', client_id: 'a', client_secret: 'b' }, undefined),
    ).toThrow();
  });

  it('give Idempotency-Key the pattern and length the middleware checks', () => {
    const header = doc.paths['/v1/plans/'].post.parameters.find(
      (parameter: { name: string }) => parameter.name === 'Idempotency-Key',
    );
    expect(header.schema).toEqual({
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: idempotencyKeyPattern.source,
    });
    const pattern = new RegExp(header.schema.pattern);
    for (const key of ['a', 'order-42:retry', '~'.repeat(255)]) expect(pattern.test(key), key).toBe(true);
    for (const key of ['', 'has space', 'tab\there', 'ñ', 'x'.repeat(256)])
      expect(pattern.test(key), key).toBe(false);
  });

  it('list the 404 of a page past the last on every paged list, and the flat 400 of key rotation', () => {
    const paged = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods as Record<string, { parameters?: { name: string }[] }>)
        .filter(([, operation]) => operation.parameters?.some((parameter) => parameter.name === 'page'))
        .map(([method]) => [path, method] as const),
    );
    expect(paged.map(([path]) => path)).toEqual(
      expect.arrayContaining([
        '/v1/subscriptions',
        '/v1/payment-links/',
        '/v1/webhook-endpoints/',
        '/v1/webhook-endpoints/{id}/deliveries/',
        '/v1/events/',
      ]),
    );
    for (const [path, method] of paged) {
      const notFound = doc.paths[path][method].responses['404'];
      expect(notFound?.description, path).toMatch(/page past the last/);
    }
    const rotate = doc.paths['/v1/auth/api-keys/'].patch.responses['400'];
    expect(rotate.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/WrappedOrMessageEnvelope',
    );
    expect(doc.components.schemas.WrappedOrMessageEnvelope.anyOf).toHaveLength(2);
  });

  it('state what the checks refuse that the conformance fuzz met: digits, blanks, references, files', () => {
    const accepted = (schema: Record<string, unknown>, value: unknown) => {
      const choices = (schema.anyOf ?? [schema]) as { type: string; pattern?: string; maximum?: number }[];
      return choices.some((choice) =>
        choice.type === 'string'
          ? typeof value === 'string' && new RegExp(choice.pattern ?? '').test(value)
          : typeof value === 'number' && value <= (choice.maximum ?? Number.POSITIVE_INFINITY),
      );
    };
    // An integer sent as digits is bounded as a JSON number is.
    const trial = bodyOf('/v1/subscriptions', 'post').properties.trial_days;
    const subscription = { plan_id: 'p', return_url: 'https://shop.example.com/' };
    for (const days of ['730', '731', '80608', 730, 731]) {
      expect(accepted(trial, days), String(days)).toBe(
        accepts(CreateSubscriptionSchema, { ...subscription, trial_days: days }),
      );
    }
    // A trimmed text that may not be empty has a character other than a space.
    const name = bodyOf('/v1/customers/', 'post').properties.first_name;
    expect(name.pattern).toBe('\\S');
    expect(accepts(CreateCustomerSchema, { first_name: '  ', last_name: 'L', email: 'a@b.co' })).toBe(false);
    // A return URL has the form parseWebUrl takes.
    const returnUrl = new RegExp(bodyOf('/v1/payments/', 'post').properties.return_url.pattern);
    expect(returnUrl.test('https://shop.example.com/thanks?order=1')).toBe(true);
    expect(returnUrl.test('tfIxlY5UaA0JRMaEEkYdf9LRZ48')).toBe(false);
    // A refund's amount is positive, with at most the decimals any currency has.
    const refund = bodyOf('/v1/refunds/', 'post').properties.amount;
    expect(new RegExp(refund.anyOf[1].pattern).test('WLxTev')).toBe(false);
    expect(refund.anyOf[0].minimum).toBeGreaterThan(0);
    // A customer object of a payment link names an id, or has the three fields filled.
    const reference = bodyOf('/v1/payment-links/', 'post').properties.customers.items.anyOf[1];
    expect(reference.anyOf.map((choice: { required: string[] }) => choice.required)).toEqual([
      ['id'],
      ['customer'],
      ['first_name', 'last_name', 'email'],
    ]);
    // Files come only in multipart: a JSON or form product has no file fields.
    const product = doc.paths['/v1/products/'].post.requestBody.content;
    expect(product['multipart/form-data'].schema.properties.image_default.format).toBe('binary');
    expect(product['application/json'].schema.properties).not.toHaveProperty('image_default');
    expect(product['application/json'].schema.properties).not.toHaveProperty('images');
    const update = doc.paths['/v1/products/{id}/'].put.requestBody.content['application/json'].schema;
    expect(update.properties.default.enum).toEqual(['-1', '-remove-']);
    // The checkout's forms list the fields the pages post, not any object.
    const pay =
      doc.paths['/checkout/{token}'].post.requestBody.content['application/x-www-form-urlencoded'].schema;
    expect(pay.required).toEqual(expect.arrayContaining(['csrf_token', 'card_number', 'exp_year', 'cvc']));
    expect(new RegExp(pay.properties.card_number.pattern).test('4242424242424242')).toBe(true);
    const challenge =
      doc.paths['/checkout/{token}/challenge'].post.requestBody.content['application/x-www-form-urlencoded']
        .schema;
    expect(challenge.properties.outcome.enum).toEqual(['pass', 'fail']);
    // A filtered list that matches nothing, and an e-mail already taken, are 400s the document names.
    expect(doc.paths['/v1/plans/'].get.responses['400'].description).toMatch(/no plan matches/);
    expect(doc.paths['/v1/customers/'].post.responses['400'].description).toMatch(/e-mail is already/);
  });
});
