/**
 * Every text the hosted checkout's pages show, in each language they speak: English, the
 * contract's (its labels and buttons are fixed texts that clients and browser tests find by name),
 * and Spanish, for payers whose browser asks for it. The pages (./pages.ts) and the choice of page
 * (./views.ts) say where each goes.
 */

import type { DeclineReason } from '../acquirer/acquirer.ts';
import type { CardProblem } from '../acquirer/cards.ts';
import { displayDate, displayEvery } from '../core/display.ts';
import type { Lang } from '../core/messages.ts';
import type { TypedField } from './schemas.ts';

/** How a page writes what it charges and when, in one language. */
export interface PageWords {
  testNote: string;
  amountLabel: string;
  todayLabel: string;
  /** `19.90 USD / month`, `19.90 USD every 3 months`. */
  per(amount: string, interval: string, count: number): string;
  today(amount: string): string;
  afterTrial(price: string, date: string): string;
  trial(days: number): string;
  date(iso: string): string;
  email: string;
  cardholderName: string;
  cardNumber: string;
  expMonth: string;
  expYear: string;
  securityCode: string;
  pay: string;
  startTrial: string;
  yearPlaceholder: string;
  payTitle(merchant: string): string;
  confirmTitle: string;
  confirmCardTitle: string;
  bankAsks: string;
  bankAsksCard: string;
  simulatedCheck: string;
  completeAuthentication: string;
  failAuthentication: string;
  notFoundTitle: string;
  notFound: string;
  trialTitle(merchant: string): string;
  cardNote(merchant: string): string;
  cardTitle(merchant: string): string;
  saveCard: string;
  cardCheck: string;
  simulatedLiveNote: string;
  payOnAcquirer(merchant: string): string;
  stillOnAcquirer: string;
  continueOnAcquirer: string;
  checkAgain: string;
  notConnectedTitle: string;
  notConnected: string;
}

/**
 * The pay form's words. English is the contract's: its labels and the "Pay" button are fixed texts
 * that clients and browser tests find by name; Spanish is for payers whose browser asks for it.
 */
