import { describe, expect, it } from 'vitest';
import { type Lang, langs } from '../core/messages.ts';
import type { MailItem } from '../mail/words.ts';
import { type MailReceipt, receiptMail } from './mail.ts';

const hostile = '<script>alert("x")</script>';
const merchant = { name: 'Acme Café', logoUrl: 'https://acme.example/logo.png' };

/** A receipt's fields. */
const receiptFields: MailReceipt = {
  reference: 'ch_4fR9kq2LmN8pXz7VbT1cYw3e',
  amount: '19.99',
  currency: 'USD',
  description: 'Order 1001',
  paidAt: '2026-11-22T10:15:00.000Z',
  cardBrand: 'visa',
  cardLast4: '4242',
  receiptUrl: 'https://pay.example/receipts/Zk3q9XbT0aLmP2sV8cYw1RfN6uJd4HgE7oQiKtBnWy5',
};

/** A subscription of 2 "Silver" at 9.90 USD a month. */
const silver: MailItem = {
  name: 'Silver',
  quantity: 2,
  unitAmount: '9.90',
  currency: 'USD',
  interval: 'month',
  intervalCount: 1,
};

describe('the receipt', () => {
  const receipt = (language: Lang, fields: Partial<MailReceipt> = {}) =>
    receiptMail({
      language,
      merchant,
      customerName: 'Ana',
      receipt: { ...receiptFields, ...fields },
    });

  it('lists the merchant, amount and currency, description, date, card and reference, in English', () => {
    const mail = receipt('en');
    expect(mail.subject).toBe('Acme Café: your receipt for "Order 1001"');
    for (const line of [
      'Merchant: Acme Café',
      'Amount: 19.99 USD',
      'Description: Order 1001',
      'Date: 22 Nov 2026, 10:15 UTC',
      'Card: Visa •••• 4242',
      'Reference: ch_4fR9kq2LmN8pXz7VbT1cYw3e',
    ]) {
      expect(mail.text).toContain(line);
    }
    for (const value of ['19.99 USD', 'Order 1001', 'Visa •••• 4242', 'ch_4fR9kq2LmN8pXz7VbT1cYw3e']) {
      expect(mail.html).toContain(value);
    }
  });

  it('lists the same in Spanish', () => {
    const mail = receipt('es');
    expect(mail.subject).toBe('Acme Café: tu recibo de "Order 1001"');
    for (const line of [
      'Comercio: Acme Café',
      'Importe: 19,99 USD',
      'Descripción: Order 1001',
      'Fecha: 22 nov 2026, 10:15 UTC',
      'Tarjeta: Visa •••• 4242',
      'Referencia: ch_4fR9kq2LmN8pXz7VbT1cYw3e',
    ]) {
      expect(mail.text).toContain(line);
    }
    expect(mail.text).toContain('Consulta o descarga este recibo (PDF):');
  });

  it('links to the receipt page: its address on a line of its own in text, a link in HTML', () => {
    for (const language of langs) {
      const mail = receipt(language);
      expect(mail.text.split('\n')).toContain(receiptFields.receiptUrl);
      expect(mail.html).toContain(`<a href="${receiptFields.receiptUrl}"`);
    }
  });

  it('makes no link of an address that is not http(s)', () => {
    const mail = receipt('en', { receiptUrl: 'javascript:alert(1)' });
    expect(mail.html).not.toContain('<a ');
    expect(mail.html).not.toContain('href="javascript');
  });

  it('escapes a hostile merchant name and description in the HTML part and keeps the subject one line', () => {
    const mail = receiptMail({
      language: 'es',
      merchant: { name: `${hostile}\r\nBcc: victim@example.com` },
      receipt: { ...receiptFields, description: `"><img src=x onerror=alert(1)>` },
    });
    expect(mail.html).not.toContain('<script');
    expect(mail.html).not.toContain('<img src=x');
    expect(mail.html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.text).toContain('Descripción: "><img src=x onerror=alert(1)>');
  });

  it("a subscription's receipt says what and how many, the price per interval and the period it pays for", () => {
    const renewal = {
      item: silver,
      description: 'Silver',
      period: { start: '2026-11-22T10:15:00.000Z', end: '2026-12-22T10:15:00.000Z' },
    };
    const en = receipt('en', { ...renewal, amount: '19.80' });
    for (const line of [
      'Amount: 19.80 USD',
      'Item: Silver × 2',
      'Price: 9.90 USD × 2 = 19.80 USD / month',
      'Period: 22 Nov 2026 – 22 Dec 2026',
    ]) {
      expect(en.text).toContain(line);
    }
    // The plan's name as the charge's description is not listed a second time.
    expect(en.text).not.toContain('Description:');
    expect(en.html).toContain('9.90 USD × 2 = 19.80 USD / month');
    const es = receipt('es', { ...renewal, amount: '19.80', item: { ...silver, intervalCount: 3 } });
    for (const line of [
      'Importe: 19,80 USD',
      'Concepto: Silver × 2',
      'Precio: 9,90 USD × 2 = 19,80 USD cada 3 meses',
      'Periodo: 22 nov 2026 – 22 dic 2026',
    ]) {
      expect(es.text).toContain(line);
    }
    // Any other charge (or a receipt made before these were kept) lists none of them.
    expect(receipt('en').text).not.toMatch(/Item:|Price:|Period:/);
  });

  it('writes thousands in each language', () => {
    expect(receipt('en', { amount: '1234.56' }).text).toContain('Amount: 1,234.56 USD');
    expect(receipt('es', { amount: '1234.56' }).text).toContain('Importe: 1.234,56 USD');
    expect(receipt('es', { amount: '1234.56' }).subject).not.toContain('1.234');
    expect(receipt('es', { amount: '12345', currency: 'JPY' }).html).toContain('Recibo de 12.345 JPY');
  });

  it('leaves the description out when the charge has none', () => {
    const mail = receipt('en', { description: null });
    expect(mail.subject).toBe('Acme Café: your receipt');
    expect(mail.text).not.toContain('Description');
  });
});
