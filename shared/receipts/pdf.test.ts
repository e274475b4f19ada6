import { describe, expect, it } from 'vitest';
import { currencyOf } from '../../test/support/money.ts';
import { pdfContent } from '../../test/support/pdf.ts';
import { drawable, receiptPdf } from './pdf.ts';
import type { ReceiptView } from './receipt.ts';

const view: ReceiptView = {
  language: 'en',
  merchant: 'Acme Café',
  amount: 1999,
  currency: currencyOf('USD'),
  description: 'Order 1001',
  paidAt: '2026-11-22T10:15:00.000Z',
  cardBrand: 'visa',
  cardLast4: '4242',
  reference: 'ch_4fR9kq2LmN8pXz7VbT1cYw3e',
  test: true,
};

describe('the receipt PDF', () => {
  it('is one page holding every field, in English', async () => {
    const bytes = await receiptPdf(view);
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const pdf = await pdfContent(bytes);
    expect(pdf.pages).toBe(1);
    for (const value of [
      'Acme Café',
      '19.99 USD',
      'Order 1001',
      '22 Nov 2026, 10:15 UTC',
      'Visa •••• 4242',
      'ch_4fR9kq2LmN8pXz7VbT1cYw3e',
      'Test mode',
    ]) {
      expect(pdf.text).toContain(value);
    }
    expect(pdf.title).toBe('Receipt ch_4fR9kq2LmN8pXz7VbT1cYw3e · Acme Café');
  });

  it('is written in Spanish for a Spanish account', async () => {
    const pdf = await pdfContent(await receiptPdf({ ...view, language: 'es', test: false }));
    for (const value of [
      'Recibo de pago',
      'Importe',
      'Descripción',
      '22 nov 2026, 10:15 UTC',
      'Visa •••• 4242',
      '19,99 USD',
    ]) {
      expect(pdf.text).toContain(value);
    }
    expect(pdf.text).not.toContain('Modo de prueba');
  });

  it('draws any name: characters the standard fonts lack become ?, a long description wraps', async () => {
    const pdf = await pdfContent(
      await receiptPdf({
        ...view,
        merchant: 'Tienda 東京 <b>&\u0007',
        description: `${'word '.repeat(60)}${'x'.repeat(200)}`,
        refunded: 500,
      }),
    );
    expect(pdf.text).toContain('Tienda ?? <b>&');
    expect(pdf.text).toContain('Refunded');
    expect(pdf.text).toContain('5.00 USD');
  });

  it("draws a subscription's item, price per interval and period; × – and • are drawable", async () => {
    const pdf = await pdfContent(
      await receiptPdf({
        ...view,
        language: 'es',
        amount: 123_456,
        description: 'Silver',
        item: { name: 'Silver', quantity: 2, unit_amount: 61_728, interval: 'month', interval_count: 3 },
        period: { start: '2026-11-22T10:15:00.000Z', end: '2027-02-22T10:15:00.000Z' },
      }),
    );
    for (const value of [
      '1.234,56 USD',
      'Silver × 2',
      '617,28 USD × 2 = 1.234,56 USD cada 3 meses',
      '22 nov 2026 – 22 feb 2027',
      'Visa •••• 4242',
    ]) {
      expect(pdf.text).toContain(value);
    }
    expect(pdf.text).not.toContain('?');
  });
});

describe('drawable', () => {
  it('keeps Latin-1 and the Windows-1252 extras, and replaces the rest', () => {
    expect(drawable('Añejo “€” – ÿ')).toBe('Añejo “€” – ÿ');
    expect(drawable('a\u0000b\nc\u0085')).toBe('a b c ');
    expect(drawable('日本 😀')).toBe('?? ?');
  });
});