export const pageWords: Record<Lang, PageWords> = {
  en: {
    testNote: 'Test mode: no real money moves. Use a test card such as 4242 4242 4242 4242.',
    amountLabel: 'Amount to pay',
    todayLabel: 'Amount to pay today',
    per: (amount, interval, count) => `${amount} ${displayEvery(interval, count, 'en')}`,
    today: (amount) => `${amount} today`,
    afterTrial: (price, date) => `then ${price} from ${date}`,
    trial: (days) => (days === 1 ? '1-day free trial' : `${days}-day free trial`),
    date: (iso) => displayDate(iso, 'en'),
    email: 'Email',
    cardholderName: 'Cardholder name',
    cardNumber: 'Card number',
    expMonth: 'Expiration month',
    expYear: 'Expiration year',
    securityCode: 'Security code',
    pay: 'Pay',
    startTrial: 'Start trial',
    yearPlaceholder: 'YYYY',
    payTitle: (merchant) => `Pay ${merchant}`,
    confirmTitle: 'Confirm your payment',
    confirmCardTitle: 'Confirm your card',
    bankAsks: 'Your bank asks you to confirm this payment',
    bankAsksCard: 'Your bank asks you to confirm this card (nothing is charged now)',
    simulatedCheck: "This is the simulated 3-D Secure check of cobro's test acquirer.",
    completeAuthentication: 'Complete authentication',
    failAuthentication: 'Fail authentication',
    notFoundTitle: 'Checkout not found',
    notFound: 'This payment link does not exist. Ask the merchant for a new one.',
    trialTitle: (merchant) => `Start your trial with ${merchant}`,
    cardNote: (merchant) =>
      `Your card details go straight to the payment processor and are never stored by ${merchant}.`,
    cardTitle: (merchant) => `Update your card for ${merchant}`,
    saveCard: 'Save card',
    cardCheck:
      'Your new card is checked now and charged for your subscription from now on. If a payment is overdue, it is charged to this card at once.',
    simulatedLiveNote:
      'Simulated acquirer: no real money moves. Use a test card such as 4242 4242 4242 4242.',
    payOnAcquirer: (merchant) =>
      `You enter your card on Stripe's secure page next, then come back here. Your card details never reach ${merchant}.`,
    stillOnAcquirer:
      'Your payment is waiting on Stripe’s secure page. Continue there, or check again if you paid.',
    continueOnAcquirer: 'Continue to payment',
    checkAgain: 'I have paid: check again',
    notConnectedTitle: 'Payments unavailable',
    notConnected:
      'This merchant cannot take live payments yet: its account is not connected to a card processor. Nothing was charged. Contact the merchant.',
  },
  es: {
    testNote: 'Modo de prueba: no se mueve dinero real. Usa una tarjeta de prueba como 4242 4242 4242 4242.',
    amountLabel: 'Importe a pagar',
    todayLabel: 'Importe a pagar hoy',
    per: (amount, interval, count) => `${amount} ${displayEvery(interval, count, 'es')}`,
    today: (amount) => `${amount} hoy`,
    afterTrial: (price, date) => `luego ${price} a partir del ${date}`,
    trial: (days) => (days === 1 ? 'Prueba gratuita de 1 día' : `Prueba gratuita de ${days} días`),
    date: (iso) => displayDate(iso, 'es'),
    email: 'Correo electrónico',
    cardholderName: 'Nombre del titular',
    cardNumber: 'Número de tarjeta',
    expMonth: 'Mes de vencimiento',
    expYear: 'Año de vencimiento',
    securityCode: 'Código de seguridad',
    pay: 'Pagar',
    startTrial: 'Iniciar prueba',
    yearPlaceholder: 'AAAA',
    payTitle: (merchant) => `Pagar a ${merchant}`,
    confirmTitle: 'Confirma tu pago',
    confirmCardTitle: 'Confirma tu tarjeta',
    bankAsks: 'Tu banco te pide confirmar este pago',
    bankAsksCard: 'Tu banco te pide confirmar esta tarjeta (ahora no se cobra nada)',
    simulatedCheck: 'Esta es la verificación 3-D Secure simulada del adquirente de prueba de cobro.',
    completeAuthentication: 'Completar la autenticación',
    failAuthentication: 'Hacer fallar la autenticación',
    notFoundTitle: 'Pago no encontrado',
    notFound: 'Este enlace de pago no existe. Pide uno nuevo al comercio.',
    trialTitle: (merchant) => `Empieza tu prueba con ${merchant}`,
    cardNote: (merchant) =>
      `Los datos de tu tarjeta van directamente al procesador de pagos y ${merchant} nunca los guarda.`,
    cardTitle: (merchant) => `Actualiza tu tarjeta para ${merchant}`,
    saveCard: 'Guardar tarjeta',
    cardCheck:
      'Tu nueva tarjeta se verifica ahora y desde ahora se le cobra tu suscripción. Si hay un pago vencido, se cobra a esta tarjeta de inmediato.',
    simulatedLiveNote:
      'Adquirente simulado: no se mueve dinero real. Usa una tarjeta de prueba como 4242 4242 4242 4242.',
    payOnAcquirer: (merchant) =>
      `A continuación escribes tu tarjeta en la página segura de Stripe y vuelves aquí. Los datos de tu tarjeta nunca llegan a ${merchant}.`,
    stillOnAcquirer:
      'Tu pago espera en la página segura de Stripe. Continúa allí, o vuelve a comprobar si ya pagaste.',
    continueOnAcquirer: 'Continuar al pago',
    checkAgain: 'Ya pagué: comprobar de nuevo',
    notConnectedTitle: 'Pagos no disponibles',
    notConnected:
      'Este comercio todavía no puede cobrar pagos live: su cuenta no está conectada a un procesador de tarjetas. No se cobró nada. Contacta al comercio.',
  },
};

/** The words of a paid payment link's receipt page. */
export const receiptWords: Record<
  Lang,
  {
    title: string;
    received: string;
    approved: string;
    reference: string;
    date: string;
    card: string;
    keep: string;
  }
> = {
  en: {
    title: 'Payment receipt',
    received: 'Payment received',
    approved: 'Thank you: your payment was approved.',
    reference: 'Reference',
    date: 'Date',
    card: 'Card',
    keep: 'Keep this page as your receipt.',
  },
  es: {
    title: 'Recibo de pago',
    received: 'Pago recibido',
    approved: 'Gracias: tu pago fue aprobado.',
    reference: 'Referencia',
    date: 'Fecha',
    card: 'Tarjeta',
    keep: 'Guarda esta página como recibo.',
  },
};

/** What the pay form says when it comes back with a problem, in each language it speaks. */
export interface FormTexts {
  declines: Record<DeclineReason, string>;
  problems: Record<CardProblem['field'], string>;
  cardExpired: string;
  fieldNames: Record<TypedField, string>;
  takesAtMost(field: string, limit: number): string;
  formExpired: string;
  enterEmail: string;
  enterName: string;
  nameOneLine: string;
}

