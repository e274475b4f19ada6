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
  subscription_canceled_unchangeable: {
    en: { title: 'Subscription canceled', content: 'A canceled subscription cannot be changed.' },
    es: { title: 'Suscripción cancelada', content: 'Una suscripción cancelada no se puede cambiar.' },
  },
  subscription_past_due_unchangeable: {
    en: {
      title: 'Subscription past due',
      content:
        'A past-due subscription can only have its metadata changed until its overdue period is paid (the customer can replace the card from the portal).',
    },
    es: {
      title: 'Suscripción vencida',
      content:
        'De una suscripción vencida solo se pueden cambiar los metadatos hasta que se pague el periodo vencido (el cliente puede cambiar la tarjeta desde el portal).',
    },
  },
  subscription_not_started: {
    en: {
      title: 'Subscription not started',
      content: 'The subscription starts when its checkout is paid; until then only its metadata can change.',
    },
    es: {
      title: 'Suscripción no iniciada',
      content:
        'La suscripción empieza cuando se paga su checkout; hasta entonces solo pueden cambiar sus metadatos.',
    },
  },
  subscription_plan_currency: {
    en: {
      title: 'Invalid plan',
      content: 'plan_id names a plan of another currency; the subscription is billed in {currency}.',
    },
    es: {
      title: 'Plan inválido',
      content: 'plan_id corresponde a un plan de otra moneda; la suscripción se cobra en {currency}.',
    },
  },
  subscription_change_running: {
    en: {
      title: 'Change in progress',
      content:
        'This change is being charged right now; send the request again in a minute to get its outcome.',
    },
    es: {
      title: 'Cambio en curso',
      content:
        'Este cambio se está cobrando ahora; envíe la solicitud de nuevo en un minuto para conocer su resultado.',
    },
  },
  subscription_change_unconfirmed: {
    en: {
      title: 'Change not confirmed',
      content:
        'The payment processor did not answer in time, so the prorated charge could not be confirmed. It is being confirmed now: send the same request again to get its outcome; the change applies only if the charge went through.',
    },
    es: {
      title: 'Cambio no confirmado',
      content:
        'El procesador de pagos no respondió a tiempo, así que no se pudo confirmar el cargo prorrateado. Se está confirmando ahora: envíe la misma solicitud de nuevo para conocer su resultado; el cambio solo se aplica si el cargo se realizó.',
    },
  },
  subscription_changed_meanwhile: {
    en: {
      title: 'Subscription changed meanwhile',
      content:
        'The subscription was renewed, canceled or changed while the prorated difference was charged; that charge was refunded in full and nothing else changed. Read the subscription and ask again.',
    },
    es: {
      title: 'La suscripción cambió mientras tanto',
      content:
        'La suscripción se renovó, se canceló o cambió mientras se cobraba la diferencia prorrateada; ese cargo se reembolsó por completo y nada más cambió. Lea la suscripción y vuelva a pedirlo.',
    },
  },
  subscription_card_not_connected: {
    en: {
      title: 'Card not chargeable',
      content:
        "The subscription's card was saved with an acquirer this mode is no longer connected to; the customer can replace it from the portal.",
    },
    es: {
      title: 'Tarjeta no cobrable',
      content:
        'La tarjeta de la suscripción se guardó con un adquirente al que este modo ya no está conectado; el cliente puede cambiarla desde el portal.',
    },
  },
  subscription_updated: {
    en: { title: 'Subscription updated', content: 'The subscription was updated.' },
    es: { title: 'Suscripción actualizada', content: 'La suscripción fue actualizada.' },
  },
});
