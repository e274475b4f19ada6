/**
 * The subscriptions' e-mails to their subscribers (docs/design.md#e-mail), in English and Spanish:
 * the receipt of an activated subscription, with a link to the customer portal; the notice that a
 * subscription ended and why; when it ended because its plan was deleted, the notice that the
 * plan was discontinued; and, when it changes (`subscription.updated`, which of them:
 * mail-of-update.ts), the notice of a new plan or quantity with what it charged, and the notices that
 * it will end at its period's end or no longer will. The failed-renewal notice is the portal's
 * (shared/portal/mail.ts). shared/mail renders and sends them.
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

/**
 * What a change of plan or quantity charged (`subscription.updated` with `charge_id`): the prorated
 * difference for the rest of the current period, or, for a change that waited for the period's end,
 * the renewal that applied it and charged the new period at the new price.
 */
export interface ChangeCharge {
  /** The API's decimal, in `currency`. */
  amount: string;
  currency: string;
  /** The renewal's charge, not a prorated difference. @default false */
  atRenewal?: boolean;
}

/** "It ends on …": at the end of the period paid for, or of the free trial. */
const endingSentence = {
  en: (plan: string, on: string, trialing: boolean) =>
    trialing
      ? `Your subscription to "${plan}" will end on ${on}, when your free trial ends. Nothing will be charged.`
      : `Your subscription to "${plan}" will end on ${on}, at the end of the period already paid for. It will not renew, and nothing more will be charged.`,
  es: (plan: string, on: string, trialing: boolean) =>
    trialing
      ? `Tu suscripción a "${plan}" terminará el ${on}, cuando termine tu prueba gratuita. No se te cobrará nada.`
      : `Tu suscripción a "${plan}" terminará el ${on}, al final del periodo ya pagado. No se renovará y no se te cobrará nada más.`,
};

/**
 * To the customer: their subscription's plan or quantity changed (`subscription.updated`): the plan
 * and quantity now, the price per interval, what was charged for the change (or that nothing was,
 * and the new price applies from the next billing date), and the next billing date, or the end
 * when it is set to end at its period's end.
 */
