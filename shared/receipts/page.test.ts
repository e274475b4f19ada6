import { describe, expect, it } from 'vitest';
import { currencyOf } from '../../test/support/money.ts';
import { receiptPage, unknownReceiptPage } from './page.ts';
import type { ReceiptView } from './receipt.ts';

const view: ReceiptView = {
  language: 'en',
  merchant: 'Acme Café',
  logoUrl: 'https://acme.example/logo.png',
  amount: 1200,
  currency: currencyOf('JPY'),
  description: 'Order 1001',
  paidAt: '2026-11-22T10:15:00.000Z',
  cardBrand: 'mastercard',
  cardLast4: '4444',
  reference: 'ch_4fR9kq2LmN8pXz7VbT1cYw3e',
  test: false,
};
const pdfUrl = 'https://pay.example/receipts/abc.pdf';

describe('the receipt page', () => {
  it('shows every field and links to the PDF', () => {
    const page = receiptPage(view, pdfUrl);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="en">');
    for (const value of [
      'Acme Café',
      '<p class="amount">1,200 JPY</p>',
      'Order 1001',
      '22 Nov 2026, 10:15 UTC',
      'Mastercard •••• 4444',
      'ch_4fR9kq2LmN8pXz7VbT1cYw3e',
    ]) {
      expect(page.html).toContain(value);
    }
    expect(page.html).toContain(`href="${pdfUrl}"`);
    expect(page.html).toContain('<img class="logo" src="https://acme.example/logo.png"');
    expect(page.html).not.toContain('Test mode');
  });

  it('is in Spanish for a Spanish account, with the test note in test mode', () => {
    const page = receiptPage({ ...view, language: 'es', test: true }, pdfUrl);
    expect(page.html).toContain('<html lang="es">');
    for (const value of [
      'Recibo de pago',
      'Importe',
      '1.200 JPY',
      'Mastercard •••• 4444',
      'Descargar el PDF',
    ]) {
      expect(page.html).toContain(value);
    }
    expect(page.html).toContain('Modo de prueba');
  });

  it("shows a subscription's item with its quantity, the price per interval and the period it pays for", () => {
    const page = receiptPage(
      {
        ...view,
        amount: 1980,
        currency: currencyOf('USD'),
        description: 'Silver',
        item: { name: 'Silver', quantity: 2, unit_amount: 990, interval: 'month', interval_count: 1 },
        period: { start: '2026-11-22T10:15:00.000Z', end: '2026-12-22T10:15:00.000Z' },
      },
      pdfUrl,
    );
    for (const value of [
      '<dt>Item</dt><dd>Silver × 2</dd>',
      '<dt>Price</dt><dd>9.90 USD × 2 = 19.80 USD / month</dd>',
      '<dt>Period</dt><dd>22 Nov 2026 – 22 Dec 2026</dd>',
    ]) {
      expect(page.html).toContain(value);
    }
    expect(page.html).not.toContain('<dt>Description</dt>');
  });

  it('escapes every value a merchant or an API caller chose', () => {
    const hostile = '<script>alert("x")</script>';
    const page = receiptPage(
      {
        ...view,
        merchant: hostile,
        description: `"><img src=x onerror=alert(1)>`,
        item: { name: hostile, quantity: 3, unit_amount: 100, interval: 'year', interval_count: 1 },
      },
      pdfUrl,
    );
    expect(page.html).not.toContain('<script');
    expect(page.html).not.toContain('<img src=x');
    expect(page.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  });

  it('shows only an https logo, which the policy allows', () => {
    expect(receiptPage({ ...view, logoUrl: 'http://acme.example/logo.png' }, pdfUrl).html).not.toContain(
      '<img',
    );
  });

  it('allows no script, no form, no framing, and is never cached or indexed', () => {
    const { headers, html } = receiptPage(view, pdfUrl);
    const nonce = /nonce="([^"]+)"/.exec(html)?.[1];
    expect(nonce).toBeDefined();
    expect(headers['Content-Security-Policy']).toBe(
      `default-src 'none'; style-src 'nonce-${nonce}'; img-src https: data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`,
    );
    expect(headers).toMatchObject({
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
      'X-Robots-Tag': 'noindex',
    });
    expect(html).not.toMatch(/<script|<form|<iframe/);
    expect(receiptPage(view, pdfUrl).headers['Content-Security-Policy']).not.toContain(nonce);
  });
});

describe('an unknown receipt', () => {
  it('is a 404 page in the reader’s language, with the same headers', () => {
    const en = unknownReceiptPage('en');
    expect(en.status).toBe(404);
    expect(en.html).toContain('Receipt not found');
    expect(en.headers['X-Frame-Options']).toBe('DENY');
    expect(unknownReceiptPage('es').html).toContain('Recibo no encontrado');
  });
});
