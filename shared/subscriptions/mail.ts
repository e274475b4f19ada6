/**
 * The subscriptions' e-mails to their subscribers (docs/design.md#e-mail), in English and Spanish:
 * the receipt of an activated subscription, with a link to the customer portal; the notice that a
 * subscription ended and why; and, when it ended because its plan was deleted, the notice that the
 * plan was discontinued. The failed-renewal notice is the portal's (shared/portal/mail.ts). shared/mail
 * renders and sends them.
 */
import type { Lang } from '../core/messages.ts';
import { defineMail } from '../mail/layout.ts';
import { customerFooter, greeting, itemLines, type MailItem } from '../mail/words.ts';
import type { cancelReasons } from './events.ts';

/**
 * To the customer: the receipt of an activated subscription (`subscription.activated`): what was
 * subscribed to and how many, the price per interval, and a link to the customer portal (made when
 * the e-mail is sent, open until `linkExpiresAt`) to cancel it, change it or replace the card.
 */
export const subscriptionActivatedMail = /* @__PURE__ */ defineMail<{
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
 * Why a subscription ended, as the cancellation notice tells its subscriber (the event's reasons):
 * its merchant canceled it (through the API), the subscriber asked for it (from the customer
 * portal), its payments kept failing until the retries ran out, or its plan was deleted. Unknown (an
 * event from before reasons were carried): the notice says only that it ended.
 */
export type CancellationReason = (typeof cancelReasons)[number];

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
    period_ended: (_, plan, on) => ({
      why: `Your subscription to "${plan}" ended on ${on}, at the end of the period already paid for, as was asked; nothing more will be charged.`,
      label: 'Ended at the period’s end',
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
    period_ended: (_, plan, on) => ({
      why: `Tu suscripción a "${plan}" terminó el ${on}, al final del periodo ya pagado, como se pidió; no se cobrará nada más.`,
      label: 'Terminada al final del periodo',
    }),
  },
};

/** To the customer: the notice of a canceled subscription, saying why (`subscription.canceled`). */
export const subscriptionCanceledMail = /* @__PURE__ */ defineMail<{
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

/** To a customer with an active subscription to a deleted plan: it is canceled, nothing more is charged. */
export const planDiscontinuedMail = /* @__PURE__ */ defineMail<{
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
