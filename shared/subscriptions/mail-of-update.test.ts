import { describe, expect, it } from 'vitest';
import { mailOfUpdate, type UpdatedData } from './mail-of-update.ts';

/** An active subscription of 1 Gold, renewing on 22 Dec 2026, as `subscription.updated` shows it. */
const object: UpdatedData['object'] = {
  subscription_id: 'sub_123',
  plan_id: 'plan-platinum',
  customer_id: 'cus_123',
  status: 'active',
  quantity: 2,
  current_period_start: '2026-11-22T10:15:00.000Z',
  current_period_end: '2026-12-22T10:15:00.000Z',
  next_billing_date: '2026-12-22',
  trial_end: null,
  cancel_at_period_end: false,
  cancel_at: null,
  pending_change: null,
  metadata: null,
  created_at: '2026-11-22T10:15:00.000Z',
  test: true,
};
const ending = { ...object, cancel_at_period_end: true, cancel_at: object.current_period_end };
const update = (
  previous: UpdatedData['previous_attributes'],
  now: UpdatedData['object'] = object,
  chargeId?: string,
): UpdatedData => ({
  object: now,
  previous_attributes: previous,
  ...(chargeId ? { charge_id: chargeId } : {}),
});

describe('the e-mail a subscription.updated sends', () => {
  it('a new plan or quantity: the changed notice, with the charge the event names', () => {
    expect(mailOfUpdate(update({ plan_id: 'plan-gold', quantity: 1 }, object, 'ch_1'))).toEqual({
      mail: 'changed',
      chargeId: 'ch_1',
      nextBillingAt: '2026-12-22',
      endsAt: null,
      trialing: false,
      resumed: false,
    });
    expect(mailOfUpdate(update({ quantity: 1 }))).toMatchObject({ mail: 'changed', chargeId: null });
    // A renewal that applied a pending change: the plan moved, and the pending change with it.
    expect(
      mailOfUpdate(
        update(
          {
            plan_id: 'plan-gold',
            pending_change: {
              plan_id: 'plan-platinum',
              quantity: 2,
              effective_at: '2026-11-22T10:15:00.000Z',
            },
          },
          object,
          'ch_2',
        ),
      ),
    ).toMatchObject({ mail: 'changed', chargeId: 'ch_2' });
    // In a trial: said, for the trial's end is its first charge.
    expect(mailOfUpdate(update({ quantity: 1 }, { ...object, status: 'trialing' }))).toMatchObject({
      mail: 'changed',
      trialing: true,
    });
  });

  it('a new plan or quantity with the end set or undone in the same change: one changed notice saying so', () => {
    expect(
      mailOfUpdate(update({ quantity: 1, cancel_at_period_end: false, cancel_at: null }, ending)),
    ).toMatchObject({ mail: 'changed', endsAt: '2026-12-22T10:15:00.000Z', resumed: false });
    expect(
      mailOfUpdate(update({ quantity: 1, cancel_at_period_end: true, cancel_at: ending.cancel_at }, object)),
    ).toMatchObject({ mail: 'changed', endsAt: null, resumed: true });
    // Set to end before, and still: the notice says when it ends, not a next billing date.
    expect(mailOfUpdate(update({ quantity: 1 }, ending))).toMatchObject({
      mail: 'changed',
      endsAt: '2026-12-22T10:15:00.000Z',
      resumed: false,
    });
  });

  it('the end at the period’s end set: the ending notice, with its date', () => {
    expect(mailOfUpdate(update({ cancel_at_period_end: false, cancel_at: null }, ending))).toEqual({
      mail: 'ending',
      endsAt: '2026-12-22T10:15:00.000Z',
      trialing: false,
    });
    const trial = { ...ending, status: 'trialing' as const, cancel_at: '2026-12-06T10:15:00.000Z' };
    expect(mailOfUpdate(update({ cancel_at_period_end: false, cancel_at: null }, trial))).toEqual({
      mail: 'ending',
      endsAt: '2026-12-06T10:15:00.000Z',
      trialing: true,
    });
  });

  it('the end undone: the resumed notice, with the end it had and the next billing date', () => {
    expect(
      mailOfUpdate(update({ cancel_at_period_end: true, cancel_at: '2026-12-22T10:15:00.000Z' }, object)),
    ).toEqual({
      mail: 'resumed',
      formerEnd: '2026-12-22T10:15:00.000Z',
      nextBillingAt: '2026-12-22',
      trialing: false,
    });
  });

  it('only metadata, or a pending change set or cleared, or both: none', () => {
    expect(
      mailOfUpdate(update({ metadata: null }, { ...object, metadata: { order: 'A-2' } })),
    ).toBeUndefined();
    const pending = {
      plan_id: 'plan-silver',
      quantity: 1,
      effective_at: '2026-12-22T10:15:00.000Z',
    };
    expect(
      mailOfUpdate(update({ pending_change: null }, { ...object, pending_change: pending })),
    ).toBeUndefined();
    expect(mailOfUpdate(update({ pending_change: pending }))).toBeUndefined();
    expect(
      mailOfUpdate(
        update({ pending_change: null, metadata: { a: 1 } }, { ...object, pending_change: pending }),
      ),
    ).toBeUndefined();
    expect(mailOfUpdate(update({}))).toBeUndefined();
  });
});
