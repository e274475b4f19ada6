import { describe, expect, it } from 'vitest';
import { currencyOf } from '../../test/support/money.ts';
import type { Account } from '../accounts/repository.ts';
import { newCharge } from '../charges/charge.ts';
import { asRequested, receiptPdfUrl, receiptRows, receiptUrl, receiptView } from './receipt.ts';

const account: Account = {
  developer_id: 42,
  name: 'Ana Owner',
  email: 'ana@example.com',
  client_id: 'cl_1',
  company_name: 'Acme',
  logo: 'javascript:alert(1)',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

const charge = (overrides: { amount?: number; currency?: string; description?: string | null } = {}) =>
  newCharge({
    id: 'ch_4fR9kq2LmN8pXz7VbT1cYw3e',
    developerId: 42,
    mode: 'live',
    source: 'checkout',
    paymentId: 'pay_1',
    attemptId: 'att_1',
    customerId: 'c1',
    amount: overrides.amount ?? 1999,
    currency: overrides.currency ?? 'USD',
    description: overrides.description === undefined ? 'Order 1001' : overrides.description,
    statementDescription: 'ACME',
    card: { brand: 'mastercard', last4: '4444', expMonth: 12, expYear: 2030, country: 'US' },
    acquirerReference: 'ref',
    now: new Date('2026-11-22T10:15:00.000Z'),
  });

describe('receiptView', () => {
  it('keeps the amount in minor units of its currency, the card, and only an http(s) logo', () => {
    const view = receiptView(charge({ amount: 1200, currency: 'JPY' }), account);
    expect(view).toEqual({
      language: 'en',
      merchant: 'Acme',
      amount: 1200,
      currency: currencyOf('JPY'),
      description: 'Order 1001',
      paidAt: '2026-11-22T10:15:00.000Z',
      cardBrand: 'mastercard',
      cardLast4: '4444',
      reference: 'ch_4fR9kq2LmN8pXz7VbT1cYw3e',
      test: false,
    });
    expect(receiptView(charge(), { ...account, logo: 'https://acme.example/l.png' }).logoUrl).toBe(
      'https://acme.example/l.png',
    );
  });

  it("speaks the account's language, and shows what was refunded", () => {
    const refunded = { ...charge(), refunded: 500 };
    const view = receiptView(refunded, { ...account, language: 'es' });
    expect(view.language).toBe('es');
    expect(receiptRows(view)).toEqual([
      ['Comercio', 'Acme'],
      ['Importe', '19,99 USD'],
      ['Descripción', 'Order 1001'],
      ['Fecha', '22 nov 2026, 10:15 UTC'],
      ['Tarjeta', 'Mastercard •••• 4444'],
      ['Referencia', 'ch_4fR9kq2LmN8pXz7VbT1cYw3e'],
      ['Reembolsado', '5,00 USD'],
    ]);
  });

  it("lists a subscription's item, price per interval and period from what its link kept", () => {
    const bought = {
      item: { name: 'Silver', quantity: 2, unit_amount: 990, interval: 'month', interval_count: 1 },
      period: { start: '2026-11-22T10:15:00.000Z', end: '2026-12-22T10:15:00.000Z' },
    };
    const renewal = charge({ amount: 1980, description: 'Silver' });
    expect(receiptRows(receiptView(renewal, account, bought))).toEqual([
      ['Merchant', 'Acme'],
      ['Amount', '19.80 USD'],
      ['Item', 'Silver × 2'],
      ['Price', '9.90 USD × 2 = 19.80 USD / month'],
      ['Period', '22 Nov 2026 – 22 Dec 2026'],
      ['Date', '22 Nov 2026, 10:15 UTC'],
      ['Card', 'Mastercard •••• 4444'],
      ['Reference', 'ch_4fR9kq2LmN8pXz7VbT1cYw3e'],
    ]);
    const yearly = {
      ...bought,
      item: { ...bought.item, interval: 'year', quantity: 1, unit_amount: 123_456 },
    };
    expect(receiptRows(receiptView(renewal, { ...account, language: 'es' }, yearly))).toContainEqual([
      'Precio',
      '1.234,56 USD / año',
    ]);
    // A link made before these were kept (no item, no period) still renders, without them.
    expect(receiptRows(receiptView(renewal, account, {})).map(([label]) => label)).toEqual([
      'Merchant',
      'Amount',
      'Description',
      'Date',
      'Card',
      'Reference',
    ]);
  });

  it('leaves out a description the charge does not have', () => {
    const rows = receiptRows(receiptView(charge({ description: null }), account));
    expect(rows.map(([label]) => label)).toEqual(['Merchant', 'Amount', 'Date', 'Card', 'Reference']);
  });
});

describe('the addresses', () => {
  it('put the PDF beside the page, and a path segment says which it asks for', () => {
    const page = receiptUrl('https://pay.example/prod', 'Zk3q9');
    expect(page).toBe('https://pay.example/prod/receipts/Zk3q9');
    expect(receiptPdfUrl('https://pay.example/prod', 'Zk3q9')).toBe(`${page}.pdf`);
    expect(asRequested('Zk3q9')).toEqual({ token: 'Zk3q9', pdf: false });
    expect(asRequested('Zk3q9.pdf')).toEqual({ token: 'Zk3q9', pdf: true });
    expect(asRequested('.pdf')).toEqual({ token: '', pdf: true });
  });
});
