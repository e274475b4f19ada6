import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../core/html.ts';
import { type Lang, langs } from '../core/messages.ts';
import {
  type MailContext,
  type MailItem,
  type MailReceipt,
  mailLanguage,
  mailTemplates,
  type RenderedMail,
  safeLogoUrl,
} from './templates.ts';

const hostile = '<script>alert("x")</script>';

/** A receipt's fields; the free-text one (the description) comes from `samples`' value. */
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
const activationPortalUrl = 'https://pay.example/portal/Act1vat10nT0ken';

/** Each template with fields for it; `value` fills every free-text field (a name, a plan name). */
const samples = (
  value: string,
): Record<keyof typeof mailTemplates, (context: MailContext) => RenderedMail> => ({
  apiKeyRotated: (context) =>
    mailTemplates.apiKeyRotated({
      ...context,
      ownerName: value,
      developerId: 42,
      keyType: 'live',
      keyEnding: 'a1B2',
      rotatedAt: '2026-11-22T10:15:00.000Z',
    }),
  planDeletedMerchant: (context) =>
    mailTemplates.planDeletedMerchant({
      ...context,
      ownerName: value,
      mode: 'live',
      plan: {
        id: 'd3b07384-d9a0-4c9b-8f3e-1a2b3c4d5e6f',
        name: value,
        amount: '1200',
        currency: 'JPY',
        interval: 'month',
        intervalCount: 1,
      },
      activeSubscriptions: 3,
      deletedAt: '2026-11-22T10:15:00.000Z',
    }),
  planDeletedCustomer: (context) =>
    mailTemplates.planDeletedCustomer({
      ...context,
      customerName: value,
      planName: value,
      canceledAt: '2026-11-22T10:15:00.000Z',
    }),
  subscriptionActivated: (context) =>
    mailTemplates.subscriptionActivated({
      ...context,
      customerName: value,
      subscriptionId: 'sub_123',
      item: { ...silver, name: value },
      nextBillingAt: '2026-12-22T00:00:00.000Z',
      trialEndsAt: '2026-12-06T00:00:00.000Z',
      portalUrl: activationPortalUrl,
      linkExpiresAt: '2026-11-29T10:15:00.000Z',
    }),
  subscriptionCanceled: (context) =>
    mailTemplates.subscriptionCanceled({
      ...context,
      customerName: value,
      subscriptionId: 'sub_123',
      planName: value,
      canceledAt: '2026-11-22T10:15:00.000Z',
      reason: 'requested',
    }),
  renewalFailed: (context) =>
    mailTemplates.renewalFailed({
      ...context,
      customerName: value,
      planName: value,
      amount: '21.00',
      currency: 'USD',
      nextRetryAt: '2026-11-23T10:15:00.000Z',
      portalUrl: 'https://pay.example/portal/abcDEF123',
      linkExpiresAt: '2026-11-29T10:15:00.000Z',
    }),
  refundIssued: (context) =>
    mailTemplates.refundIssued({
      ...context,
      customerName: value,
      amount: '4.50',
      currency: 'USD',
      chargeId: 'ch_0123456789abcdefghijklmn',
      chargeAmount: '10.00',
      chargeDescription: value,
      chargedAt: '2026-11-20T09:00:00.000Z',
      card: { brand: 'visa', last4: '4242' },
      refundId: 're_abcdefghijklmnopqrstuvwx',
      refundedAt: '2026-11-22T10:15:00.000Z',
    }),
  receipt: (context) =>
    mailTemplates.receipt({
      ...context,
      customerName: value,
      receipt: {
        ...receiptFields,
        description: value,
        item: { ...silver, name: value },
        period: { start: '2026-11-22T10:15:00.000Z', end: '2026-12-22T10:15:00.000Z' },
      },
    }),
});

/** The links each template carries in its body (the logo is an image, not a link). */
const links: Record<keyof typeof mailTemplates, string[]> = {
  apiKeyRotated: [],
  planDeletedMerchant: [],
  planDeletedCustomer: [],
  subscriptionActivated: [activationPortalUrl],
  subscriptionCanceled: [],
  renewalFailed: ['https://pay.example/portal/abcDEF123'],
  refundIssued: [],
  receipt: [receiptFields.receiptUrl],
};

const names = Object.keys(mailTemplates) as (keyof typeof mailTemplates)[];
const merchant = { name: 'Acme Café', logoUrl: 'https://acme.example/logo.png' };
const render = (name: keyof typeof mailTemplates, context: MailContext, value = 'Ana') =>
  samples(value)[name](context);

/** Words that only the Spanish copy of every template uses, and only the English one. */
const marker: Record<Lang, RegExp> = { es: /\bHola\b/, en: /\bHello\b/ };

