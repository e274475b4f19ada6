import { describe, expect, it } from 'vitest';
import type { Charge } from '../charges/charge.ts';
import type { Customer } from '../customers/customer.ts';
import type { Subscription } from '../subscriptions/subscription.ts';
import { cancelConfirmationPage, closedPortalPage, portalPage } from './page.ts';
import type { PortalLink } from './repository.ts';
import type { PortalContents } from './service.ts';

const hostile = '<script>alert("x")</script>';

const link: PortalLink = {
  token_hash: 'h',
  developer_id: 1,
  mode: 'test',
  customer_id: 'c1',
  csrf: 'C'.repeat(32),
  expires_at_ms: 0,
  expires_at: 0,
  created_at: '2026-11-26T00:00:00.000Z',
  updated_at: '2026-11-26T00:00:00.000Z',
};

const subscription = (status: Subscription['status']): Subscription => ({
  id: `sub_${status}`,
  developer_id: 1,
  mode: 'test',
  plan_id: 'p1',
  plan: { name: hostile, amount: 1050, currency: 'USD', interval: 'month', interval_count: 1 },
  quantity: 2,
  customer_id: 'c1',
  status,
  active: status !== 'canceled',
  statement_descriptor: 'X',
  card_token: 't',
  anchor: '2026-10-26T00:00:00.000Z',
  trial_end: null,
  paid_through: 0,
  failed_attempts: 0,
  failed_at: null,
  next_action_at: null,
  version: 1,
  created_at: '2026-10-26T00:00:00.000Z',
  updated_at: '2026-10-26T00:00:00.000Z',
  canceled_at: null,
});

const contents = (
  subscriptions: Subscription[],
  now = new Date('2026-11-10T00:00:00.000Z'),
): PortalContents => ({
  link,
  now,
  simulatedLive: false,
  merchant: hostile,
  customer: { first_name: hostile } as Customer,
  subscriptions,
  charges: [
    {
      id: 'ch_1',
      amount: 2100,
      currency: 'USD',
      description: hostile,
      refunded: 0,
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, country: 'US' },
      created_at: '2026-10-26T00:00:00.000Z',
    } as Charge,
  ],
});

