import { describe, expect, it } from 'vitest';
import type { Lang } from '../core/messages.ts';
import { renewalFailedMail } from './mail.ts';

const merchant = { name: 'Acme Café', logoUrl: 'https://acme.example/logo.png' };

const failed = (language: Lang, planName: string) =>
  renewalFailedMail({
    language,
    merchant,
    customerName: 'Ana',
    planName,
    amount: '21.00',
    currency: 'USD',
    nextRetryAt: '2026-11-23T10:15:00.000Z',
    portalUrl: 'https://pay.example/portal/abcDEF123',
    linkExpiresAt: '2026-11-29T10:15:00.000Z',
  });

describe('the failed-renewal notice', () => {
  it('says what failed, when it is tried again, and links the portal in both parts', () => {
    const mail = failed('en', 'Gold');
    expect(mail.subject).toBe('Acme Café: your payment for "Gold" failed');
    expect(mail.text).toContain('We could not charge 21.00 USD');
    expect(mail.text).toContain('We will try again on 23 Nov 2026.');
    expect(mail.text).toContain('the link works until 29 Nov 2026, 10:15 UTC');
    expect(mail.text).toContain('https://pay.example/portal/abcDEF123');
    // A link the customer can click, not an address in a paragraph.
    expect(mail.html).toMatch(
      /<a [^>]*href="https:\/\/pay\.example\/portal\/abcDEF123"[^>]*>Replace your card<\/a>/,
    );
    const es = failed('es', 'Oro');
    expect(es.text).toContain('No pudimos cobrar 21,00 USD');
    expect(es.text).toContain('https://pay.example/portal/abcDEF123');
    expect(es.html).toMatch(
      /<a [^>]*href="https:\/\/pay\.example\/portal\/abcDEF123"[^>]*>Cambiar tu tarjeta<\/a>/,
    );
  });

  it('asks to confirm the card, not to replace it, when the bank asked for the cardholder', () => {
    const mail = renewalFailedMail({
      language: 'en',
      merchant,
      planName: 'Gold',
      amount: '21.00',
      currency: 'USD',
      nextRetryAt: '2026-11-23T10:15:00.000Z',
      portalUrl: 'https://pay.example/portal/abcDEF123',
      linkExpiresAt: '2026-11-29T10:15:00.000Z',
      needsConfirmation: true,
    });
    expect(mail.subject).toBe('Acme Café: confirm your payment for "Gold"');
    expect(mail.text).toContain('your bank asks you to confirm the payment yourself');
    expect(mail.html).toMatch(/<a [^>]*>Confirm your card<\/a>/);
  });
});