describe.each(names)('%s', (name) => {
  it.each(langs)('has a subject, a text part and an HTML part in %s', (language) => {
    const mail = render(name, { language, merchant });
    expect(mail.subject.trim()).not.toBe('');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.text.trim()).not.toBe('');
    expect(mail.text).not.toMatch(/<[a-z]/i);
    expect(mail.html).toMatch(/^<!DOCTYPE html>/);
    expect(mail.html).toContain(`<html lang="${language}">`);
    expect(mail.html).toContain('Acme Café');
    const other = language === 'es' ? 'en' : 'es';
    for (const part of [mail.text, mail.html]) {
      expect(part).toMatch(marker[language]);
      expect(part).not.toMatch(marker[other]);
    }
  });

  it('writes Spanish and English differently, subject included', () => {
    const en = render(name, { language: 'en', merchant });
    const es = render(name, { language: 'es', merchant });
    expect(es.subject).not.toBe(en.subject);
    expect(es.text).not.toBe(en.text);
  });

  it.each(langs)('escapes every interpolated value in the HTML part, in %s', (language) => {
    const mail = render(name, { language, merchant: { name: hostile, logoUrl: merchant.logoUrl } }, hostile);
    expect(mail.html).not.toContain('<script');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(mail.html).toContain(`alt="${escapeHtml(hostile)}"`);
    // The text part is not HTML: it shows the value as it is.
    expect(mail.text).toContain(hostile);
  });

  it.each(langs)(
    'links only to its own pages, each a link in HTML and on a line of its own in text, in %s',
    (language) => {
      const mail = render(name, { language, merchant });
      const hrefs = [...mail.html.matchAll(/<a [^>]*href="([^"]*)"/g)].map((match) => match[1]);
      expect(hrefs).toEqual(links[name]);
      for (const url of links[name]) expect(mail.text.split('\n')).toContain(url);
    },
  );

  it('shows the logo only for an http(s) URL', () => {
    const withLogo = render(name, { language: 'es', merchant });
    expect(withLogo.html).toContain('<img src="https://acme.example/logo.png" alt="Acme Café"');
    for (const logoUrl of [
      undefined,
      null,
      '',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      '/logo.png',
    ]) {
      const mail = render(name, { language: 'es', merchant: { name: 'Acme', logoUrl } });
      expect(mail.html).not.toContain('<img');
      expect(mail.html).not.toContain('javascript:');
      expect(mail.html).toContain('Acme');
    }
  });
});

describe('the subjects existing consumers and tests rely on', () => {
  it('are unchanged in English', () => {
    expect(render('apiKeyRotated', { language: 'en', merchant }).subject).toBe(
      'Your cobro live API key was rotated',
    );
    expect(render('planDeletedMerchant', { language: 'en', merchant }, 'Gold').subject).toBe(
      'Your cobro plan "Gold" was deleted',
    );
  });

  it('keep a merchant-chosen value on one line', () => {
    const mail = render('subscriptionCanceled', {
      language: 'en',
      merchant: { name: 'Acme\r\nBcc: victim@example.com' },
    });
    expect(mail.subject).toBe('Acme  Bcc: victim@example.com: your subscription to "Ana" was canceled');
  });
});