describe('the portal page', () => {
  it('escapes every value, and carries the CSRF token in every form', () => {
    const page = portalPage(contents([subscription('active')]), { action: '/portal/t', lang: 'en' });
    expect(page.html).not.toContain('<script');
    expect(page.html).toContain('&lt;script&gt;');
    const forms = page.html.match(/<form /g) ?? [];
    const tokens = page.html.match(/name="csrf_token" value="C{32}"/g) ?? [];
    expect(forms.length).toBe(3); // replace card, cancel, the charge's receipt
    expect(tokens.length).toBe(forms.length);
    expect(page.headers['X-Frame-Options']).toBe('DENY');
    expect(page.headers['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(page.html).toContain('10.50 USD × 2 = 21.00 USD / month');
  });

  it('says what each period charges in all: unit price × quantity = total, per interval', () => {
    const every = (interval: 'month' | 'year', count: number, lang: 'en' | 'es' = 'en') => {
      const base = subscription('active');
      const plan = { ...base.plan, name: 'Silver', amount: 990, interval, interval_count: count };
      return portalPage(contents([{ ...base, plan }]), { action: '/portal/t', lang }).html;
    };
    expect(every('month', 1)).toContain('9.90 USD × 2 = 19.80 USD / month');
    expect(every('month', 3)).toContain('9.90 USD × 2 = 19.80 USD every 3 months');
    expect(every('year', 1)).toContain('9.90 USD × 2 = 19.80 USD / year');
    expect(every('month', 3, 'es')).toContain('9,90 USD × 2 = 19,80 USD cada 3 meses');
    expect(every('year', 1, 'es')).toContain('9,90 USD × 2 = 19,80 USD / año');
    const one = portalPage(contents([{ ...subscription('active'), quantity: 1 }]), {
      action: '/portal/t',
      lang: 'en',
    });
    expect(one.html).toContain('10.50 USD / month');
    expect(one.html).not.toContain('×');
  });

  it('says what a past-due subscription owes, since when and its next attempt; replacing the card comes first', () => {
    // Period 1 (from 2026-11-26) unpaid; its renewal failed then, retried on 2026-11-27.
    const overdue: Subscription = {
      ...subscription('past_due'),
      paid_through: 0,
      failed_attempts: 1,
      failed_at: '2026-11-26T00:00:00.000Z',
      next_action_at: '2026-11-27T00:00:00.000Z',
    };
    const en = portalPage(contents([overdue]), { action: '/portal/t', lang: 'en' }).html;
    expect(en).toContain('Payment failed: 21.00 USD due since 26 Nov 2026; next attempt 27 Nov 2026.');
    expect(en).toContain('the 21.00 USD due is charged to the new card right away');
    expect(en.indexOf('value="card"')).toBeLessThan(en.indexOf('value="cancel"'));
    expect(en).not.toContain('Next billing date');
    const es = portalPage(contents([overdue]), { action: '/portal/t', lang: 'es' }).html;
    expect(es).toContain(
      'Pago fallido: 21,00 USD pendiente desde el 26 nov 2026; próximo intento el 27 nov 2026.',
    );
    expect(es).toContain('los 21,00 USD pendientes se cobran a la nueva tarjeta de inmediato');
    // An active one says none of it.
    const active = portalPage(contents([subscription('active')]), { action: '/portal/t', lang: 'en' }).html;
    expect(active).not.toContain('Payment failed');
    expect(active).toContain('Next billing date');
  });

  it("offers the period's end first, with its date, and cancelling now as the other choice, both with the confirmation's own token", () => {
    const silver = { ...subscription('active'), plan: { ...subscription('active').plan, name: 'Silver' } };
    const context = { action: '/portal/t', lang: 'en', mode: 'test' } as const;
    const en = cancelConfirmationPage(silver, context, 'D'.repeat(32));
    expect(en.status).toBe(200);
    expect(en.html).toContain('Cancel Silver × 2?');
    // Period 0 runs from 26 Oct 2026 to 26 Nov 2026.
    expect(en.html).toContain(
      'At the end of the period: it stays active until 26 Nov 2026, the end of the period already paid for, and then ends. Nothing more is charged.',
    );
    expect(en.html).toContain('Or cancel now: it ends at once, and nothing already paid is refunded.');
    // The period's end comes first, as the primary button; cancelling now after it, as the secondary.
    const end = en.html.indexOf(
      '<button type="submit" name="action" value="cancel_at_period_end">Cancel at end of period</button>',
    );
    const now = en.html.indexOf(
      '<button type="submit" name="action" value="confirm_cancel" class="secondary">Cancel now</button>',
    );
    expect(end).toBeGreaterThan(0);
    expect(now).toBeGreaterThan(end);
    expect(en.html.match(/name="csrf_token" value="D{32}"/g)).toHaveLength(2);
    expect(en.html).toContain('<a href="/portal/t">Keep it</a>');
    expect(en.html).not.toContain('C'.repeat(32));
    const es = cancelConfirmationPage(silver, { ...context, lang: 'es' }, 'D'.repeat(32));
    expect(es.html).toContain('¿Cancelar Silver × 2?');
    expect(es.html).toContain(
      'sigue activa hasta el 26 nov 2026, fin del periodo ya pagado, y entonces termina',
    );
    expect(es.html).toContain('>Cancelar al final del periodo</button>');
    expect(es.html).toContain(
      'O cancélala ahora: termina de inmediato y no se reembolsa nada de lo ya pagado.',
    );
    expect(es.html).toContain('>Cancelar ahora</button>');
    expect(es.html).toContain('>Conservarla</a>');
    // Past due: its period is unpaid, so it can only end now.
    const overdue = cancelConfirmationPage(
      { ...silver, status: 'past_due', paid_through: 0 },
      context,
      'D'.repeat(32),
    );
    expect(overdue.html).toContain('the 21.00 USD due is not charged');
    expect(overdue.html).toContain('>Cancel now</button>');
    expect(overdue.html).not.toContain('cancel_at_period_end');
    // Already set to end: it says when, and offers ending it now instead.
    const ending = cancelConfirmationPage({ ...silver, cancel_at_period_end: true }, context, 'D'.repeat(32));
    expect(ending.html).toContain(
      'It already ends on 26 Nov 2026. If you cancel it now instead, it ends at once and nothing already paid is refunded.',
    );
    expect(ending.html).not.toContain('cancel_at_period_end');
    const hostileName = cancelConfirmationPage(subscription('active'), context, 'D'.repeat(32));
    expect(hostileName.html).not.toContain('<script');
  });

  it('shows one set to end with its last day and Resume (page token) until that day, and no Resume after', () => {
    const ending: Subscription = { ...subscription('active'), cancel_at_period_end: true };
    const en = portalPage(contents([ending]), { action: '/portal/t', lang: 'en' }).html;
    expect(en).toContain('<dt>Ends on</dt><dd data-ends="2026-11-26T00:00:00.000Z">26 Nov 2026</dd>');
    expect(en).toContain('It will not renew: nothing more is charged.');
    expect(en).not.toContain('Next billing date');
    expect(en).toContain(
      '<input type="hidden" name="csrf_token" value="CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC">\n<input type="hidden" name="subscription_id" value="sub_active">\n<button type="submit" name="action" value="resume">Resume</button>',
    );
    const es = portalPage(contents([ending]), { action: '/portal/t', lang: 'es' }).html;
    expect(es).toContain('<dt>Termina el</dt><dd data-ends="2026-11-26T00:00:00.000Z">26 nov 2026</dd>');
    expect(es).toContain('>Reanudar</button>');
    // Its day has come (the billing step ends it at its next run): nothing to resume.
    const after = portalPage(contents([ending], new Date('2026-11-26T00:00:00.000Z')), {
      action: '/portal/t',
      lang: 'en',
    }).html;
    expect(after).toContain('<dt>Ends on</dt>');
    expect(after).not.toContain('value="resume"');
    // One not set to end has no Resume.
    expect(
      portalPage(contents([subscription('active')]), { action: '/portal/t', lang: 'en' }).html,
    ).not.toContain('value="resume"');
  });

  it('says what each choice leaves, in the words of the page it comes back to', () => {
    const said = (notice: Parameters<typeof portalPage>[2], lang: 'en' | 'es' = 'en') =>
      portalPage(contents([]), { action: '/portal/t', lang }, notice).html;
    expect(said({ ending: '2026-11-26T00:00:00.000Z' })).toContain(
      'Your subscription ends on 26 Nov 2026. You will not be charged for it again.',
    );
    expect(said({ ending: '2026-11-26T00:00:00.000Z' }, 'es')).toContain(
      'Tu suscripción termina el 26 nov 2026. No se te volverá a cobrar por ella.',
    );
    expect(said('resumed')).toContain('Your subscription continues as before: it is no longer set to end.');
    expect(said('resumed', 'es')).toContain(
      'Tu suscripción sigue como antes: ya no está previsto que termine.',
    );
    expect(said('ended')).toContain('This subscription has already ended: it can no longer be resumed.');
    expect(said('ended', 'es')).toContain('Esta suscripción ya terminó: ya no se puede reanudar.');
  });

  it('puts a past-due subscription first, names each with its quantity and shows the card it is charged to', () => {
    const named = (status: Subscription['status'], name: string): Subscription => ({
      ...subscription(status),
      plan: { ...subscription(status).plan, name },
    });
    const gold = { ...named('active', 'Gold'), quantity: 1, card: { brand: 'mastercard', last4: '4444' } };
    const silver = named('past_due', 'Silver');
    const page = portalPage(contents([gold, silver]), { action: '/portal/t', lang: 'en' });
    const headings = [...page.html.matchAll(/<h2>([^<]*)<\/h2>/g)].map((match) => match[1]);
    expect(headings).toEqual(['Your subscriptions', 'Silver × 2', 'Gold', 'Your payments']);
    // The first Replace card on the page is the past-due one's.
    const firstCard =
      /name="subscription_id" value="([^"]+)">\n<button type="submit" name="action" value="card"/.exec(
        page.html,
      );
    expect(firstCard?.[1]).toBe(silver.id);
    expect(page.html).toContain('<dt>Card</dt><dd>Mastercard •••• 4444</dd>');
    expect(page.html.match(/<dt>Card<\/dt>/g)).toHaveLength(1);
  });

  it("offers a trial's end, with its date, or ending it now with its trial, without speaking of money paid", () => {
    const context = { action: '/portal/t', lang: 'en', mode: 'test' } as const;
    const trialing = { ...subscription('trialing'), paid_through: -1, trial_end: '2026-11-20T00:00:00.000Z' };
    const trial = cancelConfirmationPage(trialing, context, 'D'.repeat(32));
    expect(trial.html).toContain(
      'At the end of the trial: your trial goes on until 20 Nov 2026 and then the subscription ends. Nothing is charged.',
    );
    expect(trial.html).toContain('value="cancel_at_period_end">Cancel at end of trial</button>');
    expect(trial.html).toContain('Or cancel now: it ends at once, with its trial. Nothing is charged.');
    expect(trial.html).not.toContain('already paid');
    const es = cancelConfirmationPage(trialing, { ...context, lang: 'es' }, 'D'.repeat(32));
    expect(es.html).toContain('tu periodo de prueba sigue hasta el 20 nov 2026');
    expect(es.html).toContain('>Cancelar al final de la prueba</button>');
    expect(es.html).toContain('junto con su periodo de prueba');
  });

  it('offers no action on a canceled subscription', () => {
    const page = portalPage(contents([subscription('canceled')]), { action: '/portal/t', lang: 'en' });
    expect(page.html).not.toContain('value="cancel"');
    expect(page.html).not.toContain('value="card"');
  });

  it('speaks Spanish to a Spanish reader', () => {
    const page = portalPage(contents([subscription('past_due')]), { action: '/portal/t', lang: 'es' });
    expect(page.html).toContain('<html lang="es">');
    expect(page.html).toContain('Pago vencido');
    expect(page.html).toContain('Cambiar tarjeta');
    expect(page.html).toContain('10,50 USD × 2 = 21,00 USD / mes');
    expect(closedPortalPage('expired', 'es').html).toContain('Enlace caducado');
    expect(closedPortalPage('expired', 'es').status).toBe(410);
    expect(closedPortalPage('unknown', 'en').status).toBe(404);
  });
});
