/**
 * The e-mails cobro sends, in English and Spanish (the account's language), as a typed catalogue:
 * each template takes the language, the merchant (name and logo) and its own fields, and writes the
 * subject, the heading, blocks of text and the footer; the layout (shared/mail/layout.ts) renders
 * them as a plain-text part and an HTML part, escaping every value. Money, dates and cards are
 * written by the words every e-mail shares (shared/mail/words.ts).
 */
import type { Mode } from '../core/account.ts';
import { displayPeriod } from '../core/display.ts';
import type { Lang } from '../core/messages.ts';
import { defineMail as defineTemplate } from './layout.ts';
import { accountFooter, customerFooter, greeting, itemLines, type MailItem } from './words.ts';

export {
  type MailContext,
  type MailMerchant,
  mailLanguage,
  type RenderedMail,
  safeLogoUrl,
} from './layout.ts';
export type { MailItem } from './words.ts';

/** To the merchant: one of its API keys was replaced (`api_key.rotated`). */
export const apiKeyRotated = defineTemplate<{
  /** The account owner's name, for the greeting. */
  ownerName: string;
  developerId: number;
  keyType: Mode;
  /** The new key's last characters (never the key). */
  keyEnding: string;
  rotatedAt: string;
}>({
  en: (input, w) => ({
    subject: `Your cobro ${input.keyType} API key was rotated`,
    heading: `Your ${input.keyType} API key was rotated`,
    blocks: [
      { paragraph: greeting.en(input.ownerName) },
      {
        paragraph: [
          `The ${input.keyType} API key of your cobro account ${input.developerId} was replaced at ${w.dateTime(input.rotatedAt)}.`,
          `The new key ends in ${input.keyEnding}. The previous key stops working within 60 seconds.`,
        ].join('\n'),
      },
      {
        paragraph: 'If you did not do this, rotate both keys now and review who has access to your account.',
      },
    ],
    footer: accountFooter.en,
  }),
  es: (input, w) => ({
    subject: `Se rotó la clave API ${w.mode(input.keyType)} de tu cuenta de cobro`,
    heading: `Se rotó tu clave API ${w.mode(input.keyType)}`,
    blocks: [
      { paragraph: greeting.es(input.ownerName) },
      {
        paragraph: [
          `La clave API ${w.mode(input.keyType)} de tu cuenta de cobro ${input.developerId} se reemplazó el ${w.dateTime(input.rotatedAt)}.`,
          `La nueva clave termina en ${input.keyEnding}. La clave anterior deja de funcionar en 60 segundos como máximo.`,
        ].join('\n'),
      },
      {
        paragraph: 'Si no fuiste tú, rota ahora ambas claves y revisa quién tiene acceso a tu cuenta.',
      },
    ],
    footer: accountFooter.es,
  }),
});

/** A plan as the plan e-mails show it; money is the API's decimal string. */
export interface MailPlan {
  id: string;
  name: string;
  amount: string;
  currency: string;
  interval: string;
  intervalCount: number;
}

