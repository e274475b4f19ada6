/**
 * The plans' e-mail (docs/design.md#e-mail): the notice to the merchant that it deleted a plan, and
 * how many active subscriptions that canceled, in English and Spanish. Each subscriber's notice is
 * the subscriptions' (shared/subscriptions/mail.ts). shared/mail renders and sends it.
 */
import type { Mode } from '../core/account.ts';
import { defineMail } from '../mail/layout.ts';
import { accountFooter, greeting } from '../mail/words.ts';

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
export const planDeletedMail = /* @__PURE__ */ defineMail<{
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
