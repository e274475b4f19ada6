import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { Conflict, DomainError, Invalid, NotFound, TooOften } from '../core/errors.ts';
import { coreMessages } from '../core/messages.ts';
import { validate } from '../core/validation.ts';
import { statusOf } from '../http/errors.ts';
import { pageProblems } from './problems.ts';

const { problemOf, orProblem } = pageProblems(statusOf);

/** A failure the domain states that is no Failure with a message (the legacy charge's decline is one). */
class Bare extends DomainError {
  readonly kind = 'declined';
}

const refusedFields = () => {
  try {
    validate(v.strictObject({ name: v.string(), amount: v.number() }), { amount: 'x' });
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('the schema took the body');
};

describe('a problem', () => {
  it("carries the failure's status as the API answers it, its text and its title, in the reader's language", () => {
    const busy = new Conflict(coreMessages.idempotency_in_progress);
    expect(problemOf(busy, 'en')).toEqual({
      status: 409,
      message: 'A request with this Idempotency-Key is still running; retry when it has finished.',
      title: 'Request in progress',
      fields: {},
    });
    expect(problemOf(busy, 'es')).toMatchObject({ status: 409, title: 'Solicitud en curso' });
    expect(problemOf(new NotFound(), 'en').status).toBe(404);
  });

  it("gives a form each refused field's message, and no title, for the schema's refusals", () => {
    const problem = problemOf(refusedFields(), 'en');
    expect(problem.status).toBe(400);
    expect(problem.title).toBeUndefined();
    expect(Object.keys(problem.fields ?? {}).sort()).toEqual(['amount', 'name']);
    expect(problem.message).toContain(problem.fields?.name);
  });

  it('names the one field a rule past the schema refused', () => {
    const precision = new Invalid(coreMessages.price_precision, {
      params: { field: 'amount', currency: 'JPY', precision: '0' },
    });
    expect(problemOf(precision, 'en')).toMatchObject({
      status: 400,
      message: 'amount: JPY amounts take at most 0 decimals.',
      fields: { amount: 'amount: JPY amounts take at most 0 decimals.' },
    });
  });

  it('says when a limit reached lets the request be made again', () => {
    const limited = new TooOften(coreMessages.idempotency_in_progress, 120);
    expect(problemOf(limited, 'en')).toMatchObject({ status: 429, retryAfterSeconds: 120 });
  });

  it('of a failure without a message is its text, with its status', () => {
    expect(problemOf(new Bare('declined here'), 'en')).toEqual({ status: 402, message: 'declined here' });
  });
});

describe('the page error boundary', () => {
  it('shows a failure the domain states as the page made of its problem', async () => {
    const shown = await orProblem(
      'en',
      () => Promise.reject(new NotFound()),
      (problem) => `page ${problem.status}`,
    );
    expect(shown).toBe('page 404');
    expect(
      await orProblem(
        'en',
        async () => 'done',
        () => 'page',
      ),
    ).toBe('done');
  });

  it('leaves any other error to the function’s own boundary (a 500)', async () => {
    const fault = new TypeError('a bug');
    await expect(
      orProblem(
        'en',
        () => Promise.reject(fault),
        () => 'page',
      ),
    ).rejects.toBe(fault);
  });

  it('shows only the status it is for, when told one', async () => {
    const busy = new Conflict(coreMessages.idempotency_in_progress);
    await expect(
      orProblem(
        'en',
        () => Promise.reject(busy),
        () => 'missing',
        { only: 404 },
      ),
    ).rejects.toBe(busy);
    expect(
      await orProblem(
        'en',
        () => Promise.reject(new NotFound()),
        () => 'missing',
        { only: 404 },
      ),
    ).toBe('missing');
  });
});
