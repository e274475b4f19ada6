/**
 * What every e-mail writes the same way, in English and Spanish: money, dates, cards, how often, a
 * mode, a subscription's item, the greeting and the footers. Money, dates and cards come from the
 * display functions every customer text shares (shared/core/display.ts, displayAmount), in the
 * e-mail's language: "1.234,56 USD" in Spanish, "26 Nov 2026, 14:05 UTC", "Visa •••• 4242".
 */
import type { Mode } from '../core/account.ts';
import {
  displayCard,
  displayDate,
  displayDateTime,
  displayEvery,
  displayItem,
  displayPrice,
} from '../core/display.ts';
import type { Lang } from '../core/messages.ts';
import { displayAmount, parseScaledDecimal } from '../core/money/amount.ts';
import { findCurrency } from '../core/money/currencies.ts';

/** How one language writes dates, money, cards, periods and modes; each e-mail's copy is handed one. */
export interface Words {
  dateTime(iso: string): string;
  date(iso: string): string;
  /** An amount given as the API's decimal ("1234.5") in `currency`: "1,234.50 USD" / "1.234,50 USD". */
  money(amount: string, currency: string): string;
  card(card: { brand?: string | null; last4?: string | null }): string;
  /** "every month", "every 3 months" ("cada mes", "cada 3 meses"), for a sentence. */
  every(interval: string, count: number): string;
  mode(mode: Mode): string;
}

/**
 * An amount a caller gives as the API's decimal, written for `language` from its exact digits (never
 * through a float); one in a currency cobro does not know is shown as given.
 */
function money(amount: string, code: string, language: Lang): string {
  const currency = findCurrency(code);
  const minor = currency ? parseScaledDecimal(amount, currency.precision) : undefined;
  return currency && minor !== undefined ? displayAmount(minor, currency, language) : `${amount} ${code}`;
}

const intervalNames: Record<Lang, Record<string, readonly [one: string, many: string]>> = {
  en: { day: ['day', 'days'], week: ['week', 'weeks'], month: ['month', 'months'], year: ['year', 'years'] },
  es: { day: ['día', 'días'], week: ['semana', 'semanas'], month: ['mes', 'meses'], year: ['año', 'años'] },
};

const wordsIn = (language: Lang) => ({
  dateTime: (iso: string) => displayDateTime(iso, language),
  date: (iso: string) => displayDate(iso, language),
  money: (amount: string, currency: string) => money(amount, currency, language),
  card: (card: { brand?: string | null; last4?: string | null }) => displayCard(card, language),
});

/** The words of each language. */
export const words: Record<Lang, Words> = {
  en: {
    ...wordsIn('en'),
    every(interval, count) {
      const [one, many] = intervalNames.en[interval] ?? [interval, `${interval}s`];
      return count === 1 ? `every ${one}` : `every ${count} ${many}`;
    },
    mode: (mode) => mode,
  },
  es: {
    ...wordsIn('es'),
    every(interval, count) {
      const [one, many] = intervalNames.es[interval] ?? [interval, interval];
      return count === 1 ? `cada ${one}` : `cada ${count} ${many}`;
    },
    mode: (mode) => (mode === 'test' ? 'de prueba' : 'de producción'),
  },
};

/** The first line of every e-mail: "Hello Ana," ("Hola Ana:"), or without a name when none is known. */
export const greeting = {
  en: (name?: string | null) => (name ? `Hello ${name},` : 'Hello,'),
  es: (name?: string | null) => (name ? `Hola ${name}:` : 'Hola:'),
};

/** The footer of an e-mail to a merchant about its cobro account. */
export const accountFooter = {
  en: 'cobro · a notice about your account',
  es: 'cobro · un aviso sobre tu cuenta',
};

/** The footer of an e-mail to a merchant's customer: who sends it, and through what. */
export const customerFooter = {
  en: (merchant: string) => `${merchant} sends you this e-mail through cobro.`,
  es: (merchant: string) => `${merchant} te envía este correo a través de cobro.`,
};

/**
 * What a subscription sells, as its e-mails list it (the activation and every receipt of its
 * charges): the plan, how many, the price of one (the API's decimal) and how often it is charged.
 */
export interface MailItem {
  name: string;
  quantity: number;
  unitAmount: string;
  currency: string;
  interval: string;
  intervalCount: number;
}

/** "Silver × 2" and "9.90 USD × 2 = 19.80 USD / month", in `language`. */
export function itemLines(item: MailItem, language: Lang): { name: string; price: string } {
  const name = displayItem(item);
  const currency = findCurrency(item.currency);
  const unit = currency ? parseScaledDecimal(item.unitAmount, currency.precision) : undefined;
  if (!currency || unit === undefined) {
    // A currency cobro does not know: the figures as given, never a wrong total.
    const each = `${item.unitAmount} ${item.currency}`;
    const every = displayEvery(item.interval, item.intervalCount, language);
    return { name, price: item.quantity === 1 ? `${each} ${every}` : `${each} × ${item.quantity} ${every}` };
  }
  return { name, price: displayPrice({ ...item, unitAmount: unit, currency }, language) };
}
