/**
 * The refunds' e-mail (docs/design.md#e-mail): the refund notice to the payer of a refunded charge,
 * in English and Spanish. shared/mail renders and sends it.
 */
import { defineMail } from '../mail/layout.ts';
import { customerFooter, greeting } from '../mail/words.ts';

/** To the payer: a refund of one of their charges (`refund.created`). */
export const refundIssuedMail = /* @__PURE__ */ defineMail<{
  customerName?: string | null;
  /** What was refunded, in the API's decimal (`12.50`), and the charge's currency. */
  amount: string;
  currency: string;
  /** The charge refunded: its reference, amount, what it paid for and the card it was made on. */
  chargeId: string;
  chargeAmount: string;
  chargeDescription?: string | null;
  chargedAt: string;
  card?: { brand: string; last4: string } | null;
  /** The refund's reference (`re_…`). */
  refundId: string;
  refundedAt: string;
}>({
  en: (input, w) => {
    const partial = input.amount !== input.chargeAmount;
    const card = input.card?.last4 ? `your card ${w.card(input.card)}` : 'your card';
    return {
      subject: `${input.merchant.name}: refund of ${w.money(input.amount, input.currency)}`,
      heading: 'Your refund is on its way',
      blocks: [
        { paragraph: greeting.en(input.customerName) },
        {
          paragraph: [
            `${input.merchant.name} refunded ${w.money(input.amount, input.currency)} to ${card} on ${w.date(input.refundedAt)}.`,
            partial
              ? `It refunds part of your payment of ${w.money(input.chargeAmount, input.currency)} made on ${w.date(input.chargedAt)}.`
              : `It refunds in full your payment of ${w.money(input.chargeAmount, input.currency)} made on ${w.date(input.chargedAt)}.`,
          ].join('\n'),
        },
        {
          details: [
            ['Refunded', w.money(input.amount, input.currency)],
            ['Original payment', w.money(input.chargeAmount, input.currency)],
            ...(input.chargeDescription ? [['For', input.chargeDescription] as const] : []),
            ['Payment reference', input.chargeId],
            ['Refund reference', input.refundId],
            ['Date', w.date(input.refundedAt)],
          ],
        },
        {
          paragraph: `Depending on your bank, the money shows on your statement within a few business days. If you have questions, contact ${input.merchant.name}.`,
        },
      ],
      footer: customerFooter.en(input.merchant.name),
    };
  },
  es: (input, w) => {
    const partial = input.amount !== input.chargeAmount;
    const card = input.card?.last4 ? `tu tarjeta ${w.card(input.card)}` : 'tu tarjeta';
    return {
      subject: `${input.merchant.name}: reembolso de ${w.money(input.amount, input.currency)}`,
      heading: 'Tu reembolso está en camino',
      blocks: [
        { paragraph: greeting.es(input.customerName) },
        {
          paragraph: [
            `${input.merchant.name} te reembolsó ${w.money(input.amount, input.currency)} a ${card} el ${w.date(input.refundedAt)}.`,
            partial
              ? `Reembolsa una parte de tu pago de ${w.money(input.chargeAmount, input.currency)} del ${w.date(input.chargedAt)}.`
              : `Reembolsa el total de tu pago de ${w.money(input.chargeAmount, input.currency)} del ${w.date(input.chargedAt)}.`,
          ].join('\n'),
        },
        {
          details: [
            ['Reembolsado', w.money(input.amount, input.currency)],
            ['Pago original', w.money(input.chargeAmount, input.currency)],
            ...(input.chargeDescription ? [['Concepto', input.chargeDescription] as const] : []),
            ['Referencia del pago', input.chargeId],
            ['Referencia del reembolso', input.refundId],
            ['Fecha', w.date(input.refundedAt)],
          ],
        },
        {
          paragraph: `Según tu banco, el dinero aparece en tu estado de cuenta en unos días hábiles. Si tienes preguntas, contacta a ${input.merchant.name}.`,
        },
      ],
      footer: customerFooter.es(input.merchant.name),
    };
  },
});
