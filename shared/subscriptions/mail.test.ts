import { describe, expect, it } from 'vitest';
import type { Lang } from '../core/messages.ts';
import type { MailContext } from '../mail/layout.ts';
import type { MailItem } from '../mail/words.ts';
import {
  planDiscontinuedMail,
  subscriptionActivatedMail,
  subscriptionCanceledMail,
  subscriptionChangedMail,
  subscriptionEndingMail,
  subscriptionResumedMail,
} from './mail.ts';

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

describe('the notice of a new plan or quantity', () => {
  /** 2 "Platinum" at 75.00 USD a month, changed with `fields`. */
  const changed = (language: Lang, fields: Partial<Parameters<typeof subscriptionChangedMail>[0]> = {}) =>
    subscriptionChangedMail({
      language,
      merchant,
      customerName: 'Ana',
      subscriptionId: 'sub_123',
      item: { ...silver, name: 'Platinum', unitAmount: '75.00' },
      nextBillingAt: '2026-12-22',
      ...fields,
    });
  const prorated = { charge: { amount: '58.06', currency: 'USD' } };

  it('with a prorated charge: the plan, quantity and price now, what was charged today and for what, the next billing date, the id', () => {
    const en = changed('en', prorated);
    expect(en.subject).toBe('Acme Café: your subscription to "Platinum" has changed');
    expect(en.text).toContain('Hello Ana,');
    expect(en.text).toContain('Your subscription is now "Platinum × 2": 75.00 USD × 2 = 150.00 USD / month.');
    expect(en.text).toContain(
      'Today 58.06 USD was charged for the rest of the current period: the difference between the new price and the old one for the time left. The new price is charged in full from the next billing date, 22 Dec 2026.',
    );
    expect(en.text).toContain(
      'Plan: Platinum × 2\nPrice: 75.00 USD × 2 = 150.00 USD / month\nCharged today: 58.06 USD\nNext billing date: 22 Dec 2026\nSubscription: sub_123',
    );
    expect(en.text).not.toContain('Nothing was charged');
    expect(en.html).toContain('Charged today');
    const es = changed('es', prorated);
    expect(es.subject).toBe('Acme Café: tu suscripción a "Platinum" ha cambiado');
    expect(es.text).toContain('Tu suscripción ahora es "Platinum × 2": 75,00 USD × 2 = 150,00 USD / mes.');
    expect(es.text).toContain(
      'Hoy se te cobraron 58,06 USD por lo que queda del periodo actual: la diferencia entre el precio nuevo y el anterior por el tiempo restante. El precio nuevo se cobra completo desde la próxima fecha de cobro, el 22 dic 2026.',
    );
    expect(es.text).toContain('Cobrado hoy: 58,06 USD\nPróximo cobro: 22 dic 2026\nSuscripción: sub_123');
    expect(es.text).not.toContain('No se te cobró nada');
  });

  it('without a charge: nothing was charged, the new price from the next billing date', () => {
    const en = changed('en');
    expect(en.text).toContain(
      'Nothing was charged for this change. The new price applies from the next billing date, 22 Dec 2026.',
    );
    expect(en.text).not.toContain('Charged');
    expect(en.text).toContain('Next billing date: 22 Dec 2026');
    const es = changed('es');
    expect(es.text).toContain(
      'No se te cobró nada por este cambio. El precio nuevo se aplica desde la próxima fecha de cobro, el 22 dic 2026.',
    );
    expect(es.text).not.toContain('Cobrado');
  });

  it('applied by a renewal: its charge paid the new period, at the new price', () => {
    const renewal = {
      charge: { amount: '150.00', currency: 'USD', atRenewal: true },
      nextBillingAt: '2027-01-22',
    };
    const en = changed('en', renewal);
    expect(en.text).toContain(
      "The change took effect with your subscription's renewal, which charged 150.00 USD for the new period, at the new price.",
    );
    expect(en.text).toContain('Charged at renewal: 150.00 USD\nNext billing date: 22 Jan 2027');
    expect(en.text).not.toMatch(/today|rest of the current period/);
    const es = changed('es', renewal);
    expect(es.text).toContain(
      'El cambio se aplicó con la renovación de tu suscripción, que cobró 150,00 USD por el nuevo periodo, ya al precio nuevo.',
    );
    expect(es.text).toContain('Cobrado en la renovación: 150,00 USD');
  });

  it('set to end at its period’s end: when it ends instead of a next billing date; undone in the same change: it renews', () => {
    const ending = { endsAt: '2026-12-22T10:15:00.000Z' };
    const en = changed('en', ending);
    expect(en.text).toContain('Nothing was charged for this change.\n');
    expect(en.text).toContain(
      'Your subscription to "Platinum" will end on 22 Dec 2026, at the end of the period already paid for. It will not renew, and nothing more will be charged.',
    );
    expect(en.text).toContain('Ends on: 22 Dec 2026');
    expect(en.text).not.toContain('Next billing date');
    expect(en.text).not.toContain('next billing date');
    expect(changed('es', ending).text).toContain('Termina el: 22 dic 2026');
    expect(changed('es', ending).text).not.toContain('Próximo cobro');
    expect(changed('en', { resumed: true }).text).toContain(
      'It will no longer end as it was set to: it renews as before.',
    );
    expect(changed('es', { resumed: true }).text).toContain(
      'Ya no terminará como estaba previsto: se renovará como antes.',
    );
    expect(changed('en').text).not.toContain('no longer end');
  });

  it('escapes the plan’s name and the merchant’s in the HTML part', () => {
    const mail = subscriptionChangedMail({
      language: 'en',
      merchant: { name: hostile },
      item: { ...silver, name: hostile },
      ...prorated,
    });
    expect(mail.html).not.toContain('<script');
    expect(mail.html).toContain(`Your subscription is now &quot;${escapedHostile} × 2&quot;`);
    expect(mail.html).toContain(`contact ${escapedHostile}.`);
  });
});