describe('the content', () => {
  it('renewalFailed says what failed, when it is tried again, and links the portal in both parts', () => {
    const mail = render('renewalFailed', { language: 'en', merchant }, 'Gold');
    expect(mail.subject).toBe('Acme Café: your payment for "Gold" failed');
    expect(mail.text).toContain('We could not charge 21.00 USD');
    expect(mail.text).toContain('We will try again on 23 Nov 2026.');
    expect(mail.text).toContain('the link works until 29 Nov 2026, 10:15 UTC');
    expect(mail.text).toContain('https://pay.example/portal/abcDEF123');
    // A link the customer can click, not an address in a paragraph.
    expect(mail.html).toMatch(
      /<a [^>]*href="https:\/\/pay\.example\/portal\/abcDEF123"[^>]*>Replace your card<\/a>/,
    );
    const es = render('renewalFailed', { language: 'es', merchant }, 'Oro');
    expect(es.text).toContain('No pudimos cobrar 21,00 USD');
    expect(es.text).toContain('https://pay.example/portal/abcDEF123');
    expect(es.html).toMatch(
      /<a [^>]*href="https:\/\/pay\.example\/portal\/abcDEF123"[^>]*>Cambiar tu tarjeta<\/a>/,
    );
  });

  it('subscriptionCanceled says when the customer asked for it', () => {
    const input = { merchant, customerName: 'Ana', planName: 'Gold', canceledAt: '2026-11-22T10:15:00.000Z' };
    const en = mailTemplates.subscriptionCanceled({ ...input, language: 'en', reason: 'customer_requested' });
    expect(en.text).toContain('As you asked, your subscription to "Gold" was canceled on 22 Nov 2026.');
    expect(en.text).toContain('Reason: Canceled at your request');
    const es = mailTemplates.subscriptionCanceled({ ...input, language: 'es', reason: 'customer_requested' });
    expect(es.text).toContain('Como pediste');
  });

  it('apiKeyRotated names the account and the key ending, never more of the key', () => {
    const mail = render('apiKeyRotated', { language: 'en', merchant });
    expect(mail.text).toContain('account 42');
    expect(mail.text).toContain('ends in a1B2');
    expect(mail.text).toContain('60 seconds');
    expect(render('apiKeyRotated', { language: 'es', merchant }).text).toContain('termina en a1B2');
  });

  it('planDeletedMerchant shows the plan, its price and mode, and counts subscriptions', () => {
    const mail = render('planDeletedMerchant', { language: 'en', merchant }, 'Gold');
    expect(mail.text).toContain('d3b07384-d9a0-4c9b-8f3e-1a2b3c4d5e6f');
    expect(mail.text).toContain('1,200 JPY every month');
    expect(mail.text).toContain('The live plan "Gold"');
    expect(mail.text).toContain('Its 3 active subscriptions are canceled');
    const es = render('planDeletedMerchant', { language: 'es', merchant }, 'Oro');
    expect(es.text).toContain('1.200 JPY cada mes');
    expect(es.text).toContain('Sus 3 suscripciones activas quedan canceladas');
  });

  it('planDeletedMerchant says how often in the plural and singular forms of each language', () => {
    const yearly = (language: Lang, intervalCount: number) =>
      mailTemplates.planDeletedMerchant({
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
      mailTemplates.subscriptionActivated({
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
    mailTemplates.subscriptionCanceled({
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
    const mail = mailTemplates.subscriptionCanceled({
      language: 'en',
      merchant: { name: hostile },
      planName: 'Gold',
      canceledAt: '2026-11-22T10:15:00.000Z',
      reason: 'requested',
    });
    expect(mail.html).not.toContain('<script');
    expect(mail.html).toContain(`Canceled by ${escapeHtml(hostile)}`);
  });
});

describe('the refund notice', () => {
  it('names the merchant, the amount refunded, the charge it refunds and the date, in both languages', () => {
    const en = render('refundIssued', { language: 'en', merchant }, 'Order 1001');
    expect(en.subject).toBe('Acme Café: refund of 4.50 USD');
    expect(en.text).toContain('Acme Café refunded 4.50 USD to your card Visa •••• 4242 on 22 Nov 2026.');
    expect(en.text).toContain('It refunds part of your payment of 10.00 USD made on 20 Nov 2026.');
    expect(en.text).toContain('Payment reference: ch_0123456789abcdefghijklmn');
    expect(en.text).toContain('Refund reference: re_abcdefghijklmnopqrstuvwx');
    expect(en.text).toContain('For: Order 1001');
    expect(en.html).toContain('ch_0123456789abcdefghijklmn');
    const es = render('refundIssued', { language: 'es', merchant }, 'Pedido 1001');
    expect(es.subject).toBe('Acme Café: reembolso de 4,50 USD');
    expect(es.text).toContain('Acme Café te reembolsó 4,50 USD a tu tarjeta Visa •••• 4242 el 22 nov 2026.');
    expect(es.text).toContain('Referencia del pago: ch_0123456789abcdefghijklmn');
    expect(es.text).toContain('Fecha: 22 nov 2026');
  });

  it('a full refund says so; no card or description leaves those out', () => {
    const mail = mailTemplates.refundIssued({
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
    const mail = render('refundIssued', {
      language: 'en',
      merchant: { name: 'Acme', logoUrl: 'javascript:alert(1)' },
    });
    expect(mail.html).not.toMatch(/href=|javascript:|<img/);
  });
});

describe('the receipt', () => {
  const receipt = (language: Lang, fields: Partial<MailReceipt> = {}) =>
    mailTemplates.receipt({
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
    const mail = mailTemplates.receipt({
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

describe('mailLanguage', () => {
  it('is Spanish only for es, English otherwise', () => {
    expect(mailLanguage('es')).toBe('es');
    for (const value of ['en', undefined, null, 'fr', 'ES', 1]) expect(mailLanguage(value)).toBe('en');
  });

  it('an unknown language at run time renders English rather than failing', () => {
    const mail = render('apiKeyRotated', { language: 'fr' as Lang, merchant });
    expect(mail.subject).toBe('Your cobro live API key was rotated');
  });
});

describe('safeLogoUrl', () => {
  it('keeps absolute http(s) URLs only', () => {
    expect(safeLogoUrl('https://acme.example/a.png')).toBe('https://acme.example/a.png');
    expect(safeLogoUrl('http://acme.example/a.png')).toBe('http://acme.example/a.png');
    for (const url of [
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'ftp://x/a.png',
      'a.png',
      '//x/a.png',
    ]) {
      expect(safeLogoUrl(url)).toBeUndefined();
    }
  });
});
