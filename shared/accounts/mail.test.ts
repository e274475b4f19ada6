import { describe, expect, it } from 'vitest';
import type { Lang } from '../core/messages.ts';
import type { MailContext } from '../mail/layout.ts';
import { apiKeyRotatedMail } from './mail.ts';

const merchant = { name: 'Acme Café', logoUrl: 'https://acme.example/logo.png' };

const rotated = (context: MailContext) =>
  apiKeyRotatedMail({
    ...context,
    ownerName: 'Ana',
    developerId: 42,
    keyType: 'live',
    keyEnding: 'a1B2',
    rotatedAt: '2026-11-22T10:15:00.000Z',
  });

describe('the API key rotation notice', () => {
  it('keeps the subject existing consumers and tests rely on, in English', () => {
    expect(rotated({ language: 'en', merchant }).subject).toBe('Your cobro live API key was rotated');
  });

  it('names the account and the key ending, never more of the key', () => {
    const mail = rotated({ language: 'en', merchant });
    expect(mail.text).toContain('account 42');
    expect(mail.text).toContain('ends in a1B2');
    expect(mail.text).toContain('60 seconds');
    expect(rotated({ language: 'es', merchant }).text).toContain('termina en a1B2');
  });

  it('an unknown language at run time renders English rather than failing', () => {
    const mail = rotated({ language: 'fr' as Lang, merchant });
    expect(mail.subject).toBe('Your cobro live API key was rotated');
  });
});
