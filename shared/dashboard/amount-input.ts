/**
 * An amount typed into one of the dashboard's forms (a refund, a plan's, a product's or a payment
 * link's amount). The API reads amounts with a decimal point only; the dashboard writes them in the
 * reader's number format, so a Spanish page shows `1.234,50 USD` and its reader types `1,50`. Only
 * on a Spanish page, and only in these exact shapes, the comma is read as the decimal point: digits
 * comma digits (`1,50` is `1.50`), or thousands grouped by points then a decimal comma
 * (`1.234,50` is `1234.50`). Anything else is passed on as typed, so the API's own refusal shows.
 * The API itself is unchanged: it still takes a point only.
 */
import type { Lang } from '../core/messages.ts';

const decimalComma = /^\d+,\d+$/;
const groupedDecimalComma = /^\d{1,3}(?:\.\d{3})+,\d+$/;

/** The amount as the API reads it, from what the reader typed on a page in `lang`. */
export function typedAmount(typed: string, lang: Lang): string {
  const text = typed.trim();
  if (lang !== 'es') return typed;
  if (decimalComma.test(text)) return text.replace(',', '.');
  if (groupedDecimalComma.test(text)) return text.replaceAll('.', '').replace(',', '.');
  return typed;
}
