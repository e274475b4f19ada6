import { describe, expect, it } from 'vitest';
import type { Lang } from '../core/messages.ts';
import { planDeletedMail } from './mail.ts';

const merchant = { name: 'Acme Café', logoUrl: 'https://acme.example/logo.png' };

/** The notice of a deleted 1,200 JPY monthly plan named `name` with 3 active subscriptions. */
const deleted = (language: Lang, name: string) =>
  planDeletedMail({
    language,
    merchant,
    ownerName: 'Ana',
    mode: 'live',
    plan: {
      id: 'd3b07384-d9a0-4c9b-8f3e-1a2b3c4d5e6f',
      name,
      amount: '1200',
      currency: 'JPY',
      interval: 'month',
      intervalCount: 1,
    },
    activeSubscriptions: 3,
    deletedAt: '2026-11-22T10:15:00.000Z',
  });

describe('the plan deletion notice to the merchant', () => {
  it('keeps the subject existing consumers and tests rely on, in English', () => {
    expect(deleted('en', 'Gold').subject).toBe('Your cobro plan "Gold" was deleted');
  });

  it('shows the plan, its price and mode, and counts subscriptions', () => {
    const mail = deleted('en', 'Gold');
    expect(mail.text).toContain('d3b07384-d9a0-4c9b-8f3e-1a2b3c4d5e6f');
    expect(mail.text).toContain('1,200 JPY every month');
    expect(mail.text).toContain('The live plan "Gold"');
    expect(mail.text).toContain('Its 3 active subscriptions are canceled');
    const es = deleted('es', 'Oro');
    expect(es.text).toContain('1.200 JPY cada mes');
    expect(es.text).toContain('Sus 3 suscripciones activas quedan canceladas');
  });

  it('says how often in the plural and singular forms of each language', () => {
    const yearly = (language: Lang, intervalCount: number) =>
      planDeletedMail({
        language,
        merchant,
        ownerName: 'Ana',
        mode: 'test',
        plan: { id: 'p', name: 'P', amount: '10.00', currency: 'MXN', interval: 'year', intervalCount },
        activeSubscriptions: 1,
        deletedAt: '2026-11-22T10:15:00.000Z',
      }).text;
    expect(yearly('en', 2)).toContain('10.00 MXN every 2 years');
    expect(yearly('en', 1)).toContain('Its 1 active subscription is canceled');
    expect(yearly('es', 2)).toContain('10,00 MXN cada 2 años');
    expect(yearly('es', 1)).toContain('El plan de prueba "P"');
  });
});