describe('the notices of an end at the period’s end', () => {
  const ending = (language: Lang, trialing = false) =>
    subscriptionEndingMail({
      language,
      merchant,
      customerName: 'Ana',
      subscriptionId: 'sub_123',
      planName: 'Gold',
      endsAt: '2026-12-22T10:15:00.000Z',
      trialing,
    });
  const resumed = (language: Lang, fields: Partial<Parameters<typeof subscriptionResumedMail>[0]> = {}) =>
    subscriptionResumedMail({
      language,
      merchant,
      customerName: 'Ana',
      subscriptionId: 'sub_123',
      planName: 'Gold',
      formerEnd: '2026-12-22T10:15:00.000Z',
      nextBillingAt: '2026-12-22',
      ...fields,
    });

  it('set: it ends on that date, at the end of the period paid for, nothing more charged, and it can be resumed until then', () => {
    const en = ending('en');
    expect(en.subject).toBe('Acme Café: your subscription to "Gold" ends on 22 Dec 2026');
    expect(en.text).toContain(
      'Your subscription to "Gold" will end on 22 Dec 2026, at the end of the period already paid for. It will not renew, and nothing more will be charged.',
    );
    expect(en.text).toContain(
      'Until then it stays active, and it can be resumed: to keep it, contact Acme Café before 22 Dec 2026.',
    );
    expect(en.text).toContain('Plan: Gold\nEnds on: 22 Dec 2026\nSubscription: sub_123');
    const es = ending('es');
    expect(es.subject).toBe('Acme Café: tu suscripción a "Gold" termina el 22 dic 2026');
    expect(es.text).toContain(
      'Tu suscripción a "Gold" terminará el 22 dic 2026, al final del periodo ya pagado. No se renovará y no se te cobrará nada más.',
    );
    expect(es.text).toContain(
      'Hasta entonces sigue activa y se puede reanudar: si quieres conservarla, contacta a Acme Café antes del 22 dic 2026.',
    );
    expect(es.text).toContain('Termina el: 22 dic 2026');
  });

  it('set in a free trial: it ends with the trial, nothing charged', () => {
    const en = ending('en', true);
    expect(en.text).toContain(
      'Your subscription to "Gold" will end on 22 Dec 2026, when your free trial ends. Nothing will be charged.',
    );
    expect(en.text).not.toContain('already paid for');
    expect(ending('es', true).text).toContain('cuando termine tu prueba gratuita. No se te cobrará nada.');
  });

  it('undone: it no longer ends on that date and renews as before, next on the next billing date', () => {
    const en = resumed('en');
    expect(en.subject).toBe('Acme Café: your subscription to "Gold" will continue');
    expect(en.text).toContain(
      'Your subscription to "Gold" will no longer end on 22 Dec 2026: it renews as before, next on 22 Dec 2026.',
    );
    expect(en.text).toContain('Plan: Gold\nNext billing date: 22 Dec 2026\nSubscription: sub_123');
    const es = resumed('es');
    expect(es.subject).toBe('Acme Café: tu suscripción a "Gold" seguirá activa');
    expect(es.text).toContain(
      'Tu suscripción a "Gold" ya no terminará el 22 dic 2026: se renovará como antes; el próximo cobro será el 22 dic 2026.',
    );
    expect(es.text).toContain('Próximo cobro: 22 dic 2026');
    expect(resumed('en', { trialing: true }).text).toContain(
      'it goes on as before, with its first charge on 22 Dec 2026, when your free trial ends.',
    );
    expect(resumed('es', { trialing: true }).text).toContain(
      'sigue como antes, con su primer cobro el 22 dic 2026, cuando termine tu prueba gratuita.',
    );
  });
});