/** To the merchant: it deleted a plan, and how many active subscriptions that canceled (`plan.deleted`). */
export const planDeletedMerchant = defineTemplate<{
  ownerName: string;
  mode: Mode;
  plan: MailPlan;
  activeSubscriptions: number;
  deletedAt: string;
}>({
  en: ({ plan, ...input }, w) => ({
    subject: `Your cobro plan "${plan.name}" was deleted`,
    heading: `Plan "${plan.name}" deleted`,
    blocks: [
      { paragraph: greeting.en(input.ownerName) },
      {
        paragraph: [
          `The ${w.mode(input.mode)} plan "${plan.name}" (${plan.id}), ${w.money(plan.amount, plan.currency)} ${w.every(plan.interval, plan.intervalCount)}, was deleted at ${w.dateTime(input.deletedAt)}.`,
          input.activeSubscriptions === 0
            ? 'It had no active subscriptions.'
            : input.activeSubscriptions === 1
              ? 'Its 1 active subscription is canceled and its customer is told by e-mail.'
              : `Its ${input.activeSubscriptions} active subscriptions are canceled and their customers are told by e-mail.`,
        ].join('\n'),
      },
      {
        paragraph:
          'A deleted plan cannot be restored. To stop new sign-ups but keep a plan, archive it instead (PUT with "active": false).',
      },
    ],
    footer: accountFooter.en,
  }),
  es: ({ plan, ...input }, w) => ({
    subject: `Se eliminó tu plan "${plan.name}" de cobro`,
    heading: `Plan "${plan.name}" eliminado`,
    blocks: [
      { paragraph: greeting.es(input.ownerName) },
      {
        paragraph: [
          `El plan ${w.mode(input.mode)} "${plan.name}" (${plan.id}), ${w.money(plan.amount, plan.currency)} ${w.every(plan.interval, plan.intervalCount)}, se eliminó el ${w.dateTime(input.deletedAt)}.`,
          input.activeSubscriptions === 0
            ? 'No tenía suscripciones activas.'
            : input.activeSubscriptions === 1
              ? 'Su única suscripción activa queda cancelada y se avisa a su cliente por correo.'
              : `Sus ${input.activeSubscriptions} suscripciones activas quedan canceladas y se avisa a sus clientes por correo.`,
        ].join('\n'),
      },
      {
        paragraph:
          'Un plan eliminado no se puede restaurar. Para dejar de aceptar suscripciones nuevas y conservar el plan, archívalo (PUT con "active": false).',
      },
    ],
    footer: accountFooter.es,
  }),
});

/** To a customer with an active subscription to a deleted plan: it is canceled, nothing more is charged. */
export const planDeletedCustomer = defineTemplate<{
  customerName?: string | null;
  planName: string;
  canceledAt: string;
}>({
  en: (input, w) => ({
    subject: `${input.merchant.name}: the plan "${input.planName}" was discontinued`,
    heading: 'Your subscription was canceled',
    blocks: [
      { paragraph: greeting.en(input.customerName) },
      {
        paragraph: `${input.merchant.name} no longer offers the plan "${input.planName}", so your subscription to it was canceled on ${w.date(input.canceledAt)}.`,
      },
      {
        paragraph: `You will not be charged for it again. If you have questions, contact ${input.merchant.name}.`,
      },
    ],
    footer: customerFooter.en(input.merchant.name),
  }),
  es: (input, w) => ({
    subject: `${input.merchant.name}: el plan "${input.planName}" ya no está disponible`,
    heading: 'Tu suscripción se canceló',
    blocks: [
      { paragraph: greeting.es(input.customerName) },
      {
        paragraph: `${input.merchant.name} dejó de ofrecer el plan "${input.planName}", por lo que tu suscripción se canceló el ${w.date(input.canceledAt)}.`,
      },
      {
        paragraph: `No se te volverá a cobrar por ella. Si tienes preguntas, contacta a ${input.merchant.name}.`,
      },
    ],
    footer: customerFooter.es(input.merchant.name),
  }),
});

/**
 * To the customer: the receipt of an activated subscription (`subscription.activated`): what was
 * subscribed to and how many, the price per interval, and a link to the customer portal (made when
 * the e-mail is sent, open until `linkExpiresAt`) to cancel it, change it or replace the card.
 */
