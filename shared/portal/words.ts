/**
 * What the customer portal's pages say (page.ts), in English and Spanish: the reader's language is
 * their browser's Accept-Language. Amounts, dates and cards come in already written in that
 * language (shared/core/display.ts); the pages escape every value.
 */
import type { Lang } from '../core/messages.ts';

export interface PortalWords {
  title(merchant: string): string;
  hello(name: string): string;
  subscriptions: string;
  none: string;
  status: Record<string, string>;
  statusLabel: string;
  nextBilling: string;
  /** A subscription set to end: its last day's label (in place of the next billing date), and what that means. */
  endsOn: string;
  endingNote: string;
  /** The button that undoes the end, while it has not come. */
  resume: string;
  /** A past-due subscription: what failed, since when, and when it is tried again. */
  overdue(amount: string, since: string, next: string | null): string;
  /** Over the past-due subscription's Replace card: the new card pays what is due at once. */
  overdueReplace(amount: string): string;
  cancel: string;
  /** The cancel confirmation: its title and question. */
  confirmTitle: string;
  confirmCancel(plan: string): string;
  /** The primary choice: the end of the period paid for (or of the trial), on `date`; its button. */
  endEffect(date: string): string;
  endEffectTrial(date: string): string;
  endAtPeriodEnd: string;
  endAtTrialEnd: string;
  /** The secondary choice, stated as such: it ends at once. */
  nowEffect: string;
  nowEffectTrial: string;
  /** A past-due subscription can only end at once: the amount due is not charged. */
  cancelEffectOverdue(amount: string): string;
  /** One already set to end on `date`: ending it at once instead. */
  nowEffectEnding(date: string): string;
  cancelNow: string;
  /** The card a subscription is charged to, when the portal knows it. */
  cardLabel: string;
  keepIt: string;
  replaceCard: string;
  charges: string;
  noCharges: string;
  refunded(amount: string): string;
  canceledNotice: string;
  endingNotice(date: string): string;
  resumedNotice: string;
  alreadyCanceled: string;
  /** A resume that comes once the subscription has ended (or was canceled). */
  ended: string;
  /** A cancel at the period's end asked for a past-due subscription. */
  notEndable: string;
  formExpired: string;
  noSuch: string;
  noSuchCharge: string;
  receipt: string;
  notReplaceable: string;
  notFound: readonly [string, string];
  expired: readonly [string, string];
  test: string;
  simulatedLive: string;
  /** The language of these words: amounts, dates, cards and prices are written in its way. */
  lang: Lang;
}

