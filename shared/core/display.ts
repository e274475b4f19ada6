/**
 * How a customer's texts (e-mails, receipts, the hosted pages) write dates, times and cards, one way
 * per language, so the same moment or card never reads two ways in two places. Times are UTC and
 * say so; money is written by displayAmount (shared/core/money/amount.ts), and a recurring price
 * from it here.
 */
import type { Lang } from './messages.ts';
import { displayAmount } from './money/amount.ts';
import type { Currency } from './money/currencies.ts';

const months: Record<Lang, readonly string[]> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  es: ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'oct', 'nov', 'dic'],
};

const parsed = (iso: string): Date | undefined => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
};

const dayOf = (date: Date, language: Lang) =>
  `${date.getUTCDate()} ${(months[language] ?? months.en)[date.getUTCMonth()]} ${date.getUTCFullYear()}`;

/** A day, in UTC: "26 Nov 2026" in English, "26 nov 2026" in Spanish. Text that is no date is shown as given. */
export function displayDate(iso: string, language: Lang): string {
  const date = parsed(iso);
  return date ? dayOf(date, language) : iso;
}

/**
 * A moment, to the minute, in UTC and saying so: "26 Nov 2026, 14:05 UTC" ("26 nov 2026, 14:05 UTC").
 * Seconds are never shown.
 */
export function displayDateTime(iso: string, language: Lang): string {
  const date = parsed(iso);
  if (!date) return iso;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${dayOf(date, language)}, ${two(date.getUTCHours())}:${two(date.getUTCMinutes())} UTC`;
}

/** How a card's brand is written, whatever case it is stored in; an unknown one is "Card". */
const brandNames: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

const unknownCard: Record<Lang, string> = { en: 'Card', es: 'Tarjeta' };

/** A card's brand as a customer reads it ("visa", "VISA" and "Visa" all read "Visa"). */
export function displayCardBrand(brand: string | null | undefined, language: Lang): string {
  return brandNames[(brand ?? '').trim().toLowerCase()] ?? unknownCard[language] ?? unknownCard.en;
}

/**
 * A card as every customer text shows it: its brand and last 4 digits, never more ("Visa •••• 4242");
 * the brand alone when the last digits are unknown.
 */
export function displayCard(card: { brand?: string | null; last4?: string | null }, language: Lang): string {
  const brand = displayCardBrand(card.brand, language);
  return card.last4 ? `${brand} •••• ${card.last4}` : brand;
}

/** A span of days: "26 Nov 2026 – 26 Dec 2026". */
export function displayPeriod(start: string, end: string, language: Lang): string {
  return `${displayDate(start, language)} – ${displayDate(end, language)}`;
}

const intervalNames: Record<Lang, Record<string, readonly [one: string, many: string]>> = {
  en: { day: ['day', 'days'], week: ['week', 'weeks'], month: ['month', 'months'], year: ['year', 'years'] },
  es: { day: ['día', 'días'], week: ['semana', 'semanas'], month: ['mes', 'meses'], year: ['año', 'años'] },
};

/** How often a price comes back: "/ month", "/ year", "every 3 months" ("/ mes", "cada 3 meses"). */
export function displayEvery(interval: string, count: number, language: Lang): string {
  const [one, many] = intervalNames[language]?.[interval] ?? [interval, interval];
  if (count === 1) return `/ ${one}`;
  return language === 'es' ? `cada ${count} ${many}` : `every ${count} ${many}`;
}

/** What a subscription sells, as its e-mails and receipts list it. */
export interface RecurringItem {
  name: string;
  quantity: number;
  /** The price of one, in minor units. */
  unitAmount: number;
  currency: Currency;
  interval: string;
  intervalCount: number;
}

/** The item and how many: "Silver × 2"; just "Silver" for one. */
export function displayItem(item: Pick<RecurringItem, 'name' | 'quantity'>): string {
  return item.quantity === 1 ? item.name : `${item.name} × ${item.quantity}`;
}

/**
 * The price per interval, unit price times quantity when more than one: "9.90 USD × 2 = 19.80 USD /
 * month", "9,90 USD cada 3 meses". The total is multiplied in minor units, never in decimals.
 */
export function displayPrice(item: Omit<RecurringItem, 'name'>, language: Lang): string {
  const every = displayEvery(item.interval, item.intervalCount, language);
  const total = displayAmount(item.unitAmount * item.quantity, item.currency, language);
  if (item.quantity === 1) return `${total} ${every}`;
  return `${displayAmount(item.unitAmount, item.currency, language)} × ${item.quantity} = ${total} ${every}`;
}
