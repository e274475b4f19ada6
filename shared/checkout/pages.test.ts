import { describe, expect, it } from 'vitest';
import { challengePage, payPage, receiptPage, unknownPage } from './pages.ts';

/** Directive names of a policy, in order. */
const directiveNames = (csp: string) => csp.split(';').map((part) => part.trim().split(/\s+/)[0]);
const formActionOf = (csp: string) =>
  csp
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith('form-action '));

const expectedNames = ['default-src', 'style-src', 'img-src', 'form-action', 'frame-ancestors', 'base-uri'];

describe('the checkout CSP', () => {
  it("is the policy a pay page sends, with the return URL's origin", () => {
    const page = payPage(
      { merchantName: 'M', description: 'd', items: [], amount: 1000, currency: 'USD', test: true },
      {
        action: 'https://pay.example.com/checkout/t',
        csrf: 'c',
        askEmail: false,
        returnUrl: 'https://evil.com;x/',
      },
    );
    const csp = page.headers['Content-Security-Policy'] ?? '';
    expect(directiveNames(csp)).toEqual(expectedNames);
    expect(formActionOf(csp)).toBe("form-action 'self'");
    // The icon is inline, so the browser asks for no /favicon.ico; img-src allows data:.
    expect(page.html).toMatch(/<link rel="icon" href="data:image\/svg\+xml,[^"]+">/);
    expect(csp).toContain("img-src 'self' data:");
  });
});

describe('what a recurring page says it charges, and when', () => {
  const form = {
    action: 'https://pay.example.com/checkout/t',
    csrf: 'c',
    askEmail: false,
    returnUrl: 'https://shop.example/',
  };
  const base = {
    merchantName: 'Blue <Mug>',
    description: 'Basic',
    items: ['Basic'],
    currency: 'USD',
    test: false,
  };
  const monthly = { interval: 'month', intervalCount: 1, trialDays: 0 };
  /** The page's text with tags and white space collapsed, as a reader sees it. */
  const textOf = (html: string) =>
    html
      .replace(/<style[^>]*>[^<]*<\/style>/, '')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();

  it('the challenge asks to confirm a payment, or a card when nothing is charged (a trial, a new card)', () => {
    const challenge = { action: '/checkout/t/challenge', csrf: 'c', returnUrl: 'https://shop.example/' };
    expect(textOf(challengePage({ ...base, amount: 1990 }, challenge).html)).toContain(
      'Your bank asks you to confirm this payment',
    );
    const trial = { ...monthly, trialDays: 14, firstChargeAt: '2026-12-10T00:00:00.000Z' };
    for (const summary of [
      { ...base, amount: 1990, recurrence: trial },
      { ...base, amount: 1990, cardUpdate: true },
    ]) {
      const page = challengePage(summary, challenge);
      expect(textOf(page.html)).toContain('Your bank asks you to confirm this card (nothing is charged now)');
      expect(page.html).toContain('<title>Confirm your card');
      expect(textOf(challengePage({ ...summary, lang: 'es' }, challenge).html)).toContain(
        'Tu banco te pide confirmar esta tarjeta (ahora no se cobra nada)',
      );
    }
  });

  it('lists no item that only repeats the description, and asks the year in the page language', () => {
    const page = payPage(
      { ...base, description: 'Gold', items: ['Gold'], amount: 1990, recurrence: monthly },
      form,
    );
    expect(page.html).not.toContain('<li>Gold</li>');
    expect(page.html).toContain('placeholder="YYYY"');
    const es = payPage({ ...base, items: ['Basic', 'Mug'], amount: 1990, lang: 'es' }, form);
    expect(es.html).toContain('<li>Mug</li>');
    expect(es.html).not.toContain('<li>Basic</li>');
    expect(es.html).toContain('placeholder="AAAA"');
  });

  it('a monthly plan with quantity 2: the line, and the total per month, with "Pay"', () => {
    const page = payPage({ ...base, items: ['Basic × 2'], amount: 3980, recurrence: monthly }, form);
    const text = textOf(page.html);
    expect(text).toContain('Basic × 2');
    expect(text).toContain('39.80 USD / month');
    expect(page.html).toContain('<button type="submit">Pay</button>');
    expect(page.html).toContain('<html lang="en">');
    expect(text).not.toContain('today');
  });

  it('every 3 months, and yearly', () => {
    const quarterly = payPage({ ...base, amount: 1990, recurrence: { ...monthly, intervalCount: 3 } }, form);
    expect(textOf(quarterly.html)).toContain('19.90 USD every 3 months');
    const yearly = payPage({ ...base, amount: 1990, recurrence: { ...monthly, interval: 'year' } }, form);
    expect(textOf(yearly.html)).toContain('19.90 USD / year');
  });

  it('a trial: nothing today, then the price per interval from the first charge, and "Start trial"', () => {
    const page = payPage(
      {
        ...base,
        amount: 1990,
        recurrence: { ...monthly, trialDays: 14, firstChargeAt: '2026-12-10T12:00:00.000Z' },
      },
      form,
    );
    const text = textOf(page.html);
    expect(text).toContain('14-day free trial');
    expect(text).toContain('0.00 USD today');
    expect(text).toContain('then 19.90 USD / month from 10 Dec 2026');
    expect(page.html).toContain('<button type="submit">Start trial</button>');
    expect(page.html).not.toContain('>Pay<');
    // The period's price is never shown as the big amount of today.
    expect(page.html).toMatch(/<p class="amount" aria-label="Amount to pay today">0\.00 USD today<\/p>/);
  });

  it('in Spanish: the form, the price per month, the trial and its button', () => {
    const charged = payPage(
      { ...base, items: ['Basic × 2'], amount: 3980, recurrence: monthly, lang: 'es' },
      { ...form, askEmail: true },
    );
    const text = textOf(charged.html);
    expect(charged.html).toContain('<html lang="es">');
    expect(text).toContain('39,80 USD / mes');
    expect(charged.html).toContain('<button type="submit">Pagar</button>');
    for (const label of [
      'Correo electrónico',
      'Nombre del titular',
      'Número de tarjeta',
      'Código de seguridad',
    ])
      expect(charged.html).toContain(`>${label}</label>`);
    expect(text).toContain('Blue &lt;Mug&gt; nunca los guarda');

    const trial = payPage(
      {
        ...base,
        amount: 1990,
        recurrence: {
          interval: 'month',
          intervalCount: 3,
          trialDays: 7,
          firstChargeAt: '2026-12-03T00:00:00Z',
        },
        lang: 'es',
      },
      form,
    );
    const trialText = textOf(trial.html);
    expect(trialText).toContain('Prueba gratuita de 7 días');
    expect(trialText).toContain('0,00 USD hoy');
    expect(trialText).toContain('luego 19,90 USD cada 3 meses a partir del 3 dic 2026');
    expect(trial.html).toContain('<button type="submit">Iniciar prueba</button>');
  });

  it('a one-off payment is unchanged: the amount alone and "Pay"', () => {
    const page = payPage({ ...base, amount: 1000 }, form);
    expect(page.html).toContain('<p class="amount" aria-label="Amount to pay">10.00 USD</p>');
    expect(page.html).toContain('<button type="submit">Pay</button>');
    expect(textOf(page.html)).not.toMatch(/\/ month|today/);
  });

  it("escapes the merchant's name in the title, heading and note", () => {
    const page = payPage(
      { ...base, merchantName: '<script>x</script>', amount: 1990, recurrence: monthly },
      form,
    );
    expect(page.html).not.toContain('<script>');
    expect(page.html).toContain('<title>Pay &lt;script&gt;x&lt;/script&gt;</title>');
  });
});

