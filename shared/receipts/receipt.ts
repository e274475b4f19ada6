/**
 * A receipt (docs/design.md#receipts): what the payer of one approved charge is shown, the same in
 * the e-mail, on the hosted page and in the PDF: the merchant, the amount and currency, the
 * description, for a subscription's charge what it bought (plan × quantity, the price per interval)
 * and the period it pays for, the date, the card's brand and last 4 digits (never more of the card)
 * and the charge's id as its reference. Written in the account's language, never the reader's browser's:
 * the payer sees the receipt the merchant's e-mails speak.
 */
import { merchantName } from '../accounts/account.ts';
import type { Account } from '../accounts/repository.ts';
import type { Charge } from '../charges/charge.ts';
import { displayCard, displayDateTime, displayItem, displayPeriod, displayPrice } from '../core/display.ts';
import { isLang, type Lang } from '../core/messages.ts';
import { displayAmount } from '../core/money/amount.ts';
import type { Currency } from '../core/money/currencies.ts';
import { currencyOf } from '../core/money/fields.ts';
import { httpUrlOf } from '../core/web-url.ts';

/**
 * What a subscription's charge bought, kept on the receipt's link when the link is made (the
 * subscription may change or go later; the receipt says what was paid then): the plan's name, how
 * many, the price of one in minor units of the charge's currency, and how often it is charged.
 */
export interface ReceiptItem {
  name: string;
  quantity: number;
  unit_amount: number;
  interval: string;
  interval_count: number;
}

/** The billing period a subscription's charge pays for (ISO 8601 UTC, the end exclusive). */
export interface ReceiptPeriod {
  start: string;
  end: string;
}

/** What a receipt's link keeps besides the charge: none on any other charge, or on links made before. */
export interface ReceiptBought {
  item?: ReceiptItem | null;
  period?: ReceiptPeriod | null;
}

export interface ReceiptView {
  language: Lang;
  merchant: string;
  /** The merchant's logo, when it is an http(s) URL. @default none */
  logoUrl?: string;
  /** The amount paid, in minor units of `currency`. */
  amount: number;
  currency: Currency;
  description: string | null;
  /** What a subscription's charge bought. @default not shown */
  item?: ReceiptItem | null;
  /** The period a subscription's charge pays for. @default not shown */
  period?: ReceiptPeriod | null;
  /** When the charge was approved (ISO 8601 UTC). */
  paidAt: string;
  /** The brand as the acquirer names it (`visa`); shown by displayCard. */
  cardBrand: string;
  cardLast4: string;
  /** The charge's id (`ch_…`). */
  reference: string;
  /** What refunds have given back so far, in minor units; none when nothing was refunded. */
  refunded?: number;
  test: boolean;
}

/**
 * The receipt of `charge`, in the language of the account it belongs to (English when unset), with
 * what its link kept of what was bought (`bought`; a link made before it was kept has none).
 */
export function receiptView(charge: Charge, account: Account, bought: ReceiptBought = {}): ReceiptView {
  // The logo when it is an absolute http(s) URL; anything else is dropped.
  const logo = httpUrlOf(account.logo)?.href;
  return {
    language: isLang(account.language) ? account.language : 'en',
    merchant: merchantName(account),
    ...(logo ? { logoUrl: logo } : {}),
    amount: charge.amount,
    currency: currencyOf(charge),
    description: charge.description || null,
    ...(bought.item ? { item: bought.item } : {}),
    ...(bought.period ? { period: bought.period } : {}),
    paidAt: charge.created_at,
    cardBrand: charge.card.brand,
    cardLast4: charge.card.last4,
    reference: charge.id,
    ...(charge.refunded > 0 ? { refunded: charge.refunded } : {}),
    test: charge.mode === 'test',
  };
}

/** The amount paid, as the receipt's language writes it ("1.234,56 USD" in Spanish). */
export const receiptAmount = (view: ReceiptView) => displayAmount(view.amount, view.currency, view.language);

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
  item: string;
  price: string;
  period: string;
  reference: string;
  refunded: string;
  test: string;
  pdf: string;
  keep: string;
  notFoundTitle: string;
  notFoundMessage: string;
}

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
    item: 'Item',
    price: 'Price',
    period: 'Period',
    reference: 'Reference',
    refunded: 'Refunded',
    test: 'Test mode: no real money moved.',
    pdf: 'Download the PDF',
    keep: 'Keep this receipt for your records.',
    notFoundTitle: 'Receipt not found',
    notFoundMessage: 'This receipt link does not exist. Check the link in your e-mail, or ask the merchant.',
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
    item: 'Concepto',
    price: 'Precio',
    period: 'Periodo',
    reference: 'Referencia',
    refunded: 'Reembolsado',
    test: 'Modo de prueba: no se movió dinero real.',
    pdf: 'Descargar el PDF',
    keep: 'Guarda este recibo.',
    notFoundTitle: 'Recibo no encontrado',
    notFoundMessage: 'Este enlace de recibo no existe. Revisa el enlace de tu correo o pregunta al comercio.',
  },
};

/**
 * The label and value rows every form of the receipt lists, in order; money, dates and the card as
 * every customer text writes them. A subscription's charge adds what it bought and the period it
 * pays for; its description, the plan's name, is then not repeated.
 */
export function receiptRows(view: ReceiptView): [label: string, value: string][] {
  const t = receiptTexts[view.language];
  const lang = view.language;
  const rows: [string, string][] = [
    [t.merchant, view.merchant],
    [t.amount, receiptAmount(view)],
  ];
  if (view.description && view.description !== view.item?.name) rows.push([t.description, view.description]);
  if (view.item) {
    const { item } = view;
    rows.push(
      [t.item, displayItem(item)],
      [
        t.price,
        displayPrice(
          {
            quantity: item.quantity,
            unitAmount: item.unit_amount,
            currency: view.currency,
            interval: item.interval,
            intervalCount: item.interval_count,
          },
          lang,
        ),
      ],
    );
  }
  if (view.period) rows.push([t.period, displayPeriod(view.period.start, view.period.end, lang)]);
  rows.push(
    [t.date, displayDateTime(view.paidAt, lang)],
    [t.card, displayCard({ brand: view.cardBrand, last4: view.cardLast4 }, lang)],
    [t.reference, view.reference],
  );
  if (view.refunded) rows.push([t.refunded, displayAmount(view.refunded, view.currency, lang)]);
  return rows;
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
