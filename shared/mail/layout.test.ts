import { describe, expect, it } from 'vitest';
import type { Lang } from '../core/messages.ts';
import { defineMail, mailLanguage, safeLogoUrl } from './layout.ts';

/** An e-mail made for these tests: one block of each kind, its words from the fields. */
const sampleMail = defineMail<{ who: string; url: string; rows: [string, string][] }>({
  en: (input, w) => ({
    subject: `Hi ${input.who}`,
    heading: `For ${input.who}`,
    blocks: [
      { paragraph: `First ${input.who}\nsecond line on ${w.date('2026-11-22T10:15:00.000Z')}` },
      { details: input.rows },
      { link: { label: 'Open', url: input.url } },
    ],
    footer: `Footer ${input.who}`,
  }),
  es: (input) => ({
    subject: `Hola ${input.who}`,
    heading: 'Para ti',
    blocks: [{ paragraph: 'Hola' }],
    footer: 'Pie',
  }),
});

const merchant = { name: 'Acme & Co', logoUrl: 'https://acme.example/logo.png' };

describe('the layout', () => {
  it('writes the HTML part as it always has, every value escaped', () => {
    const mail = sampleMail({
      language: 'en',
      merchant,
      who: '<b>"Ana"</b>',
      url: 'https://pay.example/p?a=1&b=2',
      rows: [['Plan', "O'Neil <Gold>"]],
    });
    expect(mail.html).toBe(
      [
        '<!DOCTYPE html>',
        '<html lang="en">',
        '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
        '<title>Hi &lt;b&gt;&quot;Ana&quot;&lt;/b&gt;</title></head>',
        '<body style="margin:0;padding:0;background:#f4f5f7">',
        '<div style="max-width:560px;margin:0 auto;padding:24px;font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#1f2328">',
        '<div style="background:#ffffff;border:1px solid #d0d7de;border-radius:8px;padding:24px">',
        '<div style="margin:0 0 16px"><img src="https://acme.example/logo.png" alt="Acme &amp; Co" height="40" style="display:block;max-height:40px;border:0;margin:0 0 8px"><div style="font-size:16px;font-weight:bold">Acme &amp; Co</div></div>',
        '<h1 style="font-size:20px;line-height:1.3;margin:0 0 16px">For &lt;b&gt;&quot;Ana&quot;&lt;/b&gt;</h1>',
        '<p style="margin:0 0 16px">First &lt;b&gt;&quot;Ana&quot;&lt;/b&gt;<br>second line on 22 Nov 2026</p>',
        '<table role="presentation" style="border-collapse:collapse;margin:0 0 16px"><tr><td style="padding:4px 16px 4px 0;color:#6e7781;vertical-align:top">Plan</td><td style="padding:4px 0;font-weight:bold">O&#39;Neil &lt;Gold&gt;</td></tr></table>',
        '<p style="margin:0 0 16px"><a href="https://pay.example/p?a=1&amp;b=2" style="color:#1f5eff;font-weight:bold">Open</a><br><span style="font-size:12px;color:#6e7781;word-break:break-all">https://pay.example/p?a=1&amp;b=2</span></p>',
        '</div>',
        '<p style="margin:16px 0 0;font-size:12px;color:#6e7781;text-align:center">Footer &lt;b&gt;&quot;Ana&quot;&lt;/b&gt;</p>',
        '</div>',
        '</body>',
        '</html>',
      ].join('\n'),
    );
  });

  it('writes the text part from the same blocks, with the signature separator before the footer', () => {
    const mail = sampleMail({
      language: 'en',
      merchant,
      who: '<Ana>',
      url: 'https://pay.example/p',
      rows: [
        ['Plan', 'Gold'],
        ['Price', '1 USD'],
      ],
    });
    expect(mail.subject).toBe('Hi <Ana>');
    expect(mail.text).toBe(
      'First <Ana>\nsecond line on 22 Nov 2026\n\nPlan: Gold\nPrice: 1 USD\n\nOpen:\nhttps://pay.example/p\n\n-- \nFooter <Ana>',
    );
  });

  it('leaves out a details block with no rows, and shows an address that is not http(s) as text', () => {
    const mail = sampleMail({ language: 'en', merchant, who: 'Ana', url: 'javascript:alert(1)', rows: [] });
    expect(mail.html).not.toContain('<table');
    expect(mail.html).not.toContain('<a ');
    expect(mail.html).toContain('<p style="margin:0 0 16px">Open: javascript:alert(1)</p>');
    expect(mail.text).not.toMatch(/\n\n\n/);
  });

  it('keeps a subject on one line and writes the language asked for', () => {
    const mail = sampleMail({
      language: 'es',
      merchant,
      who: 'Ana\r\nBcc: x@example.com',
      url: '',
      rows: [],
    });
    expect(mail.subject).toBe('Hola Ana  Bcc: x@example.com');
    expect(mail.html).toContain('<html lang="es">');
    expect(mail.html).toContain('<title>Hola Ana  Bcc: x@example.com</title>');
  });

  it('an unknown language at run time renders English rather than failing', () => {
    const mail = sampleMail({ language: 'fr' as Lang, merchant, who: 'Ana', url: '', rows: [] });
    expect(mail.subject).toBe('Hi Ana');
    expect(mail.html).toContain('<html lang="en">');
  });
});

describe('mailLanguage', () => {
  it('is Spanish only for es, English otherwise', () => {
    expect(mailLanguage('es')).toBe('es');
    for (const value of ['en', undefined, null, 'fr', 'ES', 1]) expect(mailLanguage(value)).toBe('en');
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
