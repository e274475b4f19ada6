/**
 * How a customer's texts (e-mails, receipts, the hosted pages) write dates, times and cards, one way
 * per language, so the same moment or card never reads two ways in two places. Times are UTC and
 * say so; money is written by displayAmount (shared/core/money/amount.ts).
 */
import type { Lang } from './messages.ts';

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