export const subscriptionChangedMail = /* @__PURE__ */ defineMail<{
  customerName?: string | null;
  subscriptionId?: string | null;
  /** The plan and quantity now. */
  item: MailItem;
  /** What was charged for the change. @default nothing */
  charge?: ChangeCharge | null;
  /** The next billing date. @default not shown */
  nextBillingAt?: string | null;
  /** When it ends, when it is set to end at its period's end: it renews no more. @default it renews */
  endsAt?: string | null;
  /** In its free trial: the trial's end is its first charge (or its end). @default false */
  trialing?: boolean;
  /** The same change undid its end at the period's end. @default false */
  resumed?: boolean;
}>({
  en: (input, w) => {
    const { name, price } = itemLines(input.item, 'en');
    const { charge } = input;
    const amount = charge ? w.money(charge.amount, charge.currency) : '';
    const next = input.nextBillingAt ? w.date(input.nextBillingAt) : null;
    const paid = charge?.atRenewal
      ? `The change took effect with your subscription's renewal, which charged ${amount} for the new period, at the new price.`
      : charge
        ? `Today ${amount} was charged for the rest of the current period: the difference between the new price and the old one for the time left.${next && !input.endsAt ? ` The new price is charged in full from the next billing date, ${next}.` : ''}`
        : `Nothing was charged for this change.${next && !input.endsAt ? ` The new price applies from the next billing date, ${next}.` : ''}`;
    return {
      subject: `${input.merchant.name}: your subscription to "${input.item.name}" has changed`,
      heading: 'Your subscription has changed',
      blocks: [
        { paragraph: greeting.en(input.customerName) },
        { paragraph: `Your subscription is now "${name}": ${price}.` },
        { paragraph: paid },
        ...(input.endsAt
          ? [{ paragraph: endingSentence.en(input.item.name, w.date(input.endsAt), input.trialing === true) }]
          : input.resumed
            ? [{ paragraph: 'It will no longer end as it was set to: it renews as before.' }]
            : []),
        {
          details: [
            ['Plan', name],
            ['Price', price],
            ...(charge ? [[charge.atRenewal ? 'Charged at renewal' : 'Charged today', amount] as const] : []),
            ...(input.endsAt
              ? [['Ends on', w.date(input.endsAt)] as const]
              : next
                ? [['Next billing date', next] as const]
                : []),
            ...(input.subscriptionId ? [['Subscription', input.subscriptionId] as const] : []),
          ],
        },
        { paragraph: `If you did not expect this change, contact ${input.merchant.name}.` },
      ],
      footer: customerFooter.en(input.merchant.name),
    };
  },
  es: (input, w) => {
    const { name, price } = itemLines(input.item, 'es');
    const { charge } = input;
    const amount = charge ? w.money(charge.amount, charge.currency) : '';
    const next = input.nextBillingAt ? w.date(input.nextBillingAt) : null;
    const paid = charge?.atRenewal
      ? `El cambio se aplicó con la renovación de tu suscripción, que cobró ${amount} por el nuevo periodo, ya al precio nuevo.`
      : charge
        ? `Hoy se te cobraron ${amount} por lo que queda del periodo actual: la diferencia entre el precio nuevo y el anterior por el tiempo restante.${next && !input.endsAt ? ` El precio nuevo se cobra completo desde la próxima fecha de cobro, el ${next}.` : ''}`
        : `No se te cobró nada por este cambio.${next && !input.endsAt ? ` El precio nuevo se aplica desde la próxima fecha de cobro, el ${next}.` : ''}`;
    return {
      subject: `${input.merchant.name}: tu suscripción a "${input.item.name}" ha cambiado`,
      heading: 'Tu suscripción ha cambiado',
      blocks: [
        { paragraph: greeting.es(input.customerName) },
        { paragraph: `Tu suscripción ahora es "${name}": ${price}.` },
        { paragraph: paid },
        ...(input.endsAt
          ? [{ paragraph: endingSentence.es(input.item.name, w.date(input.endsAt), input.trialing === true) }]
          : input.resumed
            ? [{ paragraph: 'Ya no terminará como estaba previsto: se renovará como antes.' }]
            : []),
        {
          details: [
            ['Plan', name],
            ['Precio', price],
            ...(charge
              ? [[charge.atRenewal ? 'Cobrado en la renovación' : 'Cobrado hoy', amount] as const]
              : []),
            ...(input.endsAt
              ? [['Termina el', w.date(input.endsAt)] as const]
              : next
                ? [['Próximo cobro', next] as const]
                : []),
            ...(input.subscriptionId ? [['Suscripción', input.subscriptionId] as const] : []),
          ],
        },
        { paragraph: `Si no esperabas este cambio, contacta a ${input.merchant.name}.` },
      ],
      footer: customerFooter.es(input.merchant.name),
    };
  },
});

/**
 * To the customer: their subscription is set to end at its period's end (`subscription.updated`,
 * `cancel_at_period_end` set): it ends on `endsAt`, at the end of the period paid for (or of the
 * free trial), nothing more is charged, and it can be resumed until then.
 */
