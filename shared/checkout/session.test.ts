import { describe, expect, it } from 'vitest';
import { type CheckoutSession, maxDeclines, newSession, sessionState } from './session.ts';

const now = new Date('2026-11-24T12:00:00.000Z');
const base: CheckoutSession = newSession(
  {
    id: 'pay_x',
    developer_id: 1,
    mode: 'test',
    amount: 1000,
    currency: 'USD',
    description: 'Order',
    items: [],
    return_url: 'https://shop.example/',
    status: 'pending',
    checkout_token: 't'.repeat(40),
    customer_id: null,
    customer_email: null,
    charge_id: null,
    payment_method: null,
    card_last4: null,
    card_brand: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  },
  { name: 'Shop', statementDescriptor: 'SHOP' },
  now,
);
const at = (offsetMs: number) => now.getTime() + offsetMs;

describe('sessionState', () => {
  it('is busy while its attempt may still be at the acquirer, then being confirmed, never open again by itself', () => {
    const held = { ...base, status: 'charging' as const, attempt_id: 'att_x', charging_until: at(60_000) };
    expect(sessionState(held, now)).toBe('busy');
    expect(sessionState(held, new Date(at(61_000)))).toBe('confirming');
    expect(sessionState({ ...held, status: 'confirming' }, now)).toBe('confirming');
    // Held even once expired or locked: the payer is never asked to pay again meanwhile.
    expect(sessionState({ ...held, expires_at_ms: at(-1) }, new Date(at(61_000)))).toBe('confirming');
    expect(sessionState({ ...held, declines: maxDeclines }, now)).toBe('busy');
  });

  it('lets a claim from before claims had attempts lapse, as it always did', () => {
    const { attempt_id: _none, ...old } = {
      ...base,
      status: 'charging' as const,
      charging_until: at(60_000),
    };
    expect(sessionState(old, now)).toBe('busy');
    expect(sessionState(old, new Date(at(61_000)))).toBe('open');
  });

  it('says paid and voided whatever else is true, and open, locked or expired otherwise', () => {
    expect(sessionState({ ...base, status: 'paid', expires_at_ms: at(-1) }, now)).toBe('paid');
    expect(sessionState({ ...base, status: 'voided', expires_at_ms: at(-1) }, now)).toBe('voided');
    expect(sessionState(base, now)).toBe('open');
    expect(sessionState({ ...base, declines: maxDeclines }, now)).toBe('locked');
    expect(sessionState({ ...base, expires_at_ms: at(0) }, now)).toBe('expired');
  });
});
