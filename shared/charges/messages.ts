/** The messages of charges: a charge the acquirer did not confirm, and the rule of a posted card. */
import { defineMessages } from '../core/messages.ts';
import { defineRules } from '../core/rule.ts';

export const chargeMessages = /* @__PURE__ */ defineMessages({
  acquirer_unconfirmed_charge: {
    en: {
      title: 'Charge not confirmed',
      content:
        'The payment processor did not answer in time, so the charge could not be confirmed. It is being confirmed now: send the same request with the same Idempotency-Key to get its outcome; a new key could charge the card twice.',
    },
    es: {
      title: 'Cargo sin confirmar',
      content:
        'El procesador de pagos no respondió a tiempo, así que no se pudo confirmar el cargo. Se está confirmando: envíe la misma solicitud con la misma Idempotency-Key para conocer el resultado; una clave nueva podría cobrar dos veces a la tarjeta.',
    },
  },
});

export const chargeRules = /* @__PURE__ */ defineRules({
  card: { en: '{field} is not valid for a card.', es: '{field} no es válido para una tarjeta.' },
});
