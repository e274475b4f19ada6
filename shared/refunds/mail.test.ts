import { describe, expect, it } from 'vitest';
import type { Lang } from '../core/messages.ts';
import type { MailMerchant } from '../mail/layout.ts';
import { refundIssuedMail } from './mail.ts';

const merchant = { name: 'Acme Café', logoUrl: 'https://acme.example/logo.png' };

/** A 4.50 USD refund of a 10.00 USD charge described `description`, made on a Visa •••• 4242. */
const refunded = (language: Lang, description: string, to: MailMerchant = merchant) =>
  refundIssuedMail({
    language,
    merchant: to,
    customerName: 'Ana',
    amount: '4.50',
    currency: 'USD',
    chargeId: 'ch_0123456789abcdefghijklmn',
    chargeAmount: '10.00',
    chargeDescription: description,
    chargedAt: '2026-11-20T09:00:00.000Z',
    card: { brand: 'visa', last4: '4242' },
    refundId: 're_abcdefghijklmnopqrstuvwx',
    refundedAt: '2026-11-22T10:15:00.000Z',
  });

describe('the refund notice', () => {
  it('names the merchant, the amount refunded, the charge it refunds and the date, in both languages', () => {
    const en = refunded('en', 'Order 1001');
    expect(en.subject).toBe('Acme Café: refund of 4.50 USD');
    expect(en.text).toContain('Acme Café refunded 4.50 USD to your card Visa •••• 4242 on 22 Nov 2026.');
    expect(en.text).toContain('It refunds part of your payment of 10.00 USD made on 20 Nov 2026.');
    expect(en.text).toContain('Payment reference: ch_0123456789abcdefghijklmn');
    expect(en.text).toContain('Refund reference: re_abcdefghijklmnopqrstuvwx');
    expect(en.text).toContain('For: Order 1001');
    expect(en.html).toContain('ch_0123456789abcdefghijklmn');
    const es = refunded('es', 'Pedido 1001');
    expect(es.subject).toBe('Acme Café: reembolso de 4,50 USD');
    expect(es.text).toContain('Acme Café te reembolsó 4,50 USD a tu tarjeta Visa •••• 4242 el 22 nov 2026.');
    expect(es.text).toContain('Referencia del pago: ch_0123456789abcdefghijklmn');
    expect(es.text).toContain('Fecha: 22 nov 2026');
  });

  it('a full refund says so; no card or description leaves those out', () => {
    const mail = refundIssuedMail({
      language: 'en',
      merchant,
      amount: '10.00',
      currency: 'EUR',
      chargeId: 'ch_x',
      chargeAmount: '10.00',
      chargedAt: '2026-11-20T09:00:00.000Z',
      refundId: 're_y',
      refundedAt: '2026-11-22T10:15:00.000Z',
    });
    expect(mail.text).toContain('refunded 10.00 EUR to your card on');
    expect(mail.text).toContain('It refunds in full your payment of 10.00 EUR');
    expect(mail.text).not.toContain('For:');
    expect(mail.text).toContain('Hello,');
  });

  it('has no link but the logo, and that only when it is http(s)', () => {
    const mail = refunded('en', 'Ana', { name: 'Acme', logoUrl: 'javascript:alert(1)' });
    expect(mail.html).not.toMatch(/href=|javascript:|<img/);
  });
});
