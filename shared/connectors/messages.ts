/** The messages of the connectors' endpoints. */
import { defineMessages } from '../core/messages.ts';

export const connectorMessages = /* @__PURE__ */ defineMessages({
  stripe_event_refused: {
    en: {
      title: 'Event not verified',
      content:
        "The Stripe-Signature header does not verify with the signing secret of this account's Stripe connection (or the account has none): nothing was done.",
    },
    es: {
      title: 'Evento no verificado',
      content:
        'La cabecera Stripe-Signature no se verifica con el secreto de firma de la conexión de Stripe de esta cuenta (o la cuenta no tiene ninguna): no se hizo nada.',
    },
  },
});