export const portalWords: Record<Lang, PortalWords> = {
  en: {
    title: (merchant) => `Your account with ${merchant}`,
    hello: (name) => `Hello ${name}`,
    subscriptions: 'Your subscriptions',
    none: 'You have no subscriptions.',
    status: {
      trialing: 'Trial',
      active: 'Active',
      past_due: 'Payment overdue',
      canceled: 'Canceled',
    },
    statusLabel: 'Status',
    nextBilling: 'Next billing date',
    endsOn: 'Ends on',
    endingNote: 'It will not renew: nothing more is charged.',
    resume: 'Resume',
    overdue: (amount, since, next) =>
      `Payment failed: ${amount} due since ${since}${next ? `; next attempt ${next}` : ''}.`,
    overdueReplace: (amount) =>
      `Replace your card to pay it: the ${amount} due is charged to the new card right away.`,
    cancel: 'Cancel subscription',
    confirmTitle: 'Cancel your subscription?',
    confirmCancel: (plan) => `Cancel ${plan}?`,
    endEffect: (date) =>
      `At the end of the period: it stays active until ${date}, the end of the period already paid for, and then ends. Nothing more is charged.`,
    endEffectTrial: (date) =>
      `At the end of the trial: your trial goes on until ${date} and then the subscription ends. Nothing is charged.`,
    endAtPeriodEnd: 'Cancel at end of period',
    endAtTrialEnd: 'Cancel at end of trial',
    nowEffect: 'Or cancel now: it ends at once, and nothing already paid is refunded.',
    nowEffectTrial: 'Or cancel now: it ends at once, with its trial. Nothing is charged.',
    cancelEffectOverdue: (amount) =>
      `It ends now: the ${amount} due is not charged, and you will not be charged for it again.`,
    nowEffectEnding: (date) =>
      `It already ends on ${date}. If you cancel it now instead, it ends at once and nothing already paid is refunded.`,
    cancelNow: 'Cancel now',
    cardLabel: 'Card',
    keepIt: 'Keep it',
    replaceCard: 'Replace card',
    charges: 'Your payments',
    noCharges: 'No payments yet.',
    refunded: (amount) => `refunded ${amount}`,
    canceledNotice: 'Your subscription was canceled. You will not be charged for it again.',
    endingNotice: (date) => `Your subscription ends on ${date}. You will not be charged for it again.`,
    resumedNotice: 'Your subscription continues as before: it is no longer set to end.',
    alreadyCanceled: 'This subscription is already canceled.',
    ended: 'This subscription has already ended: it can no longer be resumed.',
    notEndable: 'While a payment is overdue, this subscription can only be canceled now.',
    formExpired: 'This form expired. Please try again.',
    noSuch: 'No such subscription.',
    noSuchCharge: 'No such payment.',
    receipt: 'Receipt',
    notReplaceable: 'This subscription is no longer billed: its card cannot be replaced.',
    notFound: ['Page not found', 'This link does not exist. Ask the merchant for a new one.'],
    expired: ['Link expired', 'This link has expired. Ask the merchant for a new one.'],
    test: 'Test mode: no real money moves.',
    simulatedLive: 'Simulated acquirer: no real money moves.',
    lang: 'en',
  },
  es: {
    title: (merchant) => `Tu cuenta con ${merchant}`,
    hello: (name) => `Hola ${name}`,
    subscriptions: 'Tus suscripciones',
    none: 'No tienes suscripciones.',
    status: {
      trialing: 'Prueba',
      active: 'Activa',
      past_due: 'Pago vencido',
      canceled: 'Cancelada',
    },
    statusLabel: 'Estado',
    nextBilling: 'Próximo cobro',
    endsOn: 'Termina el',
    endingNote: 'No se renovará: no se cobra nada más.',
    resume: 'Reanudar',
    overdue: (amount, since, next) =>
      `Pago fallido: ${amount} pendiente desde el ${since}${next ? `; próximo intento el ${next}` : ''}.`,
    overdueReplace: (amount) =>
      `Cambia tu tarjeta para pagarlo: los ${amount} pendientes se cobran a la nueva tarjeta de inmediato.`,
    cancel: 'Cancelar suscripción',
    confirmTitle: '¿Cancelar tu suscripción?',
    confirmCancel: (plan) => `¿Cancelar ${plan}?`,
    endEffect: (date) =>
      `Al final del periodo: sigue activa hasta el ${date}, fin del periodo ya pagado, y entonces termina. No se cobra nada más.`,
    endEffectTrial: (date) =>
      `Al final de la prueba: tu periodo de prueba sigue hasta el ${date} y entonces la suscripción termina. No se cobra nada.`,
    endAtPeriodEnd: 'Cancelar al final del periodo',
    endAtTrialEnd: 'Cancelar al final de la prueba',
    nowEffect: 'O cancélala ahora: termina de inmediato y no se reembolsa nada de lo ya pagado.',
    nowEffectTrial:
      'O cancélala ahora: termina de inmediato, junto con su periodo de prueba. No se cobra nada.',
    cancelEffectOverdue: (amount) =>
      `Termina ahora: no se cobran los ${amount} pendientes y no se te volverá a cobrar por ella.`,
    nowEffectEnding: (date) =>
      `Ya termina el ${date}. Si la cancelas ahora, termina de inmediato y no se reembolsa nada de lo ya pagado.`,
    cancelNow: 'Cancelar ahora',
    cardLabel: 'Tarjeta',
    keepIt: 'Conservarla',
    replaceCard: 'Cambiar tarjeta',
    charges: 'Tus pagos',
    noCharges: 'Aún no hay pagos.',
    refunded: (amount) => `reembolsado ${amount}`,
    canceledNotice: 'Tu suscripción se canceló. No se te volverá a cobrar por ella.',
    endingNotice: (date) => `Tu suscripción termina el ${date}. No se te volverá a cobrar por ella.`,
    resumedNotice: 'Tu suscripción sigue como antes: ya no está previsto que termine.',
    alreadyCanceled: 'Esta suscripción ya está cancelada.',
    ended: 'Esta suscripción ya terminó: ya no se puede reanudar.',
    notEndable: 'Mientras tenga un pago vencido, esta suscripción solo se puede cancelar ahora.',
    formExpired: 'Este formulario caducó. Inténtalo de nuevo.',
    noSuch: 'No existe esa suscripción.',
    noSuchCharge: 'No existe ese pago.',
    receipt: 'Recibo',
    notReplaceable: 'Esta suscripción ya no se cobra: su tarjeta no se puede cambiar.',
    notFound: ['Página no encontrada', 'Este enlace no existe. Pide uno nuevo al comercio.'],
    expired: ['Enlace caducado', 'Este enlace caducó. Pide uno nuevo al comercio.'],
    test: 'Modo de prueba: no se mueve dinero real.',
    simulatedLive: 'Adquirente simulado: no se mueve dinero real.',
    lang: 'es',
  },
};
