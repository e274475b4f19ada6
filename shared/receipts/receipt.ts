/**
 * A receipt (docs/design.md#receipts): what the payer of one approved charge is shown, the same in
 * the e-mail, on the hosted page and in the PDF: the merchant, the amount and currency, the
 * description, the date, the card's brand and last 4 digits (never more of the card) and the
 * charge's id as its reference. Written in the account's language, never the reader's browser's:
 * the payer sees the receipt the merchant's e-mails speak.
 */
import { merchantName } from '../accounts/account.ts';
import type { Account } from '../accounts/repository.ts';
import type { Charge } from '../charges/charge.ts';
import { isLang, type Lang } from '../core/messages.ts';
import { formatAmount } from '../core/money/amount.ts';
import { currencyOf } from '../core/money/fields.ts';

export interface ReceiptView {
  language: Lang;
  merchant: string;
  /** The merchant's logo, when it is an http(s) URL. @default none */
  logoUrl?: string;
  /** The amount in major units, as the API writes it (`19.99`, `1200` for JPY). */
  amount: string;
  /** The upper-case code (`USD`). */
  currency: string;
  description: string | null;
  /** When the charge was approved (ISO 8601 UTC). */
  paidAt: string;
  cardBrand: string;
  cardLast4: string;
  /** The charge's id (`ch_…`). */
  reference: string;
  /** What refunds have given back so far, in major units; none when nothing was refunded. */
  refunded?: string;
  test: boolean;
}

/** The logo's URL when it is an absolute http(s) URL; anything else is dropped. */
function httpUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** How a receipt names a card's brand; an unknown one is just "card" (the last 4 digits follow). */
const brandNames: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

/** The receipt of `charge`, in the language of the account it belongs to (English when unset). */
export function receiptView(charge: Charge, account: Account): ReceiptView {
  const currency = currencyOf(charge);
  const logo = httpUrl(account.logo);
  return {
    language: isLang(account.language) ? account.language : 'en',
    merchant: merchantName(account),
    ...(logo ? { logoUrl: logo } : {}),
    amount: formatAmount(charge.amount, currency),
    currency: currency.code,
    description: charge.description || null,
    paidAt: charge.created_at,
    cardBrand: brandNames[charge.card.brand] ?? charge.card.brand,
    cardLast4: charge.card.last4,
    reference: charge.id,
    ...(charge.refunded > 0 ? { refunded: formatAmount(charge.refunded, currency) } : {}),
    test: charge.mode === 'test',
  };
}

/** The words of a receipt, per language: the page and the PDF share them. */
export interface ReceiptTexts {
  title: string;
  heading: string;
  thanks(merchant: string): string;
  merchant: string;
  amount: string;
  description: string;
  date: string;
  card: string;
  cardValue(brand: string, last4: string): string;
  reference: string;
  refunded: string;
  test: string;
  pdf: string;
  keep: string;
  notFoundTitle: string;
  notFoundMessage: string;
  /** A date and time, written out in this language, in UTC. */
  dateTime(iso: string): string;
}

const dateTimeIn = (language: Lang) => {
  const format = new Intl.DateTimeFormat(language, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  return (iso: string) => {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? iso : `${format.format(date)} UTC`;
  };
};

export const receiptTexts: Record<Lang, ReceiptTexts> = {
  en: {
    title: 'Receipt',
    heading: 'Payment receipt',
    thanks: (merchant) => `${merchant} received your payment. Thank you!`,
    merchant: 'Merchant',
    amount: 'Amount',
    description: 'Description',
    date: 'Date',
    card: 'Card',
    cardValue: (brand, last4) => `${brand} ending in ${last4}`,
    reference: 'Reference',
    refunded: 'Refunded',
    test: 'Test mode: no real money moved.',
    pdf: 'Download the PDF',
    keep: 'Keep this receipt for your records.',
    notFoundTitle: 'Receipt not found',
    notFoundMessage: 'This receipt link does not exist. Check the link in your e-mail, or ask the merchant.',
    dateTime: dateTimeIn('en'),
  },
  es: {
    title: 'Recibo',
    heading: 'Recibo de pago',
    thanks: (merchant) => `${merchant} recibió tu pago. ¡Gracias!`,
    merchant: 'Comercio',
    amount: 'Importe',
    description: 'Descripción',
    date: 'Fecha',
    card: 'Tarjeta',
    cardValue: (brand, last4) => `${brand} terminada en ${last4}`,
    reference: 'Referencia',
    refunded: 'Reembolsado',
    test: 'Modo de prueba: no se movió dinero real.',
    pdf: 'Descargar el PDF',
    keep: 'Guarda este recibo.',
    notFoundTitle: 'Recibo no encontrado',
    notFoundMessage: 'Este enlace de recibo no existe. Revisa el enlace de tu correo o pregunta al comercio.',
    dateTime: dateTimeIn('es'),
  },
};

/** The label and value rows every form of the receipt lists, in order. */
export function receiptRows(view: ReceiptView): [label: string, value: string][] {
  const t = receiptTexts[view.language];
  return [
    [t.merchant, view.merchant],
    [t.amount, `${view.amount} ${view.currency}`],
    ...(view.description ? [[t.description, view.description] as [string, string]] : []),
    [t.date, t.dateTime(view.paidAt)],
    [t.card, t.cardValue(view.cardBrand, view.cardLast4)],
    [t.reference, view.reference],
    ...(view.refunded ? [[t.refunded, `${view.refunded} ${view.currency}`] as [string, string]] : []),
  ];
}

/** The receipt page's address: from the stage's configured base URL, never from a request. */
export const receiptUrl = (baseUrl: string, token: string) => `${baseUrl}/receipts/${token}`;

/** The PDF's address: the page's, with `.pdf` after the token. */
export const receiptPdfUrl = (baseUrl: string, token: string) => `${receiptUrl(baseUrl, token)}.pdf`;

/** What a receipt path segment asks for: the token, and whether as the PDF (`<token>.pdf`). */
export function asRequested(segment: string): { token: string; pdf: boolean } {
  return segment.endsWith('.pdf')
    ? { token: segment.slice(0, -4), pdf: true }
    : { token: segment, pdf: false };
}
