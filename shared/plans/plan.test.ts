import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { Account } from '../accounts/repository.ts';
import type { Mode } from '../core/account.ts';
import { assertModeFlags } from '../core/account.ts';
import { Invalid } from '../core/errors.ts';
import { coreMessages } from '../core/messages.ts';
import { amountField, currencyOf, PricePrecisionError } from '../core/money/fields.ts';
import * as rules from '../core/rules.ts';
import { InvalidInput } from '../core/validation.ts';
import { answerOf, statusOf } from '../http/errors.ts';
import { effectiveChanges, newPlan, type Plan, planView, priceScale } from './plan.ts';
import { type CreatePlanInput, CreatePlanSchema } from './schemas.ts';

const now = new Date('2026-11-20T10:30:00.000Z');
const context = { developerId: 7, mode: 'test' as Mode, now, image: null };
const baseUrl = 'https://api.example.com/prod';

/** A create body as the handler has it after validation. */
const input = (body: Record<string, unknown>): CreatePlanInput =>
  v.parse(CreatePlanSchema, {
    name: 'Gold',
    currency: 'USD',
    amount: '10.5',
    interval: 'month',
    interval_count: 1,
    ...body,
  });

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
}

const plan = (overrides: Partial<Plan> = {}): Plan => ({
  id: '3f1c2b8e-0d4a-4c52-9a57-7f1d3c9b2e10',
  developer_id: 7,
  mode: 'test',
  name: 'Gold',
  name_search: 'gold',
  description: 'Monthly gold plan',
  currency: 'USD',
  amount: 1050,
  amount_scaled: 10500,
  interval: 'month',
  interval_count: 1,
  trial_period_days: 14,
  active: true,
  subscriber_count: 3,
  image: null,
  created_at: '2026-11-20T10:30:00.000Z',
  updated_at: '2026-11-20T10:30:00.000Z',
  ...overrides,
});

const account = (overrides: Partial<Account> = {}): Account => ({
  developer_id: 7,
  name: 'Acme Account',
  email: 'billing@acme.example',
  client_id: 'client-7',
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
  ...overrides,
});

describe('newPlan', () => {
  it('makes the stored plan from a validated request', () => {
    const made = newPlan(input({ name: 'Gold PLAN', description: 'Best' }), context);
    expect(made).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      developer_id: 7,
      mode: 'test',
      name: 'Gold PLAN',
      name_search: 'gold plan',
      description: 'Best',
      currency: 'USD',
      amount: 1050,
      amount_scaled: 10500,
      interval: 'month',
      interval_count: 1,
      trial_period_days: 0,
      active: true,
      subscriber_count: 0,
      image: null,
      created_at: '2026-11-20T10:30:00.000Z',
      updated_at: '2026-11-20T10:30:00.000Z',
    });
    expect(newPlan(input({}), context).id).not.toBe(made.id);
  });

  it('keeps the image, mode and account it is given', () => {
    const image = { media: `${'a'.repeat(64)}.png` };
    const made = newPlan(input({ is_test: 'false' }), { developerId: 9, mode: 'live', now, image });
    expect(made.image).toEqual(image);
    expect(made.mode).toBe('live');
    expect(made.developer_id).toBe(9);
  });

  it.each([
    ['USD', '10.5', 1050, 10500],
    ['usd', 10, 1000, 10000],
    ['JPY', '1000', 1000, 1_000_000],
    ['KWD', '1.5', 1500, 1500],
    ['CLP', 990, 990, 990_000],
  ])('reads %s %j as %i minor units, %i at the price scale', (currency, amount, minor, scaledAmount) => {
    expect(priceScale).toBe(3);
    const made = newPlan(input({ currency, amount }), context);
    expect(made.currency).toBe(currency.toUpperCase());
    expect(made.amount).toBe(minor);
    expect(made.amount_scaled).toBe(scaledAmount);
  });

  it('refuses more decimals than the currency has as 400 price_precision (type danger)', () => {
    const error = thrownBy(() => newPlan(input({ currency: 'JPY', amount: '1000.0' }), context));
    expect(error).toBeInstanceOf(PricePrecisionError);
    expect(statusOf(error)).toBe(400);
    expect(answerOf(error, 'en')?.body).toEqual({
      code: 400,
      title: 'Price validation error',
      content: 'amount: JPY amounts take at most 0 decimals.',
      type: 'danger',
    });
  });

  it.each([
    ['0', 'amount'],
    ['-5', 'amount'],
    ['abc', 'amount'],
    ['10000000000.00', 'amount_too_large'],
  ] as const)('refuses the amount %j as %s', (amount, name) => {
    const error = thrownBy(() => newPlan(input({ amount }), context));
    expect(error).toBeInstanceOf(InvalidInput);
    const rule = name === 'amount' ? rules.amount : rules.amount_too_large;
    expect((error as InvalidInput).problems).toEqual([{ field: 'amount', rule }]);
  });

  it.each([
    ['month', 36],
    ['year', 3],
  ])('takes %s × %i, the longest period', (interval, count) => {
    expect(newPlan(input({ interval, interval_count: count }), context).interval_count).toBe(count);
  });

  it('refuses more than 3 years between charges, naming the limit in years', () => {
    const error = thrownBy(() => newPlan(input({ interval: 'year', interval_count: 4 }), context));
    expect(error).toBeInstanceOf(InvalidInput);
    expect((error as InvalidInput).problems).toEqual([
      { field: 'interval_count', rule: rules.max_value, params: { limit: '3' } },
    ]);
    expect(answerOf(error, 'en')?.body).toMatchObject({
      content: 'interval_count must be at most 3.',
    });
  });

  it('refuses a body whose test flag contradicts the mode', () => {
    const error = thrownBy(() => newPlan(input({ test: true }), { ...context, mode: 'live' }));
    expect(error).toBeInstanceOf(Invalid);
    expect((error as Invalid).msg).toBe(coreMessages.mode_mismatch);
  });
});