export const subscriptionActivated = defineTemplate<{
  customerName?: string | null;
  /** The subscription's id, listed for reference. @default not shown */
  subscriptionId?: string | null;
  item: MailItem;
  /** When the next charge is due. @default not shown */
  nextBillingAt?: string | null;
  /** When the trial ends, for a trialing subscription. @default no trial */
  trialEndsAt?: string | null;
  /** The customer portal's address, and when it stops opening. */
  portalUrl: string;
  linkExpiresAt: string;
}>({
  en: (input, w) => {
    const { name, price } = itemLines(input.item, 'en');
    return {
      subject: input.trialEndsAt
        ? `${input.merchant.name}: your free trial of "${input.item.name}" has started`
        : `${input.merchant.name}: your subscription to "${input.item.name}" is active`,
      heading: input.trialEndsAt ? 'Your free trial has started' : 'Your subscription is active',
      blocks: [
        { paragraph: greeting.en(input.customerName) },
        {
          paragraph: input.trialEndsAt
            ? `Your free trial of "${name}" has started: nothing is charged until it ends on ${w.date(input.trialEndsAt)}, then ${price}.`
            : `Your subscription to "${name}" is active. Thank you!`,
        },
        {
          details: [
            ['Plan', name],
            ['Price', price],
            ...(input.trialEndsAt ? [['Trial ends', w.date(input.trialEndsAt)] as const] : []),
            ...(input.nextBillingAt ? [['Next billing date', w.date(input.nextBillingAt)] as const] : []),
            ...(input.subscriptionId ? [['Subscription', input.subscriptionId] as const] : []),
          ],
        },
        {
          paragraph: `To cancel your subscription or to replace your card, open your customer portal. This link works until ${w.dateTime(input.linkExpiresAt)}; ask ${input.merchant.name} for a new one after.`,
        },
        { link: { label: 'Manage your subscription', url: input.portalUrl } },
      ],
      footer: customerFooter.en(input.merchant.name),
    };
  },
  es: (input, w) => {
    const { name, price } = itemLines(input.item, 'es');
    return {
      subject: input.trialEndsAt
        ? `${input.merchant.name}: tu prueba gratuita de "${input.item.name}" ha comenzado`
        : `${input.merchant.name}: tu suscripción a "${input.item.name}" está activa`,
      heading: input.trialEndsAt ? 'Tu prueba gratuita ha comenzado' : 'Tu suscripción está activa',
      blocks: [
        { paragraph: greeting.es(input.customerName) },
        {
          paragraph: input.trialEndsAt
            ? `Tu prueba gratuita de "${name}" ha comenzado: no se cobra nada hasta que termine, el ${w.date(input.trialEndsAt)}; después, ${price}.`
            : `Tu suscripción a "${name}" está activa. ¡Gracias!`,
        },
        {
          details: [
            ['Plan', name],
            ['Precio', price],
            ...(input.trialEndsAt ? [['Fin del periodo de prueba', w.date(input.trialEndsAt)] as const] : []),
            ...(input.nextBillingAt ? [['Próximo cobro', w.date(input.nextBillingAt)] as const] : []),
            ...(input.subscriptionId ? [['Suscripción', input.subscriptionId] as const] : []),
          ],
        },
        {
          paragraph: `Para cancelar tu suscripción o reemplazar tu tarjeta, abre tu portal de cliente. Este enlace funciona hasta el ${w.dateTime(input.linkExpiresAt)}; después, pide uno nuevo a ${input.merchant.name}.`,
        },
        { link: { label: 'Gestionar tu suscripción', url: input.portalUrl } },
      ],
      footer: customerFooter.es(input.merchant.name),
    };
  },
});

/**
 * Why a subscription ended, as the cancellation notice tells its subscriber: its merchant canceled
 * it (through the API), the subscriber asked for it (from the customer portal), its payments kept failing until the retries ran out, or its plan was
 * deleted. Unknown (an event from before reasons were carried): the notice says only that it ended.
 */
export type CancellationReason = 'requested' | 'customer_requested' | 'payment_failed' | 'plan_deleted';

const cancellationWhy: Record<
  Lang,
  Record<CancellationReason, (merchant: string, plan: string, on: string) => { why: string; label: string }>
> = {
  en: {
    requested: (merchant, plan, on) => ({
      why: `${merchant} canceled your subscription to "${plan}" on ${on}.`,
      label: `Canceled by ${merchant}`,
    }),
    customer_requested: (_, plan, on) => ({
      why: `As you asked, your subscription to "${plan}" was canceled on ${on}.`,
      label: 'Canceled at your request',
    }),
    payment_failed: (_, plan, on) => ({
      why: `Your subscription to "${plan}" was canceled on ${on} because its payment failed: your card was declined on every retry.`,
      label: 'Payment failed',
    }),
    plan_deleted: (merchant, plan, on) => ({
      why: `${merchant} no longer offers the plan "${plan}", so your subscription to it was canceled on ${on}.`,
      label: 'Plan discontinued',
    }),
  },
  es: {
    requested: (merchant, plan, on) => ({
      why: `${merchant} canceló tu suscripción a "${plan}" el ${on}.`,
      label: `Cancelada por ${merchant}`,
    }),
    customer_requested: (_, plan, on) => ({
      why: `Como pediste, tu suscripción a "${plan}" se canceló el ${on}.`,
      label: 'Cancelada a tu pedido',
    }),
    payment_failed: (_, plan, on) => ({
      why: `Tu suscripción a "${plan}" se canceló el ${on} porque su pago falló: tu tarjeta se rechazó en cada reintento.`,
      label: 'Pago fallido',
    }),
    plan_deleted: (merchant, plan, on) => ({
      why: `${merchant} dejó de ofrecer el plan "${plan}", por lo que tu suscripción se canceló el ${on}.`,
      label: 'Plan descontinuado',
    }),
  },
};

