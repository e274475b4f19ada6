import { describe, expect, it } from 'vitest';
import { maxDeclines, newCardSession, newSubscriptionSession } from './session.ts';
import { cardProblemsText, closedPageFor, declinedPage, overLongText, pageFor } from './views.ts';

const now = new Date('2026-11-24T12:00:00.000Z');
/** A subscription's session: 19.90 USD a month for 2, with a 14-day trial when asked. */
const subscriptionSession = (trialDays = 0) =>
  newSubscriptionSession(
    {
      id: 'sub_x',
      developer_id: 1,
      mode: 'live',
      return_url: 'https://shop.example/welcome',
      trial_days: trialDays,
      recurrence: { interval: 'month', interval_count: 1 },
    },
    { amount: 3980, currency: 'USD', description: 'Basic', items: ['Basic × 2'] },
    { name: 'Blue Mug', statementDescriptor: 'BLUEMUG' },
    null,
    now,
  );
const context = (lang: 'en' | 'es') => ({ url: 'https://pay.example/checkout/t', lang, now });
const textOf = (html: string) =>
  html
    .replace(/<style[^>]*>[^<]*<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

describe("a session's page in the payer's language", () => {
  it('the pay form of a trial counts the first charge from now', () => {
    const en = textOf(pageFor(subscriptionSession(14), now, context('en')).html);
    expect(en).toContain('0.00 USD today');
    expect(en).toContain('then 39.80 USD / month from 8 Dec 2026');
    const es = textOf(pageFor(subscriptionSession(14), now, context('es')).html);
    expect(es).toContain('luego 39,80 USD / mes a partir del 8 dic 2026');
    // Once paid, the trial counts from the payment, however late the page is seen.
    const paid = {
      ...subscriptionSession(14),
      status: 'paid' as const,
      updated_at: '2026-11-25T08:00:00.000Z',
    };
    const later = new Date('2026-12-01T00:00:00.000Z');
    expect(textOf(pageFor(paid, later, context('en')).html)).toContain('from 9 Dec 2026');
  });

  it('closed pages speak Spanish too: paid, locked, expired', () => {
    const paid = closedPageFor({ ...subscriptionSession(), status: 'paid' }, now, false, 'es');
    expect(paid?.status).toBe(200);
    expect(paid?.html).toContain('<html lang="es">');
    expect(textOf(paid?.html ?? '')).toContain('Pago completado');
    const locked = closedPageFor({ ...subscriptionSession(), declines: maxDeclines }, now, true, 'es');
    expect(locked?.status).toBe(423);
    expect(textOf(locked?.html ?? '')).toContain('Se rechazaron demasiados intentos');
    const expired = closedPageFor(
      { ...subscriptionSession(), expires_at_ms: now.getTime() },
      now,
      false,
      'es',
    );
    expect(expired?.status).toBe(410);
    expect(textOf(expired?.html ?? '')).toContain('Pago caducado');
    // English stays what it was.
    const english = closedPageFor({ ...subscriptionSession(), status: 'paid' }, now, true);
    expect(textOf(english?.html ?? '')).toContain(
      'This payment has already been made. Nothing more was charged.',
    );
  });

  it('a decline re-renders the Spanish form with the reason in Spanish; the locking one closes it', () => {
    const keep = { holderName: 'Ana' };
    const declined = declinedPage(subscriptionSession(), now, context('es'), 'insufficient_funds', keep);
    expect(declined.status).toBe(402);
    expect(textOf(declined.html)).toContain(
      'Tu tarjeta no tiene fondos suficientes. Prueba con otra tarjeta.',
    );
    expect(declined.html).toContain('<button type="submit">Pagar</button>');
    const last = declinedPage(
      { ...subscriptionSession(), declines: maxDeclines },
      now,
      context('es'),
      'generic_decline',
      keep,
    );
    expect(textOf(last.html)).toContain('Pago rechazado');
    expect(last.html).not.toContain('<form');
  });

  it('card problems and over-long fields in Spanish, English by default', () => {
    const problems = [
      { field: 'card_number', code: 'luhn' },
      { field: 'cvc', code: 'format' },
    ] as const;
    expect(cardProblemsText(problems, 'es')).toBe(
      'Escribe un número de tarjeta válido. Escribe el código de seguridad de 3 o 4 dígitos.',
    );
    expect(cardProblemsText(problems)).toBe(
      'Enter a valid card number. Enter the 3 or 4 digit security code.',
    );
    expect(overLongText(['cvc'], 'es')).toBe('El código de seguridad admite como máximo 4 caracteres.');
    expect(overLongText(['cvc'])).toBe('The security code takes at most 4 characters.');
  });
});

describe("a saved card's page (a card session from the customer portal)", () => {
  const saved = {
    ...newCardSession(
      { id: 'sub_x', developer_id: 1, mode: 'live', recurrence: { interval: 'month', interval_count: 1 } },
      { amount: 1980, currency: 'USD', description: 'Silver', items: ['Silver × 2'] },
      { name: 'Blue Mug', statementDescriptor: 'BLUEMUG' },
      'ada@example.com',
      'https://pay.example',
      now,
      { sealed_token: 'v1.x.y.z', until_ms: now.getTime() + 3_600_000, was_past_due: true },
    ),
    status: 'paid' as const,
  };
  const card = { brand: 'visa', last4: '4444' };
  const back = 'https://pay.example/portal/P';
  const shown = (cardSaved: Parameters<typeof pageFor>[2]['cardSaved'], lang: 'en' | 'es' = 'en') =>
    pageFor(saved, now, { ...context(lang), ...(cardSaved ? { cardSaved } : {}) });

  it('shows the new card and links back to the portal page', () => {
    const page = shown({ card, overdue: null, backUrl: back });
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain('New card: Visa •••• 4444.');
    expect(page.html).toContain(`<a href="${back}">Back to your account</a>`);
    expect(textOf(page.html)).not.toContain('overdue');
    expect(textOf(page.html)).not.toContain('is checked now');
    const es = shown({ card, overdue: null, backUrl: back }, 'es');
    expect(textOf(es.html)).toContain('Nueva tarjeta: Visa •••• 4444.');
    expect(es.html).toContain(`<a href="${back}">Volver a tu cuenta</a>`);
  });

  it('has no link back once the portal link expired', () => {
    const page = shown({ card, overdue: null, backUrl: null });
    expect(page.html).not.toContain('<a href=');
    expect(page.html).not.toContain('Back to your account');
  });

  it('says what became of the overdue payment: paid, being charged, or declined with the next attempt', () => {
    expect(textOf(shown({ card, overdue: { state: 'paid' }, backUrl: back }).html)).toContain(
      'The 19.80 USD that was overdue is paid with it.',
    );
    expect(textOf(shown({ card, overdue: { state: 'charging' }, backUrl: back }).html)).toContain(
      'The 19.80 USD that was overdue is being charged to it',
    );
    const declined = { state: 'declined', nextAttemptAt: '2026-11-27T12:00:00.000Z' } as const;
    const en = textOf(shown({ card, overdue: declined, backUrl: back }).html);
    expect(en).toContain('could not be charged to it: the bank declined it, and nothing was charged');
    expect(en).toContain('tried again on 27 Nov 2026');
    expect(en).not.toContain('is paid');
    const es = textOf(shown({ card, overdue: declined, backUrl: back }, 'es').html);
    expect(es).toContain('no se pudieron cobrar a esta tarjeta');
    expect(es).toContain('se intenta de nuevo el 27 nov 2026');
  });

  it('without what the portal tells, says the plain sentence (a page shown before it knew)', () => {
    expect(textOf(shown(undefined).html)).toContain('Your new card is saved');
  });
});