export const formTexts: Record<Lang, FormTexts> = {
  en: {
    declines: {
      generic_decline: 'Your card was declined. Try another card.',
      insufficient_funds: 'Your card has insufficient funds. Try another card.',
      expired_card: 'Your card has expired. Try another card.',
      incorrect_cvc: 'The security code is incorrect. Check it and try again.',
      authentication_required: 'Your bank asks for authentication this page cannot do. Try another card.',
      authentication_failed: 'The authentication with your bank failed. Try again or use another card.',
      processing_error: 'The payment could not be processed and nothing was charged. Please try again.',
    },
    problems: {
      card_number: 'Enter a valid card number.',
      exp_month: 'Enter the expiration month (1 to 12).',
      exp_year: 'Enter the expiration year (2 or 4 digits).',
      cvc: 'Enter the 3 or 4 digit security code.',
    },
    cardExpired: 'The card has expired.',
    fieldNames: {
      cardholder_name: 'The cardholder name',
      email: 'The email address',
      card_number: 'The card number',
      exp_month: 'The expiration month',
      exp_year: 'The expiration year',
      cvc: 'The security code',
    },
    takesAtMost: (field, limit) => `${field} takes at most ${limit} characters.`,
    formExpired: 'This form has expired. Please try again.',
    enterEmail: 'Enter a valid email address.',
    enterName: 'Enter the cardholder name.',
    nameOneLine: 'Enter the cardholder name as plain text on one line.',
  },
  es: {
    declines: {
      generic_decline: 'Tu tarjeta fue rechazada. Prueba con otra tarjeta.',
      insufficient_funds: 'Tu tarjeta no tiene fondos suficientes. Prueba con otra tarjeta.',
      expired_card: 'Tu tarjeta está vencida. Prueba con otra tarjeta.',
      incorrect_cvc: 'El código de seguridad es incorrecto. Revísalo e inténtalo de nuevo.',
      authentication_required:
        'Tu banco pide una autenticación que esta página no puede hacer. Prueba con otra tarjeta.',
      authentication_failed: 'La autenticación con tu banco falló. Inténtalo de nuevo o usa otra tarjeta.',
      processing_error: 'No se pudo procesar el pago y no se cobró nada. Inténtalo de nuevo.',
    },
    problems: {
      card_number: 'Escribe un número de tarjeta válido.',
      exp_month: 'Escribe el mes de vencimiento (1 a 12).',
      exp_year: 'Escribe el año de vencimiento (2 o 4 dígitos).',
      cvc: 'Escribe el código de seguridad de 3 o 4 dígitos.',
    },
    cardExpired: 'La tarjeta está vencida.',
    fieldNames: {
      cardholder_name: 'El nombre del titular',
      email: 'El correo electrónico',
      card_number: 'El número de tarjeta',
      exp_month: 'El mes de vencimiento',
      exp_year: 'El año de vencimiento',
      cvc: 'El código de seguridad',
    },
    takesAtMost: (field, limit) => `${field} admite como máximo ${limit} caracteres.`,
    formExpired: 'Este formulario caducó. Inténtalo de nuevo.',
    enterEmail: 'Escribe un correo electrónico válido.',
    enterName: 'Escribe el nombre del titular.',
    nameOneLine: 'Escribe el nombre del titular como texto simple en una línea.',
  },
};

/** The pay form's problem texts in `lang` (the payer's language, as the form itself). */
/** A closed page's title and sentence. */
export type Said = readonly [title: string, message: string];

/** What the closed pages say, in each language the pay form speaks. */
export interface ClosedTexts {
  alreadyPaid: Said;
  complete: Said;
  cardSaved: Said;
  cardSavedLead: string;
  newCard(card: string): string;
  overduePaid(amount: string): string;
  overdueCharging(amount: string): string;
  overdueDeclined(amount: string, next: string | null): string;
  backToAccount: string;
  locked: Said;
  linkUnavailable: Said;
  expired: Said;
  busy: Said;
  confirming: Said;
  refunded: string;
  nothingCharged: string;
  voidedBecause: Record<string, string>;
  voidedOther: string;
  refundedInFull: string;
  cardNotCharged: string;
  declined: string;
  tooManyDeclines: string;
  noChallenge: Said;
}