/** To the customer: the notice of a canceled subscription, saying why (`subscription.canceled`). */
export const subscriptionCanceled = defineTemplate<{
  customerName?: string | null;
  subscriptionId?: string | null;
  planName: string;
  canceledAt: string;
  /** Why it ended. @default not said */
  reason?: CancellationReason | null;
}>({
  en: (input, w) => {
    const on = w.date(input.canceledAt);
    const because = input.reason
      ? cancellationWhy.en[input.reason](input.merchant.name, input.planName, on)
      : null;
    return {
      subject: `${input.merchant.name}: your subscription to "${input.planName}" was canceled`,
      heading: 'Your subscription was canceled',
      blocks: [
        { paragraph: greeting.en(input.customerName) },
        {
          paragraph: `${because?.why ?? `Your subscription to "${input.planName}" was canceled on ${on}.`} You will not be charged for it again.`,
        },
        {
          details: [
            ...(because ? [['Reason', because.label] as const] : []),
            ...(input.subscriptionId ? [['Subscription', input.subscriptionId] as const] : []),
          ],
        },
        {
          paragraph:
            input.reason === 'payment_failed'
              ? `To subscribe again with another card, contact ${input.merchant.name}.`
              : `If you did not expect this, contact ${input.merchant.name}.`,
        },
      ],
      footer: customerFooter.en(input.merchant.name),
    };
  },
  es: (input, w) => {
    const on = w.date(input.canceledAt);
    const because = input.reason
      ? cancellationWhy.es[input.reason](input.merchant.name, input.planName, on)
      : null;
    return {
      subject: `${input.merchant.name}: se canceló tu suscripción a "${input.planName}"`,
      heading: 'Tu suscripción se canceló',
      blocks: [
        { paragraph: greeting.es(input.customerName) },
        {
          paragraph: `${because?.why ?? `Tu suscripción a "${input.planName}" se canceló el ${on}.`} No se te volverá a cobrar por ella.`,
        },
        {
          details: [
            ...(because ? [['Motivo', because.label] as const] : []),
            ...(input.subscriptionId ? [['Suscripción', input.subscriptionId] as const] : []),
          ],
        },
        {
          paragraph:
            input.reason === 'payment_failed'
              ? `Para suscribirte de nuevo con otra tarjeta, contacta a ${input.merchant.name}.`
              : `Si no esperabas este cambio, contacta a ${input.merchant.name}.`,
        },
      ],
      footer: customerFooter.es(input.merchant.name),
    };
  },
});

/**
 * To the customer: a renewal of their subscription was declined (`subscription.payment_failed` with a
 * retry ahead), with a link to the customer portal, valid for `linkExpiresAt`, to replace the card.
 */
export const renewalFailed = defineTemplate<{
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

/** To the payer: a refund of one of their charges (`refund.created`). */
export const refundIssued = defineTemplate<{
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

// ---- Receipts: one per approved charge, to whoever paid it -------------------------------------

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
export const receipt = defineTemplate<{ customerName?: string | null; receipt: MailReceipt }>({
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
});

// ---- End of receipts -----------------------------------------------------------------------------

/** Every template by name. */
export const mailTemplates = {
  apiKeyRotated,
  planDeletedMerchant,
  planDeletedCustomer,
  subscriptionActivated,
  subscriptionCanceled,
  renewalFailed,
  refundIssued,
  receipt,
} as const;

export type MailTemplateName = keyof typeof mailTemplates;
export type MailTemplateInput<N extends MailTemplateName> = Parameters<(typeof mailTemplates)[N]>[0];