describe('amountField', () => {
  it('names the field it reads', () => {
    const usd = currencyOf({ currency: 'USD' });
    expect(amountField('2', usd, 'price')).toBe(200);
    const error = thrownBy(() => amountField('1.234', usd, 'price'));
    expect((error as PricePrecisionError).params).toEqual({
      field: 'price',
      currency: 'USD',
      precision: '2',
    });
    expect((thrownBy(() => amountField('x', usd, 'price')) as InvalidInput).problems).toEqual([
      { field: 'price', rule: rules.amount },
    ]);
  });
});

describe('assertModeFlags', () => {
  it.each<[{ test?: boolean; is_test?: boolean }, Mode]>([
    [{}, 'test'],
    [{}, 'live'],
    [{ test: true }, 'test'],
    [{ is_test: true }, 'test'],
    [{ test: false, is_test: false }, 'live'],
  ])('accepts %j in %s mode', (flags, mode) => {
    expect(() => assertModeFlags(flags, mode)).not.toThrow();
  });

  it.each<[{ test?: boolean; is_test?: boolean }, Mode, string]>([
    [{ test: false }, 'test', 'test'],
    [{ test: true }, 'live', 'test'],
    [{ is_test: true }, 'live', 'is_test'],
    [{ test: true, is_test: false }, 'test', 'is_test'],
  ])('refuses %j in %s mode, naming %s', (flags, mode, field) => {
    const error = thrownBy(() => assertModeFlags(flags, mode));
    expect(error).toBeInstanceOf(Invalid);
    const invalid = error as Invalid;
    expect(statusOf(error)).toBe(400);
    expect(invalid.msg).toBe(coreMessages.mode_mismatch);
    expect(invalid.params).toEqual({ field, mode });
  });

  it('explains the mismatch', () => {
    const error = thrownBy(() => assertModeFlags({ is_test: true }, 'live'));
    expect(answerOf(error, 'en')?.body).toEqual({
      code: 400,
      title: 'Mode cannot change',
      content: 'is_test does not match the mode of this request (live); records never change mode.',
      type: 'error',
    });
  });
});

