/** The messages of subscriptions. */
import { defineMessages } from '../core/messages.ts';

export const subscriptionMessages = /* @__PURE__ */ defineMessages({
  subscription_created: {
    en: {
      title: 'Subscription created',
      content: 'Send the customer to checkout_url to start the subscription.',
    },
    es: {
      title: 'Suscripción creada',
      content: 'Envíe al cliente a checkout_url para iniciar la suscripción.',
    },
  },
  subscription_canceled: {
    en: {
      title: 'Subscription canceled',
      content: 'The subscription was canceled; it will not be charged again.',
    },
    es: { title: 'Suscripción cancelada', content: 'La suscripción fue cancelada; no se volverá a cobrar.' },
  },
  subscription_not_found: {
    en: { title: 'Subscription not found', content: 'The id matches no subscription.' },
    es: { title: 'Suscripción no encontrada', content: 'El id no corresponde a ninguna suscripción.' },
  },
  subscription_already_canceled: {
    en: { title: 'Subscription already canceled', content: 'The subscription was canceled before.' },
    es: { title: 'Suscripción ya cancelada', content: 'La suscripción ya había sido cancelada.' },
  },
  subscription_plan_absent: {
    en: { title: 'Invalid plan', content: 'plan_id matches no active plan of this account and mode.' },
    es: {
      title: 'Plan inválido',
      content: 'plan_id no corresponde a ningún plan activo de esta cuenta y modo.',
    },
  },
  subscription_customer_absent: {
    en: { title: 'Invalid customer', content: 'customer_id matches no customer of this account and mode.' },
    es: {
      title: 'Cliente inválido',
      content: 'customer_id no corresponde a ningún cliente de esta cuenta y modo.',
    },
  },
});