export const subscriptionEndingMail = /* @__PURE__ */ defineMail<{
  customerName?: string | null;
  subscriptionId?: string | null;
  planName: string;
  /** When it ends: the current period's end (`cancel_at`). */
  endsAt: string;
  /** In its free trial: it ends with the trial, never charged. @default false */
  trialing?: boolean;
}>({
  en: (input, w) => {
    const on = w.date(input.endsAt);
    return {
      subject: `${input.merchant.name}: your subscription to "${input.planName}" ends on ${on}`,
      heading: 'Your subscription will end',
      blocks: [
        { paragraph: greeting.en(input.customerName) },
        { paragraph: endingSentence.en(input.planName, on, input.trialing === true) },
        {
          paragraph: `Until then it stays active, and it can be resumed: to keep it, contact ${input.merchant.name} before ${on}.`,
        },
        {
          details: [
            ['Plan', input.planName],
            ['Ends on', on],
            ...(input.subscriptionId ? [['Subscription', input.subscriptionId] as const] : []),
          ],
        },
      ],
      footer: customerFooter.en(input.merchant.name),
    };
  },
  es: (input, w) => {
    const on = w.date(input.endsAt);
    return {
      subject: `${input.merchant.name}: tu suscripción a "${input.planName}" termina el ${on}`,
      heading: 'Tu suscripción va a terminar',
      blocks: [
        { paragraph: greeting.es(input.customerName) },
        { paragraph: endingSentence.es(input.planName, on, input.trialing === true) },
        {
          paragraph: `Hasta entonces sigue activa y se puede reanudar: si quieres conservarla, contacta a ${input.merchant.name} antes del ${on}.`,
        },
        {
          details: [
            ['Plan', input.planName],
            ['Termina el', on],
            ...(input.subscriptionId ? [['Suscripción', input.subscriptionId] as const] : []),
          ],
        },
      ],
      footer: customerFooter.es(input.merchant.name),
    };
  },
});

/**
 * To the customer: the end at its period's end was undone (`subscription.updated`,
 * `cancel_at_period_end` cleared): it no longer ends on the date said, and renews as before, next on
 * `nextBillingAt`.
 */
export const subscriptionResumedMail = /* @__PURE__ */ defineMail<{
  customerName?: string | null;
  subscriptionId?: string | null;
  planName: string;
  /** The end it was set to (the former `cancel_at`). @default not said */
  formerEnd?: string | null;
  /** Its next charge. @default not said */
  nextBillingAt?: string | null;
  /** In its free trial: the next charge is its first, at the trial's end. @default false */
  trialing?: boolean;
}>({
  en: (input, w) => {
    const no = input.formerEnd
      ? `Your subscription to "${input.planName}" will no longer end on ${w.date(input.formerEnd)}`
      : `Your subscription to "${input.planName}" will no longer end`;
    const next = input.nextBillingAt ? w.date(input.nextBillingAt) : null;
    const goesOn = !next
      ? 'it renews as before'
      : input.trialing
        ? `it goes on as before, with its first charge on ${next}, when your free trial ends`
        : `it renews as before, next on ${next}`;
    return {
      subject: `${input.merchant.name}: your subscription to "${input.planName}" will continue`,
      heading: 'Your subscription will continue',
      blocks: [
        { paragraph: greeting.en(input.customerName) },
        { paragraph: `${no}: ${goesOn}.` },
        {
          details: [
            ['Plan', input.planName],
            ...(next ? [['Next billing date', next] as const] : []),
            ...(input.subscriptionId ? [['Subscription', input.subscriptionId] as const] : []),
          ],
        },
        { paragraph: `If you did not expect this change, contact ${input.merchant.name}.` },
      ],
      footer: customerFooter.en(input.merchant.name),
    };
  },
  es: (input, w) => {
    const no = input.formerEnd
      ? `Tu suscripción a "${input.planName}" ya no terminará el ${w.date(input.formerEnd)}`
      : `Tu suscripción a "${input.planName}" ya no terminará`;
    const next = input.nextBillingAt ? w.date(input.nextBillingAt) : null;
    const goesOn = !next
      ? 'se renovará como antes'
      : input.trialing
        ? `sigue como antes, con su primer cobro el ${next}, cuando termine tu prueba gratuita`
        : `se renovará como antes; el próximo cobro será el ${next}`;
    return {
      subject: `${input.merchant.name}: tu suscripción a "${input.planName}" seguirá activa`,
      heading: 'Tu suscripción seguirá activa',
      blocks: [
        { paragraph: greeting.es(input.customerName) },
        { paragraph: `${no}: ${goesOn}.` },
        {
          details: [
            ['Plan', input.planName],
            ...(next ? [['Próximo cobro', next] as const] : []),
            ...(input.subscriptionId ? [['Suscripción', input.subscriptionId] as const] : []),
          ],
        },
        { paragraph: `Si no esperabas este cambio, contacta a ${input.merchant.name}.` },
      ],
      footer: customerFooter.es(input.merchant.name),
    };
  },
});
