/**
 * The receipts' e-mail (docs/design.md#receipts): the receipt of an approved charge to whoever paid
 * it, with a link to its page and PDF, in English and Spanish. shared/mail renders and sends it.
 */
import { displayPeriod } from '../core/display.ts';
import type { Lang } from '../core/messages.ts';
import { defineMail } from '../mail/layout.ts';
import { customerFooter, greeting, itemLines, type MailItem } from '../mail/words.ts';

/** What a receipt e-mail says of one approved charge. */
export interface MailReceipt {
  /** The charge's id (`ch_…`): the reference a payer quotes to the merchant. */
  reference: string;
  /** The amount in major units as the API writes it (`19.99`); the e-mail writes it in its language. */
  amount: string;
  currency: string;
  /** What was paid for; none when the charge has no description. */
  description?: string | null;
  /** What a subscription's charge bought: the plan, how many, the price per interval. @default not shown */
  item?: MailItem | null;
  /** The period a subscription's charge pays for. @default not shown */
  period?: { start: string; end: string } | null;
  /** When the charge was approved (ISO 8601). */
  paidAt: string;
  cardBrand: string;
  cardLast4: string;
  /** The hosted receipt page (no login), which also serves the PDF. */
  receiptUrl: string;
}

/** The description, unless it only repeats the item's name (a subscription's charge is described by its plan's). */
const shownDescription = (r: MailReceipt) =>
  r.description && r.description !== r.item?.name ? r.description : null;

/** The rows of what a subscription's charge bought, in `language`; none for any other charge. */
function boughtRows(r: MailReceipt, language: Lang, labels: { item: string; price: string; period: string }) {
  const rows: (readonly [string, string])[] = [];
  if (r.item) {
    const { name, price } = itemLines(r.item, language);
    rows.push([labels.item, name], [labels.price, price]);
  }
  if (r.period) rows.push([labels.period, displayPeriod(r.period.start, r.period.end, language)]);
  return rows;
}

/** To the payer: the receipt of an approved charge, with a link to its page and PDF (`charge.succeeded`). */
export const receiptMail = /* @__PURE__ */ defineMail<{ customerName?: string | null; receipt: MailReceipt }>(
  {
    en: ({ receipt: r, ...input }, w) => ({
      subject: r.description
        ? `${input.merchant.name}: your receipt for "${r.description}"`
        : `${input.merchant.name}: your receipt`,
      heading: `Receipt for ${w.money(r.amount, r.currency)}`,
      blocks: [
        { paragraph: greeting.en(input.customerName) },
        { paragraph: `${input.merchant.name} received your payment. Thank you!` },
        {
          details: [
            ['Merchant', input.merchant.name],
            ['Amount', w.money(r.amount, r.currency)],
            ...(shownDescription(r) ? [['Description', shownDescription(r) ?? ''] as const] : []),
            ...boughtRows(r, 'en', { item: 'Item', price: 'Price', period: 'Period' }),
            ['Date', w.dateTime(r.paidAt)],
            ['Card', w.card({ brand: r.cardBrand, last4: r.cardLast4 })],
            ['Reference', r.reference],
          ],
        },
        { link: { label: 'View or download this receipt (PDF)', url: r.receiptUrl } },
        { paragraph: `If you do not recognize this payment, contact ${input.merchant.name}.` },
      ],
      footer: customerFooter.en(input.merchant.name),
    }),
    es: ({ receipt: r, ...input }, w) => ({
      subject: r.description
        ? `${input.merchant.name}: tu recibo de "${r.description}"`
        : `${input.merchant.name}: tu recibo`,
      heading: `Recibo de ${w.money(r.amount, r.currency)}`,
      blocks: [
        { paragraph: greeting.es(input.customerName) },
        { paragraph: `${input.merchant.name} recibió tu pago. ¡Gracias!` },
        {
          details: [
            ['Comercio', input.merchant.name],
            ['Importe', w.money(r.amount, r.currency)],
            ...(shownDescription(r) ? [['Descripción', shownDescription(r) ?? ''] as const] : []),
            ...boughtRows(r, 'es', { item: 'Concepto', price: 'Precio', period: 'Periodo' }),
            ['Fecha', w.dateTime(r.paidAt)],
            ['Tarjeta', w.card({ brand: r.cardBrand, last4: r.cardLast4 })],
            ['Referencia', r.reference],
          ],
        },
        { link: { label: 'Consulta o descarga este recibo (PDF)', url: r.receiptUrl } },
        { paragraph: `Si no reconoces este pago, contacta a ${input.merchant.name}.` },
      ],
      footer: customerFooter.es(input.merchant.name),
    }),
  },
);