describe('the other pages in Spanish', () => {
  it('the unknown checkout and the challenge', () => {
    const unknown = unknownPage('es');
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain('<html lang="es">');
    expect(unknown.html).toContain('Pago no encontrado');
    expect(unknownPage().html).toContain('Checkout not found');
    const challenge = challengePage(
      {
        merchantName: 'M',
        description: 'd',
        items: [],
        amount: 1000,
        currency: 'USD',
        test: true,
        lang: 'es',
      },
      {
        action: 'https://pay.example.com/checkout/t/challenge',
        csrf: 'c',
        returnUrl: 'https://shop.example/',
      },
    );
    expect(challenge.html).toContain('>Completar la autenticación</button>');
    expect(challenge.html).toContain('Modo de prueba');
  });
});

describe('money, dates and cards as every customer text writes them', () => {
  const summary = { merchantName: 'M', description: 'd', items: [], currency: 'USD', test: false };
  const form = {
    action: 'https://pay.example.com/checkout/t',
    csrf: 'c',
    askEmail: false,
    returnUrl: 'https://shop.example/',
  };

  it('amounts in the page language: thousands and decimals', () => {
    expect(payPage({ ...summary, amount: 123_456 }, form).html).toContain('>1,234.56 USD</p>');
    expect(payPage({ ...summary, amount: 123_456, lang: 'es' }, form).html).toContain('>1.234,56 USD</p>');
    expect(payPage({ ...summary, amount: 123_456, currency: 'JPY', lang: 'es' }, form).html).toContain(
      '>123.456 JPY</p>',
    );
  });

  it("a paid payment link's receipt: the date to the minute in UTC, the card one way, in the page's language", () => {
    const details = {
      reference: 'ch_1',
      paidAt: '2026-11-26T14:05:59.000Z',
      cardBrand: 'VISA',
      cardLast4: '3220',
    };
    const en = receiptPage({ ...summary, amount: 4500 }, details).html;
    expect(en).toContain('<dt>Date</dt><dd>26 Nov 2026, 14:05 UTC</dd>');
    expect(en).toContain('<dt>Card</dt><dd>Visa •••• 3220</dd>');
    expect(en).toContain('Payment received');
    const es = receiptPage({ ...summary, amount: 4500, lang: 'es' }, details).html;
    expect(es).toContain('<html lang="es">');
    expect(es).toContain('<dt>Fecha</dt><dd>26 nov 2026, 14:05 UTC</dd>');
    expect(es).toContain('<dt>Tarjeta</dt><dd>Visa •••• 3220</dd>');
    expect(es).toContain('>45,00 USD</p>');
  });
});
