import { describe, expect, it } from 'vitest';
import type { Lang } from '../core/messages.ts';
import type { MailContext } from '../mail/layout.ts';
import type { MailItem } from '../mail/words.ts';
import { planDiscontinuedMail, subscriptionActivatedMail, subscriptionCanceledMail } from './mail.ts';

const hostile = '<script>alert("x")</script>';
const escapedHostile = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;';
const merchant = { name: 'Acme Café', logoUrl: 'https://acme.example/logo.png' };

/** A subscription of 2 "Silver" at 9.90 USD a month. */
const silver: MailItem = {
  name: 'Silver',
  quantity: 2,
  unitAmount: '9.90',
  currency: 'USD',
  interval: 'month',
  intervalCount: 1,
};
const activationPortalUrl = 'https://pay.example/portal/Act1vat10nT0ken';

/** Each e-mail with fields for it; `value` fills every free-text field (a name, a plan name). */
const samples = {
  subscriptionActivated: (context: MailContext, value = 'Ana') =>
    subscriptionActivatedMail({
      ...context,
      customerName: value,
      subscriptionId: 'sub_123',
      item: { ...silver, name: value },
      nextBillingAt: '2026-12-22T00:00:00.000Z',
      trialEndsAt: '2026-12-06T00:00:00.000Z',
      portalUrl: activationPortalUrl,
      linkExpiresAt: '2026-11-29T10:15:00.000Z',
    }),
  subscriptionCanceled: (context: MailContext, value = 'Ana') =>
    subscriptionCanceledMail({
      ...context,
      customerName: value,
      subscriptionId: 'sub_123',
      planName: value,
      canceledAt: '2026-11-22T10:15:00.000Z',
      reason: 'requested',
    }),
  planDeletedCustomer: (context: MailContext, value = 'Ana') =>
    planDiscontinuedMail({
      ...context,
      customerName: value,
      planName: value,
      canceledAt: '2026-11-22T10:15:00.000Z',
    }),
};
const render = (name: keyof typeof samples, context: MailContext, value = 'Ana') =>
  samples[name](context, value);

describe('the subjects existing consumers and tests rely on', () => {
  it('keep a merchant-chosen value on one line', () => {
    const mail = render('subscriptionCanceled', {
      language: 'en',
      merchant: { name: 'Acme\r\nBcc: victim@example.com' },
    });
    expect(mail.subject).toBe('Acme  Bcc: victim@example.com: your subscription to "Ana" was canceled');
  });
});

describe('the content', () => {
  it('subscriptionCanceled says when the customer asked for it', () => {
    const input = { merchant, customerName: 'Ana', planName: 'Gold', canceledAt: '2026-11-22T10:15:00.000Z' };
    const en = subscriptionCanceledMail({ ...input, language: 'en', reason: 'customer_requested' });
    expect(en.text).toContain('As you asked, your subscription to "Gold" was canceled on 22 Nov 2026.');
    expect(en.text).toContain('Reason: Canceled at your request');
    const es = subscriptionCanceledMail({ ...input, language: 'es', reason: 'customer_requested' });
    expect(es.text).toContain('Como pediste');
  });

  it('subscriptionActivated is a receipt: what and how many, unit price and total per interval, next billing date, the trial end only when trialing', () => {
    const trialing = render('subscriptionActivated', { language: 'en', merchant }, 'Silver');
    expect(trialing.subject).toBe('Acme Café: your free trial of "Silver" has started');
    expect(trialing.text).toContain(
      'Your free trial of "Silver × 2" has started: nothing is charged until it ends on 6 Dec 2026, then 9.90 USD × 2 = 19.80 USD / month.',
    );
    expect(trialing.text).not.toContain('is active');
    expect(trialing.text).toContain('Plan: Silver × 2');
    expect(trialing.text).toContain('Price: 9.90 USD × 2 = 19.80 USD / month');
    expect(trialing.text).toContain('Next billing date: 22 Dec 2026');
    expect(trialing.text).toContain('Trial ends: 6 Dec 2026');
    expect(trialing.html).toContain('9.90 USD × 2 = 19.80 USD / month');
    const es = render('subscriptionActivated', { language: 'es', merchant }, 'Plata');
    expect(es.text).toContain('Plan: Plata × 2');
    expect(es.text).toContain('Precio: 9,90 USD × 2 = 19,80 USD / mes');
    expect(es.text).toContain('Próximo cobro: 22 dic 2026');
    expect(es.html).toContain('Fin del periodo de prueba');
    expect(es.subject).toBe('Acme Café: tu prueba gratuita de "Plata" ha comenzado');
    expect(es.text).toContain(
      'no se cobra nada hasta que termine, el 6 dic 2026; después, 9,90 USD × 2 = 19,80 USD / mes.',
    );
    const paying = (item: MailItem, language: Lang = 'en') =>
      subscriptionActivatedMail({
        language,
        merchant,
        item,
        nextBillingAt: '2026-12-22T00:00:00.000Z',
        portalUrl: activationPortalUrl,
        linkExpiresAt: '2026-11-29T10:15:00.000Z',
      }).text;
    expect(paying(silver)).not.toContain('Trial');
    expect(paying(silver)).toContain('Hello,');
    expect(paying({ ...silver, quantity: 1 })).toContain('Plan: Silver\nPrice: 9.90 USD / month');
    expect(paying({ ...silver, intervalCount: 3 })).toContain(
      'Price: 9.90 USD × 2 = 19.80 USD every 3 months',
    );
    expect(paying({ ...silver, unitAmount: '1200.00', interval: 'year' }, 'es')).toContain(
      'Precio: 1.200,00 USD × 2 = 2.400,00 USD / año',
    );
  });

  it('subscriptionActivated links the customer portal, says until when, and no longer says to contact the merchant', () => {
    const en = render('subscriptionActivated', { language: 'en', merchant });
    expect(en.text).toContain(
      'To cancel your subscription or to replace your card, open your customer portal. This link works until 29 Nov 2026, 10:15 UTC; ask Acme Café for a new one after.',
    );
    expect(en.html).toMatch(
      /<a [^>]*href="https:\/\/pay\.example\/portal\/Act1vat10nT0ken"[^>]*>Manage your subscription<\/a>/,
    );
    const es = render('subscriptionActivated', { language: 'es', merchant });
    expect(es.text).toContain(
      'Este enlace funciona hasta el 29 nov 2026, 10:15 UTC; después, pide uno nuevo a Acme Café.',
    );
    expect(es.html).toMatch(
      /<a [^>]*href="https:\/\/pay\.example\/portal\/Act1vat10nT0ken"[^>]*>Gestionar tu suscripción<\/a>/,
    );
    for (const mail of [en, es]) expect(mail.text).not.toMatch(/contact|contacta/);
  });

  it('the cancellation notices say that nothing more is charged', () => {
    expect(render('subscriptionCanceled', { language: 'en', merchant }).text).toContain(
      'You will not be charged for it again.',
    );
    expect(render('subscriptionCanceled', { language: 'es', merchant }).text).toContain(
      'No se te volverá a cobrar por ella.',
    );
    expect(render('planDeletedCustomer', { language: 'en', merchant }).text).toContain(
      'You will not be charged for it again.',
    );
    expect(render('planDeletedCustomer', { language: 'es', merchant }).text).toContain(
      'canceló el 22 nov 2026',
    );
  });
});