export const closedTexts: Record<Lang, ClosedTexts> = {
  en: {
    alreadyPaid: ['Already paid', 'This payment has already been made. Nothing more was charged.'],
    complete: ['Payment complete', 'This payment has been made. Thank you.'],
    cardSaved: [
      'Card updated',
      "Your new card is saved: your subscription's payments are charged to it from now on, and a payment that was overdue is charged to it now.",
    ],
    cardSavedLead: "Your new card is saved: your subscription's payments are charged to it from now on.",
    newCard: (card) => `New card: ${card}.`,
    overduePaid: (amount) => `The ${amount} that was overdue is paid with it.`,
    overdueCharging: (amount) =>
      `The ${amount} that was overdue is being charged to it; your account page shows when it is paid.`,
    overdueDeclined: (amount, next) =>
      `The ${amount} that was overdue could not be charged to it: the bank declined it, and nothing was charged. Your subscription is still overdue${next ? `; it is tried again on ${next}` : ''}. You can also try another card.`,
    backToAccount: 'Back to your account',
    locked: ['Checkout locked', 'Too many attempts were declined. Ask the merchant for a new payment link.'],
    linkUnavailable: [
      'Payment link unavailable',
      'This payment link is not taking payments now. Ask the merchant about it.',
    ],
    expired: ['Checkout expired', 'This payment link has expired. Ask the merchant for a new one.'],
    busy: ['Payment in progress', 'This payment is being processed. Reload this page in a moment.'],
    confirming: [
      'Payment not confirmed yet',
      'Your payment could not be confirmed with the card processor yet. Do not pay again: it is being confirmed now, and this page will show the result in a moment.',
    ],
    refunded: 'Payment refunded',
    nothingCharged: 'Nothing was charged',
    voidedBecause: {
      subscription_canceled: 'The subscription was canceled while your payment was being made.',
      payment_link_deleted: 'The payment link was removed while your payment was being made.',
    },
    voidedOther: 'What this payment was for is no longer available.',
    refundedInFull: 'Your payment was refunded in full; the refund reaches your card in a few days.',
    cardNotCharged: 'Your card was not charged.',
    declined: 'Payment declined',
    tooManyDeclines:
      'Too many attempts were declined: this payment can no longer be paid here. Ask the merchant for a new link.',
    noChallenge: ['No authentication pending', 'Go back to the payment page and pay again.'],
  },
  es: {
    alreadyPaid: ['Ya pagado', 'Este pago ya se hizo. No se cobró nada más.'],
    complete: ['Pago completado', 'Este pago se hizo. Gracias.'],
    cardSaved: [
      'Tarjeta actualizada',
      'Tu nueva tarjeta quedó guardada: desde ahora los pagos de tu suscripción se cobran a ella, y si había un pago vencido, se cobra ahora.',
    ],
    cardSavedLead:
      'Tu nueva tarjeta quedó guardada: desde ahora los pagos de tu suscripción se cobran a ella.',
    newCard: (card) => `Nueva tarjeta: ${card}.`,
    overduePaid: (amount) => `Los ${amount} vencidos quedaron pagados con ella.`,
    overdueCharging: (amount) =>
      `Los ${amount} vencidos se le están cobrando; la página de tu cuenta muestra cuándo quedan pagados.`,
    overdueDeclined: (amount, next) =>
      `Los ${amount} vencidos no se pudieron cobrar a esta tarjeta: el banco los rechazó y no se cobró nada. Tu suscripción sigue con el pago vencido${next ? `; se intenta de nuevo el ${next}` : ''}. También puedes probar con otra tarjeta.`,
    backToAccount: 'Volver a tu cuenta',
    locked: [
      'Pago bloqueado',
      'Se rechazaron demasiados intentos. Pide al comercio un nuevo enlace de pago.',
    ],
    linkUnavailable: [
      'Enlace de pago no disponible',
      'Este enlace de pago no acepta pagos ahora. Pregunta al comercio.',
    ],
    expired: ['Pago caducado', 'Este enlace de pago caducó. Pide uno nuevo al comercio.'],
    busy: ['Pago en curso', 'Este pago se está procesando. Vuelve a cargar esta página en un momento.'],
    confirming: [
      'Pago aún sin confirmar',
      'Tu pago todavía no se pudo confirmar con el procesador de tarjetas. No pagues de nuevo: se está confirmando ahora y esta página mostrará el resultado en un momento.',
    ],
    refunded: 'Pago reembolsado',
    nothingCharged: 'No se cobró nada',
    voidedBecause: {
      subscription_canceled: 'La suscripción se canceló mientras se hacía tu pago.',
      payment_link_deleted: 'El enlace de pago se eliminó mientras se hacía tu pago.',
    },
    voidedOther: 'Lo que pagaba este pago ya no está disponible.',
    refundedInFull: 'Tu pago se reembolsó por completo; el reembolso llega a tu tarjeta en unos días.',
    cardNotCharged: 'No se hizo ningún cargo a tu tarjeta.',
    declined: 'Pago rechazado',
    tooManyDeclines:
      'Se rechazaron demasiados intentos: este pago ya no se puede hacer aquí. Pide al comercio un nuevo enlace.',
    noChallenge: ['No hay autenticación pendiente', 'Vuelve a la página de pago y paga de nuevo.'],
  },
};
