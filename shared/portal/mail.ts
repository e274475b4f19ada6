/**
 * The portal's e-mail (docs/design.md#customer-portal): the failed-renewal notice, with a link to the
 * customer portal to replace or confirm the card, in English and Spanish. shared/portal/notice.ts
 * gathers its fields and sends it; shared/mail renders it.
 */
import { defineMail } from '../mail/layout.ts';
import { customerFooter, greeting } from '../mail/words.ts';

/**
 * To the customer: a renewal of their subscription was declined (`subscription.payment_failed` with a
 * retry ahead), with a link to the customer portal, valid for `linkExpiresAt`, to replace the card.
 */
export const renewalFailedMail = /* @__PURE__ */ defineMail<{
  customerName?: string | null;
  planName: string;
  /** The amount that could not be charged, in the API's decimal, and its currency. */
  amount: string;
  currency: string;
  /** When the card is tried again. */
  nextRetryAt: string;
  /** The customer portal's address, and when it stops opening. */
  portalUrl: string;
  linkExpiresAt: string;
  /**
   * The bank asked for the cardholder to confirm the payment (`authentication_required`: a charge
   * made without them cannot pass it): the customer confirms the card in the portal instead of
   * replacing it. @default a decline
   */
  needsConfirmation?: boolean;
}>({
  en: (input, w) => ({
    subject: input.needsConfirmation
      ? `${input.merchant.name}: confirm your payment for "${input.planName}"`
      : `${input.merchant.name}: your payment for "${input.planName}" failed`,
    heading: input.needsConfirmation ? 'Your bank asks you to confirm your payment' : 'Your payment failed',
    blocks: [
      { paragraph: greeting.en(input.customerName) },
      {
        paragraph: input.needsConfirmation
          ? `We could not charge ${w.money(input.amount, input.currency)} for your subscription to "${input.planName}": your bank asks you to confirm the payment yourself. We will try again on ${w.date(input.nextRetryAt)}.`
          : `We could not charge ${w.money(input.amount, input.currency)} for your subscription to "${input.planName}": your card was declined. We will try again on ${w.date(input.nextRetryAt)}.`,
      },
      {
        paragraph: input.needsConfirmation
          ? `Open your customer portal and confirm your card with your bank (the link works until ${w.dateTime(input.linkExpiresAt)}); the amount due is then charged at once.`
          : `To keep your subscription, update your card (the link works until ${w.dateTime(input.linkExpiresAt)}); the amount due is then charged to the new card at once.`,
      },
      {
        link: {
          label: input.needsConfirmation ? 'Confirm your card' : 'Replace your card',
          url: input.portalUrl,
        },
      },
      {
        details: [
          ['Plan', input.planName],
          ['Amount due', w.money(input.amount, input.currency)],
          ['Next attempt', w.date(input.nextRetryAt)],
        ],
      },
    ],
    footer: customerFooter.en(input.merchant.name),
  }),
  es: (input, w) => ({
    subject: input.needsConfirmation
      ? `${input.merchant.name}: confirma tu pago de "${input.planName}"`
      : `${input.merchant.name}: falló tu pago de "${input.planName}"`,
    heading: input.needsConfirmation ? 'Tu banco te pide confirmar tu pago' : 'Tu pago falló',
    blocks: [
      { paragraph: greeting.es(input.customerName) },
      {
        paragraph: input.needsConfirmation
          ? `No pudimos cobrar ${w.money(input.amount, input.currency)} por tu suscripción a "${input.planName}": tu banco te pide confirmar el pago tú mismo. Lo intentaremos de nuevo el ${w.date(input.nextRetryAt)}.`
          : `No pudimos cobrar ${w.money(input.amount, input.currency)} por tu suscripción a "${input.planName}": tu tarjeta fue rechazada. Lo intentaremos de nuevo el ${w.date(input.nextRetryAt)}.`,
      },
      {
        paragraph: input.needsConfirmation
          ? `Abre tu portal de cliente y confirma tu tarjeta con tu banco (el enlace funciona hasta el ${w.dateTime(input.linkExpiresAt)}); el importe pendiente se cobra entonces de inmediato.`
          : `Para conservar tu suscripción, actualiza tu tarjeta (el enlace funciona hasta el ${w.dateTime(input.linkExpiresAt)}); el importe pendiente se cobra entonces a la nueva tarjeta de inmediato.`,
      },
      {
        link: {
          label: input.needsConfirmation ? 'Confirmar tu tarjeta' : 'Cambiar tu tarjeta',
          url: input.portalUrl,
        },
      },
      {
        details: [
          ['Plan', input.planName],
          ['Importe pendiente', w.money(input.amount, input.currency)],
          ['Próximo intento', w.date(input.nextRetryAt)],
        ],
      },
    ],
    footer: customerFooter.es(input.merchant.name),
  }),
});