describe('effectiveChanges', () => {
  it('is empty when nothing is asked or everything asked is already so', () => {
    const stored = plan({ image: { url: 'https://cdn.example/a.png' } });
    expect(effectiveChanges(stored, {})).toEqual({});
    expect(
      effectiveChanges(stored, {
        name: 'Gold',
        description: 'Monthly gold plan',
        trial_period_days: 14,
        active: true,
        image: { url: 'https://cdn.example/a.png' },
      }),
    ).toEqual({});
  });

  it('keeps only what differs', () => {
    expect(
      effectiveChanges(plan(), { name: 'Gold', description: '', trial_period_days: 0, active: false }),
    ).toEqual({ description: '', trial_period_days: 0, active: false });
    expect(effectiveChanges(plan(), { name: 'Platinum' })).toEqual({ name: 'Platinum' });
  });

  it('compares images by content and sees adding or removing one', () => {
    const media = { media: `${'b'.repeat(64)}.jpg` };
    expect(effectiveChanges(plan({ image: media }), { image: { ...media } })).toEqual({});
    expect(effectiveChanges(plan({ image: media }), { image: null })).toEqual({ image: null });
    expect(effectiveChanges(plan(), { image: media })).toEqual({ image: media });
    expect(effectiveChanges(plan(), { image: null })).toEqual({});
    expect(effectiveChanges(plan({ image: media }), { image: { url: 'https://x.example/b.jpg' } })).toEqual({
      image: { url: 'https://x.example/b.jpg' },
    });
  });
});

describe('planView', () => {
  it('shows the plan with the full profile of its account', () => {
    const owner = account({
      company_name: 'Acme S.A.',
      page: 'https://acme.example',
      logo: 'https://acme.example/logo.png',
      statement_descriptor: 'ACME*GOLD',
    });
    expect(planView(plan(), owner, baseUrl)).toEqual({
      key: '3f1c2b8e-0d4a-4c52-9a57-7f1d3c9b2e10',
      information: {
        name: 'Gold',
        created: '2026-11-20T10:30:00.000Z',
        interval: 'month',
        interval_count: 1,
        currency: 'USD',
        amount: '10.50',
        trial_period_days: 14,
        credit_card_description: 'ACME*GOLD',
        description: 'Monthly gold plan',
        email: 'billing@acme.example',
        company_name: 'Acme S.A.',
        page: 'https://acme.example',
        active: true,
        count: 3,
        image: null,
        image_dev: 'https://acme.example/logo.png',
      },
      test: true,
    });
  });

  it('falls back to the account name, and to it for the statement text', () => {
    const view = planView(plan({ mode: 'live' }), account(), baseUrl);
    expect(view.information.company_name).toBe('Acme Account');
    expect(view.information.credit_card_description).toBe('Acme Account');
    expect(view.information.page).toBeNull();
    expect(view.information.image_dev).toBeNull();
    expect(view.test).toBe(false);
  });

  it('cuts the company name to 22 characters for the statement text', () => {
    const long = 'Compañía de Servicios Digitales';
    const view = planView(plan(), account({ company_name: long }), baseUrl);
    expect(view.information.company_name).toBe(long);
    expect(view.information.credit_card_description).toBe('Compañía de Servicios ');
    expect(view.information.credit_card_description).toHaveLength(22);
    const fromName = planView(plan(), account({ name: 'A'.repeat(40) }), baseUrl);
    expect(fromName.information.credit_card_description).toBe('A'.repeat(22));
  });

  // The cut counts UTF-16 code units: an emoji across position 22 is split and leaves half of it.
  it('never cuts a character in half for the statement text', () => {
    const view = planView(plan(), account({ company_name: `${'a'.repeat(21)}😀 Café` }), baseUrl);
    const text = view.information.credit_card_description;
    expect(text.isWellFormed(), JSON.stringify(text)).toBe(true);
  });

  it('answers empty profile fields without an account', () => {
    const view = planView(plan(), undefined, baseUrl);
    expect(view.information).toMatchObject({
      company_name: '',
      credit_card_description: '',
      email: '',
      page: null,
      image_dev: null,
    });
  });

  it('points a stored image at the media route of the base URL and keeps an outside URL', () => {
    const name = `${'c'.repeat(64)}.png`;
    expect(planView(plan({ image: { media: name } }), account(), baseUrl).information.image).toBe(
      `https://api.example.com/prod/media/${name}`,
    );
    expect(
      planView(plan({ image: { url: 'https://cdn.example/p.jpg' } }), account(), baseUrl).information.image,
    ).toBe('https://cdn.example/p.jpg');
  });

  it.each([
    ['JPY', 1000, '1000'],
    ['KWD', 1500, '1.500'],
    ['USD', 5, '0.05'],
  ])('answers %s %i as %j', (currency, amount, text) => {
    expect(planView(plan({ currency, amount }), account(), baseUrl).information.amount).toBe(text);
  });

  it('fails loudly for a stored plan of an unknown currency', () => {
    expect(() => planView(plan({ currency: 'XXX' }), account(), baseUrl)).toThrow(/unknown currency XXX/);
  });
});