describe('the cancellation notice says why', () => {
  const canceled = (language: Lang, reason?: 'requested' | 'payment_failed' | 'plan_deleted') =>
    subscriptionCanceledMail({
      language,
      merchant,
      customerName: 'Ana',
      subscriptionId: 'sub_123',
      planName: 'Gold',
      canceledAt: '2026-11-22T10:15:00.000Z',
      ...(reason ? { reason } : {}),
    });

  it('requested: the merchant canceled it', () => {
    const en = canceled('en', 'requested');
    expect(en.text).toContain('Acme Café canceled your subscription to "Gold" on 22 Nov 2026.');
    expect(en.text).toContain('Reason: Canceled by Acme Café');
    expect(en.html).toContain('Canceled by Acme Café');
    const es = canceled('es', 'requested');
    expect(es.text).toContain('Acme Café canceló tu suscripción a "Gold" el 22 nov 2026.');
    expect(es.text).toContain('Motivo: Cancelada por Acme Café');
  });

  it('payment_failed: the card was declined on every retry, and how to come back', () => {
    const en = canceled('en', 'payment_failed');
    expect(en.text).toContain('because its payment failed: your card was declined on every retry.');
    expect(en.text).toContain('Reason: Payment failed');
    expect(en.text).toContain('To subscribe again with another card, contact Acme Café.');
    const es = canceled('es', 'payment_failed');
    expect(es.text).toContain('porque su pago falló: tu tarjeta se rechazó en cada reintento.');
    expect(es.text).toContain('Motivo: Pago fallido');
  });

  it('plan_deleted: the plan is no longer offered', () => {
    expect(canceled('en', 'plan_deleted').text).toContain('Acme Café no longer offers the plan "Gold"');
    expect(canceled('en', 'plan_deleted').text).toContain('Reason: Plan discontinued');
    expect(canceled('es', 'plan_deleted').text).toContain('Motivo: Plan descontinuado');
  });

  it('without a reason (an older event), it says only that the subscription ended', () => {
    const en = canceled('en');
    expect(en.text).toContain('Your subscription to "Gold" was canceled on 22 Nov 2026.');
    expect(en.text).not.toContain('Reason');
    expect(canceled('es').text).not.toContain('Motivo');
  });

  it("escapes a hostile merchant's name where the reason names it", () => {
    const mail = subscriptionCanceledMail({
      language: 'en',
      merchant: { name: hostile },
      planName: 'Gold',
      canceledAt: '2026-11-22T10:15:00.000Z',
      reason: 'requested',
    });
    expect(mail.html).not.toContain('<script');
    expect(mail.html).toContain(`Canceled by ${escapedHostile}`);
  });
});
